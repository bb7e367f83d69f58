package io.dilithiumgpu.batch;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The completion of one finished batch: its callers' futures, in slices, and then the batch's
 * entry in the stats.
 *
 * <p>Waking a blocked caller is the costliest step of a call's hand-off, and one thread waking a
 * whole batch's callers one by one makes the last of them wait for all the others. With virtual
 * threads the batcher therefore completes a batch in slices of at least {@link #SLICE} tasks, each
 * on a virtual thread of its own, at most one per core: the slices run on several carriers at
 * once, and each wakes its callers into its own carrier's queue. Without them one thread
 * delivers the single slice.
 *
 * <p>Whichever slice ends last adds the batch to the stats, its completion stage timed from the
 * end of the backend call to that moment.
 */
final class Completion {
    /** The fewest tasks per slice (but for a batch of fewer). */
    static final int SLICE = 64;
    /** Slices at most: one per core, as many as the virtual threads' scheduler has carriers by default. */
    static final int MAX_SLICES = Runtime.getRuntime().availableProcessors();

    private final BatcherStats stats;
    private final Task<?>[] tasks;
    private final int slices;
    private final long formedNanos;
    private final long queueWait;
    private final long handOff;
    private final long load;
    private final long backend;
    private final long ranNanos;
    private final AtomicInteger slicesLeft;
    private final AtomicInteger delivered;
    private final AtomicLong batched;

    /**
     * @param tasks       the batch's tasks, outcomes staged
     * @param formedNanos when the batch formed
     * @param queueWait   the batch's stage times in nanoseconds (see {@link BatcherStats#batchFinished});
     * @param ranNanos    when the backend call ended; 0 for an untimed batch
     * @param delivered   futures already completed early, {@code batched} nanoseconds after the
     *                    batch formed, summed
     * @param slices      the slices to deliver the tasks in, 1 ≤ slices ≤ max(1, tasks)
     */
    Completion(BatcherStats stats, Task<?>[] tasks, long formedNanos, long queueWait, long handOff, long load,
               long backend, long ranNanos, int delivered, long batched, int slices) {
        this.stats = stats;
        this.tasks = tasks;
        this.slices = slices;
        this.formedNanos = formedNanos;
        this.queueWait = queueWait;
        this.handOff = handOff;
        this.load = load;
        this.backend = backend;
        this.ranNanos = ranNanos;
        this.slicesLeft = new AtomicInteger(slices);
        this.delivered = new AtomicInteger(delivered);
        this.batched = new AtomicLong(batched);
    }

    /** The slices a batch of {@code tasks} is delivered in on virtual threads. */
    static int slicesOf(int tasks) {
        return slicesOf(tasks, MAX_SLICES);
    }

    /** {@code tasks} / {@link #SLICE}, rounded up, within [1, maxSlices]. */
    static int slicesOf(int tasks, int maxSlices) {
        return Math.max(1, Math.min(maxSlices, (tasks + SLICE - 1) / SLICE));
    }

    int slices() {
        return slices;
    }

    /**
     * Completes the futures of slice {@code slice} (tasks spread evenly over the slices); the
     * last slice to end adds the batch to the stats. Each slice is delivered once.
     *
     * @return whether this was the last slice to end: the batch's completion is over
     */
    boolean deliverSlice(int slice) {
        int from = (int) ((long) tasks.length * slice / slices);
        int to = (int) ((long) tasks.length * (slice + 1) / slices);
        int count = 0;
        long sum = 0;
        for (int i = from; i < to; i++) {
            long at = tasks[i].deliver(stats, ranNanos);
            if (at != 0) {
                sum += at - formedNanos;
                count++;
            }
        }
        if (count > 0) {
            batched.addAndGet(sum);
            delivered.addAndGet(count);
        }
        if (slicesLeft.decrementAndGet() != 0) {
            return false;
        }
        long complete = ranNanos == 0 ? 0 : System.nanoTime() - ranNanos;
        stats.batchFinished(queueWait, handOff, load, backend, complete, delivered.get(), batched.get());
        return true;
    }
}
