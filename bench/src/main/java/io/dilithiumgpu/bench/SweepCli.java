package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code sweep}: host-to-host throughput against batch size, as a table, a CSV file and one PNG
 * chart per parameter set. Each batch size gets fresh keys ({@link BatchBench}); stages that are
 * not measured but feed a measured one (keygen before sign) run once, checked, untimed.
 */
public final class SweepCli implements Subcommand {
    static final List<Integer> DEFAULT_SIZES =
            List.of(100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000);
    static final int DEFAULT_RUNS = 5;
    static final int DEFAULT_WARMUP = 1;

    public static void main(String[] args) {
        System.exit(Cli.run(new SweepCli(), List.of(args), System.out, System.err));
    }

    /** One measured point. */
    record Point(ParameterSet set, Operation op, int batch, Stats.Summary summary) {}

    @Override
    public String name() {
        return "sweep";
    }

    @Override
    public String summary() {
        return "throughput against batch size: table, sweep.csv and a PNG chart per set under --out";
    }

    @Override
    public List<Option> options() {
        return List.of(
                Option.valued("out", "DIR", "where sweep.csv and sweep-<set>.png go (required)"),
                Option.valued("backend", "cpu|cuda", "backend to measure (default cuda, else cpu with the reason)"),
                Option.valued("sets", "LIST", "parameter sets (default ML-DSA-44)"),
                Option.valued("ops", "LIST", "operations among keygen,sign,verify (default all three)"),
                Option.valued("sizes", "LIST", "batch sizes (default 100,200,500,1k,2k,5k,10k,20k,50k,100k)"),
                Option.valued("runs", "N", "timed runs per point, median reported (default " + DEFAULT_RUNS + ")"),
                Option.valued("warmup", "N", "untimed runs first (default " + DEFAULT_WARMUP + ")"),
                Option.valued("samples", "N", "records per run recomputed by the CPU core (default "
                        + ThroughputCli.DEFAULT_SAMPLES + ")"));
    }

    @Override
    public int run(Args args, PrintStream out) throws Exception {
        Path dir = args.path("out").orElseThrow(() -> new UsageException("--out DIR is required"));
        String backendName = args.choice("backend", "cuda", "cpu", "cuda");
        List<ParameterSet> sets = args.has("sets") ? args.sets("sets") : List.of(ParameterSet.ML_DSA_44);
        List<Operation> ops = args.operations("ops");
        List<Integer> sizes = args.counts("sizes", DEFAULT_SIZES);
        int runs = args.positiveCount("runs", DEFAULT_RUNS);
        int warmup = args.count("warmup", DEFAULT_WARMUP);
        int samples = args.positiveCount("samples", ThroughputCli.DEFAULT_SAMPLES);

        Backends.Opened opened = Backends.open(backendName);
        if (!opened.available()) {
            if (args.has("backend")) {
                out.println("backend " + backendName + " unavailable: " + opened.unavailable());
                return Cli.FAILED;
            }
            out.println("backend " + backendName + " unavailable (" + opened.unavailable() + "); sweeping cpu");
            opened = Backends.open("cpu");
        }
        String backendLabel = opened.name();
        out.println("dilithium-gpu sweep: host-to-host throughput against batch size on backend "
                + backendLabel + " (" + opened.description() + ")");
        out.println("median of " + runs + " timed runs after " + warmup + " warm-up runs per point; every run checked");
        out.println(Host.describe());

        OutputCheck check = new OutputCheck(Reference.core());
        SplittableRandom random = new SplittableRandom();
        List<Point> points = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Operation last = ops.get(ops.size() - 1);
        try (Backend backend = opened.backend()) {
            for (ParameterSet p : sets) {
                for (int size : sizes) {
                    try (BatchBench bench = new BatchBench(backend, p, size, check, samples, random)) {
                        for (Operation op : Operation.values()) {
                            if (op.compareTo(last) > 0) {
                                break;
                            }
                            Runs.TimedBatch stage = ThroughputCli.stage(bench, op);
                            if (ops.contains(op)) {
                                double[] rates = Runs.measure(stage, size, warmup, runs);
                                points.add(new Point(p, op, size, Stats.summarize(rates)));
                            } else {
                                Runs.once(stage);
                            }
                        }
                    } catch (WrongResultException e) {
                        problems.add("REFUSED " + p + " batch " + size + ": " + e.getMessage());
                    }
                    System.err.printf(Locale.ROOT, "[sweep] %s %s batch %d done%n", backendLabel, p, size);
                }
            }
        } catch (BackendException e) {
            problems.add("backend " + backendLabel + " failed: " + e.getMessage());
        }

        out.println();
        out.print(table(points).render());
        problems.forEach(out::println);
        Path csvFile = dir.resolve("sweep.csv");
        csv(backendLabel, points).write(csvFile);
        out.println();
        out.println("wrote " + csvFile);
        for (ParameterSet p : sets) {
            List<SweepChart.Series> series = series(points, p);
            if (series.isEmpty()) {
                continue;
            }
            Path png = dir.resolve("sweep-" + p.algorithmName() + ".png");
            try {
                SweepChart.write(png, p + " on " + backendLabel + ": throughput against batch size", series);
                out.println("wrote " + png);
            } catch (IOException | RuntimeException | LinkageError e) {
                problems.add("chart " + png + " not written: " + e);
                out.println("chart " + png + " not written: " + e);
            }
        }
        return problems.isEmpty() ? Cli.OK : Cli.FAILED;
    }

    static TextTable table(List<Point> points) {
        TextTable t = new TextTable("set", "op", "batch", "ops/s", "min", "max");
        for (Point pt : points) {
            Stats.Summary s = pt.summary();
            t.row(pt.set().algorithmName(), ThroughputCli.opName(pt.op()), Format.count(pt.batch()),
                    Format.rate(s.median()), Format.rate(s.min()), Format.rate(s.max()));
        }
        return t;
    }

    static Csv csv(String backend, List<Point> points) {
        Csv csv = new Csv("backend", "set", "operation", "batch", "runs", "median_ops_per_s", "min_ops_per_s",
                "max_ops_per_s");
        for (Point pt : points) {
            Stats.Summary s = pt.summary();
            csv.row(backend, pt.set().algorithmName(), ThroughputCli.opName(pt.op()), pt.batch(), s.runs(),
                    s.median(), s.min(), s.max());
        }
        return csv;
    }

    /** The chart lines of one set: one per operation, points in sweep order. */
    static List<SweepChart.Series> series(List<Point> points, ParameterSet set) {
        List<SweepChart.Series> out = new ArrayList<>();
        for (Operation op : Operation.values()) {
            List<Point> mine = points.stream().filter(pt -> pt.set() == set && pt.op() == op)
                    .sorted(Comparator.comparingInt(Point::batch)).toList();
            if (mine.isEmpty()) {
                continue;
            }
            double[] x = mine.stream().mapToDouble(Point::batch).toArray();
            double[] y = mine.stream().mapToDouble(pt -> pt.summary().median()).toArray();
            out.add(new SweepChart.Series(ThroughputCli.opName(op), x, y));
        }
        return out;
    }
}
