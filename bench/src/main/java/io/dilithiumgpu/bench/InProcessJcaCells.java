package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import org.HdrHistogram.Histogram;

import javax.security.auth.DestroyFailedException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A provider's {@link JcaCells} in this JVM: one key pair and {@link JcaLoad} per set it has, warmed
 * up when made. Each cell writes its diagnostics to standard error: throughput, round trip, CPU,
 * allocation, collections and the JIT's work, and for this project's provider the routes taken, the
 * routes' estimates and where a batch's time went.
 */
final class InProcessJcaCells implements JcaCells {
    /** Signatures of signers checked after each cell. */
    static final int CHECKED_SIGNERS = 32;

    private final Contender contender;
    private final String label;
    private final Map<ParameterSet, JcaLoad> loads;
    private final List<KeyPair> pairs;
    private final long warmup;
    private final long jitQuiet;
    private final long measure;

    private InProcessJcaCells(Contender contender, String label, Map<ParameterSet, JcaLoad> loads,
                              List<KeyPair> pairs, long warmup, long jitQuiet, long measure) {
        this.contender = contender;
        this.label = label;
        this.loads = loads;
        this.pairs = pairs;
        this.warmup = warmup;
        this.jitQuiet = jitQuiet;
        this.measure = measure;
    }

    /**
     * Makes a key pair and a load for each of {@code sets} that {@code c} has (a note for each it
     * has not) and warms them up: a pass of {@value JcaCli#WARMUP_CALLERS} callers, {@code warmup}
     * per set and operation in each style, then until the JIT is quiet, at most {@code jitQuiet}.
     *
     * @param c       the provider, looked up in this JVM
     * @param label   its name in diagnostics (a second JVM names its column)
     * @param warmup  nanoseconds of the pass per set and operation, and of unmeasured load before each
     *                closed loop
     * @param measure nanoseconds of each closed and open loop
     */
    static InProcessJcaCells open(Contender c, String label, List<ParameterSet> sets, List<Operation> ops,
                                  List<JcaLoad.Style> styles, long warmup, long jitQuiet, long measure,
                                  List<String> notes) throws Exception {
        SplittableRandom random = new SplittableRandom();
        Map<ParameterSet, JcaLoad> loads = new LinkedHashMap<>();
        List<KeyPair> pairs = new ArrayList<>();
        InProcessJcaCells cells = new InProcessJcaCells(c, label, loads, pairs, warmup, jitQuiet, measure);
        try {
            for (ParameterSet p : sets) {
                Provider provider = c.provider(p);
                if (provider == null) {
                    notes.add(label + " " + p.algorithmName() + ": not measured: " + c.unavailable(p));
                    continue;
                }
                KeyPair keys = KeyPairGenerator.getInstance(p.algorithmName(), provider).generateKeyPair();
                pairs.add(keys);
                loads.put(p, new JcaLoad(provider, p, keys, new byte[0], random));
            }
            if (!loads.isEmpty()) {
                long start = System.nanoTime();
                for (JcaLoad.Style style : styles) {
                    JcaLoad.warmUp(loads.values(), style, JcaCli.WARMUP_CALLERS, warmup);
                }
                long pass = System.nanoTime() - start;
                JitQuiet.Outcome quiet = JcaLoad.warmUntilQuiet(loads.values(), ops, styles, JcaCli.WARMUP_CALLERS,
                        jitQuiet);
                System.err.printf(Locale.ROOT, "[jca] %s warm-up: %.1f s (pass %.1f s, %s), %s%n", label,
                        (System.nanoTime() - start) / 1e9, pass / 1e9, Format.plural(quiet.slices(), "slice"),
                        quiet.describe());
            }
            return cells;
        } catch (Exception | Error e) {
            cells.finish().forEach(System.err::println);
            throw e;
        }
    }

    @Override
    public boolean has(ParameterSet set) {
        return loads.containsKey(set);
    }

    /** This project's provider, whose batcher, routes and engines this JVM can show. */
    private boolean ours() {
        return contender == Contender.DILITHIUM_GPU;
    }

