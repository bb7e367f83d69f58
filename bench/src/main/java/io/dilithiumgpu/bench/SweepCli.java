package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.cuda.CudaConfig;
import io.dilithiumgpu.core.ParameterSet;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code sweep}: host-to-host throughput against batch size, and for the cuda backend against
 * the number of streams per GPU ({@code dilithiumgpu.cuda.streams}), as a table, a CSV file and
 * one PNG chart per parameter set. Each batch size gets fresh keys ({@link BatchBench}); stages
 * that are not measured but feed a measured one (keygen before sign) run once, checked, untimed.
 */
@Command(name = "sweep",
        description = "throughput against batch size (and cuda streams): table, sweep.csv, a PNG chart per set")
public final class SweepCli extends Subcommand {
    static final List<Integer> DEFAULT_SIZES =
            List.of(100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000);
    static final int DEFAULT_RUNS = 5;
    static final int DEFAULT_WARMUP = 1;
    /** Stands for "the backend's configured streams" in {@link Point#streams()}. */
    static final int CONFIGURED_STREAMS = 0;

    /** One measured point; {@code streams} is {@link #CONFIGURED_STREAMS} unless swept. */
    record Point(ParameterSet set, Operation op, int streams, int batch, Stats.Summary summary) {}

    /** What one sweep measures. */
    private record Plan(List<ParameterSet> sets, List<Operation> ops, List<Integer> sizes, int runs, int warmup,
                        int samples) {}

    /** The backends {@code --backend} selects. */
    enum BackendChoice {
        CPU, CUDA;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Option(names = "--out", paramLabel = "DIR", required = true,
            description = "where sweep.csv and sweep-<set>.png go (required)")
    Path outDir;

    @Option(names = "--from-csv", paramLabel = "FILE", description = "measure nothing: draw the charts of an earlier"
            + " sweep.csv (e.g. one measured on a GPU host without fonts)")
    Path fromCsv;

    @Option(names = "--backend", paramLabel = "cpu|cuda",
            description = "backend to measure (default cuda, else cpu with the reason)")
    BackendChoice backend;

    @Option(names = "--sets", paramLabel = "LIST", converter = OptionTypes.Sets.class,
            description = "parameter sets (default ML-DSA-44)")
    OptionTypes.SetList sets = OptionTypes.SetList.of(ParameterSet.ML_DSA_44);

    @Option(names = "--ops", paramLabel = "LIST", split = ",", converter = OptionTypes.OperationName.class,
            description = "operations among keygen,sign,verify (default all three)")
    List<Operation> ops;

    @Option(names = "--sizes", paramLabel = "LIST", split = ",", converter = OptionTypes.PositiveCount.class,
            description = "batch sizes (default 100,200,500,1k,2k,5k,10k,20k,50k,100k)")
    List<Integer> sizes;

    @Option(names = "--streams", paramLabel = "LIST", split = ",", converter = OptionTypes.PositiveCount.class,
            description = "cuda only: streams per GPU to sweep, e.g. 1,2,4,8 (default: the configured "
                    + CudaConfig.STREAMS_PROPERTY + ")")
    List<Integer> streams;

    @Option(names = "--runs", paramLabel = "N", converter = OptionTypes.PositiveCount.class,
            description = "timed runs per point, median reported (default ${DEFAULT-VALUE})")
    int runs = DEFAULT_RUNS;

    @Option(names = "--warmup", paramLabel = "N", converter = OptionTypes.Count.class,
            description = "untimed runs first (default ${DEFAULT-VALUE})")
    int warmup = DEFAULT_WARMUP;

    @Option(names = "--samples", paramLabel = "N", converter = OptionTypes.PositiveCount.class,
            description = "records per run recomputed by the CPU core (default ${DEFAULT-VALUE})")
    int samples = ThroughputCli.DEFAULT_SAMPLES;

