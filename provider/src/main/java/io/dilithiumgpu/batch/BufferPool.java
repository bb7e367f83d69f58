package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongFunction;

/**
 * Reusable {@link Batch} arrays of one lane, so that a busy batcher allocates nothing per batch.
 *
 * <p>A new batch gets the capacity of the next power of two of its task count (at most the lane's
 * largest batch), so that a lone request on an idle provider does not pay for arrays sized for a
 * full GPU batch. At most {@code retained} batches are kept; when one more comes back, the
 * smallest is dropped. Every batch is {@link Batch#clear() cleared} (its secrets zeroed) before it
 * comes back, so the pool never holds secrets. With an allocator the batches keep their records
 * in its host buffers; a dropped batch {@link Batch#release() releases} them.
 */
final class BufferPool {
    private static final System.Logger LOG = System.getLogger(BufferPool.class.getName());
    private final Operation op;
    private final ParameterSet params;
    private final int maxBatch;
    private final int retained;
    private final LongFunction<HostBuffer> allocator;
    private final ReentrantLock lock = new ReentrantLock();
    /** Idle batches, in no order. */
    private final List<Batch> idle = new ArrayList<>();

    BufferPool(Operation op, ParameterSet params, int maxBatch, int retained) {
        this(op, params, maxBatch, retained, null);
    }

    /** @param allocator host buffers for the batches' records, or null for heap arrays */
    BufferPool(Operation op, ParameterSet params, int maxBatch, int retained, LongFunction<HostBuffer> allocator) {
        this.op = op;
        this.params = params;
        this.maxBatch = maxBatch;
        this.retained = retained;
        this.allocator = allocator;
    }

    /** An empty batch with room for {@code n} tasks, 1 ≤ n ≤ maxBatch: a pooled one if any fits. */
    Batch take(int n) {
        lock.lock();
        try {
            int best = -1;
            for (int i = 0; i < idle.size(); i++) {
                int c = idle.get(i).capacity;
                if (c >= n && (best < 0 || c < idle.get(best).capacity)) {
                    best = i;
                }
            }
            if (best >= 0) {
                return idle.remove(best);
            }
        } finally {
            lock.unlock();
        }
        int capacity = capacityFor(n, maxBatch);
        if (allocator != null) {
            try {
                return Batch.create(op, params, capacity, allocator);
            } catch (RuntimeException | OutOfMemoryError e) {
                LOG.log(System.Logger.Level.WARNING, op + " " + params + " batch of " + capacity
                        + " tasks in heap arrays: its host buffers could not be allocated: " + e);
            }
        }
        return Batch.create(op, params, capacity, null);
    }

    /** Takes back a cleared batch. */
    void give(Batch batch) {
        Batch dropped = batch;
        lock.lock();
        try {
            if (idle.size() < retained) {
                idle.add(batch);
                return;
            }
            int smallest = 0;
            for (int i = 1; i < idle.size(); i++) {
                if (idle.get(i).capacity < idle.get(smallest).capacity) {
                    smallest = i;
                }
            }
            if (idle.get(smallest).capacity < batch.capacity) {
                dropped = idle.set(smallest, batch);
            }
        } finally {
            lock.unlock();
        }
        dropped.release();
    }

    /** Drops every idle batch, releasing its host buffers. */
    void clear() {
        List<Batch> dropped;
        lock.lock();
        try {
            dropped = new ArrayList<>(idle);
            idle.clear();
        } finally {
            lock.unlock();
        }
        dropped.forEach(Batch::release);
    }

    /** Batches held idle now. */
    int idleCount() {
        lock.lock();
        try {
            return idle.size();
        } finally {
            lock.unlock();
        }
    }

    /** The smallest power of two ≥ n, capped at max (n ≤ max). */
    static int capacityFor(int n, int max) {
        int c = Integer.highestOneBit(n);
        if (c < n) {
            c = c >= 1 << 30 ? max : c << 1;
        }
        return Math.min(c, max);
    }
}
