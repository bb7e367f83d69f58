package io.dilithiumgpu.route;


/**
 * For one operation and set, a test of the other route by the calls it completes, run when the cores
 * are full and the rule's view of the load cannot be trusted.
 *
 * <p>Why: with the cores full of direct calls, the rule ({@link RouteChoice#choose}) sees only the
 * callers that got a core. Virtual threads that run direct calls back to back keep their carriers, so
 * the callers queued behind them are in no count, and the batch route's refreshes, whose completions
 * wait for a carrier behind the direct calls, look slow: the calls stay direct however many callers
 * wait. In a closed loop the callers' demand is hidden (Little's law), and the only measure the
 * router can trust there is the calls completed per second.
 *
 * <p>The states, advanced by {@link #tick} at each sampling interval of the router:
 * <ul>
 *   <li><b>following</b> the rule. When the rule keeps the calls direct while direct calls fill the
 *       cores and the callers are more than the cores (by the count, or because a batched call
 *       waited long for a core: {@code Router.starvedAt}), for {@value #STREAK} intervals, and the
 *       back-off has passed, a trial of the batch route starts, against the rate of the last two
 *       intervals;</li>
 *   <li><b>trial</b>: every call takes the route tried for one interval (for the calls of the other
 *       route to end and batches to form), then for at least {@value #MEASURE_MILLIS} ms, whose
 *       rate is compared. The route tried wins when it completes {@value #MARGIN_PERCENT} % more
 *       calls per second; a trial that keeps the route doubles the back-off (up to
 *       {@value #MAX_BACKOFF_MILLIS} ms, so that a host where the direct route really is better
 *       pays one trial every few seconds), one that changes it resets it to
 *       {@value #MIN_BACKOFF_MILLIS} ms;</li>
 *   <li><b>holding</b> the batch route after a trial it won: every call batches, whatever the rule
 *       says, until the calls in flight (now all counted, for a batched caller waits in flight)
 *       fall within the cores or the calls stop; then the rule decides again. While the rule would
 *       send the calls direct, the direct route is tried against the held one, with the same
 *       back-off.</li>
 * </ul>
 * With no more callers than cores nothing is tried: there the rule sees every caller.
 * A pause of the calls (no sample for {@value #IDLE_MILLIS} ms; outside a trial, also an interval
 * in which none ended) ends a trial or a hold and resets the back-off: the load that follows is a
 * new one. A trial's interval with no call ended only counts against the route tried.
 *
 * <p>Thread-safety: {@link #ended}, {@link #imposed} and {@link #ruleChose} from any caller;
 * {@link #tick} from the router's sampler (serialized here). No clock of its own: every time is
 * handed in, so that a test drives it on a fake clock.
 */
final class SaturationTrial {
    /** Intervals the rule must keep the calls direct on full cores before a trial. */
    static final int STREAK = 3;
    /** The least time a trial's rate is measured over, after its settling interval. */
    static final long MEASURE_MILLIS = 40;
    static final long MIN_BACKOFF_MILLIS = 200;
    static final long MAX_BACKOFF_MILLIS = 3_200;
    /** How much more a route tried must complete to take the calls over: 10 %. */
    static final int MARGIN_PERCENT = 10;
    /** A trial with fewer calls in its measurement decides nothing. */
    static final int MIN_CALLS = 32;
    /** No sample for this long: the calls paused. */
    static final long IDLE_MILLIS = 200;

    private static final long MILLIS = 1_000_000;

    private enum State { FOLLOWING, TRIAL, HOLDING }

    private final CallCounter ended = new CallCounter(Runtime.getRuntime().availableProcessors());
    /** The route every call takes now, or null: the rule decides. */
    private volatile Route imposed;
    /** Whether the rule itself, asked last, sent the calls to the batcher. */
    private volatile boolean ruleBatches;

    // The rest is written by tick only, under this object's lock.
    private State state = State.FOLLOWING;
    private Route tried;
    private int streak;
    private long backoff = MIN_BACKOFF_MILLIS * MILLIS;
    private long nextTrialAt;
    /** The calls per nanosecond the trial must beat. */
    private double baseline;
    /** When the trial's measurement began (after its settling interval), and the calls ended then; 0: settling. */
    private long measureAt;
    private long measureEnded;
    /** The last tick and the one before it: when, and the calls ended by then. */
    private long tickAt;
    private long tickEnded;
    private long prevAt;
    private long prevEnded;
    private boolean ticked;
    private volatile long trials;
    private volatile long won;

