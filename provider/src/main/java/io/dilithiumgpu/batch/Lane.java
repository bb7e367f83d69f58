package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;

/**
 * The queue of one (operation, parameter set): requests wait here, in arrival order, until the
 * dispatcher takes up to {@link #maxBatch} of them as one batch.
 *
 * <p>Callers add without a lock (a concurrent queue and an atomic count: with thousands of
 * callers a lock here serialised the whole provider). Only the dispatcher takes; a caller may
 * withdraw its own task ({@link #remove}) when the batcher closed under it. The count is raised
 * after a task is in the queue and lowered after it has left, so while the dispatcher sees a
 * positive {@link #size()}, the queue's head is there. The lane's {@link #pool} has its own lock.
 */
final class Lane {
    final Operation op;
    final ParameterSet params;
    /** The most tasks one batch of this lane takes: ≥ 1. */
    final int maxBatch;
    final BufferPool pool;
    private final ConcurrentLinkedQueue<Task<?>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();

    Lane(Operation op, ParameterSet params, int maxBatch, int retainedBatches) {
        this(op, params, maxBatch, retainedBatches, null);
    }

    /** @param allocator host buffers for the pooled batches' records, or null for heap arrays */
    Lane(Operation op, ParameterSet params, int maxBatch, int retainedBatches, LongFunction<HostBuffer> allocator) {
        this.op = op;
        this.params = params;
        this.maxBatch = maxBatch;
        this.pool = new BufferPool(op, params, maxBatch, retainedBatches, allocator);
    }

    /** Queues a task; returns the lane's size with it. */
    int add(Task<?> task) {
        queue.add(task);
        return size.incrementAndGet();
    }

    /** Withdraws a task not yet taken; false when the dispatcher already took it. */
    boolean remove(Task<?> task) {
        if (queue.remove(task)) {
            size.decrementAndGet();
            return true;
        }
        return false;
    }

    int size() {
        return size.get();
    }

    boolean isEmpty() {
        return size.get() == 0;
    }

    /** When the oldest queued task arrived; {@link Long#MAX_VALUE} when none is (any more). */
    long oldestNanos() {
        Task<?> head = queue.peek();
        return head == null ? Long.MAX_VALUE : head.enqueuedNanos;
    }

    /** Removes the next batch: the oldest {@code min(size, maxBatch)} tasks (fewer if withdrawn meanwhile). */
    Task<?>[] take() {
        int want = Math.min(size.get(), maxBatch);
        Task<?>[] tasks = new Task<?>[want];
        int n = 0;
        while (n < want) {
            Task<?> t = queue.poll();
            if (t == null) {
                break;
            }
            tasks[n++] = t;
        }
        size.addAndGet(-n);
        return n == want ? tasks : Arrays.copyOf(tasks, n);
    }

    @Override
    public String toString() {
        return op + " " + params;
    }
}
