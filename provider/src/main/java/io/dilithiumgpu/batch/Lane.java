package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;

/**
 * The queue of one (operation, parameter set): requests wait here until the dispatcher takes up
 * to {@link #maxBatch} of them as one batch.
 *
 * <p>Callers add without a lock (concurrent queues and an atomic count: with thousands of callers
 * a lock here serialised the whole provider). The queue is striped: a caller adds to the stripe of
 * its thread, so that the callers on different cores do not all retry on one queue's tail (one
 * queue's {@code offer} showed in JCA profiles of thousands of callers). Each stripe is in
 * arrival order; the dispatcher takes from the stripes in turn, so a batch is the oldest tasks of
 * each stripe, not strictly of the lane. Only the dispatcher takes; a caller may withdraw its own
 * task ({@link #remove}) when the batcher closed under it. The count is raised after a task is in
 * its stripe and lowered after it has left, so the tasks the dispatcher counts are there to take.
 * The lane's {@link #pool} has its own lock.
 */
final class Lane {
    final Operation op;
    final ParameterSet params;
    /** The most tasks one batch of this lane takes: ≥ 1. */
    final int maxBatch;
    final BufferPool pool;
    /** Stripes: a power of two, about twice the cores, at most 64. */
    private static final int STRIPES = Math.min(64,
            Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors())) * 2);
    private final ConcurrentLinkedQueue<Task<?>>[] stripes = newStripes();
    private final AtomicInteger size = new AtomicInteger();
    /** The stripe the next take starts at (the dispatcher's alone). */
    private int nextStripe;

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

    @SuppressWarnings("unchecked")
    private static ConcurrentLinkedQueue<Task<?>>[] newStripes() {
        ConcurrentLinkedQueue<Task<?>>[] q = new ConcurrentLinkedQueue[STRIPES];
        for (int i = 0; i < q.length; i++) {
            q[i] = new ConcurrentLinkedQueue<>();
        }
        return q;
    }

    /** The calling thread's stripe: its id, mixed (virtual threads' ids are consecutive). */
    private static int stripeOfCaller() {
        @SuppressWarnings("deprecation")  // threadId() is JDK 19+; this compiles for 17
        long id = Thread.currentThread().getId();
        return (int) ((id * 0x9E3779B97F4A7C15L) >>> 58) & (STRIPES - 1);
    }

    /** Queues a task; returns the lane's size with it. */
    int add(Task<?> task) {
        stripes[stripeOfCaller()].add(task);
        return size.incrementAndGet();
    }

    /** Withdraws a task not yet taken; false when the dispatcher already took it. */
    boolean remove(Task<?> task) {
        for (ConcurrentLinkedQueue<Task<?>> q : stripes) {
            if (q.remove(task)) {
                size.decrementAndGet();
                return true;
            }
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
        long oldest = Long.MAX_VALUE;
        boolean any = false;
        for (ConcurrentLinkedQueue<Task<?>> q : stripes) {
            Task<?> head = q.peek();
            if (head != null && (!any || head.enqueuedNanos - oldest < 0)) {
                oldest = head.enqueuedNanos;
                any = true;
            }
        }
        return oldest;
    }

    /**
     * Removes the next batch: {@code min(size, maxBatch)} tasks (fewer if withdrawn meanwhile),
     * the oldest of each stripe, the stripes taken in turn from where the last take stopped.
     */
    Task<?>[] take() {
        int want = Math.min(size.get(), maxBatch);
        Task<?>[] tasks = new Task<?>[want];
        int n = 0;
        for (int visited = 0; visited < STRIPES && n < want; visited++) {
            ConcurrentLinkedQueue<Task<?>> q = stripes[nextStripe];
            for (Task<?> t; n < want && (t = q.poll()) != null; ) {
                tasks[n++] = t;
            }
            if (n < want) {
                nextStripe = (nextStripe + 1) & (STRIPES - 1);
            }
        }
        size.addAndGet(-n);
        return n == want ? tasks : Arrays.copyOf(tasks, n);
    }

    @Override
    public String toString() {
        return op + " " + params;
    }
}
