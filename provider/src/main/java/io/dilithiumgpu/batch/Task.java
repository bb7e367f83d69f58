package io.dilithiumgpu.batch;

import java.security.ProviderException;

/**
 * One queued operation: its own copies of the inputs, and the future its caller holds.
 *
 * <p>Life cycle: created by the caller's thread (inputs copied), queued in its {@link Lane}, taken
 * into a {@link Batch} by a batch thread, which copies the inputs into the batch arrays and wipes
 * this task's secret copies at once ({@link #wipe()}), then stages the outcome ({@link #succeed},
 * {@link #fail}) and finally completes the future ({@link #deliver}) after the batch's arrays
 * are back in the pool. A task whose future is already done when its batch forms (its caller
 * cancelled it) is wiped and skipped, never run.
 *
 * @param <T> the result type
 */
abstract class Task<T> {
    final TimedFuture<T> future = new TimedFuture<>();
    /** {@link System#nanoTime()} when queued. */
    long enqueuedNanos;
    private T value;
    private Throwable failure;

    /** Zeroes this task's copies of secret inputs (seeds, private keys, randomness). Idempotent. */
    abstract void wipe();

    /** Stages a result; never null. */
    final void succeed(T result) {
        this.value = result;
        this.failure = null;
    }

    final void fail(Throwable cause) {
        this.value = null;
        this.failure = cause;
    }

    /** True when a failure is staged and the caller is still waiting for it. */
    final boolean failurePending() {
        return failure != null && !future.isDone();
    }

    /** Called with a result that nobody will read (the caller cancelled): wipes its secrets. */
    void discard(T result) {
        // Results are public unless a subclass says otherwise.
    }

    /**
     * Completes the future with the staged outcome. Dependent stages that were attached without
     * an executor run here, on the calling (batch) thread. A task that was skipped because its
     * caller had cancelled it has nothing staged and nothing to complete; a live task with
     * nothing staged (an internal error) fails rather than hang its caller. The future is stamped
     * with the time for {@code stats} first ({@link TimedFuture}).
     *
     * @param readyNanos when the backend had the outcome ({@link System#nanoTime()}), or 0 for now
     * @return the time stamped ({@link System#nanoTime()}), or 0 for a task skipped because its
     *         caller had cancelled it
     */
    final long deliver(BatcherStats stats, long readyNanos) {
        T v = value;
        Throwable f = failure;
        value = null;
        failure = null;
        if (f == null && v == null && future.isDone()) {
            return 0;
        }
        long now = System.nanoTime();
        future.stamp(stats, now, readyNanos == 0 ? now : readyNanos);
        if (f != null) {
            future.completeExceptionally(f);
        } else if (v == null) {
            future.completeExceptionally(
                    new ProviderException("internal error: batch task finished without an outcome"));
        } else if (!future.complete(v)) {
            discard(v);
        }
        return now;
    }
}