    @Override
    int run(PrintStream out) throws Exception {
        Path dir = outDir;
        if (fromCsv != null) {
            Path from = fromCsv;
            Measured m = readCsv(Files.readAllLines(from));
            out.println("dilithium-gpu sweep: charts of " + from + " (backend " + m.backend() + ")");
            out.print(table(m.points()).render());
            List<String> problems = new ArrayList<>();
            writeCharts(dir, m.backend(), m.points(), out, problems);
            return problems.isEmpty() ? Cli.OK : Cli.FAILED;
        }
        String requested = backend == null ? "cuda" : backend.toString();
        List<Integer> streams = this.streams == null ? List.of(CONFIGURED_STREAMS) : this.streams;
        if (this.streams != null && requested.equals("cpu")) {
            throw new UsageException("--streams applies to the cuda backend");
        }
        Plan plan = new Plan(sets.sets(), ops == null ? List.of(Operation.values()) : OptionTypes.inOrder(ops),
                sizes == null ? DEFAULT_SIZES : sizes, runs, warmup, samples);

        String backendName = requested;
        Backends.Opened first = open(backendName, streams.get(0));
        if (!first.available()) {
            if (backend != null) {
                out.println("backend " + backendName + " unavailable: " + first.unavailable());
                return Cli.FAILED;
            }
            out.println("backend cuda unavailable (" + first.unavailable() + "); sweeping cpu");
            backendName = "cpu";
            streams = List.of(CONFIGURED_STREAMS);
            first = Backends.cpu();
        }
        out.println("dilithium-gpu sweep: host-to-host throughput against batch size on backend " + backendName);
        out.println("median of " + Format.plural(plan.runs(), "timed run") + " after "
                + Format.plural(plan.warmup(), "warm-up run") + " per point; every run checked");
        out.println(Host.describe());

        List<Point> points = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < streams.size(); i++) {
            Backends.Opened opened = i == 0 ? first : open(backendName, streams.get(i));
            if (!opened.available()) {
                problems.add("backend " + backendName + " with " + streams.get(i) + " streams unavailable: "
                        + opened.unavailable());
                continue;
            }
            out.println("backend " + backendName + ": " + opened.description());
            try (Backend backend = opened.backend()) {
                sweep(backend, backendName, streams.get(i), plan, points, problems);
            } catch (BackendException e) {
                problems.add("backend " + backendName + " failed: " + e.getMessage());
            }
        }

        out.println();
        out.print(table(points).render());
        problems.forEach(out::println);
        Path csvFile = dir.resolve("sweep.csv");
        csv(backendName, points).write(csvFile);
        out.println();
        out.println("wrote " + csvFile);
        writeCharts(dir, backendName, points, out, problems);
        return problems.isEmpty() ? Cli.OK : Cli.FAILED;
    }

    /** One PNG chart per set that has points; a chart that cannot be drawn is a problem. */
    private static void writeCharts(Path dir, String backendName, List<Point> points, PrintStream out,
                                    List<String> problems) {
        for (ParameterSet p : points.stream().map(Point::set).distinct().toList()) {
            List<SweepChart.Series> series = series(points, p);
            Path png = dir.resolve("sweep-" + p.algorithmName() + ".png");
            try {
                SweepChart.write(png, p + " on " + backendName + ": throughput against batch size", series);
                out.println("wrote " + png);
            } catch (IOException | RuntimeException | LinkageError e) {
                problems.add("chart " + png + " not written: " + e);
                out.println("chart " + png + " not written: " + e
                        + " (sweep --from-csv draws it on another machine)");
            }
        }
    }

    /** The backend and points of a sweep.csv. */
    record Measured(String backend, List<Point> points) {}

