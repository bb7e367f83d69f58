package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.SplittableRandom;

/**
 * {@code throughput}: operations per second of keygen, sign and verify for each parameter set on
 * the cuda and cpu backends, host to host, beside the project's targets and the paper's figures.
 *
 * <p>Each (backend, set) runs its three stages on one batch of distinct keys ({@link BatchBench});
 * each stage reports the median of its timed runs. {@code --keys} measures signing and
 * verification with tasks spread over a few keys instead (one table per key mode, in one run, so
 * that a mode is compared with another on the same warm backend). Every run is checked ({@link OutputCheck}); a
 * stage whose output is wrong in any run reports no number, and the command exits with status 1.
 * With {@code --gpus}, {@link GpuScaling} measures cuda on several GPU counts side by side.
 */
@Command(name = "throughput",
        description = "host-to-host batch ops/s of keygen, sign, verify for the six sets on cuda and cpu")
public final class ThroughputCli extends Subcommand {
    static final int DEFAULT_BATCH = 10_000;
    /**
     * Thirty: all ten runs of one verification stage once read half speed on the GPU host (a
     * transient of a fraction of a second); with thirty such a transient spans less than half of a
     * stage.
     */
    static final int DEFAULT_RUNS = 30;
    static final int DEFAULT_WARMUP = 20;
    /**
     * The least warm-up per stage: the CUDA host path runs a few times per batch, and after 20
     * runs its launches were still being compiled (docs/performance.md, How we measure).
     */
    static final double DEFAULT_WARMUP_SECONDS = 1;
    static final int DEFAULT_SAMPLES = 8;
    static final int QUICK_BATCH = 64;
    static final int QUICK_RUNS = 3;
    static final int QUICK_WARMUP = 1;

    /** The backends {@code --backend} selects. */
    enum BackendChoice {
        CPU, CUDA, ALL;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Option(names = "--backend", paramLabel = "cpu|cuda|all",
            description = "backends to measure (default all; cpu with --quick)")
    BackendChoice backend;

    @Option(names = "--sets", paramLabel = "LIST", converter = OptionTypes.Sets.class,
            description = "parameter sets, e.g. ML-DSA-65,Dilithium3 (default all)")
    OptionTypes.SetList sets = OptionTypes.SetList.ALL;

    @Option(names = "--batch", paramLabel = "N", converter = OptionTypes.PositiveCount.class,
            description = "tasks per batch (default 10k; " + QUICK_BATCH + " with --quick)")
    Integer batch;

    @Option(names = "--runs", paramLabel = "N", converter = OptionTypes.PositiveCount.class,
            description = "timed runs per stage, median reported (default " + DEFAULT_RUNS + "; " + QUICK_RUNS
                    + " with --quick)")
    Integer runs;

    @Option(names = "--warmup", paramLabel = "N", converter = OptionTypes.Count.class,
            description = "untimed runs first, so that the JIT has compiled the host path (default " + DEFAULT_WARMUP
                    + "; " + QUICK_WARMUP + " with --quick; 0: no warm-up)")
    Integer warmup;

