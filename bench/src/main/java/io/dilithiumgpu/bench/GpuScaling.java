package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.cuda.CudaBackend;
import io.dilithiumgpu.backend.cuda.CudaConfig;
import io.dilithiumgpu.core.ParameterSet;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code throughput --gpus}: the throughput stages on one GPU count after another, in one process,
 * and one table of their medians side by side, with each count's ratio to the first. Each count
 * opens its own CUDA backend on its GPUs ({@link GpuCounts#config}), warms every stage of every
 * set up as {@code throughput} does, and is closed before the next count opens.
 *
 * <p>The batch: by default {@code --batch} tasks per GPU, so that each GPU of every count has the
 * work one GPU has alone and the ratio is the scaling over GPUs; with {@code --same-total} every
 * count runs {@code --batch} tasks in all, split over its GPUs.
 */
final class GpuScaling {
    private GpuScaling() {}

    /**
     * One GPU count's medians.
     *
     * @param label  {@code 1 GPU}, {@code 2 GPUs}; {@code all GPUs} when none opened
     * @param gpus   the GPUs it opened; 0 when none opened
     * @param batch  the tasks of each of its runs; 0 when none opened
     * @param cells  per {@link #key}, the summary of each stage measured (wrong or failed ones absent)
     */
    record Column(String label, int gpus, int batch, Map<String, Stats.Summary> cells) {
        Stats.Summary cell(ParameterSet p, Operation op) {
            return cells.get(key(p, op));
        }
    }

    static String key(ParameterSet p, Operation op) {
        return p.algorithmName() + " " + ThroughputCli.opName(op);
    }

    /** The line under the header that says what each count's batch is. */
    static String batchLine(GpuCounts counts, int batch, boolean sameTotal) {
        return "GPU counts " + counts + ", one after another in this process: " + (sameTotal
                ? "every count runs " + Format.count(batch) + " tasks in all, split over its GPUs"
                : Format.count(batch) + " tasks per GPU (each count's batch is " + Format.count(batch)
                        + " × its GPUs, so that every GPU has the work one GPU has alone)");
    }

    /**
     * Measures every count and prints the table (and writes {@code throughput-gpus.csv} under
     * {@code --out}).
     *
     * @return {@link Cli#OK}, or {@link Cli#FAILED} when a count did not open, a backend failed or
     *         a stage gave a wrong result
     */
    static int run(PrintStream out, ThroughputCli.Settings s, GpuCounts counts, boolean sameTotal, String host)
            throws IOException {
        out.print(ThroughputCli.header(s));
        out.println(batchLine(counts, s.batch(), sameTotal));
        OutputCheck check = new OutputCheck(Reference.core());
        SplittableRandom random = new SplittableRandom();
        List<Column> columns = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < counts.counts().size(); i++) {
            int n = counts.counts().get(i);
            CudaConfig config = counts.config(i, CudaConfig.fromSystemProperties());
            Backends.Opened opened = Backends.cuda(config);
            out.println();
            if (!opened.available()) {
                String label = n == GpuCounts.ALL ? "all GPUs" : GpuCounts.label(n);
                problems.add(label + ": skipped: " + opened.unavailable());
                columns.add(new Column(label, 0, 0, Map.of()));
                continue;
            }
            try (Backend backend = opened.backend()) {
                int gpus = ((CudaBackend) backend).deviceDescriptions().size();
                String label = GpuCounts.label(gpus);
                int batch = sameTotal ? s.batch() : Math.multiplyExact(s.batch(), gpus);
                out.println(label + ", batch " + Format.count(batch) + ": " + opened.description());
                columns.add(new Column(label, gpus, batch, measure(backend, label, s, batch, check, random, problems)));
            } catch (BackendException e) {
                problems.add("CUDA on " + counts.counts().get(i) + " GPUs failed: " + e.getMessage());
            }
        }
        out.println();
        out.print(table(columns, s.sets()).render());
        problems.forEach(out::println);
        if (s.out() != null) {
            Path file = s.out().resolve("throughput-gpus.csv");
            csv(columns, s.sets(), host).write(file);
            out.println();
            out.println("wrote " + file);
        }
        return problems.isEmpty() ? Cli.OK : Cli.FAILED;
    }

    /** Every stage of every set on {@code backend}, after the warm-up of all of them. */
    private static Map<String, Stats.Summary> measure(Backend backend, String label, ThroughputCli.Settings s,
                                                      int batch, OutputCheck check, SplittableRandom random,
                                                      List<String> problems) {
        Map<String, Stats.Summary> cells = new HashMap<>();
        ThroughputCli.warmUpEverySet(backend, s, batch, check, random);
        for (ParameterSet p : s.sets()) {
            try (BatchBench bench = new BatchBench(backend, p, batch, check, s.samples(), random, s.memory())) {
                for (Operation op : Operation.values()) {
                    Runs.warmUp(ThroughputCli.stage(bench, op), s.warmup(), s.warmupNanos());
                    ChunkTimes before = ChunkTimes.of(backend);
                    double[] rates = Runs.measure(ThroughputCli.stage(bench, op), batch, 0, s.runs());
                    ChunkTimes spent = ChunkTimes.of(backend).minus(before);
                    System.err.printf(Locale.ROOT, "[throughput] %s %s %s: %s%n", label, p, ThroughputCli.opName(op),
                            spent);
                    cells.put(key(p, op), Stats.summarize(rates));
                }
            } catch (WrongResultException e) {
                problems.add("REFUSED " + p + " on " + label + ": " + e.getMessage()
                        + " (no numbers reported for this set)");
            }
        }
        return cells;
    }

    /**
     * Set, operation, each column's median, min and max, then each later column's median over the
     * first's ({@code 2 GPUs / 1 GPU}); {@code —} where a column has no number.
     */
    static TextTable table(List<Column> columns, List<ParameterSet> sets) {
        List<String> headers = new ArrayList<>(List.of("set", "op"));
        for (Column c : columns) {
            headers.addAll(List.of(c.label(), "min", "max"));
        }
        for (int k = 1; k < columns.size(); k++) {
            headers.add(columns.get(k).label() + " / " + columns.get(0).label());
        }
        TextTable table = new TextTable(headers.toArray(new String[0]));
        for (ParameterSet p : sets) {
            for (Operation op : Operation.values()) {
                List<String> row = new ArrayList<>(List.of(p.algorithmName(), ThroughputCli.opName(op)));
                for (Column c : columns) {
                    Stats.Summary cell = c.cell(p, op);
                    row.addAll(cell == null ? List.of("—", "—", "—")
                            : List.of(Format.rate(cell.median()), Format.rate(cell.min()), Format.rate(cell.max())));
                }
                Stats.Summary first = columns.isEmpty() ? null : columns.get(0).cell(p, op);
                for (int k = 1; k < columns.size(); k++) {
                    Stats.Summary cell = columns.get(k).cell(p, op);
                    row.add(first == null || cell == null ? "—"
                            : String.format(Locale.ROOT, "%.2f×", cell.median() / first.median()));
                }
                table.row(row.toArray(new String[0]));
            }
        }
        return table;
    }

    static Csv csv(List<Column> columns, List<ParameterSet> sets, String host) {
        Csv csv = new Csv("gpus", "batch", "set", "level", "operation", "runs", "median_ops_per_s", "min_ops_per_s",
                "max_ops_per_s", "host");
        for (Column c : columns) {
            for (ParameterSet p : sets) {
                for (Operation op : Operation.values()) {
                    Stats.Summary cell = c.cell(p, op);
                    if (cell != null) {
                        csv.row(c.gpus(), c.batch(), p.algorithmName(), p.level(), ThroughputCli.opName(op),
                                cell.runs(), cell.median(), cell.min(), cell.max(), host);
                    }
                }
            }
        }
        return csv;
    }
}
