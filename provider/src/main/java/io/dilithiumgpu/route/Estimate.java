package io.dilithiumgpu.route;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One measured cost: an exponentially weighted moving average of a call's time on one route, for
 * one operation and set, and when it was last brought up to date. Updates may race and lose one
 * another's sample; an estimate needs no more.
 *
 * <p>The first {@link #WARM_SAMPLES} samples mark the estimate as warming up, so that {@link Router}
 * keeps sending calls down the route until its code is compiled. The first few are averaged
 * plainly, the rest weighted by {@code 1/8}: by the end of the warm-up the samples taken before the
 * JIT reached the route weigh nothing, where a plain average over the warm-up would keep a route
 * measured while interpreted looking slow for seconds.
 *
 * <p>Beside the average it keeps a floor: the low end of the times, which falls to any lower sample
 * at once and rises by 1/128 per sample. Waiting for a core, a collection or a cold cache only ever
 * adds to a call's time, so the floor of two engines that run the same algorithm compares their
 * work where their averages, on a busy host, mostly compare their luck.
 *
 * <p>It keeps the last sample too, for a route the calls do not take: where that sample says the
 * route would win, the router probes it again at once ({@link #claimProbe}), one call at a time,
 * rather than once per refresh interval, so that an average measured while the route's code was
 * cold or its cores busy is corrected within a few calls, not dozens of refreshes.
 */
final class Estimate {
    /** Samples that count as the warm-up. */
    static final int WARM_SAMPLES = 64;
    /** Weight of a new sample after the first {@code 1 << SHIFT}: 1/8. */
    private static final int SHIFT = 3;
    /**
     * Samples closer together than this are skipped, so that a busy route's callers do not all write
     * here: each write takes the line from every core that reads it at its next call. A direct
     * signature takes longer, so one caller's are all sampled.
     */
    private static final long MIN_GAP_NANOS = 100_000;
    private static final VarHandle OBSERVED_AT;
    private static final VarHandle PROBED_AT;

    static {
        try {
            OBSERVED_AT = MethodHandles.lookup().findVarHandle(Estimate.class, "observedAt", long.class);
            PROBED_AT = MethodHandles.lookup().findVarHandle(Estimate.class, "probedAt", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile long nanos;
    private volatile long floor;
    /** When the last sample came, or a refresh was claimed. */
    private volatile long observedAt;
    private volatile int samples;
    private volatile long last;
    /** When the probe now running was claimed, or 0 when none runs. */
    private volatile long probedAt;

    /** The estimate, or {@link RouteChoice#UNKNOWN}. */
    long nanos() {
        return nanos;
    }

    /** The floor of the times ({@link RouteChoice#UNKNOWN} before the first sample). */
    long floor() {
        return floor;
    }

    /** The last sample ({@link RouteChoice#UNKNOWN} before the first). */
    long last() {
        return last;
    }

    /** Whether the estimate is still warming up: every call that can take the route should. */
    boolean warming() {
        return samples < WARM_SAMPLES;
    }

    /**
     * Whether this caller should take the route to measure it: while it warms up, or once it has
     * gone {@code refreshNanos} without a sample (then one caller only, who claims the refresh).
     */
    boolean claim(long now, long refreshNanos) {
        if (warming()) {
            return true;
        }
        long seen = observedAt;
        return now - seen > refreshNanos && OBSERVED_AT.compareAndSet(this, seen, now);
    }

    /** Makes the next {@link #claim} with {@code refreshNanos} at {@code now} or later take a refresh. */
    void expire(long now, long refreshNanos) {
        observedAt = now - refreshNanos - 1;
    }

    /**
     * Whether this caller should take the route as a probe: one caller at a time, until its sample
     * comes (or, if none comes, for {@code timeoutNanos}).
     */
    boolean claimProbe(long now, long timeoutNanos) {
        long p = probedAt;
        return (p == 0 || now - p > timeoutNanos) && PROBED_AT.compareAndSet(this, p, now == 0 ? 1 : now);
    }

    /**
     * Adds a call's time, ended at {@code now}; returns whether it was taken (once warm, a call that
     * ends within {@value #MIN_GAP_NANOS} ns of the last one taken is not: thousands of callers
     * writing the same estimate would contend for it, and a weight of 1/8 needs no more).
     */
    boolean add(long sample, long now) {
        if (probedAt != 0) {
            probedAt = 0;
        }
        int n = samples;
        if (n >= WARM_SAMPLES && now - observedAt < MIN_GAP_NANOS) {
            return false;
        }
        long s = Math.max(1, sample);
        last = s;
        long old = nanos;
        nanos = n == 0 ? s : n < 1 << SHIFT ? old + (s - old) / (n + 1) : old + ((s - old) >> SHIFT);
        long f = floor;
        floor = f == 0 || s < f ? s : f + Math.max(1, f >> 7);
        observedAt = now;
        if (n < WARM_SAMPLES) {
            samples = n + 1;
        }
        return true;
    }
}