    @Option(names = "--warmup-seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "the least time those runs take per stage (default 1 s; none with --quick)")
    Double warmupSeconds;

    @Option(names = "--samples", paramLabel = "N", converter = OptionTypes.PositiveCount.class,
            description = "records per run recomputed by the CPU core (default ${DEFAULT-VALUE})")
    int samples = DEFAULT_SAMPLES;

    @Option(names = "--memory", paramLabel = "pinned|arrays", description = "where the records live: the backend's"
            + " host buffers (page-locked for cuda; default) or heap byte arrays the backend stages itself")
    BatchBench.Memory memory = BatchBench.Memory.PINNED;

    @Option(names = "--keys", paramLabel = "LIST", converter = OptionTypes.KeyModes.class,
            description = "keys of sign and verify, one table per entry: distinct (a key per task; the default)"
                    + " or N (task i uses key i mod N; 1: one-key records), e.g. 1,distinct")
    List<Integer> keys = List.of(0);

    @Option(names = "--quick", description = "a small CPU-only smoke run")
    boolean quick;

    @Option(names = "--out", paramLabel = "DIR", description = "also write throughput.csv there")
    Path outDir;

    @Option(names = "--baseline", paramLabel = "FILE", description = "an earlier throughput.csv (from --out) to"
            + " compare with, stage by stage (default with --quick: the last --quick run on this host)")
    Path baseline;

    @Option(names = "--gpus", paramLabel = "LIST", converter = OptionTypes.Gpus.class, description = "cuda on these"
            + " GPU counts one after another (the first n GPUs, or all), in one table with each count's ratio to"
            + " the first, e.g. 1,all; --batch is then tasks per GPU (throughput-gpus.csv under --out)")
    GpuCounts gpus;

    @Option(names = "--same-total", description = "with --gpus: every count runs --batch tasks in all, split over"
            + " its GPUs")
    boolean sameTotal;

    /** What one invocation measures. */
    record Settings(List<String> backends, boolean backendRequested, List<ParameterSet> sets, int batch,
                    int runs, int warmup, double warmupSeconds, int samples, BatchBench.Memory memory, Path out,
                    List<Integer> keys) {

        Settings(List<String> backends, boolean backendRequested, List<ParameterSet> sets, int batch, int runs,
                 int warmup, double warmupSeconds, int samples, BatchBench.Memory memory, Path out) {
            this(backends, backendRequested, sets, batch, runs, warmup, warmupSeconds, samples, memory, out,
                    List.of(0));
        }

        long warmupNanos() {
            return (long) (warmupSeconds * 1e9);
        }
    }

    /** The options, with {@code --quick}'s smaller defaults where it is given. */
    Settings settings() {
        BackendChoice chosen = backend != null ? backend : quick ? BackendChoice.CPU : BackendChoice.ALL;
        List<String> backends = chosen == BackendChoice.ALL ? List.of("cuda", "cpu") : List.of(chosen.toString());
        return new Settings(backends, backend != null, sets.sets(),
                batch != null ? batch : quick ? QUICK_BATCH : DEFAULT_BATCH,
                runs != null ? runs : quick ? QUICK_RUNS : DEFAULT_RUNS,
                warmup != null ? warmup : quick ? QUICK_WARMUP : DEFAULT_WARMUP,
                warmupSeconds != null ? warmupSeconds : quick ? 0 : DEFAULT_WARMUP_SECONDS,
                samples, memory, outDir, keys);
    }

    /** One measured stage; {@code keys} 0 for a distinct key per task. */
    record Result(String backend, BatchBench.Memory memory, ParameterSet set, Operation op, int batch,
                  Stats.Summary summary, int keys) {

        Result(String backend, BatchBench.Memory memory, ParameterSet set, Operation op, int batch,
               Stats.Summary summary) {
            this(backend, memory, set, op, batch, summary, 0);
        }
    }

    /** How a key mode reads in the tables and the CSV. */
    static String keysLabel(int keys) {
        return keys == 0 ? "distinct" : Integer.toString(keys);
    }

    static String keysLine(int keys) {
        return switch (keys) {
            case 0 -> "keys: a distinct key per task";
            case 1 -> "keys: one key for every task of sign and verify (one-key records)";
            default -> "keys: " + Format.count(keys) + " keys, task i signs and verifies with key i mod "
                    + Format.count(keys);
        };
    }

    @Override
    int run(PrintStream out) throws Exception {
        Settings s = settings();
        String host = Host.name();
        if (gpus != null) {
            if ((backend != null && backend != BackendChoice.CUDA) || quick || baseline != null) {
                throw new UsageException("--gpus measures cuda alone, without --quick or --baseline");
            }
            if (!s.keys().equals(List.of(0))) {
                throw new UsageException("--gpus measures a distinct key per task; --keys runs without it");
            }
            return GpuScaling.run(out, s, gpus, sameTotal, host);
        }
        if (sameTotal) {
            throw new UsageException("--same-total needs --gpus");
        }
        Path history = quick && baseline == null ? Baseline.quickHistory(host) : null;
        Baseline earlier = baseline != null ? Baseline.read(baseline)
                : history != null && Files.isRegularFile(history) ? Baseline.read(history) : Baseline.NONE;
        out.print(header(s));
        out.println(baselineLine(earlier, history, host));
        OutputCheck check = new OutputCheck(Reference.core());
        SplittableRandom random = new SplittableRandom();
        List<Result> results = new ArrayList<>();
        int failures = 0;
        for (String name : s.backends()) {
            Backends.Opened opened = Backends.open(name);
            out.println();
            if (!opened.available()) {
                out.println("backend " + name + ": skipped: " + opened.unavailable());
                failures += s.backendRequested() ? 1 : 0;
                continue;
            }
            out.println("backend " + name + ": " + opened.description());
            List<String> problems = new ArrayList<>();
            List<TextTable> tables = new ArrayList<>();
            try (Backend backend = opened.backend()) {
                warmUpEverySet(backend, s, s.batch(), check, random);
                for (int keys : s.keys()) {
                    TextTable table = table(name, earlier);
                    tables.add(table);
                    measureMode(backend, name, keys, s, check, random, earlier, table, results, problems);
                }
            } catch (BackendException e) {
                problems.add("backend " + name + " failed: " + e.getMessage());
            }
            for (int t = 0; t < tables.size(); t++) {
                if (tables.get(t).rowCount() > 0) {
                    if (s.keys().size() > 1 || s.keys().get(0) != 0) {
                        out.println(keysLine(s.keys().get(t)));
                    }
                    out.print(tables.get(t).render());
                }
            }
            problems.forEach(out::println);
            failures += problems.size();
        }
        if (s.out() != null) {
            Path file = s.out().resolve("throughput.csv");
            csv(results, host).write(file);
            out.println();
            out.println("wrote " + file);
        }
        if (history != null && failures == 0) {
            csv(results, host).write(history);
            out.println("kept as the baseline of the next --quick run on this host: " + history);
        }
        return failures == 0 ? Cli.OK : Cli.FAILED;
    }

    /**
     * Measures every set in one key mode into {@code table}: all three stages for distinct keys;
     * for a few keys, key generation once, unmeasured (it makes the keys), then signing and
     * verification.
     */
    private static void measureMode(Backend backend, String name, int keys, Settings s, OutputCheck check,
                                    SplittableRandom random, Baseline earlier, TextTable table, List<Result> results,
                                    List<String> problems) {
        for (ParameterSet p : s.sets()) {
            long start = System.nanoTime();
            try (BatchBench bench = new BatchBench(backend, p, s.batch(), check, s.samples(), random, s.memory(),
                    Math.min(keys, s.batch()))) {
                for (Operation op : Operation.values()) {
                    if (keys != 0 && op == Operation.KEYGEN) {
                        Runs.once(stage(bench, op));
                        continue;
                    }
                    // Warmed up first, so that the chunk times and key lookups are the timed runs' own: the
                    // first set of a key mode paid for the JIT in its warm-up, which inflated its means.
                    Runs.warmUp(stage(bench, op), s.warmup(), s.warmupNanos());
                    ChunkTimes before = ChunkTimes.of(backend);
                    long[] lookups = keyLookups(backend);
                    double[] rates = Runs.measure(stage(bench, op), s.batch(), 0, s.runs());
                    ChunkTimes after = ChunkTimes.of(backend);
                    ChunkTimes spent = after == null ? null : after.minus(before);
                    if (spent != null) {
                        long[] now = keyLookups(backend);
                        System.err.printf(Locale.ROOT, "[throughput] %s %s %s keys %s: %s; key cache %d hits, %d misses%n",
                                name, p, opName(op), keysLabel(keys), spent, now[0] - lookups[0], now[1] - lookups[1]);
                    }
                    Result r = new Result(name, s.memory(), p, op, s.batch(), Stats.summarize(rates), keys);
                    results.add(r);
                    table.row(row(r, earlier));
                }
            } catch (WrongResultException e) {
                problems.add("REFUSED " + p + " on " + name + " (keys " + keysLabel(keys) + "): " + e.getMessage()
                        + " (no numbers reported for this set)");
            }
            System.err.printf(Locale.ROOT, "[throughput] %s %s keys %s done in %.1f s%n", name, p, keysLabel(keys),
                    (System.nanoTime() - start) / 1e9);
        }
    }

    /** The CUDA backend's key cache hits and misses so far; zeros for another backend. */
    private static long[] keyLookups(Backend backend) {
        return backend instanceof io.dilithiumgpu.backend.cuda.CudaBackend cuda
                ? new long[] {cuda.metrics().getKeyCacheHits(), cuda.metrics().getKeyCacheMisses()}
                : new long[2];
    }

    /**
     * Runs every stage of every set {@code warmup} times, untimed, before the first measurement:
     * without it the first set measured paid for the JIT compiling the host path and for the
     * compiler threads competing with the copies (the first set's keygen read low against the
     * same set measured later in the run; docs/performance.md).
     *
     * @param batch the tasks of each run ({@code s.batch()}, or per GPU count under {@code --gpus})
     */
    static void warmUpEverySet(Backend backend, Settings s, int batch, OutputCheck check, SplittableRandom random) {
        if (s.warmup() == 0) {
            return;
        }
        for (ParameterSet p : s.sets()) {
            try (BatchBench bench = new BatchBench(backend, p, batch, check, s.samples(), random, s.memory())) {
                for (Operation op : Operation.values()) {
                    Runs.TimedBatch stage = stage(bench, op);
                    Runs.warmUp(stage, s.warmup(), s.warmupNanos());
                }
            } catch (WrongResultException e) {
                // The measured pass runs and checks the same stages again and reports it there.
            }
        }
    }

    static Runs.TimedBatch stage(BatchBench bench, Operation op) {
        return switch (op) {
            case KEYGEN -> bench.keyGen();
            case SIGN -> bench.sign();
            case VERIFY -> bench.verify();
        };
    }

    static String header(Settings s) {
        return "dilithium-gpu throughput: Backend called host to host with whole batches (transfers included), "
                + (s.memory() == BatchBench.Memory.PINNED
                        ? "records in the backend's host buffers (page-locked for cuda)"
                        : "records in heap byte arrays") + "\n"
                + "batch " + Format.count(s.batch()) + " tasks, "
                + (s.keys().equals(List.of(0)) ? "a distinct key per task" : "keys per table below (keygen: distinct)")
                + ", "
                + BatchBench.MESSAGE_BYTES + "-byte messages (μ hashed before timing), "
                + "random rnd drawn afresh for every run\n"
                + "median of " + Format.plural(s.runs(), "timed run") + " after "
                + Format.plural(s.warmup(), "warm-up run")
                + (s.warmup() > 0 && s.warmupSeconds() > 0
                        ? " or more, at least " + Format.seconds(s.warmupSeconds()) : "")
                + (s.warmup() > 0 ? " (and as many of every stage of every set before the first measurement)" : "")
                + "; every run checked: all status bytes, " + Format.plural(s.samples(), "record")
                + " recomputed by the CPU core\n"
                + (s.backends().contains("cuda") ? "cuda rows: target: project target on one H100; paper: the paper's"
                        + " code on one H100 (round-3 Dilithium of the same level)\n" : "")
                + Host.describe() + "\n";
    }

    /** What the baseline columns compare with. */
    static String baselineLine(Baseline earlier, Path history, String host) {
        if (earlier.isEmpty()) {
            return history == null ? "no baseline (--baseline FILE compares with an earlier throughput.csv)"
                    : "no earlier --quick run on this host (" + history + "): this run becomes the baseline";
        }
        String where = earlier.host().isEmpty() ? "host not recorded"
                : earlier.host().equals(host) ? "this host" : "ANOTHER host, " + earlier.host();
        return "baseline: " + earlier.file() + " (measured on " + where + "); change: median against its median";
    }

    /**
     * The table of one backend: the H100 target and the paper's figure only for cuda (a CPU is not
     * measured against a GPU's goal), and the baseline's median where one was read.
     */
    static TextTable table(String backend, Baseline earlier) {
        List<String> headers = new ArrayList<>(List.of("set", "op", "ops/s", "min", "max"));
        if (backend.equals("cuda")) {
            headers.addAll(List.of("target", "of target", "paper"));
        }
        if (!earlier.isEmpty()) {
            headers.addAll(List.of("baseline", "change"));
        }
        return new TextTable(headers.toArray(new String[0]));
    }

    static String[] row(Result r, Baseline earlier) {
        int level = r.set().level();
        Stats.Summary s = r.summary();
        List<String> row = new ArrayList<>(List.of(r.set().algorithmName(), opName(r.op()), Format.rate(s.median()),
                Format.rate(s.min()), Format.rate(s.max())));
        if (r.backend().equals("cuda")) {
            double target = Targets.target(r.op(), level);
            row.addAll(List.of(Format.rate(target), Format.percent(s.median() / target),
                    Format.rate(Targets.paper(r.op(), level))));
        }
        if (!earlier.isEmpty()) {
            // Baselines hold distinct-key runs only.
            OptionalDouble before = r.keys() != 0 ? OptionalDouble.empty()
                    : earlier.median(r.backend(), r.memory(), r.set(), r.op(), r.batch());
            row.add(before.isPresent() ? Format.rate(before.getAsDouble()) : "—");
            row.add(before.isPresent() ? Format.change(s.median() / before.getAsDouble()) : "—");
        }
        return row.toArray(new String[0]);
    }

    static Csv csv(List<Result> results, String host) {
        Csv csv = new Csv("backend", "memory", "set", "level", "operation", "batch", "runs", "median_ops_per_s",
                "min_ops_per_s", "max_ops_per_s", "target_ops_per_s", "paper_ops_per_s", "host", "keys");
        for (Result r : results) {
            int level = r.set().level();
            csv.row(r.backend(), r.memory().label(), r.set().algorithmName(), level, opName(r.op()), r.batch(),
                    r.summary().runs(),
                    r.summary().median(), r.summary().min(), r.summary().max(),
                    Targets.target(r.op(), level), Targets.paper(r.op(), level), host, keysLabel(r.keys()));
        }
        return csv;
    }

    static String opName(Operation op) {
        return op.name().toLowerCase(Locale.ROOT);
    }
}
