package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.batch.BatchConfig;
import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.core.ParameterSet;

import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

import javax.security.auth.DestroyFailedException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code jca}: the JCA path under load, this provider beside others. For each provider, set,
 * operation and call style: throughput with 1 to 4096 concurrent callers, each calling
 * {@code Signature.sign()} or {@code verify()} in a loop (closed loop); then latency percentiles
 * with calls arriving at half that provider's peak throughput on a fixed schedule (open loop),
 * measured from each call's scheduled arrival. The table adds, under each group, every provider's
 * throughput as a ratio to the reference: SUN for ML-DSA (BouncyCastle where SUN has none), and
 * BouncyCastle for round 3.1 Dilithium.
 */
@Command(name = "jca",
        description = "Signature.sign()/verify() ops/s at 1..4096 concurrent callers beside SUN and BouncyCastle,"
                + " p50/p99 latency at half the peak")
public final class JcaCli extends Subcommand {
    static final List<Integer> DEFAULT_CALLERS = List.of(1, 4, 16, 64, 256, 1024, 4096);
    static final double DEFAULT_SECONDS = 2.0;
    static final double DEFAULT_WARMUP_SECONDS = 0.5;
    static final double DEFAULT_JIT_QUIET_SECONDS = 15;
    /** Signatures of signers checked after each run. */
    static final int CHECKED_SIGNERS = 32;
    /** Callers of the warm-up pass over every set before the first measurement. */
    static final int WARMUP_CALLERS = 64;
    static final String THROUGHPUT_CSV = "jca.csv";
    static final String LATENCY_CSV = "jca-latency.csv";

    @Option(names = "--providers", paramLabel = "LIST", split = ",", converter = ContenderName.class,
            description = "providers measured, in this order: DilithiumGPU (this process, its batcher's backend),"
                    + " DilithiumGPU/cpu (a second JVM on the CPU backend), SUN (JDK 24+), BC"
                    + " (default " + Contender.DEFAULT_LIST + ")")
    List<Contender> providers;

    @Option(names = "--style", paramLabel = "LIST", split = ",", converter = StyleName.class,
            description = "reuse (one Signature per caller) and/or getInstance (Signature.getInstance + init per"
                    + " call) (default reuse)")
    List<JcaLoad.Style> style;

    @Option(names = "--sets", paramLabel = "LIST", converter = OptionTypes.Sets.class,
            description = "parameter sets (default all six)")
    OptionTypes.SetList sets = OptionTypes.SetList.ALL;

    @Option(names = "--ops", paramLabel = "LIST", split = ",", converter = OptionTypes.OperationName.class,
            description = "sign and/or verify (default both)")
    List<Operation> ops;

    @Option(names = "--callers", paramLabel = "LIST", split = ",", converter = OptionTypes.PositiveCount.class,
            description = "concurrency levels (default 1,4,16,64,256,1024,4096)")
    List<Integer> callers;

