package io.dilithiumgpu.route;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The signing engines' cost: the median of recent buckets' means, cold buckets dropped. */
class EngineCostTest {
    private long now = 1_000_000_000L;

    /** Adds {@code n} signatures of {@code nanos} each, one after the other. */
    private void add(EngineCost c, int n, long nanos) {
        for (int i = 0; i < n; i++) {
            now += nanos;
            c.add(nanos, now);
        }
    }

    @Test
    void unknownUntilEnoughSignaturesThenTheirMean() {
        EngineCost c = new EngineCost();
        add(c, EngineCost.MIN_SAMPLES - 1, 100);
        assertEquals(RouteChoice.UNKNOWN, c.nanos());
        c.add(260, now);
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

    @Test
    void itsCostIsCurrentWhileItsLastBucketIsRecent() {
        EngineCost c = new EngineCost();
        EngineCost inUse = new EngineCost();
        add(c, EngineCost.BUCKET - 1, 100);
        assertFalse(c.currentBeside(inUse, now, Long.MAX_VALUE), "no bucket yet, though the cost is known");
        add(c, 1, 100);
        long filled = now;
        add(c, EngineCost.BUCKET - 1, 100);
        assertTrue(c.currentBeside(inUse, filled + 5_000, 5_000));
        assertFalse(c.currentBeside(inUse, filled + 5_001, 5_000));
        add(c, 1, 100);
        assertTrue(c.currentBeside(inUse, now + 5_000, 5_000), "the next bucket");
    }

    @Test
    void itsCostIsNotCurrentOnceTheEngineInUseDroppedAColdBucket() {
        EngineCost c = new EngineCost();
        EngineCost inUse = new EngineCost();
        add(inUse, EngineCost.BUCKET, 2_000);
        add(c, EngineCost.BUCKET, 3_000);
        add(inUse, EngineCost.BUCKET, 1_500);
        assertTrue(c.currentBeside(inUse, now, Long.MAX_VALUE), "a slower bucket drops nothing");
        add(inUse, EngineCost.BUCKET, 200);
        assertFalse(c.currentBeside(inUse, now, Long.MAX_VALUE), "the engine in use was cold: this one may have been");
        add(c, EngineCost.BUCKET, 300);
        assertTrue(c.currentBeside(inUse, now, Long.MAX_VALUE));
    }

    @Test
    void aResetForgetsEverySignature() {
        EngineCost c = new EngineCost();
        EngineCost inUse = new EngineCost();
        add(inUse, EngineCost.BUCKET, 2_000);
        add(c, 2 * EngineCost.BUCKET + 5, 300);
        add(inUse, EngineCost.BUCKET, 200);
        c.reset();
        inUse.reset();
        assertEquals(RouteChoice.UNKNOWN, c.nanos());
        assertEquals(0, c.samples());
        assertFalse(c.currentBeside(inUse, now, Long.MAX_VALUE), "no bucket since the reset");
        add(c, EngineCost.MIN_SAMPLES, 250);
        assertEquals(250, c.nanos(), "measured again from the reset on, none of the signatures before");
        add(c, EngineCost.BUCKET - EngineCost.MIN_SAMPLES, 250);
        assertTrue(c.currentBeside(inUse, now, Long.MAX_VALUE), "the cold bucket dropped before the reset is forgotten too");
    }

    @Test
    void onlyTheFirstColdBucketMakesTheOtherEngineMeasuredAgain() {
        EngineCost c = new EngineCost();
        EngineCost inUse = new EngineCost();
        add(inUse, EngineCost.BUCKET, 2_000);
        add(inUse, EngineCost.BUCKET, 200);
        add(c, EngineCost.BUCKET, 300);
        assertTrue(c.currentBeside(inUse, now, Long.MAX_VALUE), "measured after the engine in use was cold");
        // later a collection holds a bucket of the engine in use, and the next one drops it
        add(inUse, EngineCost.BUCKET, 900);
        add(inUse, EngineCost.BUCKET, 200);
        assertEquals(200, inUse.nanos());
        assertTrue(c.currentBeside(inUse, now, Long.MAX_VALUE), "a pause's bucket dropped is not cold code");
    }
}
