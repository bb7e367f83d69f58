package io.dilithiumgpu.route;

/**
 * The routing rule, as pure functions of measured costs and current counts: no clock, no threads,
 * no state. {@link Router} measures and counts, and asks here.
 *
 * <p>The rule: a call runs on its caller's thread (direct) when that finishes it sooner than a
 * round trip through the batcher would, as long as a core is free for it; otherwise it goes to the
 * batcher. When the batcher's backend is the CPU, every call runs direct: a batch on the CPU does the
 * same work on the same cores, after hand-offs.
 */
public final class RouteChoice {
    /** A cost not measured yet. */
    public static final long UNKNOWN = 0;

    /**
     * Cores kept back from the direct route: the batcher's own threads and its callers' hand-offs
     * need some CPU, and a controller that gives up a fraction of a core whenever the host is
     * fully busy yields cores back to the batch route when it needs them.
     */
    static final double RESERVED_CORES = 0.5;

    private RouteChoice() {}

    /**
     * The route of one call on this provider's engine ({@link Route#DIRECT} or {@link Route#BATCH}).
     *
     * @param batchOnGpu     whether the batcher's backend is a GPU (false: the CPU backend)
     * @param directNanos    the time of one such call on the caller's thread, as measured lately
     *                       (the faster engine where the JDK's also runs it), or {@link #UNKNOWN}
     * @param batchNanos     the round trip of one such call through the batcher, at the load of the
     *                       last such calls, or {@link #UNKNOWN}
     * @param directRunning  calls running on their callers' threads now, over every operation
     * @param directCapacity how many direct calls the free cores take now ({@link #directCapacity})
     */
    public static Route choose(boolean batchOnGpu, long directNanos, long batchNanos, int directRunning,
                               int directCapacity) {
        if (!batchOnGpu) {
            return Route.DIRECT;
        }
        if (directRunning >= directCapacity) {
            return Route.BATCH;
        }
        if (directNanos == UNKNOWN) {
            return Route.DIRECT;
        }
        if (batchNanos == UNKNOWN) {
            return Route.BATCH;
        }
        return directNanos <= batchNanos ? Route.DIRECT : Route.BATCH;
    }

    /**
     * How many calls may run direct at once: the cores direct calls kept busy over the last
     * interval, plus the cores that stood idle, less {@link #RESERVED_CORES}; between 0 and
     * {@code cores}. While the batch route leaves cores idle, direct calls may take them; when the
     * host is fully busy the capacity shrinks by a core per interval, handing cores back to the
     * batch route (whose callers need far less CPU per call than a direct call).
     *
     * @param cores            {@code Runtime.availableProcessors()}
     * @param cpuLoad          the host's CPU load over the interval, 0 to 1; negative when unknown
     *                         (then all cores but the reserve count as free)
     * @param directBusyCores  direct calls' time over the interval, divided by its length
     */
    public static int directCapacity(int cores, double cpuLoad, double directBusyCores) {
        double free = cpuLoad < 0 ? cores : directBusyCores + cores * (1 - Math.min(1, cpuLoad));
        return (int) Math.max(0, Math.min(cores, Math.floor(free - RESERVED_CORES)));
    }

    /**
     * For a signature the JDK's ML-DSA covers exactly and that runs direct: whether the JDK's engine
     * rather than this provider's core should compute it. An engine not measured yet is tried.
     *
     * @param coreNanos the core's time per signature, or {@link #UNKNOWN}
     * @param jdkNanos  the JDK's time per signature, or {@link #UNKNOWN}
     */
    public static boolean preferJdk(long coreNanos, long jdkNanos) {
        if (jdkNanos == UNKNOWN) {
            return true;
        }
        if (coreNanos == UNKNOWN) {
            return false;
        }
        return jdkNanos < coreNanos;
    }
}