    @Option(names = "--seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "measured time per level, and of the latency run (default ${DEFAULT-VALUE})")
    double seconds = DEFAULT_SECONDS;

    @Option(names = "--warmup-seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "unmeasured time before each level, and per set and operation in a warm-up pass before"
                    + " the first (default ${DEFAULT-VALUE})")
    double warmupSeconds = DEFAULT_WARMUP_SECONDS;

    @Option(names = "--jit-quiet-seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "after the warm-up pass, the most time per provider its load runs on at 1 and "
                    + WARMUP_CALLERS + " callers until the JIT is quiet (default ${DEFAULT-VALUE})")
    double jitQuietSeconds = DEFAULT_JIT_QUIET_SECONDS;

    @Option(names = "--rate", paramLabel = "R", converter = OptionTypes.Rate.class,
            description = "open loop only: calls arriving at R per second (no closed loop; default: half the closed"
                    + " loop's peak after it)")
    Double rate;

    @Option(names = "--out", paramLabel = "DIR", description = "also write " + THROUGHPUT_CSV + " and " + LATENCY_CSV
            + " there")
    Path outDir;

    /** A {@link Contender} by its label, any case. */
    static final class ContenderName implements ITypeConverter<Contender> {
        @Override
        public Contender convert(String text) {
            Contender c = Contender.ofLabel(text.trim());
            if (c == null) {
                throw new TypeConversionException("not one of DilithiumGPU, DilithiumGPU/cpu, SUN, BC: " + text.trim());
            }
            return c;
        }
    }

    /** A {@link JcaLoad.Style} by its label, any case. */
    static final class StyleName implements ITypeConverter<JcaLoad.Style> {
        @Override
        public JcaLoad.Style convert(String text) {
            try {
                return JcaLoad.Style.of(text.trim());
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("not one of reuse, getInstance: " + text.trim());
            }
        }
    }

    /** Throughput of one (set, operation, style, provider) at each concurrency, and latency at half the peak. */
    record Result(ParameterSet set, Operation op, JcaLoad.Style style, Contender provider, List<Integer> callers,
                  double[] opsPerSecond, double arrivalRate, int calls, long p50, long p99, long p999, long max) {
        double peak() {
            double best = 0;
            for (double v : opsPerSecond) {
                best = Math.max(best, v);
            }
            return best;
        }

        boolean sameGroup(Result o) {
            return set == o.set && op == o.op && style == o.style;
        }
    }

    @Override
    int run(PrintStream out) throws Exception {
        List<Contender> contenders = contenders();
        List<JcaLoad.Style> styles = styles();
        List<ParameterSet> sets = this.sets.sets();
        List<Operation> ops = operations();
        List<Integer> levels = rate != null ? List.of() : callers == null ? DEFAULT_CALLERS : callers;
        long measure = (long) (seconds * 1e9);
        long warmup = (long) (warmupSeconds * 1e9);
        long jitQuiet = (long) (jitQuietSeconds * 1e9);

        if (contenders.contains(Contender.DILITHIUM_GPU)) {
            String selection = SharedBatcher.openAndExplain();
            out.println("dilithium-gpu jca: " + Contender.DILITHIUM_GPU.label + " on backend "
                    + Engines.sharedBatcher().metrics().getBackend() + " (" + selection + ")");
        }
        if (contenders.contains(Contender.DILITHIUM_GPU_CPU)) {
            out.println("dilithium-gpu jca: " + Contender.DILITHIUM_GPU_CPU.label + " in a second JVM with "
                    + BatchConfig.BACKEND_PROPERTY + "=cpu, run after the others");
        }
        out.println("closed loop: callers on " + Callers.threadKind() + "; style reuse: each caller has its own"
                + " Signature and calls it in a loop; style getInstance: Signature.getInstance + init per call;"
                + " every call update(" + JcaLoad.MESSAGE_BYTES + " bytes) + sign()/verify()");
        out.println("open loop: calls arrive every 1/rate s at " + (rate == null ? "half the provider's peak"
                : Format.rate(rate) + " per second") + "; latency from scheduled arrival to return");
        JitActivity jit = JitActivity.ofThisJvm();
        out.println("warm-up: per provider, a pass of " + WARMUP_CALLERS + " callers, " + Format.seconds(warmupSeconds)
                + " per set and operation; then " + (jit == null
                        ? "no wait for the JIT: this JVM shows no compiler work"
                        : "each set, operation and style at 1 and " + WARMUP_CALLERS + " callers in turn, "
                                + JitQuiet.rule(jit) + ", for at most " + Format.seconds(jitQuietSeconds)));
        out.println(Host.describe());

        List<Result> results = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (Contender c : contenders) {
            if (c.separateProcess()) {
                continue;
            }
            try {
                results.addAll(measure(c, sets, ops, styles, levels, rate, warmup, jitQuiet, measure, notes,
                        problems));
            } catch (GeneralSecurityException e) {
                problems.add("FAILED " + c.label + ": " + e);
            }
        }
        if (contenders.contains(Contender.DILITHIUM_GPU_CPU)) {
            try {
                results.addAll(CpuJcaProcess.run(childArgs(sets, ops, styles, levels)));
            } catch (WrongResultException e) {
                problems.add("REFUSED " + Contender.DILITHIUM_GPU_CPU.label + ": " + e.getMessage());
            }
        }
        results.sort(Comparator.comparing((Result r) -> sets.indexOf(r.set())).thenComparing(Result::op)
                .thenComparing(Result::style).thenComparing(r -> contenders.indexOf(r.provider())));

        out.println();
        out.print(table(results, levels).render());
        notes.forEach(out::println);
        problems.forEach(out::println);
        if (outDir != null) {
            Path dir = outDir;
            throughputCsv(results).write(dir.resolve(THROUGHPUT_CSV));
            latencyCsv(results).write(dir.resolve(LATENCY_CSV));
            out.println("wrote " + dir.resolve(THROUGHPUT_CSV) + " and " + dir.resolve(LATENCY_CSV));
        }
        return problems.isEmpty() ? Cli.OK : Cli.FAILED;
    }

    /** Measures one in-process contender over every set it has, each operation and style. */
    private static List<Result> measure(Contender c, List<ParameterSet> sets, List<Operation> ops,
                                        List<JcaLoad.Style> styles, List<Integer> levels, Double rate, long warmup,
                                        long jitQuiet, long measure, List<String> notes, List<String> problems)
            throws Exception {
        SplittableRandom random = new SplittableRandom();
        List<Result> results = new ArrayList<>();
        Map<ParameterSet, JcaLoad> loads = new LinkedHashMap<>();
        List<KeyPair> pairs = new ArrayList<>();
        try {
            for (ParameterSet p : sets) {
                Provider provider = c.provider(p);
                if (provider == null) {
                    notes.add(c.label + " " + p.algorithmName() + ": not measured: " + c.unavailable(p));
                    continue;
                }
                KeyPair keys = KeyPairGenerator.getInstance(p.algorithmName(), provider).generateKeyPair();
                pairs.add(keys);
                loads.put(p, new JcaLoad(provider, p, keys, new byte[0], random));
            }
            if (!loads.isEmpty()) {
                long start = System.nanoTime();
                for (JcaLoad.Style style : styles) {
                    JcaLoad.warmUp(loads.values(), style, WARMUP_CALLERS, warmup);
                }
                long pass = System.nanoTime() - start;
                JitQuiet.Outcome quiet = JcaLoad.warmUntilQuiet(loads.values(), ops, styles, WARMUP_CALLERS, jitQuiet);
                System.err.printf(Locale.ROOT, "[jca] %s warm-up: %.1f s (pass %.1f s, %s), %s%n", c.label,
                        (System.nanoTime() - start) / 1e9, pass / 1e9, Format.plural(quiet.slices(), "slice"),
                        quiet.describe());
            }
            for (Map.Entry<ParameterSet, JcaLoad> e : loads.entrySet()) {
                ParameterSet p = e.getKey();
                for (Operation op : ops) {
                    for (JcaLoad.Style style : styles) {
                        try {
                            results.add(measure(e.getValue(), c, p, op, style, levels, rate, warmup, measure));
                        } catch (WrongResultException wrong) {
                            problems.add("REFUSED " + c.label + " " + p + " " + ThroughputCli.opName(op) + " "
                                    + style.label + ": " + wrong.getMessage());
                        }
                        System.err.printf(Locale.ROOT, "[jca] %s %s %s %s done%n", c.label, p,
                                ThroughputCli.opName(op), style.label);
                    }
                }
            }
        } finally {
            for (KeyPair keys : pairs) {
                try {
                    keys.getPrivate().destroy();
                } catch (DestroyFailedException e) {
                    // Other providers' keys may not implement destroy(); ours must.
                    if (c == Contender.DILITHIUM_GPU) {
                        problems.add(keys.getPrivate().getAlgorithm() + " private key could not be destroyed: "
                                + e.getMessage());
                    }
                }
            }
        }
        return results;
    }

    /** The second JVM's arguments: this run's selection, without providers and CSV directory. */
    private List<String> childArgs(List<ParameterSet> sets, List<Operation> ops, List<JcaLoad.Style> styles,
                                   List<Integer> levels) {
        List<String> a = new ArrayList<>();
        a.addAll(List.of("--sets", join(sets, ParameterSet::algorithmName)));
        a.addAll(List.of("--ops", join(ops, ThroughputCli::opName)));
        a.addAll(List.of("--style", join(styles, s -> s.label)));
        if (rate != null) {
            a.addAll(List.of("--rate", String.valueOf(rate)));
        } else {
            a.addAll(List.of("--callers", join(levels, String::valueOf)));
        }
        a.addAll(List.of("--seconds", String.valueOf(seconds)));
        a.addAll(List.of("--warmup-seconds", String.valueOf(warmupSeconds)));
        a.addAll(List.of("--jit-quiet-seconds", String.valueOf(jitQuietSeconds)));
        return a;
    }

    private static <T> String join(List<T> items, Function<T, String> name) {
        return items.stream().map(name).collect(Collectors.joining(","));
    }

    /** {@code --providers}: in the order given, each once; {@value Contender#DEFAULT_LIST} by default. */
    List<Contender> contenders() {
        return providers == null ? List.of(Contender.DILITHIUM_GPU, Contender.SUN, Contender.BC)
                : providers.stream().distinct().toList();
    }

    /** {@code --style}: in the order given, each once; reuse by default. */
    List<JcaLoad.Style> styles() {
        return style == null ? List.of(JcaLoad.Style.REUSE) : style.stream().distinct().toList();
    }

    /** {@code --ops}: sign and/or verify; both by default. */
    List<Operation> operations() throws UsageException {
        if (ops == null) {
            return List.of(Operation.SIGN, Operation.VERIFY);
        }
        if (ops.contains(Operation.KEYGEN)) {
            throw new UsageException("--ops takes sign and verify here");
        }
        return OptionTypes.inOrder(ops);
    }

    private static Result measure(JcaLoad load, Contender c, ParameterSet p, Operation op, JcaLoad.Style style,
                                  List<Integer> levels, Double fixedRate, long warmup, long measure) throws Exception {
        double[] rates = new double[levels.size()];
        for (int i = 0; i < levels.size(); i++) {
            Anatomy before = c == Contender.DILITHIUM_GPU ? Anatomy.snapshot() : null;
            RouteShare routesBefore = c == Contender.DILITHIUM_GPU ? RouteShare.snapshot() : null;
            long[] inCallsBefore = load.timeInCalls();
            Callers.ClosedLoopResult<?> r = closedLoop(load, op, style, levels.get(i), warmup, measure);
            rates[i] = r.opsPerSecond();
            long[] inCalls = load.timeInCalls();
            double inCall = (inCalls[0] - inCallsBefore[0]) / 1e3 / Math.max(1, inCalls[1] - inCallsBefore[1]);
            System.err.printf(Locale.ROOT, "[jca] %s %s %s %s, %d callers: %,.0f ops/s; round trip %.0f µs, %.0f µs"
                            + " of it in the call; %s%s; %s; %s; %s%n", c.label, p, ThroughputCli.opName(op), style.label,
                    levels.get(i), rates[i], levels.get(i) * 1e6 / rates[i], inCall,
                    before == null ? "" : RouteShare.snapshot().since(routesBefore) + "; " + RouteEstimates.of(p, op)
                            + "; " + Anatomy.snapshot().since(before) + "; ", r.cpu(), r.allocated(), r.gc(), r.jit());
        }
        double peak = 0;
        for (double r : rates) {
            peak = Math.max(peak, r);
        }
        // At least one call in the window: a closed loop too short for its first calls to end reads a peak of 0.
        double rate = fixedRate != null ? fixedRate : Math.max(peak / 2, 1e9 / measure);
        CpuUse cpuBefore = CpuUse.snapshot();
        long allocatedBefore = Allocated.now();
        GcTime gcBefore = GcTime.now();
        Anatomy before = c == Contender.DILITHIUM_GPU ? Anatomy.snapshot() : null;
        Histogram latency = openLoop(load, op, style, rate, measure);
        long allocatedAfter = Allocated.now();
        long calls = latency.getTotalCount();
        System.err.printf(Locale.ROOT, "[jca] %s %s %s %s, open loop at %,.0f/s: %,d calls; p50 %s, p99 %s, p99.9 %s,"
                        + " max %s; %s%s; %s; %s%n", c.label, p, ThroughputCli.opName(op), style.label, rate, calls,
                Format.millis(latency.getValueAtPercentile(50)), Format.millis(latency.getValueAtPercentile(99)),
                Format.millis(latency.getValueAtPercentile(99.9)), Format.millis(latency.getMaxValue()),
                before == null ? "" : Anatomy.snapshot().since(before) + "; ", CpuUse.snapshot().since(cpuBefore, calls),
                Allocated.perCall(allocatedBefore, allocatedAfter, calls), GcTime.now().since(gcBefore));
        return new Result(p, op, style, c, levels, rates, rate, (int) calls, latency.getValueAtPercentile(50),
                latency.getValueAtPercentile(99), latency.getValueAtPercentile(99.9), latency.getMaxValue());
    }

    private static Callers.ClosedLoopResult<?> closedLoop(JcaLoad load, Operation op, JcaLoad.Style style, int callers,
                                                          long warmup, long measure) throws Exception {
        if (op == Operation.SIGN) {
            Callers.ClosedLoopResult<JcaLoad.Signer> r =
                    Callers.closedLoop(callers, load.signers(style), warmup, measure);
            load.checkSigners(r.callers(), CHECKED_SIGNERS);
            return r;
        }
        return Callers.closedLoop(callers, load.verifiers(style), warmup, measure);
    }

    private static Histogram openLoop(JcaLoad load, Operation op, JcaLoad.Style style, double rate, long duration)
            throws Exception {
        if (op == Operation.SIGN) {
            List<JcaLoad.Signer> made = Collections.synchronizedList(new ArrayList<>());
            Histogram latency = Callers.openLoop(rate, duration, () -> {
                JcaLoad.Signer s = load.signers(style).create();
                made.add(s);
                return s;
            });
            synchronized (made) {
                load.checkSigners(made, CHECKED_SIGNERS);
            }
            return latency;
        }
        return Callers.openLoop(rate, duration, load.verifiers(style));
    }

    /**
     * The reference of a group's ratios: SUN for ML-DSA where it was measured, else BouncyCastle;
     * BouncyCastle for round 3.1. Null when the group has no reference.
     */
    static Contender reference(List<Result> group) {
        boolean fips204 = group.get(0).set().isFips204();
        for (Contender want : fips204 ? List.of(Contender.SUN, Contender.BC) : List.of(Contender.BC)) {
            for (Result r : group) {
                if (r.provider() == want) {
                    return want;
                }
            }
        }
        return null;
    }

    /** Results in runs of the same set, operation and style, in their order. */
    static List<List<Result>> groups(List<Result> results) {
        List<List<Result>> groups = new ArrayList<>();
        for (Result r : results) {
            if (groups.isEmpty() || !groups.get(groups.size() - 1).get(0).sameGroup(r)) {
                groups.add(new ArrayList<>());
            }
            groups.get(groups.size() - 1).add(r);
        }
        return groups;
    }

    private static Result find(List<Result> group, Contender c) {
        for (Result r : group) {
            if (r.provider() == c) {
                return r;
            }
        }
        return null;
    }

    /**
     * One row per result, its group's ratio rows after it: each other provider's throughput at
     * each level and peak divided by the reference's ({@link #reference}).
     */
    static TextTable table(List<Result> results, List<Integer> levels) {
        List<String> headers = new ArrayList<>(List.of("set", "op", "style", "provider"));
        for (int c : levels) {
            headers.add(Format.count(c) + (c == 1 ? " caller" : " callers"));
        }
        headers.addAll(List.of("peak ops/s", "load ops/s", "p50", "p99", "p99.9"));
        TextTable t = new TextTable(headers.toArray(new String[0]));
        for (List<Result> group : groups(results)) {
            for (Result r : group) {
                List<String> row = new ArrayList<>(List.of(r.set().algorithmName(), ThroughputCli.opName(r.op()),
                        r.style().label, r.provider().label));
                for (double v : r.opsPerSecond()) {
                    row.add(Format.rate(v));
                }
                row.addAll(List.of(Format.rate(r.peak()), Format.rate(r.arrivalRate()), Format.millis(r.p50()),
                        Format.millis(r.p99()), Format.millis(r.p999())));
                t.row(row.toArray(new String[0]));
            }
            Contender ref = reference(group);
            if (ref == null) {
                continue;
            }
            Result base = find(group, ref);
            for (Result r : group) {
                if (r.provider() == ref) {
                    continue;
                }
                List<String> row = new ArrayList<>(List.of(r.set().algorithmName(), ThroughputCli.opName(r.op()),
                        r.style().label, r.provider().label + " / " + ref.label));
                for (int i = 0; i < r.opsPerSecond().length; i++) {
                    row.add(ratio(r.opsPerSecond()[i], i < base.opsPerSecond().length ? base.opsPerSecond()[i] : 0));
                }
                row.addAll(List.of(ratio(r.peak(), base.peak()), "—", "—", "—", "—"));
                t.row(row.toArray(new String[0]));
            }
        }
        return t;
    }

    /** {@code 1.23×}, or {@code —} when the reference measured nothing. */
    static String ratio(double value, double reference) {
        return reference > 0 ? String.format(Locale.ROOT, "%.2f×", value / reference) : "—";
    }

    static Csv throughputCsv(List<Result> results) {
        Csv csv = new Csv("set", "operation", "style", "provider", "callers", "ops_per_s", "reference",
                "ratio_to_reference");
        for (List<Result> group : groups(results)) {
            Contender ref = reference(group);
            Result base = ref == null ? null : find(group, ref);
            for (Result r : group) {
                for (int i = 0; i < r.callers().size(); i++) {
                    boolean ratio = base != null && r != base && i < base.opsPerSecond().length
                            && base.opsPerSecond()[i] > 0;
                    csv.row(r.set().algorithmName(), ThroughputCli.opName(r.op()), r.style().label,
                            r.provider().label, r.callers().get(i), r.opsPerSecond()[i],
                            ref == null ? "" : ref.label,
                            ratio ? (Object) (r.opsPerSecond()[i] / base.opsPerSecond()[i]) : "");
                }
            }
        }
        return csv;
    }

    static Csv latencyCsv(List<Result> results) {
        Csv csv = new Csv("set", "operation", "style", "provider", "arrival_rate_per_s", "calls", "p50_ms", "p99_ms",
                "max_ms", "p999_ms");
        for (Result r : results) {
            csv.row(r.set().algorithmName(), ThroughputCli.opName(r.op()), r.style().label, r.provider().label,
                    r.arrivalRate(), r.calls(), r.p50() / 1e6, r.p99() / 1e6, r.max() / 1e6, r.p999() / 1e6);
        }
        return csv;
    }
}
