package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The CUDA backend's recovery policy. After a failure (any CUDA error, or a kernel that leaves a
 * task without a valid status) the backend is unhealthy: calls are refused at once with a
 * {@link BackendException} naming the failure, so the batcher reruns them on the CPU without
 * waiting on a broken device. Once the retry delay has passed, the next call reopens the devices;
 * each failure in a row doubles the delay, up to 16 times the configured one. A successful open
 * resets it.
 *
 * <p>Thread safety: all methods are synchronised.
 */
final class Health {
    private static final int MAX_DOUBLINGS = 4;

    private final Duration retryAfter;
    private final LongSupplier nanoClock;
    private BackendException failure;
    private long failedAtNanos;
    private int failuresInRow;

    Health(Duration retryAfter, LongSupplier nanoClock) {
        this.retryAfter = retryAfter;
        this.nanoClock = nanoClock;
    }

    /** Records a failure; calls are refused for the current delay from now. */
    synchronized void markFailed(BackendException cause) {
        failure = cause;
        failedAtNanos = nanoClock.getAsLong();
        failuresInRow++;
    }

    /** Records a successful open: the next failure waits the configured delay again. */
    synchronized void markHealthy() {
        failure = null;
        failuresInRow = 0;
    }

    /** True while no failure is on record. */
    synchronized boolean healthy() {
        return failure == null;
    }

    /** The delay that follows the current run of failures. */
    synchronized Duration currentDelay() {
        int doublings = Math.min(Math.max(failuresInRow - 1, 0), MAX_DOUBLINGS);
        return retryAfter.multipliedBy(1L << doublings);
    }

    /**
     * Returns when the backend may try to open its devices; throws while the delay runs.
     *
     * @throws BackendException naming the failure and the time left
     */
    synchronized void checkMayOpen() {
        if (failure == null) {
            return;
        }
        long elapsed = nanoClock.getAsLong() - failedAtNanos;
        long left = currentDelay().toNanos() - elapsed;
        if (left > 0) {
            throw new BackendException("CUDA backend unhealthy after: " + failure.getMessage()
                    + "; next attempt in " + Duration.ofNanos(left).toMillis() + " ms", failure);
        }
    }
}
