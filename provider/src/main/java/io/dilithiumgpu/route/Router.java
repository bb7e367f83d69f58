package io.dilithiumgpu.route;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.ProviderThreads;
import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Scheme;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Chooses the route of each JCA signature and verification ({@link Route}) from costs it measures
 * as the calls run, by the rule of {@link RouteChoice}: per operation and set, the time of a call on
 * its caller's thread (with this provider's core, and with the JDK's ML-DSA where that runs it), the
 * round trip of a call through the batcher (and at the load it carries: {@link LoadedRoundTrip}),
 * and this provider's calls in flight.
 *
 * <p>An estimate needs calls to stay current: each route a call could take is tried by every call
 * until {@link Estimate#WARM_SAMPLES} calls have measured it (direct calls only while a core is
 * free for them), and afterwards by one call whenever it has gone {@value #REFRESH_MILLIS} ms
 * without one; a direct engine passed over for the batch route is probed at once, one call at a
 * time, while its last call says it would win ({@link Estimate#claimProbe}), and measured again by
 * the next call when the calls in flight fall within the cores. Between the two signing engines
 * a duel a second decides, both engines measured in one window ({@link EngineDuel}); it runs again
 * at once when the calls in flight fall within the cores. The calls in flight are sampled every
 * {@value #SAMPLE_MILLIS} ms by one caller. While direct calls fill the cores and there are more
 * callers than cores (more calls in flight, or a batched call lately waited more than an interval
 * for a core), the rule's view of the load is not trusted: the other route is tried by the calls
 * it completes per second, and the route that completes more keeps them ({@link SaturationTrial}).
 * While other work keeps the process's cores busy, a call the rule sends direct goes to the
 * batcher when that costs the host less CPU ({@link HostLoad}, {@link RouteChoice#forBusyHost}).
 * With the CPU backend every call runs direct, nothing is sampled or counted for the rule, no
 * caller yields, and the two engines' estimates are measured only by the signatures the engine
 * choice sends them: no refresh, for no rule reads them.
 *
 * <p>Use: {@link #route} (or {@link #toJdk}) decides, {@link #started} and {@link #ended} bracket the
 * call. Thread-safe; a call costs a few volatile reads, a counter increment and two clock reads.
 */
public final class Router implements RouterMXBean {
    /** The JMX name of the shared router. */
    public static final String MBEAN_NAME = "io.dilithiumgpu:type=Router";
    static final long REFRESH_MILLIS = 50;
    static final long SAMPLE_MILLIS = 20;
    /** The spare cores ({@link #spareCores}) from which a covered signature goes to the core rather than the duel's engine. */
    static final int SPREAD_CORES = 2;
    /** How long a batched call's wait for a core longer than a sampling interval counts as callers hidden from the count. */
    static final long STARVED_MILLIS = 1_000;
    private static final long STARVED_NANOS = STARVED_MILLIS * 1_000_000;
    private static final long REFRESH_NANOS = REFRESH_MILLIS * 1_000_000;
    private static final long SAMPLE_NANOS = SAMPLE_MILLIS * 1_000_000;
    private static final System.Logger LOG = System.getLogger(Router.class.getName());

    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final MethodHandle IS_VIRTUAL = findIsVirtual();
    private static volatile Router shared;

    /** Estimate kinds, the last index of {@link #estimates}. */
    private static final int CORE = 0;
    private static final int JDK = 1;
    private static final int BATCH = 2;
    private static final String[] KIND_NAMES = {"direct", "jdk", "batch"};
    /** Why {@link #route} sent a call to its caller's thread beside a GPU, the indices of {@link #directBy}. */
    private static final String[] DIRECT_REASONS = {"measure", "rule", "probe", "trial"};
    private static final int BY_MEASURE = 0;
    private static final int BY_RULE = 1;
    private static final int BY_PROBE = 2;
    private static final int BY_TRIAL = 3;

    private final BooleanSupplier batchOnGpuProbe;
    private final LongSupplier clock;
    private final int cores;
    /** Whether the core's direct signatures share their attempts with helpers on spare cores. */
    private final boolean spreads;
    /** [SIGN, VERIFY][set][CORE, JDK, BATCH]. */
    private final Estimate[][][] estimates;
    /** [SIGN, VERIFY][set]: the batch route's round trip while it carries the calls. */
    private final LoadedRoundTrip[][] loaded;
    /** Per set: the choice between the two signing engines for the signatures the JDK covers. */
    private final EngineDuel[] duels;
    /** [SIGN, VERIFY][set]: the other route's trial by throughput while the cores are full. */
    private final SaturationTrial[][] trials;
    /** Whether the process keeps its cores busy, and what a batched call costs the host. */
    private final HostLoad host;
    /** Calls the rule sent direct that went to the batcher because the host's cores were busy. */
    private final LongAdder hostBatchCount = new LongAdder();
    /** The calls {@link #route} sent to their callers' threads beside a GPU, by {@link #DIRECT_REASONS}. */
    private final LongAdder[] directBy = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};

    /** 0: not known yet; 1: the batcher runs on a GPU; 2: on the CPU. */
    private volatile int batchOnGpu;
    private final AtomicInteger directRunning = new AtomicInteger();
    private final CallCounter directCount;
    private final CallCounter batchCount;
    private final CallCounter jdkCount;
    /**
     * Calls started that did not run after all ({@link #cancelled}); the calls that ended are
     * counted by their operation's and set's trial, one counter a call.
     */
    private final CallCounter cancelledCount;
    /** Threads that ran a direct call since the sampling interval began (each counted once, see {@link #countCaller}). */
    private final CallCounter callersNow;
    /** The sampling interval a thread last counted itself in, per thread (per caller, in a test). */
    private final Supplier<int[]> lastInterval;
    /** The sampling interval, advanced at each sample. */
    private volatile int interval;
    private final AtomicLong sampledAt;
    /** Routed calls in flight over every route, as last sampled. */
    private volatile int inFlight;
    /** The most direct calls running at once since {@link #runningPeakSince}, and in the interval before ({@link #spareCores}). */
    private volatile int runningPeak;
    private volatile int lastRunningPeak;
    private volatile long runningPeakSince;
    /**
     * When a direct call last started or ended with the cores full of direct calls: a batched call
     * that ran across that time waited for a core behind them, and its round trip says nothing of
     * the batch route carrying the calls ({@link #ended(Operation, ParameterSet, Route, long, long)}).
     */
    private volatile long saturatedAt;
    /**
     * When a batched call last ended more than {@value #SAMPLE_MILLIS} ms after the backend had its
     * outcome: its completion or its woken caller waited that long for a core, so that callers
     * wait for one unseen (virtual threads queued for a carrier behind direct calls that never
     * yield it), however few calls the count finds in flight.
     */
    private volatile long starvedAt;

    /**
     * @param batchOnGpu whether the batcher's backend is a GPU; asked once, when a call first needs it
     * @param clock      nanoseconds, as {@link System#nanoTime()}
     * @param cores      the cores on which callers' direct calls run at once ({@link CallerCores})
     */
    Router(BooleanSupplier batchOnGpu, LongSupplier clock, int cores) {
        this(batchOnGpu, clock, cores, ThreadLocal.withInitial(() -> new int[] {-1})::get);
    }

    /**
     * As {@link #Router(BooleanSupplier, LongSupplier, int)}, weighing the host's cores by
     * {@code host} (the other constructors: a host never known busy).
     */
    Router(BooleanSupplier batchOnGpu, LongSupplier clock, int cores, HostLoad host) {
        this(batchOnGpu, clock, cores, host, false);
    }

    /**
     * As {@link #Router(BooleanSupplier, LongSupplier, int, HostLoad)}; {@code spreads}: whether the
     * core's direct signatures share their rejection loops with helpers on the spare cores
     * ({@link #spareCores}), as the provider's do, so that a covered signature goes to the core
     * while {@value #SPREAD_CORES} or more cores are spare (the other constructors: they do not,
     * and the duel alone chooses the engine).
     */
    Router(BooleanSupplier batchOnGpu, LongSupplier clock, int cores, HostLoad host, boolean spreads) {
        this(batchOnGpu, clock, cores, ThreadLocal.withInitial(() -> new int[] {-1})::get, host, spreads);
    }

    /**
     * As {@link #Router(BooleanSupplier, LongSupplier, int)}, with each caller's slot for the
     * sampling interval it last counted itself in ({@code {-1}} at first): the current thread's, or a
     * simulated caller's.
     */
    Router(BooleanSupplier batchOnGpu, LongSupplier clock, int cores, Supplier<int[]> callerSlot) {
        this(batchOnGpu, clock, cores, callerSlot, new HostLoad(() -> -1, () -> -1, cores), false);
    }

    private Router(BooleanSupplier batchOnGpu, LongSupplier clock, int cores, Supplier<int[]> callerSlot,
                   HostLoad host, boolean spreads) {
        this.host = host;
        this.spreads = spreads;
        this.lastInterval = callerSlot;
        this.batchOnGpuProbe = batchOnGpu;
        this.clock = clock;
        this.cores = cores;
        this.directCount = new CallCounter(cores);
        this.batchCount = new CallCounter(cores);
        this.jdkCount = new CallCounter(cores);
        this.cancelledCount = new CallCounter(cores);
        this.callersNow = new CallCounter(cores);
        this.estimates = new Estimate[2][ParameterSet.values().length][3];
        for (Estimate[][] byOp : estimates) {
            for (Estimate[] bySet : byOp) {
                for (int k = 0; k < bySet.length; k++) {
                    bySet[k] = new Estimate();
                }
            }
        }
        this.duels = new EngineDuel[ParameterSet.values().length];
        for (int i = 0; i < duels.length; i++) {
            duels[i] = new EngineDuel(clock.getAsLong());
        }
        this.loaded = new LoadedRoundTrip[2][ParameterSet.values().length];
        for (LoadedRoundTrip[] byOp : loaded) {
            for (int i = 0; i < byOp.length; i++) {
                byOp[i] = new LoadedRoundTrip();
            }
        }
        this.sampledAt = new AtomicLong(clock.getAsLong());
        this.saturatedAt = sampledAt.get();
        this.starvedAt = sampledAt.get() - STARVED_NANOS - 1;
        this.trials = new SaturationTrial[2][ParameterSet.values().length];
        for (SaturationTrial[] byOp : trials) {
            for (int i = 0; i < byOp.length; i++) {
                byOp[i] = new SaturationTrial(sampledAt.get());
            }
        }
    }

    /**
     * The router of every JCA Signature of the provider, made on first use, with its MBean registered
     * as {@value #MBEAN_NAME}. The batcher it routes to is the shared one ({@link Engines#shared()}),
     * opened when a call first needs to know its backend.
     */
    public static Router shared() {
        Router r = shared;
        if (r != null) {
            return r;
        }
        LOCK.lock();
        try {
            if (shared == null) {
                int processors = Runtime.getRuntime().availableProcessors();
                Router made = new Router(() -> !"cpu".equals(Engines.sharedBatcher().metrics().getBackend()),
                        System::nanoTime, CallerCores.current(),
                        new HostLoad(Router::processCpuNanos, ProviderThreads::cpuNanosSinceLastRead, processors), true);
                register(made);
                shared = made;
            }
            return shared;
        } finally {
            LOCK.unlock();
        }
    }

    /**
     * The route of a signature or verification that this provider's engine computes (μ is known):
     * {@link Route#DIRECT} or {@link Route#BATCH}.
     *
     * @throws java.security.ProviderException when {@value RouteSetting#PROPERTY} is invalid, or the
     *         batcher, opened to learn its backend, cannot open
     */
    public Route route(Operation op, ParameterSet p) {
        return route(op, p, false);
    }

    /**
     * As {@link #route(Operation, ParameterSet)}, for a signature the JDK's ML-DSA covers
     * ({@code jdkCovers}) that {@link #toJdk} left to this provider's engine: its direct time is
     * that of the faster engine, as {@link #toJdk} weighed it, so that a signature sent to the core
     * to measure it runs direct rather than in a batch the core alone would lose to.
     */
    public Route route(Operation op, ParameterSet p, boolean jdkCovers) {
        switch (RouteSetting.current()) {
            case DIRECT:
            case JDK:
                return Route.DIRECT;
            case BATCH:
                return Route.BATCH;
            default:
                break;
        }
        if (!batchOnGpu()) {
            return Route.DIRECT;
        }
        Estimate[] e = estimates(op, p);
        long now = clock.getAsLong();
        sample(now);
        int running = directRunning.get();
        if (running < cores && e[CORE].claim(now, REFRESH_NANOS)) {
            return direct(BY_MEASURE);
        }
        if (e[BATCH].claim(now, REFRESH_NANOS)) {
            return Route.BATCH;
        }
        LoadedRoundTrip l = loaded(op, p);
        long batch = batchCost(e[BATCH], l, now);
        long direct = jdkCovers && op == Operation.SIGN ? directSigning(p, e, now) : e[CORE].nanos();
        Route rule = RouteChoice.choose(true, direct, batch, inFlight, cores);
        Route r = RouteChoice.forBusyHost(rule, direct, host.batchNanos(), host.busy(), running, cores);
        SaturationTrial t = trial(op, p);
        t.ruleChose(r);
        Route imposed = t.imposed();
        if (imposed != null) {
            l.chose(imposed == Route.BATCH);
            return imposed == Route.DIRECT ? direct(BY_TRIAL) : imposed;
        }
        l.chose(r == Route.BATCH);
        if (r != rule) {
            // Not for its round trip: no probe of the direct engine, which would win on time alone.
            hostBatchCount.increment();
            return r;
        }
        if (r == Route.BATCH && running < cores && probes(e[CORE], batch, now)) {
            return direct(BY_PROBE);
        }
        return r == Route.DIRECT ? direct(BY_RULE) : r;
    }

    /** {@link Route#DIRECT}, counted under {@code reason} ({@link #getDirectReasons}). */
    private Route direct(int reason) {
        directBy[reason].increment();
        return Route.DIRECT;
    }

    /**
     * Whether a direct engine the rule passed over should take this call as a probe: its last
     * sample says it would win against the batch route's {@code batchNanos} at this load, though
     * its average says not (measured while its code was cold or the cores were busy). One call at a
     * time; each probe's time goes into the average and becomes the last sample, so the probes go
     * on only while they keep winning.
     */
    private boolean probes(Estimate direct, long batchNanos, long now) {
        long last = direct.last();
        return last != RouteChoice.UNKNOWN
                && RouteChoice.choose(true, last, batchNanos, inFlight, cores) == Route.DIRECT
                && direct.claimProbe(now, REFRESH_NANOS);
    }

    /**
     * For a signature the JDK's ML-DSA covers exactly (see {@code spi.JdkSigning}), decided when its
     * message starts: whether the JDK computes it on the caller's thread. Otherwise this provider's
     * engine takes the message, and {@link #route} decides at the end.
     */
    public boolean toJdk(ParameterSet p) {
        switch (RouteSetting.current()) {
            case JDK:
                return true;
            case DIRECT:
            case BATCH:
                return false;
            default:
                break;
        }
        Estimate[] e = estimates(Operation.SIGN, p);
        long now = clock.getAsLong();
        if (batchOnGpu()) {
            sample(now);
            Route imposed = trial(Operation.SIGN, p).imposed();
            if (imposed == Route.BATCH) {
                return false;
            }
            long direct = directSigning(p, e, now);
            long batch = batchCost(e[BATCH], loaded(Operation.SIGN, p), now);
            if (imposed == null && RouteChoice.choose(true, direct, batch, inFlight, cores) != Route.DIRECT) {
                // route() probes the core; the JDK's engine is probed here, the only place it can be
                return directRunning.get() < cores && probes(e[JDK], batch, now);
            }
            if (imposed == null && RouteChoice.forBusyHost(Route.DIRECT, direct, host.batchNanos(), host.busy(),
                    directRunning.get(), cores) == Route.BATCH) {
                return false;  // route() sends it to the batcher, for the same reason
            }
        } else if (e[JDK].warming()) {
            return true;
        } else if (e[CORE].warming()) {
            return false;
        }
        if (spreads && spareCores() >= SPREAD_CORES) {
            // Idle cores: the core signs with helpers on them (Scheme.sign), which the JDK's engine
            // cannot. Not left to the duel, which times the core by the one call in
            // RouteChoice.EXPLORE it takes (in runs, the first of each finding its helpers parked).
            return false;
        }
        return duels[p.ordinal()].toJdk(now);
    }

    /**
     * A call starts down {@code route}; returns the time to hand to {@link #ended}. A direct call of
     * a virtual thread first yields its carrier to the virtual threads queued for one while direct
     * calls fill the cores: a virtual thread keeps its carrier through back-to-back calls that never
     * block, so without the yield the callers queued behind it would never run (nor be counted, see
     * {@link #countCaller}). With a core free a queued caller has a carrier already, and the yield
     * would only move this one to another carrier, onto another core's cold caches. A platform
     * thread is time-sliced by the OS and does not yield. The callers, the yield and the cores'
     * saturation serve the rule between direct calls and the batcher: where the batcher is not
     * known to run on a GPU (the CPU backend, or a pinned route) a call skips them.
     */
    public long started(Route route) {
        if (route == Route.BATCH) {
            batchCount.increment();
            return clock.getAsLong();
        }
        boolean gpu = batchOnGpu == 1;
        if (gpu) {
            countCaller();
        }
        (route == Route.JDK ? jdkCount : directCount).increment();
        if (gpu && directRunning.get() >= cores) {
            yieldIfVirtual();
        }
        int running = directRunning.incrementAndGet();
        if (running > runningPeak) {
            runningPeak = running;
        }
        long now = clock.getAsLong();
        if (gpu && running >= cores) {
            saturatedAt = now;
        }
        return now;
    }

    /**
     * The call {@link #started} down {@code route} did not run there after all (the JDK's engine
     * refused the key, and the call goes on to {@link #route}): it leaves no time in the estimates.
     */
    public void cancelled(Route route) {
        if (route != Route.BATCH) {
            directRunning.decrementAndGet();
        }
        cancelledCount.increment();
    }

    /**
     * The call {@link #started} at {@code startedNanos} has ended, successfully or not: its time
     * goes into the route's estimate for the operation and set.
     */
    public void ended(Operation op, ParameterSet p, Route route, long startedNanos) {
        ended(op, p, route, startedNanos, 0);
    }

    /**
     * As {@link #ended(Operation, ParameterSet, Route, long)}, for a batched call whose outcome the
     * backend had at {@code readyNanos} (0: unknown, now): the estimate is the round trip to there.
     * The wait of its woken caller for a core is left out: it is the wait every call has while the
     * cores are busy, which the rule counts for direct calls (calls in flight per core), and a
     * round trip that counted it would grow with the very direct calls that fill the cores.
     */
    public void ended(Operation op, ParameterSet p, Route route, long startedNanos, long readyNanos) {
        long now = clock.getAsLong();
        long took = (readyNanos != 0 && readyNanos - startedNanos > 0 ? readyNanos : now) - startedNanos;
        if (route == Route.BATCH && readyNanos != 0 && now - readyNanos > SAMPLE_NANOS) {
            starvedAt = now;
        }
        if (route != Route.BATCH) {
            int running = directRunning.getAndDecrement();
            if (running >= cores && batchOnGpu == 1) {
                saturatedAt = now;
            }
            // Platform threads beyond the cores share them: the estimate is a call's time on a core
            // of its own (a virtual thread keeps its carrier until the call ends).
            if (running > cores) {
                took = took * cores / running;
            }
        }
        trial(op, p).ended();
        Estimate estimate = estimates(op, p)[route == Route.DIRECT ? CORE : route == Route.JDK ? JDK : BATCH];
        if (op == Operation.SIGN && route != Route.BATCH && !estimate.warming()) {
            // Warm-up signatures stay out: they ran while the engine's code was being compiled.
            duels[p.ordinal()].add(route == Route.JDK, took, startedNanos, now);
        }
        estimate.add(took, now);
        if (route == Route.BATCH) {
            LoadedRoundTrip l = loaded(op, p);
            if (l.chosen() && carried(startedNanos)) {
                l.add(took, now, inFlight);
            }
        }
    }

    /**
     * The cores a direct signature running now may add to its own for its rejection loop's
     * attempts ({@code Scheme.sign}'s helpers): the cores beyond one per call in flight, 0 once
     * the calls fill them. The calls in flight are the most that ran direct at once in this
     * sampling interval and the last (a caller between two calls still counts: two callers on two
     * cores take no helper when one of them is between calls) and, where the batcher runs on a
     * GPU, every route's as last sampled.
     */
    public int spareCores() {
        long now = clock.getAsLong();
        if (now - runningPeakSince > SAMPLE_NANOS) {
            // Racy by design: a window's peak is advice, and a lost update only shifts a window.
            lastRunningPeak = runningPeak;
            runningPeak = directRunning.get();
            runningPeakSince = now;
        }
        int calls = Math.max(Math.max(1, runningPeak), Math.max(lastRunningPeak, batchOnGpu == 1 ? inFlight : 0));
        return Math.max(0, cores / calls - 1);
    }

    /**
     * Whether a batched call started at {@code startedNanos} and ending now ran while the batch
     * route carried the calls: no time of it had the cores full of direct calls. Its round trip
     * otherwise counts the waits of the batcher's threads for a core behind the direct calls, which
     * would end once the calls went to the batcher; kept, they would price the batch route at the
     * cost of the very direct calls it would replace, and keep the calls direct.
     */
    private boolean carried(long startedNanos) {
        return saturatedAt - startedNanos < 0 && directRunning.get() < cores;
    }

    private Estimate[] estimates(Operation op, ParameterSet p) {
        if (op == Operation.KEYGEN) {
            throw new IllegalArgumentException("key generation is not routed");
        }
        return estimates[op == Operation.SIGN ? 0 : 1][p.ordinal()];
    }

    private LoadedRoundTrip loaded(Operation op, ParameterSet p) {
        return loaded[op == Operation.SIGN ? 0 : 1][p.ordinal()];
    }

    private SaturationTrial trial(Operation op, ParameterSet p) {
        return trials[op == Operation.SIGN ? 0 : 1][p.ordinal()];
    }

    private boolean batchOnGpu() {
        int known = batchOnGpu;
        if (known == 0) {
            known = batchOnGpuProbe.getAsBoolean() ? 1 : 2;
            batchOnGpu = known;
        }
        return known == 1;
    }

    /**
     * Counts the thread of a direct call once per sampling interval. The callers of an interval
     * stand for the calls that want a core: virtual threads that run direct calls back to back keep
     * their carriers, so the calls in flight alone would never show the threads queued behind them.
     * A batched call's thread waits in flight and is counted there; counted here too, the callers
     * of a batching load would stay in the count for an interval after they are gone.
     */
    private void countCaller() {
        int[] last = lastInterval.get();
        int now = interval;
        if (last[0] != now) {
            last[0] = now;
            callersNow.increment();
        }
    }

    /**
     * Samples the calls in flight again, by the first caller after
     * {@value #SAMPLE_MILLIS} ms.
     */
    private void sample(long now) {
        long last = sampledAt.get();
        if (now - last > SAMPLE_NANOS && sampledAt.compareAndSet(last, now)) {
            long ended = cancelledCount.sum() + sumOverTrials(SaturationTrial::endedCount);
            long started = directCount.sum() + batchCount.sum() + jdkCount.sum();
            long callers = callersNow.sumThenReset();
            interval++;
            host.sample(now, batchCount.sum());
            int was = inFlight;
            int n = (int) Math.max(0, Math.min(Integer.MAX_VALUE, Math.max(callers, started - ended)));
            inFlight = n;
            if (was > cores && n <= cores) {
                expireDirect(now);
            }
            boolean coresFull = saturatedAt - last >= 0;
            boolean crowded = n > cores || now - starvedAt < STARVED_NANOS;
            for (SaturationTrial[] byOp : trials) {
                for (SaturationTrial t : byOp) {
                    t.tick(now, coresFull, crowded, n <= cores);
                }
            }
        }
    }

    /**
     * The load has fallen within the cores: the direct engines' times, measured while the cores were
     * full (or while the batch route took the calls, and their code stayed cold), are measured
     * again by the next call rather than after their refresh interval, and the signing engines
     * duel again at once ({@link EngineDuel#restart}).
     */
    private void expireDirect(long now) {
        for (Estimate[][] byOp : estimates) {
            for (Estimate[] bySet : byOp) {
                bySet[CORE].expire(now, REFRESH_NANOS);
                bySet[JDK].expire(now, REFRESH_NANOS);
            }
        }
        for (EngineDuel d : duels) {
            d.restart(now);
        }
    }

    private static void yieldIfVirtual() {
        if (IS_VIRTUAL != null && isVirtual(Thread.currentThread())) {
            Thread.yield();
        }
    }

    private static boolean isVirtual(Thread t) {
        try {
            return (boolean) IS_VIRTUAL.invokeExact(t);
        } catch (Throwable e) {
            throw new IllegalStateException("Thread.isVirtual failed", e);
        }
    }

    /** {@code Thread.isVirtual()} where the JDK has it (21 and later; the provider compiles for 17). */
    private static MethodHandle findIsVirtual() {
        try {
            return MethodHandles.publicLookup()
                    .findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }

    /** The batch route's round trip for the rule ({@link RouteChoice#batchCost}). */
    private long batchCost(Estimate batch, LoadedRoundTrip l, long now) {
        return RouteChoice.batchCost(batch.nanos(), batch.floor(), l.nanos(now), l.load(), l.chosen(), inFlight, cores);
    }

    /**
     * A covered signature's direct time for the rule: with no more calls in flight than cores, the
     * engine in use's mean over the last duel ({@link EngineDuel}) while that is current; else the
     * faster of the two routes' averages. Not the averages there: weighted to the last eight calls,
     * they follow the rejection loop's long signatures and a collection's pause, which at a few
     * callers took the averages of both engines above the batch route's round trip for a few calls
     * at a time, and sent those calls to the batcher or the slower engine. Not a duel's means once
     * the signatures batch (no duel runs then; the averages' refreshes and probes see the direct
     * route come back), nor beyond the cores: a duel's mean is a signature's work alone, where the
     * averages measured at that load hold what the load adds; with the mean, the rule on a host of
     * many cores sent thousands of callers' signatures direct at a fraction of the batched rate
     * (docs/performance.md).
     */
    private long directSigning(ParameterSet p, Estimate[] e, long now) {
        EngineDuel d = duels[p.ordinal()];
        long cost = d.jdkInUse() ? d.jdkNanos() : d.coreNanos();
        return cost != RouteChoice.UNKNOWN && inFlight <= cores && d.current(now)
                ? cost : fastest(e[CORE].nanos(), e[JDK].nanos());
    }

    private static long fastest(long a, long b) {
        if (a == RouteChoice.UNKNOWN) {
            return b;
        }
        return b == RouteChoice.UNKNOWN ? a : Math.min(a, b);
    }

    /** The process's CPU time in nanoseconds, or -1 where the JVM does not report it. */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    private static void register(Router router) {
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(router, new ObjectName(MBEAN_NAME));
        } catch (JMException e) {
            LOG.log(System.Logger.Level.WARNING, "router MBean not registered as " + MBEAN_NAME + ": " + e);
        }
    }

    // ---- RouterMXBean

    @Override
    public String getSetting() {
        return RouteSetting.current().name().toLowerCase(Locale.ROOT);
    }

    @Override
    public long getDirectCount() {
        return directCount.sum();
    }

    @Override
    public long getBatchCount() {
        return batchCount.sum();
    }

    @Override
    public long getJdkCount() {
        return jdkCount.sum();
    }

    @Override
    public long getSharedSignatureCount() {
        return Scheme.sharedSignatureCount();
    }

    @Override
    public long getHelperAttemptCount() {
        return Scheme.helperAttemptCount();
    }

    @Override
    public int getDirectRunning() {
        return directRunning.get();
    }

    @Override
    public int getInFlight() {
        return inFlight;
    }

    @Override
    public boolean getHostBusy() {
        return host.busy();
    }

    @Override
    public long getBatchHostNanos() {
        return host.batchNanos();
    }

    @Override
    public long getHostBatchCount() {
        return hostBatchCount.sum();
    }

    @Override
    public Map<String, Long> getDirectReasons() {
        Map<String, Long> out = new TreeMap<>();
        for (int i = 0; i < DIRECT_REASONS.length; i++) {
            out.put(DIRECT_REASONS[i], directBy[i].sum());
        }
        return out;
    }

    @Override
    public long getTrialCount() {
        return sumOverTrials(SaturationTrial::trials);
    }

    @Override
    public long getTrialsWon() {
        return sumOverTrials(SaturationTrial::won);
    }

    private long sumOverTrials(ToLongFunction<SaturationTrial> count) {
        long n = 0;
        for (SaturationTrial[] byOp : trials) {
            for (SaturationTrial t : byOp) {
                n += count.applyAsLong(t);
            }
        }
        return n;
    }

    @Override
    public Map<String, Long> getEstimateNanos() {
        Map<String, Long> out = new TreeMap<>();
        for (ParameterSet p : ParameterSet.values()) {
            for (Operation op : new Operation[] {Operation.SIGN, Operation.VERIFY}) {
                Estimate[] e = estimates(op, p);
                for (int k = 0; k < e.length; k++) {
                    long n = e[k].nanos();
                    if (n != RouteChoice.UNKNOWN) {
                        out.put(p + " " + op.name().toLowerCase(Locale.ROOT) + " " + KIND_NAMES[k], n);
                    }
                }
            }
        }
        return out;
    }

    @Override
    public Map<String, Long> getEngineCostNanos() {
        Map<String, Long> out = new TreeMap<>();
        for (ParameterSet p : ParameterSet.values()) {
            for (int k : new int[] {CORE, JDK}) {
                long n = k == CORE ? duels[p.ordinal()].coreNanos() : duels[p.ordinal()].jdkNanos();
                if (n != RouteChoice.UNKNOWN) {
                    out.put(p + " " + (k == CORE ? "core" : "jdk"), n);
                }
            }
        }
        return out;
    }
}
