package io.dilithiumgpu.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * An open loop's calls in windows of their scheduled arrival, each with what ran on the host in
 * it, for telling a latency tail the load makes (calls queued behind calls) from one a stall makes
 * (a collection, the JIT, another process, a late issuer). A p99 over a whole run says how long
 * the slow calls took, not when or beside what.
 *
 * <p>Per window, from the calls due in it: how many, their mean and longest latency, and how late
 * the latest of them was issued (the issuing thread woke or got a core late) and started (its
 * thread got a carrier late); both lateness figures count from the scheduled arrival, so a call
 * started late by a late issue shows both. From a sampler thread that wakes at each window's end:
 * this process's CPU, the rest of the host's (Linux {@code /proc/stat}: another JVM, say), the
 * host's steal (a virtual machine's CPUs taken by its hypervisor), the JIT compiler threads' CPU
 * and the garbage collectors' pauses, and, for this project's provider, the share of its calls the
 * router sent to the batcher.
 */
final class OpenLoopTimeline {
    /** Width of a window. */
    static final long WINDOW_NANOS = 50_000_000L;
    /** {@link #measuredStart()} while the lead-in goes on: beyond every arrival. */
    static final long LEAD_IN = Long.MAX_VALUE / 2;
    /** A window whose slowest call took longer than this is a slow window (issue 17's target for p99). */
    static final long SLOW_NANOS = 10_000_000L;

    /** Counts that only grow, read at each window's end: {batched calls, all calls} of a router. */
    interface RouteCounts {
        long[] now();
    }

