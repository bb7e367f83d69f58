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
 *       shares them with the others and takes {@code directNanos × max(1, n / c)}; the batcher's
 *       round trip is the one it has at that load ({@link #batchCost}). Few callers thus
 *       run on their own threads, with no hand-off; many go to the GPU, whose round trip grows far
 *       more slowly with the load than the cores' share of it. The rule looks at all calls in
 *       flight, not only the direct ones, so that direct calls never crowd out the threads that
 *       complete the batch route's calls.</li>
 *   <li>Otherwise the batcher. No call runs direct beside a busy GPU route: a virtual thread
 *       computing a signature holds its carrier until it ends, and the batched callers, their
 *       completions and the backend's threads wait for the same cores.</li>
 *   <li>A direct call goes to the batcher after all when other work keeps the host's cores busy
 *       and the batcher costs the host less CPU per call ({@link #forBusyHost}).</li>
 * </ol>
 */
public final class RouteChoice {
    /** A cost not measured yet. */
    public static final long UNKNOWN = 0;

    /** How much faster the engine not in use must measure to take the signatures over: 5 %. */
    static final double ENGINE_MARGIN = 0.05;
    /**
     * One signature in this many goes to the engine not in use while its cost is not current, to
     * measure it again ({@code Router.toJdk}; in runs, {@code EngineDuel.RUN}).
     */
    static final int EXPLORE = 16;

    private RouteChoice() {}

    /**
     * The route of one call on this provider's engine ({@link Route#DIRECT} or {@link Route#BATCH}).
     *
     * @param batchOnGpu    whether the batcher's backend is a GPU (false: the CPU backend)
     * @param directNanos   the time of one such call on a caller's thread with a core to itself, as
     *                      measured lately (the faster engine where the JDK's also runs it), or
     *                      {@link #UNKNOWN}
     * @param batchNanos    the round trip of one such call through the batcher ({@link #batchCost}),
     *                      or {@link #UNKNOWN}
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
     * The route of a call {@link #choose} sent direct, where other work keeps the host's cores busy:
     * a core's time spent on the call is then taken from that work, and the batcher takes the call
     * when it costs the host less (this provider's threads' CPU per batched call) than the call on
     * its caller's thread, though its round trip is longer. Where this provider's own direct calls
     * fill half the cores or more, they are the load, and the rule of {@link #choose} stands: more
     * of them on the batcher would only wait longer.
     *
     * @param chosen         the route {@link #choose} gave
     * @param directNanos    the direct call's time, which is its host CPU
     * @param batchHostNanos this provider's threads' CPU per batched call, or {@link #UNKNOWN}
     * @param hostBusy       whether the process keeps its cores busy ({@code HostLoad})
     * @param directRunning  this provider's direct calls running now
     * @param cores          the cores the process may use
     */
    public static Route forBusyHost(Route chosen, long directNanos, long batchHostNanos, boolean hostBusy,
                                    int directRunning, int cores) {
        if (chosen != Route.DIRECT || !hostBusy || batchHostNanos == UNKNOWN || directNanos == UNKNOWN
                || 2 * directRunning >= cores) {
            return chosen;
        }
        return batchHostNanos < directNanos ? Route.BATCH : Route.DIRECT;
    }

    /**
     * The batch route's round trip that {@link #choose} weighs against a direct call, from what was
     * measured of it:
     * <ul>
     *   <li>with no more calls in flight than cores, the average of all its round trips: the cores
     *       are not full, so its lone refreshes did not wait for one, and the average is the fair
     *       match for a direct call's average;</li>
     *   <li>beyond the cores, while the calls go to the batcher, its round trip at that load
     *       ({@code loadedNanos}, measured from the calls it carries);</li>
     *   <li>beyond the cores, while the calls run direct, the floor of its round trips, for its lone
     *       refreshes waited for a core among the direct calls, which the calls would not once they
     *       went to the batcher; but no less than its round trip measured while it carried as many
     *       calls or fewer ({@code loadedNanos} at {@code loadedAt} ≤ {@code inFlight} calls), for
     *       a round trip only grows with the calls it carries. Without this bound the floor, a
     *       small batch on idle cores, would send the calls back to a batcher just measured slower
     *       than the direct route at that load, and the two would take turns.</li>
     * </ul>
     *
     * @param average     the average of the route's round trips, or {@link #UNKNOWN}
     * @param floor       the floor of the route's round trips, or {@link #UNKNOWN}
     * @param loadedNanos the route's round trip while it carried the calls, measured lately, or
     *                    {@link #UNKNOWN}
     * @param loadedAt    the calls in flight when {@code loadedNanos} was measured
     * @param carrying    whether the calls go to the batcher now
     * @param inFlight    this provider's calls in flight now
     * @param cores       the cores the process may use
     */
    public static long batchCost(long average, long floor, long loadedNanos, int loadedAt, boolean carrying,
                                 int inFlight, int cores) {
        if (inFlight <= cores) {
            return average;
        }
        if (loadedNanos == UNKNOWN) {
            return floor;
        }
        if (carrying) {
            return loadedNanos;
        }
        return loadedAt <= inFlight ? Math.max(floor, loadedNanos) : floor;
    }

    /**
     * For a signature the JDK's ML-DSA covers exactly and that runs direct: whether the JDK's engine
     * rather than this provider's core should compute it, from their mean times over one window
     * ({@link EngineDuel}). Not from their floors: the floor is a signature whose
     * rejection loop ended at once, which weighs the work done once per signature (where the core's key cache saves Â) over the work
     * of each attempt (where the JDK's intrinsics gain), and signatures average about four
     * attempts. A time of a platform thread sharing a core counts as its share of it
     * ({@code Router.ended}), so that the means compare work, not waits. An engine not
     * measured yet is tried. The engine in use keeps the calls until the other measures faster by
     * {@link #ENGINE_MARGIN}, so that the choice does not flip with the noise.
     *
     * @param coreNanos the core's mean time per signature, or {@link #UNKNOWN}
     * @param jdkNanos  the JDK's mean time per signature, or {@link #UNKNOWN}
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
