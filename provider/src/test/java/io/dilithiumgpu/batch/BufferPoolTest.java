package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Capacity classes and retention of {@link BufferPool}. */
class BufferPoolTest {

    @Test
    void capacitiesArePowersOfTwoCappedAtTheLargestBatch() {
        assertEquals(1, BufferPool.capacityFor(1, 1000));
        assertEquals(8, BufferPool.capacityFor(5, 1000));
        assertEquals(8, BufferPool.capacityFor(8, 1000));
        assertEquals(1000, BufferPool.capacityFor(600, 1000));
        assertEquals(Integer.MAX_VALUE, BufferPool.capacityFor((1 << 30) + 1, Integer.MAX_VALUE));
    }

    @Test
    void aReturnedBatchIsReusedForAnyBatchItFits() {
        BufferPool pool = new BufferPool(Operation.SIGN, ParameterSet.DILITHIUM2, 64, 2);
        Batch b = pool.take(20);
        assertEquals(32, b.capacity);
        pool.give(b);
        assertSame(b, pool.take(3));
        pool.give(b);
        assertNotSame(b, pool.take(33));
    }

    @Test
    void atMostTheRetainedCountIsKeptAndTheSmallestGoesFirst() {
        BufferPool pool = new BufferPool(Operation.VERIFY, ParameterSet.ML_DSA_44, 64, 2);
        Batch small = pool.take(1);
        Batch medium = pool.take(16);
        Batch large = pool.take(64);
        pool.give(small);
        pool.give(medium);
        pool.give(large);
        assertEquals(2, pool.idleCount());
        assertSame(medium, pool.take(2));
        assertSame(large, pool.take(2));
        pool.clear();
        assertEquals(0, pool.idleCount());
    }
}