    /**
     * One window. Times in milliseconds, CPU in cores busy over the window ({@code NaN} where the
     * host does not show it).
     *
     * @param startMillis  the window's start from the measured part's start (negative in the lead-in; the
     *                     lead-in's first window may begin before its first call)
     * @param calls        calls due in the window (all of them returned)
     * @param issuedLate   the latest issue of a call after its scheduled arrival
     * @param startedLate  the latest start of a call's thread after its scheduled arrival
     * @param thisProcess  this process's CPU
     * @param otherCores   the rest of the host's busy CPU
     * @param stealCores   CPU the host's hypervisor took
     * @param jitMillis    the JIT compiler threads' CPU time
     * @param gcPauses     collections that paused the application (counted by their end)
     * @param gcMillis     their time
     * @param batched      the share of the calls ending in the window that the router batched ({@code NaN}:
     *                     no router counted, or no call ended)
     */
    record Window(double startMillis, long calls, double meanMillis, double maxMillis, double issuedLate,
                  double startedLate, double thisProcess, double otherCores, double stealCores, double jitMillis,
                  long gcPauses, long gcMillis, double batched) {
        boolean slow() {
            return maxMillis > SLOW_NANOS / 1e6;
        }

        /** The window's fields, comma-separated, in the order of the record (for a second JVM's reply). */
        String encode() {
            return startMillis + "," + calls + "," + meanMillis + "," + maxMillis + "," + issuedLate + ","
                    + startedLate + "," + thisProcess + "," + otherCores + "," + stealCores + "," + jitMillis + ","
                    + gcPauses + "," + gcMillis + "," + batched;
        }

        static Window decode(String text) {
            String[] f = text.split(",");
            if (f.length != 13) {
                throw new IllegalArgumentException("not a window: " + text);
            }
            return new Window(Double.parseDouble(f[0]), Long.parseLong(f[1]), Double.parseDouble(f[2]),
                    Double.parseDouble(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5]),
                    Double.parseDouble(f[6]), Double.parseDouble(f[7]), Double.parseDouble(f[8]),
                    Double.parseDouble(f[9]), Long.parseLong(f[10]), Long.parseLong(f[11]), Double.parseDouble(f[12]));
        }
    }

    private final long origin;
    private final double interval;
    private final long minLeadIn;
    private final long maxLeadIn;
    private final int windows;
    /**
     * {@link #measuredStart()}'s value, a window's start once the sampler has decided it (written by
     * the sampler only). Read by every call, so a plain load with no branch: a branch there compiles
     * during the lead-in with only its lead-in side taken, and where the measured part starts every
     * call in flight hit its trap at once (9,659 deoptimizations in the first milliseconds of one
     * verification run's measured part).
     */
    private volatile long measuredStartNanos = LEAD_IN;
    /** The calls' times, in the tallies handed out ({@link #newTally()}). */
    private final List<Tally> tallies = new CopyOnWriteArrayList<>();
    private final double[] thisProcess;
    private final double[] otherCores;
    private final double[] stealCores;
    private final double[] jitMillis;
    private final long[] gcPauses;
    private final long[] gcMillis;
    private final double[] batched;
    private final RouteCounts routes;
    private volatile boolean sampling = true;
    private final Thread sampler;

    /**
     * Starts the sampler. The measured part starts at a window's start: with no lead-in, at call 0;
     * else at least {@code minLeadIn} after call 0's arrival, once the JIT compiler threads' CPU
     * stayed under {@value JitQuiet#QUIET_PERCENT} % of the wall time in the last two windows (in the
     * last one where only one ran), or at the first window start after {@code maxLeadIn} (the sampler
     * decides at a window's end for the start of the window after the next, so that no call of the
     * measured part has ended before it is known to be measured).
     *
     * @param origin    {@link System#nanoTime()} of call 0's scheduled arrival
     * @param interval  nanoseconds between scheduled arrivals
     * @param maxCalls  calls that may be scheduled
     * @param minLeadIn nanoseconds of unmeasured arrivals at least
     * @param maxLeadIn nanoseconds of unmeasured arrivals at most, waiting for the JIT (at least {@code minLeadIn})
     * @param routes    the router's counts, or null where the provider has none
     */
    OpenLoopTimeline(long origin, double interval, int maxCalls, long minLeadIn, long maxLeadIn, RouteCounts routes) {
        if (minLeadIn < 0 || maxLeadIn < minLeadIn) {
            throw new IllegalArgumentException("lead-in of " + minLeadIn + " to " + maxLeadIn + " ns");
        }
        this.origin = origin;
        this.routes = routes;
        this.interval = interval;
        this.minLeadIn = minLeadIn;
        this.maxLeadIn = maxLeadIn;
        this.windows = window(maxCalls - 1) + 1;
        if (minLeadIn == 0) {
            measuredStartNanos = 0;
        }
        thisProcess = new double[windows];
        otherCores = new double[windows];
        stealCores = new double[windows];
        jitMillis = new double[windows];
        gcPauses = new long[windows];
        gcMillis = new long[windows];
        batched = new double[windows];
        Arrays.fill(batched, Double.NaN);
        sampler = new Thread(this::sample, "bench-timeline");
        sampler.setDaemon(true);
        sampler.start();
    }

    /**
     * Nanoseconds from call 0's arrival to the measured part's start, or {@link Long#MAX_VALUE} / 2
     * while the lead-in goes on (a value that no arrival's offset reaches, and that offsets may be
     * subtracted from).
     */
    long measuredStart() {
        return measuredStartNanos;
    }

    /** The measured part's first window, windows counted from call 0's arrival; -1 during the lead-in. */
    private int measuredWindow() {
        long start = measuredStartNanos;
        return start == LEAD_IN ? -1 : (int) (start / WINDOW_NANOS);
    }

    /**
     * A new tally of calls' times for this timeline's windows. Calls that record at once into
     * different tallies share no memory: an open loop gives each share of its calls a tally of its own.
     */
    Tally newTally() {
        Tally t = new Tally();
        tallies.add(t);
        return t;
    }

    /**
     * Calls' times by window of scheduled arrival, plain counters: {@link #record} is not
     * thread-safe, its user guards it, and every record must happen before {@link #windows()}.
     */
    final class Tally {
        private final long[] calls = new long[windows];
        private final long[] latencySum = new long[windows];
        private final long[] maxLatency = new long[windows];
        private final long[] issuedLate = new long[windows];
        private final long[] startedLate = new long[windows];

        private Tally() {}

        /**
         * A call's times, each from its scheduled arrival: when it was issued, when its thread started
         * and when it returned.
         */
        void record(int call, long issued, long started, long latency) {
            int w = Math.min(windows - 1, window(call));
            calls[w]++;
            latencySum[w] += latency;
            maxLatency[w] = Math.max(maxLatency[w], latency);
            issuedLate[w] = Math.max(issuedLate[w], issued);
            startedLate[w] = Math.max(startedLate[w], started);
        }
    }

    /** The window of a call's scheduled arrival, counted from call 0's, every {@link #WINDOW_NANOS}. */
    private int window(int call) {
        return (int) ((long) (call * interval) / WINDOW_NANOS);
    }

    /** Stops the sampler and waits for it to end; again, does nothing. */
    void stop() throws InterruptedException {
        sampling = false;
        sampler.interrupt();
        sampler.join();
    }

    /**
     * The windows up to the last with a call, the lead-in's first, after {@link #stop()}; all of them
     * count as lead-in where the measured part never started.
     */
    List<Window> windows() {
        if (sampler.isAlive()) {
            throw new IllegalStateException("the sampler still runs: stop() first");
        }
        long[] calls = new long[windows];
        long[] latencySum = new long[windows];
        long[] maxLatency = new long[windows];
        long[] issuedLate = new long[windows];
        long[] startedLate = new long[windows];
        for (Tally t : tallies) {
            for (int w = 0; w < windows; w++) {
                calls[w] += t.calls[w];
                latencySum[w] += t.latencySum[w];
                maxLatency[w] = Math.max(maxLatency[w], t.maxLatency[w]);
                issuedLate[w] = Math.max(issuedLate[w], t.issuedLate[w]);
                startedLate[w] = Math.max(startedLate[w], t.startedLate[w]);
            }
        }
        int last = windows - 1;
        while (last > 0 && calls[last] == 0) {
            last--;
        }
        int measured = measuredWindow();
        int first = measured < 0 ? last + 1 : measured;
        List<Window> out = new ArrayList<>();
        for (int w = 0; w <= last; w++) {
            long n = calls[w];
            out.add(new Window((w - first) * WINDOW_NANOS / 1e6, n, n == 0 ? 0 : latencySum[w] / 1e6 / n,
                    maxLatency[w] / 1e6, issuedLate[w] / 1e6, startedLate[w] / 1e6, thisProcess[w],
                    otherCores[w], stealCores[w], jitMillis[w], gcPauses[w], gcMillis[w], batched[w]));
        }
        return out;
    }

    private void sample() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        com.sun.management.OperatingSystemMXBean process =
                os instanceof com.sun.management.OperatingSystemMXBean sun ? sun : null;
        CompilerCpu jit = new CompilerCpu();
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        long lastProcess = process == null ? -1 : process.getProcessCpuTime();
        long[] lastHost = HostCpu.read();
        long lastJit = jit.nanos();
        long[] lastGc = pauses(collectors);
        long[] lastRoutes = routes == null ? null : routes.now();
        for (int w = 0; w < windows && sampling; w++) {
            long end = origin + (w + 1) * WINDOW_NANOS;
            for (long now = System.nanoTime(); now < end && sampling; now = System.nanoTime()) {
                LockSupport.parkNanos(end - now);
            }
            long cpu = process == null ? -1 : process.getProcessCpuTime();
            long[] host = HostCpu.read();
            long compiled = jit.nanos();
            long[] gc = pauses(collectors);
            double mine = cpu >= 0 && lastProcess >= 0 ? (cpu - lastProcess) / (double) WINDOW_NANOS : Double.NaN;
            thisProcess[w] = mine;
            if (host != null && lastHost != null) {
                otherCores[w] = Math.max(0, (host[0] - lastHost[0]) / (double) WINDOW_NANOS - mine);
                stealCores[w] = (host[1] - lastHost[1]) / (double) WINDOW_NANOS;
            } else {
                otherCores[w] = Double.NaN;
                stealCores[w] = Double.NaN;
            }
            jitMillis[w] = (compiled - lastJit) / 1e6;
            gcPauses[w] = gc[0] - lastGc[0];
            gcMillis[w] = gc[1] - lastGc[1];
            if (routes != null) {
                long[] r = routes.now();
                long all = r[1] - lastRoutes[1];
                batched[w] = all > 0 ? (double) (r[0] - lastRoutes[0]) / all : Double.NaN;
                lastRoutes = r;
            }
            if (measuredWindow() < 0) {
                decideStart(w, (int) ((System.nanoTime() - origin) / WINDOW_NANOS));
            }
            lastProcess = cpu;
            lastHost = host;
            lastJit = compiled;
            lastGc = gc;
        }
    }

    /** After sampling window {@code w}, in window {@code now}: decides the measured part's start if the lead-in may end. */
    private void decideStart(int w, int now) {
        int start = startWindow(w, now, minLeadIn, maxLeadIn, jitMillis);
        if (start >= 0) {
            measuredStartNanos = start * WINDOW_NANOS;
        }
    }

    /**
     * The measured part's first window, decided after sampling window {@code w} while window
     * {@code now} runs, or -1 while the lead-in goes on: the window after the one running, once the
     * lead-in has lasted {@code minLeadIn} and the JIT is quiet by {@link JitQuiet}'s rule (the
     * compiler threads' CPU, {@code jitMillis} per window, under {@value JitQuiet#QUIET_PERCENT} % of
     * the wall time in each of the last {@value JitQuiet#QUIET_SLICES} spans of
     * {@link JitQuiet#SLICE_NANOS}), or once it has lasted {@code maxLeadIn}. A JIT quiet for a
     * window or two is often between compilations.
     */
    static int startWindow(int w, int now, long minLeadIn, long maxLeadIn, double[] jitMillis) {
        long elapsed = (w + 1) * WINDOW_NANOS;
        if (elapsed < minLeadIn) {
            return -1;
        }
        return quiet(w, jitMillis) || elapsed >= maxLeadIn ? Math.max(w + 1, now) + 1 : -1;
    }

    /** Whether the spans ending with window {@code w} were quiet; false before they have all run. */
    private static boolean quiet(int w, double[] jitMillis) {
        int span = (int) (JitQuiet.SLICE_NANOS / WINDOW_NANOS);
        if (w + 1 < span * JitQuiet.QUIET_SLICES) {
            return false;
        }
        for (int slice = 0; slice < JitQuiet.QUIET_SLICES; slice++) {
            double millis = 0;
            for (int i = 0; i < span; i++) {
                millis += jitMillis[w - slice * span - i];
            }
            if (millis * 1e6 * 100 >= JitQuiet.QUIET_PERCENT * (double) JitQuiet.SLICE_NANOS) {
                return false;
            }
        }
        return true;
    }

    /** Collections and milliseconds so far of the collectors that pause (not G1's concurrent cycle). */
    private static long[] pauses(List<GarbageCollectorMXBean> collectors) {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : collectors) {
            if (gc.getName().contains("Concurrent")) {
                continue;
            }
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new long[] {count, millis};
    }

    /**
     * One line on the windows: how many were slow, and the slowest window with what ran in it, e.g.
     * {@code 3 of 20 windows slow (a call over 10 ms), 1 of 10 in the lead-in; slowest at +350 ms: ...}.
     */
    static String summary(List<Window> windows) {
        int measured = 0;
        int slow = 0;
        int leadIn = 0;
        int slowLeadIn = 0;
        Window worst = null;
        for (Window w : windows) {
            if (w.startMillis() < 0) {
                leadIn++;
                slowLeadIn += w.slow() ? 1 : 0;
                continue;
            }
            measured++;
            slow += w.slow() ? 1 : 0;
            if (worst == null || w.maxMillis() > worst.maxMillis()) {
                worst = w;
            }
        }
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%d ms windows: %d of %d slow (a call over %d ms)",
                WINDOW_NANOS / 1_000_000, slow, measured, SLOW_NANOS / 1_000_000));
        if (leadIn > 0) {
            s.append(String.format(Locale.ROOT, ", %d of %d in the lead-in", slowLeadIn, leadIn));
        }
        if (worst != null) {
            s.append("; slowest at ").append(describe(worst));
        }
        return s.toString();
    }

    /** A window in words: {@code +350 ms: 1,382 calls, mean 40.1 ms, max 111.0 ms, ...}. */
    static String describe(Window w) {
        return String.format(Locale.ROOT, "%+.0f ms: %,d calls, mean %.2f ms, max %.2f ms, issued up to %.2f ms late,"
                        + " started up to %.2f ms late; cores: this JVM %s, other processes %s, steal %s; jit %.0f ms;"
                        + " gc %d in %d ms%s", w.startMillis(), w.calls(), w.meanMillis(), w.maxMillis(), w.issuedLate(),
                w.startedLate(), cores(w.thisProcess()), cores(w.otherCores()), cores(w.stealCores()), w.jitMillis(),
                w.gcPauses(), w.gcMillis(), Double.isNaN(w.batched()) ? ""
                        : String.format(Locale.ROOT, "; batched %.0f %%", 100 * w.batched()));
    }

    private static String cores(double v) {
        return Double.isNaN(v) ? "?" : String.format(Locale.ROOT, "%.1f", v);
    }

    /** The compiler threads' CPU so far ({@link JitActivity}), re-listing them every 20 reads only. */
    private static final class CompilerCpu {
        private static final int RELIST_EVERY = 20;
        private final Map<Long, Long> last = new HashMap<>();
        private long total;
        private int reads;

        long nanos() {
            if (reads++ % RELIST_EVERY == 0) {
                JitActivity.compilerThreads().forEach(last::putIfAbsent);
            }
            for (Map.Entry<Long, Long> e : last.entrySet()) {
                long run = Tasks.runNanos(e.getKey());
                if (run >= 0) {
                    total += Math.max(0, run - e.getValue());
                    e.setValue(run);
                }
            }
            return total;
        }
    }

    /** The host's CPU from Linux {@code /proc/stat}'s first line: busy and steal nanoseconds, summed over its CPUs. */
    static final class HostCpu {
        /** Linux reports {@code /proc/stat} in units of 1/100 s (USER_HZ) on every architecture it supports. */
        private static final long NANOS_PER_TICK = 10_000_000L;

        private HostCpu() {}

        /** [busy, steal] nanoseconds so far, or null where there is no {@code /proc/stat}. */
        static long[] read() {
            try {
                String first = Files.readAllLines(Path.of("/proc/stat")).get(0);
                return parse(first);
            } catch (Exception e) {
                return null;
            }
        }

        /**
         * From {@code cpu  user nice system idle iowait irq softirq steal ...}: busy is user, nice,
         * system, irq and softirq (idle, iowait and steal are not this host's work).
         */
        static long[] parse(String cpuLine) {
            String[] f = cpuLine.trim().split("\\s+");
            if (!f[0].equals("cpu") || f.length < 9) {
                throw new IllegalArgumentException("not /proc/stat's cpu line: " + cpuLine);
            }
            long busy = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                    + Long.parseLong(f[7]);
            return new long[] {busy * NANOS_PER_TICK, Long.parseLong(f[8]) * NANOS_PER_TICK};
        }
    }
}