    @Override
    public double closedLoop(ParameterSet p, Operation op, JcaLoad.Style style, int callers) throws Exception {
        JcaLoad load = load(p);
        Anatomy before = ours() ? Anatomy.snapshot() : null;
        RouteShare routesBefore = ours() ? RouteShare.snapshot() : null;
        long[] inCallsBefore = load.timeInCalls();
        Callers.ClosedLoopResult<?> r;
        if (op == Operation.SIGN) {
            Callers.ClosedLoopResult<JcaLoad.Signer> signing =
                    Callers.closedLoop(callers, load.signers(style), warmup, measure);
            load.checkSigners(signing.callers(), CHECKED_SIGNERS);
            r = signing;
        } else {
            r = Callers.closedLoop(callers, load.verifiers(style), warmup, measure);
        }
        double rate = r.opsPerSecond();
        long[] inCalls = load.timeInCalls();
        double inCall = (inCalls[0] - inCallsBefore[0]) / 1e3 / Math.max(1, inCalls[1] - inCallsBefore[1]);
        System.err.printf(Locale.ROOT, "[jca] %s %s %s %s, %d callers: %,.0f ops/s; round trip %.0f µs, %.0f µs"
                        + " of it in the call; %s%s; %s; %s; %s%n", label, p, ThroughputCli.opName(op), style.label,
                callers, rate, callers * 1e6 / rate, inCall,
                before == null ? "" : RouteShare.snapshot().since(routesBefore) + "; " + RouteEstimates.of(p, op)
                        + "; " + Anatomy.snapshot().since(before) + "; ", r.cpu(), r.allocated(), r.gc(), r.jit());
        return rate;
    }

    @Override
    public Latency openLoop(ParameterSet p, Operation op, JcaLoad.Style style, double rate) throws Exception {
        JcaLoad load = load(p);
        CpuUse cpuBefore = CpuUse.snapshot();
        long allocatedBefore = Allocated.now();
        GcTime gcBefore = GcTime.now();
        Anatomy before = ours() ? Anatomy.snapshot() : null;
        RouteShare routesBefore = ours() ? RouteShare.snapshot() : null;
        OpenLoopTimeline.RouteCounts routes = ours() ? RouteShare::batchedOfAll : null;
        Callers.LeadIn lead = new Callers.LeadIn(warmup, warmup + jitQuiet);
        Callers.OpenLoopResult run;
        if (op == Operation.SIGN) {
            List<JcaLoad.Signer> made = Collections.synchronizedList(new ArrayList<>());
            run = Callers.openLoop(rate, lead, measure, () -> {
                JcaLoad.Signer s = load.signers(style).create();
                made.add(s);
                return s;
            }, Callers.issuers(rate), routes);
            synchronized (made) {
                load.checkSigners(made, CHECKED_SIGNERS);
            }
        } else {
            run = Callers.openLoop(rate, lead, measure, load.verifiers(style), Callers.issuers(rate), routes);
        }
        Histogram latency = run.latency();
        long allocatedAfter = Allocated.now();
        long calls = latency.getTotalCount();
        long served = run.calls();
        String cell = String.format(Locale.ROOT, "[jca] %s %s %s %s, open loop at %,.0f/s", label, p,
                ThroughputCli.opName(op), style.label, rate);
        System.err.printf(Locale.ROOT, "%s: %,d calls after a lead-in of %s; p50 %s, p99 %s, p99.9 %s, max %s; lead-in"
                        + " included: %s%s; %s; %s%n", cell, calls, Format.seconds(run.leadInNanos() / 1e9),
                Format.millis(latency.getValueAtPercentile(50)), Format.millis(latency.getValueAtPercentile(99)),
                Format.millis(latency.getValueAtPercentile(99.9)), Format.millis(latency.getMaxValue()),
                before == null ? "" : RouteShare.snapshot().since(routesBefore) + "; " + Anatomy.snapshot().since(before)
                        + "; ", CpuUse.snapshot().since(cpuBefore, served),
                Allocated.perCall(allocatedBefore, allocatedAfter, served), GcTime.now().since(gcBefore));
        System.err.println(cell + ", " + OpenLoopTimeline.summary(run.timeline()));
        return new Latency(rate, (int) calls, latency.getValueAtPercentile(50), latency.getValueAtPercentile(99),
                latency.getValueAtPercentile(99.9), latency.getMaxValue(), run.timeline());
    }

    private JcaLoad load(ParameterSet p) {
        JcaLoad load = loads.get(p);
        if (load == null) {
            throw new IllegalArgumentException(label + " has no load for " + p);
        }
        return load;
    }

    @Override
    public List<String> finish() {
        List<String> problems = new ArrayList<>();
        for (KeyPair keys : pairs) {
            try {
                keys.getPrivate().destroy();
            } catch (DestroyFailedException e) {
                // Other providers' keys may not implement destroy(); ours must.
                if (ours()) {
                    problems.add(keys.getPrivate().getAlgorithm() + " private key could not be destroyed: "
                            + e.getMessage());
                }
            }
        }
        pairs.clear();
        loads.clear();
        return problems;
    }
}
