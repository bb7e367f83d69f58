package io.dilithiumgpu.bench;

import org.HdrHistogram.Histogram;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Concurrent callers of a blocking operation, the way a server's request handlers call
 * {@code Signature.sign()}: virtual threads on JDK 21 and later (looked up by reflection, since
 * the code is compiled for release 17), platform threads before.
 *
 * <p>Two load models:
 * <ul>
 *   <li>{@link #closedLoop}: a fixed number of callers, each starting its next call as soon as the
 *       last one returns. Measures throughput at that concurrency.</li>
 *   <li>{@link #openLoop}: calls arrive on a fixed schedule whatever the state of earlier calls.
 *       Latency is measured from each call's scheduled arrival, so a stall counts against every
 *       call it delayed (no coordinated omission).</li>
 * </ul>
 */
final class Callers {
    /** How long to wait for calls still running when a measurement ends. */
    private static final long DRAIN_SECONDS = 120;
    /** The most calls one open-loop run schedules. */
    static final int MAX_OPEN_LOOP_CALLS = 50_000_000;
    /** Latencies are recorded to three significant digits (HdrHistogram): 0.1 % resolution at any size. */
    static final int LATENCY_DIGITS = 3;
    /** The most threads that issue an open loop's calls: half the cores, at least 1, at most 8. */
    static final int ISSUERS = Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors() / 2));
    /** The calls a second one issuing thread is dealt ({@link #issuers}). */
    static final double CALLS_PER_ISSUER = 200_000;

    private static final Method VIRTUAL_EXECUTOR = findVirtualExecutor();
    /** {@code Thread.ofVirtual().factory()}, or null before JDK 21. */
    private static final ThreadFactory VIRTUAL_THREADS = findVirtualThreads();

    private Callers() {}

    /** One caller's operation. A caller object is used by one thread at a time. */
    interface Call {
        void call() throws Exception;
    }

    /** Makes the state of one caller: its own {@code Signature} object, say. */
    interface CallFactory<C extends Call> {
        C create() throws Exception;
    }

    /**
     * The result of a closed-loop run: the throughput, every caller (for checking afterwards), the
     * process's CPU use over the measured window ({@link CpuUse#since}), and the heap bytes
     * allocated per call in it ({@link Allocated#perCall}), the collections in it ({@link GcTime#since}),
     * and the JIT's work in it ({@link JitActivity}).
     */
    record ClosedLoopResult<C extends Call>(double opsPerSecond, long calls, List<C> callers, String cpu,
                                            String allocated, String gc, String jit) {}

    /**
     * The system property that makes callers platform threads where virtual threads exist
     * ({@code -Dbench.threads=platform}), to compare the two.
     */
    static final String THREADS_PROPERTY = "bench.threads";

    private static boolean platformAsked() {
        return "platform".equals(System.getProperty(THREADS_PROPERTY));
    }

    /** {@code "virtual threads"}, or {@code "platform threads"} with the reason. */
    static String threadKind() {
        if (VIRTUAL_EXECUTOR == null) {
            return "platform threads (virtual threads need JDK 21; this is " + Runtime.version().feature() + ")";
        }
        return platformAsked() ? "platform threads (" + THREADS_PROPERTY + "=platform)" : "virtual threads";
    }

    /**
     * An executor that runs each task on a thread of its own: a virtual thread where there are
     * any (unless {@value #THREADS_PROPERTY} asks for platform threads), else a platform thread
     * reused between tasks.
     */
    static ExecutorService newExecutor() {
        if (VIRTUAL_EXECUTOR != null && !platformAsked()) {
            try {
                return (ExecutorService) VIRTUAL_EXECUTOR.invoke(null);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Executors.newVirtualThreadPerTaskExecutor failed", e);
            }
        }
        return Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "bench-caller");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Runs each task on a new thread of its own, as {@link #newExecutor()} does, but where virtual
     * threads exist without an executor's set of its threads: every thread started adds itself to such
     * a set and removes itself as it ends, shared memory that every call of an open loop would touch.
     * Before JDK 21 (or with {@value #THREADS_PROPERTY}{@code =platform}) it is {@link #newExecutor()}'s
     * pool, to be shut down after use.
     */
    static Executor newThreadPerCall() {
        if (VIRTUAL_THREADS != null && !platformAsked()) {
            return task -> VIRTUAL_THREADS.newThread(task).start();
        }
        return newExecutor();
    }

    /**
     * Runs {@code callers} callers, each repeating its call, for {@code warmupNanos} and then
     * {@code measureNanos}; counts the calls that complete in the measured window.
     *
     * @throws Exception the first exception any call threw (no result is reported then)
     */
    static <C extends Call> ClosedLoopResult<C> closedLoop(int callers, CallFactory<C> factory,
                                                           long warmupNanos, long measureNanos) throws Exception {
        final int warmup = 0;
        final int measure = 1;
        final int stop = 2;
        AtomicInteger phase = new AtomicInteger(warmup);
        LongAdder done = new LongAdder();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch finished = new CountDownLatch(callers);
        List<C> made = Collections.synchronizedList(new ArrayList<>());
        ExecutorService executor = newExecutor();
        long start;
        long end;
        CpuUse cpuStart;
        CpuUse cpuEnd;
        long allocatedStart;
        long allocatedEnd;
        GcTime gcStart;
        GcTime gcEnd;
        JitActivity jit = JitActivity.ofThisJvm();
        long jitStart;
        long jitEnd;
        try {
            for (int i = 0; i < callers; i++) {
                executor.execute(() -> {
                    // Counted here and added once at the end: a counter shared by thousands of
                    // callers costs each call a cache line from another core, CPU charged to the
                    // provider under test.
                    long measured = 0;
                    try {
                        C caller = factory.create();
                        made.add(caller);
                        while (phase.get() != stop && failure.get() == null) {
                            caller.call();
                            if (phase.get() == measure) {
                                measured++;
                            }
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    } finally {
                        done.add(measured);
                        finished.countDown();
                    }
                });
            }
            sleepNanos(warmupNanos);
            cpuStart = CpuUse.snapshot();
            allocatedStart = Allocated.now();
            gcStart = GcTime.now();
            jitStart = jit == null ? 0 : jit.nanos();
            phase.set(measure);
            start = System.nanoTime();
            sleepNanos(measureNanos);
            phase.set(stop);
            end = System.nanoTime();
            allocatedEnd = Allocated.now();
            gcEnd = GcTime.now();
            jitEnd = jit == null ? 0 : jit.nanos();
            cpuEnd = CpuUse.snapshot();
            if (!finished.await(DRAIN_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("callers still busy " + DRAIN_SECONDS + " s after the run ended");
            }
        } finally {
            executor.shutdownNow();
        }
        rethrow(failure.get());
        long calls = done.sum();
        return new ClosedLoopResult<>(Stats.opsPerSecond(calls, end - start), calls, List.copyOf(made),
                cpuEnd.since(cpuStart, calls), Allocated.perCall(allocatedStart, allocatedEnd, calls), gcEnd.since(gcStart),
                jit == null ? "jit: not shown" : "jit: " + jit.between(jitStart, jitEnd));
    }

    /**
     * An open loop's outcome: the latency of every measured call in nanoseconds, from its scheduled
     * arrival to its return, and the whole run (lead-in included) in windows of arrival time.
     */
    record OpenLoopResult(Histogram latency, List<OpenLoopTimeline.Window> timeline) {
        /** Every call of the run, the lead-in's included: what the process's CPU and allocation over the run served. */
        long calls() {
            return timeline.stream().mapToLong(OpenLoopTimeline.Window::calls).sum();
        }

        /** How long the lead-in ran: its windows' time. */
        long leadInNanos() {
            return timeline.stream().filter(w -> w.startMillis() < 0).count() * OpenLoopTimeline.WINDOW_NANOS;
        }
    }

    /** {@link #openLoop(double, LeadIn, long, CallFactory, int, OpenLoopTimeline.RouteCounts)} by {@link #issuers} threads, no router. */
    static OpenLoopResult openLoop(double ratePerSecond, LeadIn lead, long durationNanos,
                                   CallFactory<? extends Call> factory) throws Exception {
        return openLoop(ratePerSecond, lead, durationNanos, factory, issuers(ratePerSecond), null);
    }

    /**
     * The threads that issue an open loop at {@code ratePerSecond}: one per {@link #CALLS_PER_ISSUER}
     * calls a second, at most {@link #ISSUERS}. Each issuer wakes for its own calls and issues all those
     * due; a wake-up costs the host more CPU than issuing a call, and issuers spread thinner than the
     * rate needs each wake for fewer calls, down to one wake-up per call.
     */
    static int issuers(double ratePerSecond) {
        return (int) Math.max(1, Math.min(ISSUERS, Math.ceil(ratePerSecond / CALLS_PER_ISSUER)));
    }

    /**
     * Issues calls at {@code ratePerSecond}, first unmeasured for a lead-in, then measured for
     * {@code durationNanos}, each on a new thread of its own ({@link #newThreadPerCall}) and with a caller
     * object taken from a pool (made by {@code factory} when none is idle). The lead-in runs the same
     * schedule, so that the measured calls meet a system already at that load, with the JIT done
     * compiling: the thread-per-call path runs in no closed loop, and HotSpot compiles a method when
     * its calls reach a count, so at a low rate well after an open loop began. The lead-in lasts at
     * least {@code lead.minNanos()}, then until the compiler threads are quiet over the last windows
     * ({@link OpenLoopTimeline}), at most {@code lead.maxNanos()}. The schedule is dealt to
     * {@code issuers} platform threads, call i to issuer i mod their number ({@link #issuers}): one
     * thread starting every call fell behind its schedule at a million calls per second, and its lag
     * counted as the calls' latency. Each issuer issues every call due when it wakes.
     *
     * <p>The harness's own work per call is CPU taken from the provider under test, so a call touches
     * no counter that other calls share: it records its times in its {@link OpenLoopStripe}, call i in
     * stripe i mod their number, merged at the end. When a call fails, no further call is issued, and
     * the failure is thrown once the calls already issued have ended.
     *
     * @param routes the router whose share of batched calls each window shows, or null
     * @throws Exception the first exception any call threw
     */
    static OpenLoopResult openLoop(double ratePerSecond, LeadIn lead, long durationNanos,
                                   CallFactory<? extends Call> factory, int issuers,
                                   OpenLoopTimeline.RouteCounts routes) throws Exception {
        double interval = 1e9 / ratePerSecond;
        long measured = Math.round(ratePerSecond * durationNanos / 1e9);
        // Room for the measured part and the sampler deciding its start two windows ahead, and as much
        // lead-in as the bound and the most calls allow.
        long room = durationNanos + 3 * OpenLoopTimeline.WINDOW_NANOS;
        long maxLeadIn = Math.min(lead.maxNanos(), (long) (MAX_OPEN_LOOP_CALLS * interval) - room);
        if (measured < 1 || maxLeadIn < lead.minNanos()) {
            throw new IllegalArgumentException("open loop of " + measured + " measured calls after a lead-in of "
                    + lead.minNanos() + " ns or more: rate or durations out of range");
        }
        int maxCalls = (int) Math.ceil((maxLeadIn + room) / interval);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int threads = Math.max(1, issuers);
        long[] issued = new long[threads];
        Executor starter = newThreadPerCall();
        List<Thread> issuing = new ArrayList<>();
        long origin = System.nanoTime();
        OpenLoopTimeline timeline = new OpenLoopTimeline(origin, interval, maxCalls, lead.minNanos(), maxLeadIn,
                routes);
        OpenLoopStripe[] stripes = new OpenLoopStripe[OpenLoopStripe.count(Runtime.getRuntime().availableProcessors())];
        for (int s = 0; s < stripes.length; s++) {
            stripes[s] = new OpenLoopStripe(timeline.newTally());
        }
        try {
            for (int k = 0; k < threads; k++) {
                int first = k;
                Thread issuer = new Thread(() -> {
                    long n = 0;
                    for (int i = first; i < maxCalls && failure.get() == null; i += threads) {
                        final int call = i;
                        final long offset = (long) (i * interval);
                        if (offset >= timeline.measuredStart() + durationNanos) {
                            break;
                        }
                        final long due = origin + offset;
                        long now;
                        while ((now = System.nanoTime()) < due) {
                            LockSupport.parkNanos(due - now);
                        }
                        final long late = now - due;
                        OpenLoopStripe stripe = stripes[call & (stripes.length - 1)];
                        n++;
                        try {
                            starter.execute(() -> stripe.run(factory, call, offset, due, late, timeline, failure));
                        } catch (Throwable t) {
                            failure.compareAndSet(null, t);
                            stripe.ended();
                        }
                    }
                    issued[first] = n;
                }, "bench-issuer-" + k);
                issuer.setDaemon(true);
                issuing.add(issuer);
                issuer.start();
            }
            long all = 0;
            for (int k = 0; k < threads; k++) {
                issuing.get(k).join();
                all += issued[k];
            }
            if (!OpenLoopStripe.awaitEnded(stripes, all, TimeUnit.SECONDS.toNanos(DRAIN_SECONDS))) {
                IllegalStateException busy = new IllegalStateException("calls still busy " + DRAIN_SECONDS
                        + " s after the last arrival");
                Throwable first = failure.get();
                if (first != null) {
                    first.addSuppressed(busy);
                    rethrow(first);
                }
                throw busy;
            }
        } finally {
            if (starter instanceof ExecutorService pool) {
                pool.shutdownNow();
            }
            timeline.stop();
        }
        rethrow(failure.get());
        return new OpenLoopResult(OpenLoopStripe.measured(stripes), timeline.windows());
    }

    /**
     * An open loop's unmeasured lead-in: at least {@code minNanos}, then until the JIT is quiet, at
     * most {@code maxNanos}; {@link #fixed} for one of a set length.
     */
    record LeadIn(long minNanos, long maxNanos) {
        LeadIn {
            if (minNanos < 0 || maxNanos < minNanos) {
                throw new IllegalArgumentException("lead-in of " + minNanos + " to " + maxNanos + " ns");
            }
        }

        /** A lead-in of about {@code nanos} (to a window's start after it), whatever the JIT does meanwhile. */
        static LeadIn fixed(long nanos) {
            return new LeadIn(nanos, nanos);
        }
    }

    /**
     * 1 for a call due {@code offset} after call 0 when the measured part starts {@code start} after
     * it ({@link OpenLoopTimeline#measuredStart}), else 0, without a branch.
     */
    static int measuredPart(long offset, long start) {
        return (int) ((start - offset - 1) >>> 63);
    }

    private static void sleepNanos(long nanos) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(nanos);
    }

    private static void rethrow(Throwable t) throws Exception {
        if (t == null) {
            return;
        }
        if (t instanceof Exception e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }

    private static ThreadFactory findVirtualThreads() {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            return (ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    private static Method findVirtualExecutor() {
        try {
            return Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
