package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

/**
 * How long a slot's chunks of each kernel have been taking on the GPU, and so how long its
 * worker may sleep after a launch before it starts waiting in earnest ({@link CudaConfig.Sync#NAP}).
 *
 * <p>Per kernel it keeps exponential moving averages of a chunk's GPU time (upload, kernel,
 * download) and of its task count. The nap is {@value #NAP_PERCENT} % of the time expected for a
 * chunk, scaled down for a chunk smaller than the average (never up: a larger chunk takes longer,
 * so the shorter nap is the safe one), less the time already spent since the launch. Naps
 * shorter than {@value #MIN_NAP_MICROS} µs are not taken: a sleeping thread wakes some tens of
 * microseconds late. A kernel not yet seen gets no nap.
 *
 * <p>Not thread-safe: each slot's worker thread owns one.
 */
final class GpuTimeModel {
    static final int NAP_PERCENT = 50;
    static final long MIN_NAP_MICROS = 100;
    /** Weight of the newest chunk in the averages. */
    private static final double ALPHA = 0.25;

    private final double[] nanos = new double[ParameterSet.values().length * Operation.values().length];
    private final double[] tasks = new double[nanos.length];

    /** Adds a chunk of {@code count} tasks whose GPU time was {@code gpuNanos}. */
    void record(ParameterSet params, Operation op, int count, long gpuNanos) {
        int k = index(params, op);
        if (tasks[k] == 0) {
            nanos[k] = gpuNanos;
            tasks[k] = count;
        } else {
            nanos[k] += ALPHA * (gpuNanos - nanos[k]);
            tasks[k] += ALPHA * (count - tasks[k]);
        }
    }

    /**
     * Nanoseconds to sleep now, {@code elapsedNanos} after a chunk of {@code count} tasks was
     * launched; 0 for no nap.
     */
    long napNanos(ParameterSet params, Operation op, int count, long elapsedNanos) {
        int k = index(params, op);
        if (tasks[k] == 0) {
            return 0;
        }
        double expected = nanos[k] * Math.min(1.0, count / tasks[k]);
        long nap = (long) (expected * NAP_PERCENT / 100) - elapsedNanos;
        return nap >= MIN_NAP_MICROS * 1000 ? nap : 0;
    }

    private static int index(ParameterSet params, Operation op) {
        return params.ordinal() * Operation.values().length + op.ordinal();
    }
}
