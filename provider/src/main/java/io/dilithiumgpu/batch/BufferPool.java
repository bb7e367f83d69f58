package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Reusable {@link Batch} arrays of one lane, so that a busy batcher allocates nothing per batch.
 *
 * <p>A new batch gets the capacity of the next power of two of its task count (at most the lane's
 * largest batch), so that a lone request on an idle provider does not pay for arrays sized for a
 * full GPU batch. At most {@code retained} batches are kept; when one more comes back, the
 * smallest is dropped. Every batch is {@link Batch#clear() cleared} (its secrets zeroed) before it
 * comes back, so the pool never holds secrets.
 */
final class BufferPool {
    private final Operation op;
    private final ParameterSet params;
    private final int maxBatch;
    private final int retained;
    private final ReentrantLock lock = new ReentrantLock();
    /** Idle batches, in no order. */
    private final List<Batch> idle = new ArrayList<>();

    BufferPool(Operation op, ParameterSet params, int maxBatch, int retained) {
        this.op = op;
        this.params = params;
        this.maxBatch = maxBatch;
        this.retained = retained;
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
        return Batch.create(op, params, capacityFor(n, maxBatch));
    }

    /** Takes back a cleared batch. */
    void give(Batch batch) {
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
                idle.set(smallest, batch);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Drops every idle batch. */
    void clear() {
        lock.lock();
        try {
            idle.clear();
        } finally {
            lock.unlock();
        }
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
