package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.util.ArrayDeque;

/**
 * The queue of one (operation, parameter set): requests wait here, in arrival order, until the
 * dispatcher takes up to {@link #maxBatch} of them as one batch.
 *
 * <p>Guarded by the {@link Batcher}'s lock: every method but the final fields is called with it
 * held. The lane's {@link #pool} has its own lock.
 */
final class Lane {
    final Operation op;
    final ParameterSet params;
    /** The most tasks one batch of this lane takes: ≥ 1. */
    final int maxBatch;
    final BufferPool pool;
    private final ArrayDeque<Task<?>> queue = new ArrayDeque<>();
    /** Batches of this lane handed to the backend and not yet finished. */
    int inFlight;

    Lane(Operation op, ParameterSet params, int maxBatch, int retainedBatches) {
        this.op = op;
        this.params = params;
        this.maxBatch = maxBatch;
        this.pool = new BufferPool(op, params, maxBatch, retainedBatches);
    }

    void add(Task<?> task) {
        queue.addLast(task);
    }

    int size() {
        return queue.size();
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** When the oldest queued task arrived; only for a non-empty lane. */
    long oldestNanos() {
        return queue.getFirst().enqueuedNanos;
    }

    /** Removes the next batch: the oldest {@code min(size, maxBatch)} tasks. */
    Task<?>[] take() {
        Task<?>[] tasks = new Task<?>[Math.min(queue.size(), maxBatch)];
        for (int i = 0; i < tasks.length; i++) {
            tasks[i] = queue.pollFirst();
        }
        return tasks;
    }

    @Override
    public String toString() {
        return op + " " + params;
    }
}