    /**
     * Reads what {@link #csv} wrote.
     *
     * @throws UsageException when a line is not a row of a sweep.csv
     */
    static Measured readCsv(List<String> lines) throws UsageException {
        String header = csv("", List.of()).content().strip();
        if (lines.isEmpty() || !lines.get(0).strip().equals(header)) {
            throw new UsageException("not a sweep.csv: the first line must be " + header);
        }
        String backend = null;
        List<Point> points = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(",", -1);
            try {
                if (f.length != 9) {
                    throw new IllegalArgumentException(f.length + " fields, not 9");
                }
                backend = f[0];
                Operation op = null;
                for (Operation o : Operation.values()) {
                    if (ThroughputCli.opName(o).equals(f[2])) {
                        op = o;
                    }
                }
                if (op == null) {
                    throw new IllegalArgumentException("unknown operation " + f[2]);
                }
                points.add(new Point(ParameterSet.forName(f[1]), op,
                        f[3].isEmpty() ? CONFIGURED_STREAMS : Integer.parseInt(f[3]), Integer.parseInt(f[4]),
                        new Stats.Summary(Integer.parseInt(f[5]), Double.parseDouble(f[6]),
                                Double.parseDouble(f[7]), Double.parseDouble(f[8]))));
            } catch (IllegalArgumentException e) {
                throw new UsageException("sweep.csv line " + (i + 1) + ": " + e.getMessage());
            }
        }
        return new Measured(backend == null ? "unknown" : backend, points);
    }

    private static Backends.Opened open(String backendName, int streams) {
        if (backendName.equals("cpu")) {
            return Backends.cpu();
        }
        CudaConfig configured = CudaConfig.fromSystemProperties();
        if (streams == CONFIGURED_STREAMS) {
            return Backends.cuda(configured);
        }
        return Backends.cuda(configured.toBuilder().streamsPerDevice(streams).build());
    }

    private static void sweep(Backend backend, String label, int streams, Plan plan, List<Point> points,
                              List<String> problems) {
        OutputCheck check = new OutputCheck(Reference.core());
        SplittableRandom random = new SplittableRandom();
        Operation last = plan.ops().get(plan.ops().size() - 1);
        for (ParameterSet p : plan.sets()) {
            for (int size : plan.sizes()) {
                try (BatchBench bench = new BatchBench(backend, p, size, check, plan.samples(), random)) {
                    for (Operation op : Operation.values()) {
                        if (op.compareTo(last) > 0) {
                            break;
                        }
                        Runs.TimedBatch stage = ThroughputCli.stage(bench, op);
                        if (plan.ops().contains(op)) {
                            double[] rates = Runs.measure(stage, size, plan.warmup(), plan.runs());
                            points.add(new Point(p, op, streams, size, Stats.summarize(rates)));
                        } else {
                            Runs.once(stage);
                        }
                    }
                } catch (WrongResultException e) {
                    problems.add("REFUSED " + p + " batch " + size + streamsLabel(streams) + ": " + e.getMessage());
                }
                System.err.printf(Locale.ROOT, "[sweep] %s%s %s batch %d done%n", label, streamsLabel(streams), p, size);
            }
        }
    }

    static String streamsLabel(int streams) {
        return streams == CONFIGURED_STREAMS ? "" : ", " + streams + (streams == 1 ? " stream" : " streams");
    }

    /** The table; its streams column only when streams were swept. */
    static TextTable table(List<Point> points) {
        boolean swept = points.stream().anyMatch(pt -> pt.streams() != CONFIGURED_STREAMS);
        TextTable t = swept ? new TextTable("set", "op", "streams", "batch", "ops/s", "min", "max")
                : new TextTable("set", "op", "batch", "ops/s", "min", "max");
        for (Point pt : points) {
            Stats.Summary s = pt.summary();
            List<String> row = new ArrayList<>(List.of(pt.set().algorithmName(), ThroughputCli.opName(pt.op())));
            if (swept) {
                row.add(pt.streams() == CONFIGURED_STREAMS ? "—" : Integer.toString(pt.streams()));
            }
            row.addAll(List.of(Format.count(pt.batch()), Format.rate(s.median()), Format.rate(s.min()),
                    Format.rate(s.max())));
            t.row(row.toArray(new String[0]));
        }
        return t;
    }

    static Csv csv(String backend, List<Point> points) {
        Csv csv = new Csv("backend", "set", "operation", "streams", "batch", "runs", "median_ops_per_s",
                "min_ops_per_s", "max_ops_per_s");
        for (Point pt : points) {
            Stats.Summary s = pt.summary();
            csv.row(backend, pt.set().algorithmName(), ThroughputCli.opName(pt.op()),
                    pt.streams() == CONFIGURED_STREAMS ? "" : pt.streams(), pt.batch(), s.runs(),
                    s.median(), s.min(), s.max());
        }
        return csv;
    }

    /** The chart lines of one set: one per (operation, streams), points sorted by batch size. */
    static List<SweepChart.Series> series(List<Point> points, ParameterSet set) {
        List<SweepChart.Series> out = new ArrayList<>();
        List<Integer> streams = points.stream().map(Point::streams).distinct().sorted().toList();
        for (Operation op : Operation.values()) {
            for (int s : streams) {
                List<Point> mine = points.stream().filter(pt -> pt.set() == set && pt.op() == op && pt.streams() == s)
                        .sorted(Comparator.comparingInt(Point::batch)).toList();
                if (mine.isEmpty()) {
                    continue;
                }
                double[] x = mine.stream().mapToDouble(Point::batch).toArray();
                double[] y = mine.stream().mapToDouble(pt -> pt.summary().median()).toArray();
                double[] min = mine.stream().mapToDouble(pt -> pt.summary().min()).toArray();
                double[] max = mine.stream().mapToDouble(pt -> pt.summary().max()).toArray();
                out.add(new SweepChart.Series(ThroughputCli.opName(op) + streamsLabel(s), x, y, min, max));
            }
        }
        return out;
    }
}
