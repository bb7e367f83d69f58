package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskListener;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;

import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * A backend that computes nothing: after a fixed time per batch, whatever its size (as a GPU batch
 * roughly takes), it answers every task OK and leaves the outputs zero. Measures the batcher and
 * the layers above it on their own.
 *
 * <p>{@link #signingLoops} makes it a stand-in for the signing kernels instead: each signing task
 * ends on its own, after the batch time plus a geometric count of rejection-loop attempts, and the
 * call with its longest task; each task is told to the call's listener as it ends, as the CUDA
 * backend's published chunks tell the batcher, or, when the stand-in tells none, every caller
 * waits for its batch's longest loop.
 */
public final class StandInBackend implements Backend {
    private final int preferredBatch;
    private final int batchesInFlight;
    private final long batchNanos;
    /** A signing attempt's time; 0: every task ends with the batch. */
    private final long attemptNanos;
    /** The chance that an attempt is the last, 1 / the mean attempts. */
    private final double lastAttempt;
    private final boolean tellsEarly;
    /** Between two looks for ended tasks, as the CUDA backend's slots poll. */
    private static final long MIN_POLL_NANOS = 20_000;
    private static final long MAX_POLL_NANOS = 200_000;

    /**
     * @param preferredBatch  its preferred batch size, for every operation and set
     * @param batchesInFlight its preferred batches in flight
     * @param batchNanos      the time each batch takes (0: none)
     */
    public StandInBackend(int preferredBatch, int batchesInFlight, long batchNanos) {
        this(preferredBatch, batchesInFlight, batchNanos, 0, 1, false);
    }

    private StandInBackend(int preferredBatch, int batchesInFlight, long batchNanos, long attemptNanos,
                           double meanAttempts, boolean tellsEarly) {
        if (meanAttempts < 1) {
            throw new IllegalArgumentException("a signature takes at least one attempt on average: " + meanAttempts);
        }
        this.preferredBatch = preferredBatch;
        this.batchesInFlight = batchesInFlight;
        this.batchNanos = batchNanos;
        this.attemptNanos = attemptNanos;
        this.lastAttempt = 1 / meanAttempts;
        this.tellsEarly = tellsEarly;
    }

    /**
     * A stand-in whose signing tasks each take {@code batchNanos} plus a geometric count of
     * attempts of {@code attemptNanos} (mean {@code meanAttempts}: ML-DSA-44 4.25), the call
     * ending with its longest. Its batches are in host buffers, as the CUDA backend's are, so that
     * the batcher hands it a listener; {@code tellsEarly} says whether it tells it of each task as
     * the task ends. Key generation and verification take {@code batchNanos} per call, as before.
     */
    public static StandInBackend signingLoops(int preferredBatch, int batchesInFlight, long batchNanos,
                                              long attemptNanos, double meanAttempts, boolean tellsEarly) {
        if (attemptNanos <= 0) {
            throw new IllegalArgumentException("an attempt takes some time: " + attemptNanos);
        }
        return new StandInBackend(preferredBatch, batchesInFlight, batchNanos, attemptNanos, meanAttempts,
                tellsEarly);
    }

    @Override
    public String name() {
        return "stand-in";
    }

    @Override
    public int preferredBatchSize(ParameterSet params, Operation op) {
        return preferredBatch;
    }

    @Override
    public int preferredBatchesInFlight() {
        return batchesInFlight;
    }

    @Override
    public boolean prefersHostBuffers() {
        return attemptNanos > 0;
    }

    @Override
    public void run(BatchRecords records) {
        if (attemptNanos > 0 && records.op() == Operation.SIGN) {
            runLoops(records.count(), records.status(), tellsEarly ? records.listener() : null);
        } else {
            answer(records.count(), records.status());
        }
    }

    private void answer(int n, byte[] status) {
        sleepUntil(System.nanoTime() + batchNanos);
        Arrays.fill(status, 0, n, TaskStatus.OK);
    }

    /**
     * Ends the tasks in the order of their drawn ends, telling {@code listener} (if any) of each;
     * with a listener it looks for ended tasks as the CUDA backend's slots poll their status bytes,
     * every eighth of the time since the start, 20 to 200 µs apart, and tells all it finds.
     */
    private void runLoops(int n, byte[] status, TaskListener listener) {
        long start = System.nanoTime() + batchNanos;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long[] ends = new long[n];
        for (int i = 0; i < n; i++) {
            // Attempts until the first that succeeds, each with chance lastAttempt: 1 + ⌊ln U / ln(1 − p)⌋.
            long attempts = lastAttempt >= 1 ? 1
                    : 1 + (long) Math.floor(Math.log(1 - random.nextDouble()) / Math.log(1 - lastAttempt));
            ends[i] = attempts * attemptNanos;
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(ends[a], ends[b]));
        if (listener == null) {
            sleepUntil(start + ends[order[n - 1]]);
            Arrays.fill(status, 0, n, TaskStatus.OK);
            return;
        }
        sleepUntil(start);
        for (int next = 0; next < n; ) {
            long now = System.nanoTime();
            for (; next < n && start + ends[order[next]] <= now; next++) {
                status[order[next]] = TaskStatus.OK;
                listener.finished(order[next], TaskStatus.OK);
            }
            if (next < n) {
                long poll = Math.min(MAX_POLL_NANOS, Math.max(MIN_POLL_NANOS, (now - start) >> 3));
                sleepUntil(now + poll);
            }
        }
    }

    private static void sleepUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    @Override
    public void close() {
        // Nothing held.
    }
}