    /** @param now when the router was made, on its clock */
    SaturationTrial(long now) {
        this.nextTrialAt = now;
        this.tickAt = now;
        this.prevAt = now;
    }

    /** A call of this operation and set ended (on any route). */
    void ended() {
        ended.increment();
    }

    /** The calls of this operation and set that have ended. */
    long endedCount() {
        return ended.sum();
    }

    /** The route every call takes now ({@link Route#DIRECT} or {@link Route#BATCH}), or null: the rule decides. */
    Route imposed() {
        return imposed;
    }

    /** Records the rule's own choice for a call, whatever route was imposed. */
    void ruleChose(Route r) {
        boolean batch = r == Route.BATCH;
        if (ruleBatches != batch) {
            ruleBatches = batch;
        }
    }

    /** Trials run since the router was made. */
    long trials() {
        return trials;
    }

    /** Trials whose route won and took the calls over. */
    long won() {
        return won;
    }

    /**
     * One sampling interval has ended at {@code now}.
     *
     * @param coresFull   whether direct calls filled the cores at some time in the interval
     * @param crowded     whether there are more callers than cores, by the router's count or by
     *                    the evidence of callers it cannot count
     * @param withinCores whether the router counted no more calls in flight than cores
     */
    synchronized void tick(long now, boolean coresFull, boolean crowded, boolean withinCores) {
        long n = ended.sum();
        boolean idle = !ticked || now - tickAt > IDLE_MILLIS * MILLIS;
        boolean quiet = idle || n == tickEnded;
        switch (state) {
            case FOLLOWING:
                if (quiet) {
                    streak = 0;
                    backoff = MIN_BACKOFF_MILLIS * MILLIS;
                    nextTrialAt = now;
                } else {
                    streak = !ruleBatches && coresFull && crowded ? streak + 1 : 0;
                    if (streak >= STREAK && now - nextTrialAt >= 0) {
                        start(Route.BATCH, n, now);
                    }
                }
                break;
            case HOLDING:
                if (quiet || withinCores) {
                    follow(now, quiet);
                } else {
                    streak = ruleBatches ? 0 : streak + 1;
                    if (streak >= STREAK && now - nextTrialAt >= 0) {
                        start(Route.DIRECT, n, now);
                    }
                }
                break;
            case TRIAL:
                if (idle) {
                    follow(now, true);
                } else if (measureAt == 0) {
                    measureAt = now;
                    measureEnded = n;
                } else if (now - measureAt >= MEASURE_MILLIS * MILLIS) {
                    decide(n, now);
                }
                break;
            default:
                throw new IllegalStateException(state.name());
        }
        prevAt = tickAt;
        prevEnded = tickEnded;
        tickAt = now;
        tickEnded = n;
        ticked = true;
    }

    /** Starts a trial of {@code route} against the rate of the last two intervals. */
    private void start(Route route, long n, long now) {
        baseline = (double) (n - prevEnded) / Math.max(1, now - prevAt);
        tried = route;
        state = State.TRIAL;
        measureAt = 0;
        trials++;
        imposed = route;
    }

    private void decide(long n, long now) {
        long calls = n - measureEnded;
        double rate = (double) calls / (now - measureAt);
        boolean wins = calls >= MIN_CALLS && rate > baseline * (100 + MARGIN_PERCENT) / 100;
        Route kept = wins ? tried : tried == Route.BATCH ? Route.DIRECT : Route.BATCH;
        if (wins) {
            this.won++;
            backoff = MIN_BACKOFF_MILLIS * MILLIS;
        } else {
            backoff = Math.min(2 * backoff, MAX_BACKOFF_MILLIS * MILLIS);
        }
        nextTrialAt = now + backoff;
        streak = 0;
        if (kept == Route.BATCH) {
            state = State.HOLDING;
            imposed = Route.BATCH;
        } else {
            state = State.FOLLOWING;
            imposed = null;
        }
    }

    /** The rule decides again; after a pause, with the back-off reset. */
    private void follow(long now, boolean paused) {
        state = State.FOLLOWING;
        imposed = null;
        streak = 0;
        if (paused) {
            backoff = MIN_BACKOFF_MILLIS * MILLIS;
            nextTrialAt = now;
        }
    }
}
