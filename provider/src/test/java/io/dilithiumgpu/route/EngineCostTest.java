package io.dilithiumgpu.route;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The signing engines' cost: a mean over recent buckets of signatures, cold buckets dropped. */
class EngineCostTest {
    private static void add(EngineCost c, int n, long nanos) {
        for (int i = 0; i < n; i++) {
            c.add(nanos);
        }
    }

    @Test
    void unknownUntilEnoughSignaturesThenTheirMean() {
        EngineCost c = new EngineCost();
        add(c, EngineCost.MIN_SAMPLES - 1, 100);
        assertEquals(RouteChoice.UNKNOWN, c.nanos());
        c.add(260);
        assertEquals(110, c.nanos());
    }

    @Test
    void theMeanCoversTheLastBucketsAndTheOneFilling() {
        EngineCost c = new EngineCost();
        add(c, EngineCost.BUCKET, 300);
        add(c, EngineCost.BUCKETS * EngineCost.BUCKET, 200);
        assertEquals(200, c.nanos(), "the first bucket fell out of the window");
        add(c, EngineCost.BUCKET / 2, 290);
        assertEquals((200L * EngineCost.BUCKETS * 2 + 290) / (EngineCost.BUCKETS * 2 + 1), c.nanos());
        assertEquals(EngineCost.BUCKETS * EngineCost.BUCKET + EngineCost.BUCKET / 2, c.samples());
    }

    @Test
    void aColdBucketIsDroppedOnceAFastOneFills() {
        EngineCost c = new EngineCost();
        add(c, EngineCost.BUCKET, 2_000);
        add(c, EngineCost.BUCKET - 1, 200);
        assertEquals((2_000L * EngineCost.BUCKET + 200 * (EngineCost.BUCKET - 1)) / (2 * EngineCost.BUCKET - 1), c.nanos());
        c.add(200);
        assertEquals(200, c.nanos());
        assertEquals(EngineCost.BUCKET, c.samples());
    }

    @Test
    void aPauseInOneSignatureCountsButDropsNothing() {
        EngineCost c = new EngineCost();
        add(c, EngineCost.BUCKET, 200);
        add(c, EngineCost.BUCKET - 1, 200);
        c.add(2_000 + 200);  // a collection's 2 ms in one signature: this bucket's mean 262.5 us
        assertEquals(2 * EngineCost.BUCKET, c.samples());
        assertEquals((200 * 2 * EngineCost.BUCKET + 2_000) / (2 * EngineCost.BUCKET), c.nanos());
    }

    @Test
    void aSlowerHostDropsTheBucketsOfTheFasterOne() {
        EngineCost c = new EngineCost();
        add(c, 3 * EngineCost.BUCKET, 200);
        add(c, EngineCost.BUCKET, 500);
        assertEquals(500, c.nanos(), "buckets of more than twice the speed are dropped too");
    }
}
