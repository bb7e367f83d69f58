package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.batch.BatchConfig;
import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.core.ParameterSet;

import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code jca}: the JCA path under load, this provider beside others. For each provider, set,
 * operation and call style: throughput with 1 to 4096 concurrent callers, each calling
 * {@code Signature.sign()} or {@code verify()} in a loop (closed loop); then latency percentiles
 * with calls arriving at half that provider's peak throughput on a fixed schedule (open loop),
 * measured from each call's scheduled arrival after as long a lead-in at that rate as the warm-up
 * before a level, and shown by windows of arrival beside what ran in them ({@link OpenLoopTimeline}). The providers are measured side by side, every one
 * warmed up before the first cell, then level by level ({@link JcaSchedule}), so that the two
 * numbers of a ratio are taken seconds apart. The table adds, under each group, every provider's
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
    /** Callers of the warm-up pass over every set before the first measurement. */
    static final int WARMUP_CALLERS = 64;
    static final String THROUGHPUT_CSV = "jca.csv";
    static final String LATENCY_CSV = "jca-latency.csv";
    static final String TIMELINE_CSV = "jca-timeline.csv";

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
            description = "unmeasured time before each level, and at least before each open loop's measured"
                    + " time (calls arriving at its rate, then until the JIT is quiet), and per set and operation in a"
                    + " warm-up pass before the first (default ${DEFAULT-VALUE})")
    double warmupSeconds = DEFAULT_WARMUP_SECONDS;

    @Option(names = "--jit-quiet-seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "after the warm-up pass, the most time per provider its load runs on at 1 and "
                    + WARMUP_CALLERS + " callers until the JIT is quiet, and the most an open loop's lead-in runs"
                    + " past --warmup-seconds for it (default ${DEFAULT-VALUE})")
    double jitQuietSeconds = DEFAULT_JIT_QUIET_SECONDS;

    @Option(names = "--rate", paramLabel = "R", converter = OptionTypes.Rate.class,
            description = "open loop only: calls arriving at R per second (no closed loop; default: half the closed"
                    + " loop's peak after it)")
    Double rate;

    @Option(names = "--rounds", paramLabel = "N", converter = OptionTypes.PositiveCount.class,
            description = "closed loop: N passes over the levels, each cell the median of its N (default"
                    + " ${DEFAULT-VALUE}); each round's ratios go to standard error")
    int rounds = 1;

    /** The second JVM's mode ({@link CpuJcaProcess}): warm up, then measure the cells asked for on standard input. */
    @Option(names = "--serve", hidden = true)
    boolean serve;

    @Option(names = "--out", paramLabel = "DIR", description = "also write " + THROUGHPUT_CSV + ", " + LATENCY_CSV
            + " and " + TIMELINE_CSV + " (each open loop by " + OpenLoopTimeline.WINDOW_NANOS / 1_000_000
            + " ms windows of arrival) there")
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
                  double[] opsPerSecond, double arrivalRate, int calls, long p50, long p99, long p999, long max,
                  List<OpenLoopTimeline.Window> timeline) {
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
        if (serve) {
            return serve(sets, ops, styles, warmup, jitQuiet, measure, out);
        }

        if (contenders.contains(Contender.DILITHIUM_GPU)) {
            String selection = SharedBatcher.openAndExplain();
            out.println("dilithium-gpu jca: " + Contender.DILITHIUM_GPU.label + " on backend "
                    + Engines.sharedBatcher().metrics().getBackend() + " (" + selection + ")");
        }
        if (contenders.contains(Contender.DILITHIUM_GPU_CPU)) {
            out.println("dilithium-gpu jca: " + Contender.DILITHIUM_GPU_CPU.label + " in a second JVM with "
                    + BatchConfig.BACKEND_PROPERTY + "=cpu, measuring one cell at a time on request (each JVM idle"
                    + " while the other measures)");
        }
        out.println("closed loop: callers on " + Callers.threadKind() + "; style reuse: each caller has its own"
                + " Signature and calls it in a loop; style getInstance: Signature.getInstance + init per call;"
                + " every call update(" + JcaLoad.MESSAGE_BYTES + " bytes) + sign()/verify()");
        out.println("open loop: calls arrive every 1/rate s at " + (rate == null ? "half the provider's peak"
                : Format.rate(rate) + " per second") + ", " + Format.seconds(warmupSeconds) + " or more unmeasured"
                + " (until the JIT is quiet, at most " + Format.seconds(Math.round((warmupSeconds + jitQuietSeconds) * 1e3) / 1e3) + "), then "
                + Format.seconds(seconds) + " measured; latency from scheduled arrival to return");
        out.println("order: per set, operation and style, level by level, each provider's cell right after the"
                + " other's, their order reversed at every other level" + (rounds == 1 ? ""
                        : " and round; " + rounds + " rounds, each cell the median of its " + rounds)
                + "; then each provider's open loop");
        JitActivity jit = JitActivity.ofThisJvm();
        out.println("warm-up: per provider, a pass of " + WARMUP_CALLERS + " callers, " + Format.seconds(warmupSeconds)
                + " per set and operation; then " + (jit == null
                        ? "no wait for the JIT: this JVM shows no compiler work"
                        : "each set, operation and style at 1 and " + WARMUP_CALLERS + " callers in turn, "
                                + JitQuiet.rule(jit) + ", for at most " + Format.seconds(jitQuietSeconds))
                + "; every provider before the first cell");
        out.println(Host.describe());

        List<Result> results = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Map<Contender, JcaCells> cells = new EnumMap<>(Contender.class);
        try {
            for (Contender c : contenders) {
                try {
                    cells.put(c, c.separateProcess() ? CpuJcaProcess.start(childArgs(sets, ops, styles), notes)
                            : InProcessJcaCells.open(c, c.label, sets, ops, styles, warmup, jitQuiet, measure, notes));
                } catch (GeneralSecurityException | IOException e) {
                    problems.add("FAILED " + c.label + ": " + e);
                }
            }
            for (ParameterSet p : sets) {
                for (Operation op : ops) {
                    for (JcaLoad.Style style : styles) {
                        results.addAll(measure(p, op, style, contenders, cells, levels, measure, problems));
                    }
                }
            }
        } finally {
            for (Contender c : List.copyOf(cells.keySet())) {
                finish(c, cells, problems);
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
            timelineCsv(results).write(dir.resolve(TIMELINE_CSV));
            out.println("wrote " + dir.resolve(THROUGHPUT_CSV) + ", " + dir.resolve(LATENCY_CSV) + " and "
                    + dir.resolve(TIMELINE_CSV));
        }
        return problems.isEmpty() ? Cli.OK : Cli.FAILED;
    }

    /**
     * Measures one set, operation and style of every provider that has the set, in the order of
     * {@link JcaSchedule}: each level's cells one right after another, {@link #rounds} times, each
     * level's rate the median of its rounds; then each provider's open loop. A provider with a wrong
     * result has no result here; one that fails is finished and measures nothing more.
     */
    private List<Result> measure(ParameterSet p, Operation op, JcaLoad.Style style, List<Contender> contenders,
                                 Map<Contender, JcaCells> cells, List<Integer> levels, long measure,
                                 List<String> problems) throws Exception {
        List<Contender> providers = contenders.stream().filter(c -> cells.containsKey(c) && cells.get(c).has(p))
                .toList();
        Map<Contender, double[][]> byRound = new LinkedHashMap<>();
        Set<Contender> refused = EnumSet.noneOf(Contender.class);
        List<Result> results = new ArrayList<>();
        boolean closedDone = false;
        for (JcaSchedule.Cell cell : JcaSchedule.of(providers, levels.size(), rounds)) {
            Contender c = cell.provider();
            if (cell.openLoop() && !closedDone) {
                closedDone = true;
                Map<Contender, double[][]> whole = new LinkedHashMap<>(byRound);
                whole.keySet().removeAll(refused);
                whole.keySet().retainAll(cells.keySet());
                roundRatios(p, op, style, whole).forEach(System.err::println);
            }
            if (refused.contains(c) || !cells.containsKey(c)) {
                continue;
            }
            try {
                if (!cell.openLoop()) {
                    byRound.computeIfAbsent(c, k -> new double[rounds][levels.size()])[cell.round()][cell.level()]
                            = cells.get(c).closedLoop(p, op, style, levels.get(cell.level()));
                    continue;
                }
                double[] rates = medians(byRound.getOrDefault(c, new double[1][0]));
                double peak = 0;
                for (double r : rates) {
                    peak = Math.max(peak, r);
                }
                // At least one call in the window: a closed loop too short for its first calls to end reads a peak of 0.
                double arrivals = rate != null ? rate : Math.max(peak / 2, 1e9 / measure);
                JcaCells.Latency l = cells.get(c).openLoop(p, op, style, arrivals);
                results.add(new Result(p, op, style, c, levels, rates, l.rate(), l.calls(), l.p50(), l.p99(),
                        l.p999(), l.max(), l.timeline()));
            } catch (WrongResultException wrong) {
                refused.add(c);
                problems.add("REFUSED " + c.label + " " + p + " " + ThroughputCli.opName(op) + " " + style.label
                        + ": " + wrong.getMessage());
            } catch (GeneralSecurityException | IOException e) {
                problems.add("FAILED " + c.label + ": " + e);
                finish(c, cells, problems);
            }
        }
        System.err.printf(Locale.ROOT, "[jca] %s %s %s done%n", p, ThroughputCli.opName(op), style.label);
        return results;
    }

    /** Finishes a provider's cells and forgets them, adding what went wrong to {@code problems}. */
    private static void finish(Contender c, Map<Contender, JcaCells> cells, List<String> problems) {
        JcaCells done = cells.remove(c);
        try {
            for (String problem : done.finish()) {
                problems.add(c.label + ": " + problem);
            }
        } catch (Exception e) {
            problems.add("FAILED " + c.label + ": " + e);
        }
    }

    /** Each level's median over the rounds: {@code byRound[round][level]}. */
    static double[] medians(double[][] byRound) {
        double[] medians = new double[byRound[0].length];
        for (int level = 0; level < medians.length; level++) {
            double[] samples = new double[byRound.length];
            for (int round = 0; round < byRound.length; round++) {
                samples[round] = byRound[round][level];
            }
            medians[level] = Stats.median(samples);
        }
        return medians;
    }

    /**
     * With more than one round, a line per round: each provider's rate at each level as a ratio to
     * the reference's in the same round ({@link #reference}); none with one round or no reference.
     *
     * @param byRound each provider's rates, {@code [round][level]}, of every round
     */
    static List<String> roundRatios(ParameterSet p, Operation op, JcaLoad.Style style,
                                    Map<Contender, double[][]> byRound) {
        Contender ref = reference(p, byRound.keySet());
        if (ref == null || byRound.get(ref).length < 2) {
            return List.of();
        }
        double[][] base = byRound.get(ref);
        List<String> lines = new ArrayList<>();
        for (int round = 0; round < base.length; round++) {
            List<String> parts = new ArrayList<>();
            for (Map.Entry<Contender, double[][]> e : byRound.entrySet()) {
                if (e.getKey() == ref) {
                    continue;
                }
                StringBuilder part = new StringBuilder(e.getKey().label + " / " + ref.label);
                for (int level = 0; level < base[round].length; level++) {
                    part.append(' ').append(ratio(e.getValue()[round][level], base[round][level]));
                }
                parts.add(part.toString());
            }
            lines.add(String.format(Locale.ROOT, "[jca] %s %s %s round %d of %d: %s", p, ThroughputCli.opName(op),
                    style.label, round + 1, base.length, String.join("; ", parts)));
        }
        return lines;
    }

    /** The second JVM's part of a run: {@link CpuJcaProcess#serve}, over this provider on the CPU backend. */
    private static int serve(List<ParameterSet> sets, List<Operation> ops, List<JcaLoad.Style> styles, long warmup,
                             long jitQuiet, long measure, PrintStream out) throws Exception {
        String selection = SharedBatcher.openAndExplain();
        System.err.println("[jca] " + Contender.DILITHIUM_GPU_CPU.label + " on backend "
                + Engines.sharedBatcher().metrics().getBackend() + " (" + selection + ")");
        List<String> notes = new ArrayList<>();
        JcaCells cells = InProcessJcaCells.open(Contender.DILITHIUM_GPU, Contender.DILITHIUM_GPU_CPU.label, sets, ops,
                styles, warmup, jitQuiet, measure, notes);
        return CpuJcaProcess.serve(cells, sets, notes,
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), out);
    }

    /** The second JVM's arguments: this run's selection and times; it is asked for each level and rate. */
    private List<String> childArgs(List<ParameterSet> sets, List<Operation> ops, List<JcaLoad.Style> styles) {
        List<String> a = new ArrayList<>();
        a.addAll(List.of("--sets", join(sets, ParameterSet::algorithmName)));
        a.addAll(List.of("--ops", join(ops, ThroughputCli::opName)));
        a.addAll(List.of("--style", join(styles, s -> s.label)));
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

    /**
     * The reference of a group's ratios: SUN for ML-DSA where it was measured, else BouncyCastle;
     * BouncyCastle for round 3.1. Null when the group has no reference.
     */
    static Contender reference(List<Result> group) {
        return reference(group.get(0).set(), group.stream().map(Result::provider).toList());
    }

    /** The reference among the providers {@code measured} of {@code set}, as {@link #reference(List)}. */
    static Contender reference(ParameterSet set, Collection<Contender> measured) {
        for (Contender want : set.isFips204() ? List.of(Contender.SUN, Contender.BC) : List.of(Contender.BC)) {
            if (measured.contains(want)) {
                return want;
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

    /**
     * Each open loop by windows of arrival time ({@link OpenLoopTimeline}), its lead-in's at negative
     * times: the calls' latency beside what ran in the window.
     */
    static Csv timelineCsv(List<Result> results) {
        Csv csv = new Csv("set", "operation", "style", "provider", "window_start_ms", "calls", "mean_ms", "max_ms",
                "issued_late_ms", "started_late_ms", "this_jvm_cores", "other_processes_cores", "steal_cores",
                "jit_cpu_ms", "gc_pauses", "gc_ms", "batched_share");
        for (Result r : results) {
            for (OpenLoopTimeline.Window w : r.timeline()) {
                csv.row(r.set().algorithmName(), ThroughputCli.opName(r.op()), r.style().label, r.provider().label,
                        w.startMillis(), w.calls(), w.meanMillis(), w.maxMillis(), w.issuedLate(), w.startedLate(),
                        w.thisProcess(), w.otherCores(), w.stealCores(), w.jitMillis(), w.gcPauses(), w.gcMillis(),
                        w.batched());
            }
        }
        return csv;
    }
}
