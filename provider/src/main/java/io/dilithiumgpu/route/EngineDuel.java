package io.dilithiumgpu.route;

/**
 * The choice between the two signing engines, this provider's core and the JDK's ML-DSA, for the
 * signatures the JDK covers, per set: a duel now and then, and the winner signs until the next.
 *
 * <p>A duel runs for at least {@value #WINDOW_MILLIS} ms and until the engine passed over has
 * signed {@value #SAMPLES} signatures; meanwhile one covered signature in
 * {@value RouteChoice#EXPLORE} goes to the engine passed over, in runs of {@value #RUN} in a row.
 * At its end each engine's mean time
 * over the signatures begun in the window decides ({@link RouteChoice#preferJdk}: the engine in use
 * keeps the calls unless the other is faster by its margin). The next duel starts
 * {@value #INTERVAL_MILLIS} ms after, or at once when the load falls within the cores
 * ({@link #restart}). Between duels the engine in use signs every covered signature.
 *
 * <p>Why both engines in one window: each engine's cost over its own recent signatures compared
 * two engines measured at different times. The engine in use fills its samples in milliseconds at a
 * high rate, so that one collection could hold all of them, and the engine passed over was judged
 * by signatures of the load before (a level of many callers' samples kept the slower engine in use
 * through the next level of one caller; docs/performance.md). In one window both see the same load,
 * the same collections and the same JIT, each in proportion to its signatures.
 *
 * <p>Why in runs: the core's signatures share their rejection loops with helper threads on idle
 * cores ({@code SigningHelpers}), which spin a little after a loop and then park. A lone signature
 * every sixteenth found its helper parked and paid its wake-up, so that the core passed over was
 * timed slower than it signs once in use, and a duel it lost once it lost for good (one caller on
 * two cores; docs/performance.md, What was tried). In a run the signatures after the first find
 * the helper still spinning.
 *
 * <p>Why a window of time as well as a count: a collection every hundred milliseconds or so, a
 * signature's rejection loop of one attempt or a dozen: a mean over a tenth of a second and 32 or
 * more signatures of the engine passed over takes both at their rate. A duel whose engine passed
 * over signs none for {@value #LONGEST_MILLIS} ms (the JDK refused the key, say) ends, the engine in
 * use kept.
 *
 * <p>Thread-safe. A signature begun in a window takes a lock as it ends; between duels, none.
 */
final class EngineDuel {
    static final long WINDOW_MILLIS = 100;
    static final int SAMPLES = 32;
    static final long INTERVAL_MILLIS = 1_000;
    static final long LONGEST_MILLIS = 1_000;
    /** Covered signatures in a row that the engine passed over takes during a duel. */
    static final int RUN = 4;
    private static final long WINDOW_NANOS = WINDOW_MILLIS * 1_000_000;
    private static final long INTERVAL_NANOS = INTERVAL_MILLIS * 1_000_000;
    private static final long LONGEST_NANOS = LONGEST_MILLIS * 1_000_000;
    private static final int CORE = 0;
    private static final int JDK = 1;

    private volatile boolean jdkInUse = true;
    private volatile boolean dueling;
    /** When the duel running began, or the last one ended. */
    private volatile long since;
    /** Covered signatures routed in this duel, modulo a cycle of runs (written racily: spreads the engine passed over's share). */
    private int calls;
    private final long[] sum = new long[2];
    private final int[] count = new int[2];
    /** Each engine's mean over the last duel's window, or {@link RouteChoice#UNKNOWN}. */
    private volatile long coreNanos = RouteChoice.UNKNOWN;
    private volatile long jdkNanos = RouteChoice.UNKNOWN;

    /** @param now when the router was made: the first signature routed starts a duel */
    EngineDuel(long now) {
        this.since = now - INTERVAL_NANOS;
    }

    /** Whether this covered signature, routed at {@code now}, goes to the JDK's engine. */
    boolean toJdk(long now) {
        if (!dueling && now - since >= INTERVAL_NANOS) {
            start(now, false);
        }
        boolean jdk = jdkInUse;
        if (!dueling) {
            return jdk;
        }
        // The last RUN of every RUN × EXPLORE: one in EXPLORE, in runs.
        int cycle = RUN * RouteChoice.EXPLORE;
        int n = calls + 1;
        calls = n >= cycle ? 0 : n;
        return n > cycle - RUN ? !jdk : jdk;
    }

    /**
     * Starts a duel at {@code now}, a running one anew, and forgets the last one's means: the load
     * fell within the cores, and they were measured at another.
     */
    void restart(long now) {
        coreNanos = RouteChoice.UNKNOWN;
        jdkNanos = RouteChoice.UNKNOWN;
        start(now, true);
    }

    private synchronized void start(long now, boolean anew) {
        if (dueling && !anew) {
            return;
        }
        sum[CORE] = 0;
        sum[JDK] = 0;
        count[CORE] = 0;
        count[JDK] = 0;
        since = now;
        dueling = true;
    }

    /**
     * A signature of the JDK's engine ({@code jdk}) or the core, begun at {@code startedNanos}, took
     * {@code nanos} and ended at {@code now}.
     */
    void add(boolean jdk, long nanos, long startedNanos, long now) {
        if (!dueling || startedNanos - since < 0) {
            return;  // begun before the window: another time's load
        }
        synchronized (this) {
            if (!dueling || startedNanos - since < 0) {
                return;
            }
            int k = jdk ? JDK : CORE;
            sum[k] += Math.max(1, nanos);
            count[k]++;
            int passedOver = jdkInUse ? CORE : JDK;
            long ran = now - since;
            if (ran >= LONGEST_NANOS && count[passedOver] == 0) {
                end(now);
            } else if (ran >= WINDOW_NANOS && (count[passedOver] >= SAMPLES || ran >= LONGEST_NANOS)
                    && count[1 - passedOver] > 0) {
                coreNanos = sum[CORE] / count[CORE];
                jdkNanos = sum[JDK] / count[JDK];
                jdkInUse = RouteChoice.preferJdk(coreNanos, jdkNanos, jdkInUse);
                end(now);
            }
        }
    }

    private void end(long now) {
        dueling = false;
        since = now;
    }

    /** Whether the JDK's engine is the one in use. */
    boolean jdkInUse() {
        return jdkInUse;
    }

    /**
     * Whether the last duel's means are of the load of the moment: it ended within two intervals
     * of {@code now}, or one runs. Duels stop while the rule batches the signatures, for they are
     * run by the signatures that go direct.
     */
    boolean current(long now) {
        return dueling || now - since <= 2 * INTERVAL_NANOS;
    }

    /** The core's mean time per signature over the last duel, or {@link RouteChoice#UNKNOWN}. */
    long coreNanos() {
        return coreNanos;
    }

    /** The JDK's engine's mean time per signature over the last duel, or {@link RouteChoice#UNKNOWN}. */
    long jdkNanos() {
        return jdkNanos;
    }
}
