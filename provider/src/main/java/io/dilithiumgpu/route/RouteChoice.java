package io.dilithiumgpu.route;

/**
 * The routing rule, as pure functions of measured costs and current counts: no clock, no threads,
 * no state. {@link Router} measures and counts, and asks here.
 *
 * <p>The rule, for one call:
 * <ol>
 *   <li>When the batcher's backend is the CPU, the call runs direct: a batch on the CPU does the
 *       same work on the same cores, after hand-offs.</li>
 *   <li>A route not measured yet is tried (direct first).</li>
 *   <li>Direct when that finishes sooner than the batcher's round trip, counting the wait for a
 *       core: with {@code n} of this provider's calls in flight on {@code c} cores, a direct call
 *       shares them with the others and takes {@code directNanos × max(1, n / c)}. Few callers thus
 *       run on their own threads, with no hand-off; many go to the GPU, whose round trip grows far
 *       more slowly with the load than the cores' share of it. The rule looks at all calls in
 *       flight, not only the direct ones, so that direct calls never crowd out the threads that
 *       complete the batch route's calls.</li>
 *   <li>Otherwise the batcher; but when more calls are in flight than there are cores, a call may
 *       still run direct on a spare core ({@link #spareCores}), so that cores the batch route
 *       leaves idle add throughput beside the GPU. With fewer calls than cores each call takes
 *       the route that ends it sooner.</li>
 * </ol>
 */
public final class RouteChoice {
    /** A cost not measured yet. */
    public static final long UNKNOWN = 0;

    /**
     * The process's CPU load up to which direct calls may take idle cores beside the batch route. The
     * batch route needs headroom: its callers are woken, and its batches completed, by threads
     * that queue for the same cores, so a host driven to full load by direct calls slows every
     * batched call.
     */
    static final double TARGET_LOAD = 0.75;

    /** How much faster the engine not in use must measure to take the signatures over: 5 %. */
    static final double ENGINE_MARGIN = 0.05;

    private RouteChoice() {}

    /**
     * The route of one call on this provider's engine ({@link Route#DIRECT} or {@link Route#BATCH}).
     *
     * @param batchOnGpu    whether the batcher's backend is a GPU (false: the CPU backend)
     * @param directNanos   the time of one such call on a caller's thread with a core to itself, as
     *                      measured lately (the faster engine where the JDK's also runs it), or
     *                      {@link #UNKNOWN}
     * @param batchNanos    the round trip of one such call through the batcher, at the load of the
     *                      last such calls, or {@link #UNKNOWN}
     * @param inFlight      this provider's routed calls in flight now, over every route and operation
     * @param cores         the cores the process may use
     * @param directRunning calls running on their callers' threads now
     * @param spareCores    how many direct calls the batch route's idle cores take now ({@link #spareCores})
     */
    public static Route choose(boolean batchOnGpu, long directNanos, long batchNanos, int inFlight, int cores,
                               int directRunning, int spareCores) {
        if (!batchOnGpu || directNanos == UNKNOWN) {
            return Route.DIRECT;
        }
        if (batchNanos == UNKNOWN) {
            return Route.BATCH;
        }
        if (directNanos * Math.max(1.0, (double) inFlight / cores) <= batchNanos) {
            return Route.DIRECT;
        }
        return inFlight > cores && directRunning < spareCores ? Route.DIRECT : Route.BATCH;
    }

    /**
     * How many calls may run direct beside the batch route: the cores direct calls kept busy over
     * the last interval, plus those that stood idle below {@link #TARGET_LOAD}; between 0 and
     * {@code cores}. While the host stays under the target, direct calls may take its idle cores;
     * above it, the count shrinks and hands the cores back to the batch route (whose calls take
     * far less CPU each than a direct call).
     *
     * @param cores           {@code Runtime.availableProcessors()}
     * @param cpuLoad         the process's CPU load over the interval, 0 to 1; negative when unknown
     *                        (then no core counts as spare)
     * @param directBusyCores direct calls' time over the interval, divided by its length
     */
    public static int spareCores(int cores, double cpuLoad, double directBusyCores) {
        if (cpuLoad < 0) {
            return 0;
        }
        double spare = Math.min(directBusyCores, cores) + cores * (TARGET_LOAD - Math.min(1, cpuLoad));
        return (int) Math.max(0, Math.min(cores, Math.floor(spare)));
    }

    /**
     * For a signature the JDK's ML-DSA covers exactly and that runs direct: whether the JDK's engine
     * rather than this provider's core should compute it, from the floors of their times
     * ({@code Estimate.floor}: both run the same algorithm, so the low ends compare their work,
     * where the averages on a busy host mostly compared the waits for a core). An engine not
     * measured yet is tried. The engine in use keeps the calls until the other measures faster by
     * {@link #ENGINE_MARGIN}, so that the choice does not flip with the noise.
     *
     * @param coreNanos the floor of the core's times per signature, or {@link #UNKNOWN}
     * @param jdkNanos  the floor of the JDK's times per signature, or {@link #UNKNOWN}
     * @param jdkNow    whether the JDK's engine is the one in use
     */
    public static boolean preferJdk(long coreNanos, long jdkNanos, boolean jdkNow) {
        if (jdkNanos == UNKNOWN) {
            return true;
        }
        if (coreNanos == UNKNOWN) {
            return false;
        }
        return jdkNow ? coreNanos >= jdkNanos * (1 - ENGINE_MARGIN) : jdkNanos < coreNanos * (1 - ENGINE_MARGIN);
    }
}
