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
 *   <li>Otherwise the batcher. No call runs direct beside a busy GPU route: a virtual thread
 *       computing a signature holds its carrier until it ends, and the batched callers, their
 *       completions and the backend's threads wait for the same cores.</li>
 * </ol>
 */
public final class RouteChoice {
    /** A cost not measured yet. */
    public static final long UNKNOWN = 0;

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
     * @param batchNanos    the round trip of one such call through the batcher, the floor of the
     *                      recent ones, or {@link #UNKNOWN}
     * @param inFlight      this provider's calls in flight now, over every route and operation
     * @param cores         the cores the process may use
     */
    public static Route choose(boolean batchOnGpu, long directNanos, long batchNanos, int inFlight, int cores) {
        if (!batchOnGpu || directNanos == UNKNOWN) {
            return Route.DIRECT;
        }
        if (batchNanos == UNKNOWN) {
            return Route.BATCH;
        }
        return directNanos * Math.max(1.0, (double) inFlight / cores) <= batchNanos ? Route.DIRECT : Route.BATCH;
    }

    /**
     * For a signature the JDK's ML-DSA covers exactly and that runs direct: whether the JDK's engine
     * rather than this provider's core should compute it, from the averages of their times. Not
     * from their floors: the floor is a signature whose rejection loop ended at once, which
     * weighs the work done once per signature (where the core's key cache saves Â) over the work
     * of each attempt (where the JDK's intrinsics gain), and signatures average about four
     * attempts. A time of a platform thread sharing a core counts as its share of it
     * ({@code Router.ended}), so that the averages compare work, not waits. An engine not
     * measured yet is tried. The engine in use keeps the calls until the other measures faster by
     * {@link #ENGINE_MARGIN}, so that the choice does not flip with the noise.
     *
     * @param coreNanos the core's average time per signature, or {@link #UNKNOWN}
     * @param jdkNanos  the JDK's average time per signature, or {@link #UNKNOWN}
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
