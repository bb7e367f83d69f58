package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void withAnAllocatorBatchesHoldHostBuffersWhichADroppedBatchReleases() {
        List<HostBuffer> made = new ArrayList<>();
        BufferPool pool = new BufferPool(Operation.SIGN, ParameterSet.ML_DSA_44, 64, 1, bytes -> {
            HostBuffer b = HostBuffer.allocate(bytes);
            made.add(b);
            return b;
        });
        Batch small = pool.take(1);
        Batch large = pool.take(64);
        assertEquals(10, made.size(), "private keys, μ, message records, rnd and signatures of two batches");
        pool.give(small);
        pool.give(large);
        assertEquals(1, pool.idleCount());
        assertEquals(5, made.stream().filter(HostBuffer::isClosed).count(), "the smaller batch was dropped");
        assertSame(large, pool.take(2));
        pool.give(large);
        pool.clear();
        assertTrue(made.stream().allMatch(HostBuffer::isClosed));
    }

    @Test
    void whenTheAllocatorFailsTheBatchUsesHeapArraysAndReleasesWhatItGot() {
        List<HostBuffer> made = new ArrayList<>();
        BufferPool pool = new BufferPool(Operation.KEYGEN, ParameterSet.ML_DSA_65, 64, 1, bytes -> {
            if (made.size() == 2) {
                throw new OutOfMemoryError("Cannot reserve " + bytes + " bytes of direct buffer memory");
            }
            HostBuffer b = HostBuffer.allocate(bytes);
            made.add(b);
            return b;
        });
        Batch b = pool.take(10);
        assertEquals(16, b.capacity);
        assertTrue(made.stream().allMatch(HostBuffer::isClosed), "the host buffers made before the failure");
    }
}
