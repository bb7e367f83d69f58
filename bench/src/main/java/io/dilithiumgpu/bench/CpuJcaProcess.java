package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The {@code jca} subcommand's {@link Contender#DILITHIUM_GPU_CPU} rows: the same measurement of
 * this provider in a second JVM whose batcher runs on the CPU backend. The provider keeps one
 * batcher per process, so its CPU backend cannot be had beside a GPU one in the same JVM; a second
 * JVM, run while this one waits, also gives it the whole host as a user without a GPU would have.
 * It gets this JVM's options and class path, with {@code dilithiumgpu.backend=cpu}, writes its
 * CSV files to a temporary directory, and this class reads them back.
 */
final class CpuJcaProcess {
    private CpuJcaProcess() {}

    /**
     * Runs {@code jca} with {@code args} (without {@code --providers} and {@code --out}) in a second
     * JVM and returns its results, labelled {@link Contender#DILITHIUM_GPU_CPU}. Its progress goes
     * to this process's standard error as it runs.
     *
     * @throws WrongResultException when the second JVM reports a wrong result or fails
     */
    static List<JcaCli.Result> run(List<String> args) throws IOException, InterruptedException, WrongResultException {
        Path dir = Files.createTempDirectory("dilithiumgpu-jca-cpu");
        Path log = dir.resolve("stdout.txt");
        try {
            List<String> jcaArgs = new ArrayList<>(List.of("jca"));
            jcaArgs.addAll(args);
            jcaArgs.addAll(List.of("--providers", Contender.DILITHIUM_GPU.label, "--out", dir.toString()));
            List<String> command = ChildJvm.command("cpu", jcaArgs);
            Process p = new ProcessBuilder(command)
                    .redirectOutput(log.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            int exit = p.waitFor();
            if (exit != 0) {
                throw new WrongResultException("the second JVM (CPU backend) exited with " + exit + ":\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
            return read(dir.resolve(JcaCli.THROUGHPUT_CSV), dir.resolve(JcaCli.LATENCY_CSV));
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    /** Results from the two CSV files {@link JcaCli} writes, relabelled as this contender's. */
    static List<JcaCli.Result> read(Path throughput, Path latency) throws IOException {
        record Key(String set, String op, String style) {}
        Map<Key, List<String[]>> rates = new LinkedHashMap<>();
        for (String[] f : rows(throughput)) {
            rates.computeIfAbsent(new Key(f[0], f[1], f[2]), k -> new ArrayList<>()).add(f);
        }
        List<JcaCli.Result> out = new ArrayList<>();
        for (String[] f : rows(latency)) {
            List<String[]> levels = rates.getOrDefault(new Key(f[0], f[1], f[2]), List.of());
            List<Integer> callers = new ArrayList<>();
            double[] ops = new double[levels.size()];
            for (int i = 0; i < levels.size(); i++) {
                callers.add(Integer.parseInt(levels.get(i)[4]));
                ops[i] = Double.parseDouble(levels.get(i)[5]);
            }
            out.add(new JcaCli.Result(ParameterSet.forName(f[0]), Operation.valueOf(f[1].toUpperCase(java.util.Locale.ROOT)),
                    JcaLoad.Style.of(f[2]), Contender.DILITHIUM_GPU_CPU, List.copyOf(callers), ops,
                    Double.parseDouble(f[4]), Integer.parseInt(f[5]), millisToNanos(f[6]), millisToNanos(f[7]),
                    millisToNanos(f[9]), millisToNanos(f[8])));
        }
        return out;
    }

    private static List<String[]> rows(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        List<String[]> out = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (!line.isEmpty()) {
                out.add(line.split(",", -1));
            }
        }
        return out;
    }

    private static long millisToNanos(String ms) {
        return Math.round(Double.parseDouble(ms) * 1e6);
    }
}
