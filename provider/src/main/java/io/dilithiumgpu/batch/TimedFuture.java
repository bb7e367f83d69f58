package io.dilithiumgpu.batch;

import java.util.concurrent.CompletableFuture;

/**
 * A request's future that knows when its batch thread completed it, so that a caller blocked on it
 * ({@link Engines#await}) can report how long it took to run again: the wake-up of its thread,
 * which with thousands of virtual-thread callers is a stage of its own
 * ({@link BatcherMXBean#getCallerWakeNanos()}).
 *
 * <p>The stamp is written before the future completes and read after {@link #get()} returns, so
 * the completion orders the two.
 */
final class TimedFuture<T> extends CompletableFuture<T> {
    private BatcherStats stats;
    private long deliveredNanos;

    /** Called by the batch thread just before it completes this future. */
    void stamp(BatcherStats stats, long nanos) {
        this.stats = stats;
        this.deliveredNanos = nanos;
    }

    /** Called by the thread that waited, once it runs again; counts its wake-up. */
    void awoken() {
        BatcherStats s = stats;
        if (s != null) {
            s.callerWoke(System.nanoTime() - deliveredNanos);
        }
    }
}
