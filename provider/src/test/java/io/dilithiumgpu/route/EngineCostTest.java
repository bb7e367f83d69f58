package io.dilithiumgpu.route;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The signing engines' cost: the median of recent buckets' means, cold buckets dropped. */
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
    void theMedianOfTheLastBuckets() {
        EngineCost c = new EngineCost();
        add(c, EngineCost.BUCKET, 300);
        add(c, EngineCost.BUCKET, 200);
        add(c, EngineCost.BUCKET, 220);
        assertEquals(220, c.nanos());
        add(c, EngineCost.BUCKET / 2, 1_000);
        assertEquals(220, c.nanos(), "the bucket filling does not count once one is full");
        add(c, EngineCost.BUCKETS * EngineCost.BUCKET, 250);
        assertEquals(250, c.nanos(), "older buckets left the window");
        assertEquals(EngineCost.BUCKETS * EngineCost.BUCKET + EngineCost.BUCKET / 2, c.samples());
    }

    @Test
    void aColdBucketIsDroppedOnceAFastOneFills() {
        EngineCost c = new EngineCost();
        add(c, EngineCost.BUCKET, 2_000);
        add(c, EngineCost.BUCKET, 1_500);
        assertEquals(1_500, c.nanos());
        add(c, EngineCost.BUCKET, 200);
        assertEquals(200, c.nanos());
        assertEquals(EngineCost.BUCKET, c.samples());
    }

    @Test
    void aPauseThatHoldsOneBucketMovesNothing() {
        EngineCost c = new EngineCost();
        add(c, 2 * EngineCost.BUCKET, 250);
        // A 10 ms collection holds 16 signatures of one bucket: its mean 5.25 ms.
        add(c, EngineCost.BUCKET / 2, 10_250);
        add(c, EngineCost.BUCKET / 2, 250);
        assertEquals(250, c.nanos(), "the median passes over it");
        assertEquals(3 * EngineCost.BUCKET, c.samples(), "a slower bucket drops none before it");
        add(c, EngineCost.BUCKET, 250);
        assertEquals(250, c.nanos());
        assertEquals(3 * EngineCost.BUCKET, c.samples(), "the next bucket drops it, as it drops a cold one");
    }

    @Test
    void aSlowerHostIsFollowedOnceMostBucketsAreSlower() {
        EngineCost c = new EngineCost();
        add(c, EngineCost.BUCKETS * EngineCost.BUCKET, 200);
        add(c, 2 * EngineCost.BUCKET, 350);
        assertEquals(200, c.nanos());
        add(c, EngineCost.BUCKET, 350);
        assertEquals(350, c.nanos());
    }
}
