package io.dilithiumgpu.bench;

import java.util.Arrays;

/**
 * Order statistics of measurements. Throughput runs are summarised by their median, which one
 * slow run (a GC pause, a co-tenant) cannot move. (Latency percentiles come from HdrHistogram.)
 */
final class Stats {
    private Stats() {}

    /** Median, min and max of the throughputs of several runs. */
    record Summary(int runs, double median, double min, double max) {
        /** (max − min) / median: how far apart the runs were. */
        double spread() {
            return median == 0 ? 0 : (max - min) / median;
        }
    }

    /**
     * @param samples at least one value; not modified
     * @return the middle value of the sorted samples, or the mean of the two middle values when
     *         their number is even
     */
    static double median(double[] samples) {
        requireNonEmpty(samples.length);
        double[] s = samples.clone();
        Arrays.sort(s);
        int mid = s.length / 2;
        return s.length % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
    }

    static Summary summarize(double[] samples) {
        requireNonEmpty(samples.length);
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : samples) {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return new Summary(samples.length, median(samples), min, max);
    }

    /** Operations per second of {@code ops} operations done in {@code nanos} nanoseconds. */
    static double opsPerSecond(long ops, long nanos) {
        if (nanos <= 0) {
            throw new IllegalArgumentException("elapsed time must be positive: " + nanos + " ns");
        }
        return ops * 1e9 / nanos;
    }

    private static void requireNonEmpty(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("no samples");
        }
    }
}
