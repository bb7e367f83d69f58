package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Medians of an earlier {@code throughput.csv}, to compare a run with what was measured before,
 * typically on the same host: {@code throughput --baseline FILE}, and {@code --quick}'s history.
 * A stage is compared only with the same backend, memory, set, operation and batch size.
 */
final class Baseline {
    static final Baseline NONE = new Baseline(null, "", Map.of());
    /** Where {@code --quick} keeps its last results: the system property, else ~/.cache/dilithium-gpu. */
    static final String HISTORY_PROPERTY = "bench.history";

    private final Path file;
    private final String host;
    private final Map<String, Double> medians;

    private Baseline(Path file, String host, Map<String, Double> medians) {
        this.file = file;
        this.host = host;
        this.medians = medians;
    }

    /**
     * Reads a throughput.csv.
     *
     * @throws UsageException when the file cannot be read or is not a throughput.csv
     */
    static Baseline read(Path file) throws UsageException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UsageException("baseline " + file + " cannot be read: " + e);
        }
        if (lines.isEmpty()) {
            throw new UsageException("baseline " + file + " is empty");
        }
        List<String> header = List.of(lines.get(0).strip().split(",", -1));
        int backend = column(file, header, "backend");
        int memory = column(file, header, "memory");
        int set = column(file, header, "set");
        int op = column(file, header, "operation");
        int batch = column(file, header, "batch");
        int median = column(file, header, "median_ops_per_s");
        int hostColumn = header.indexOf("host");
        int keysColumn = header.indexOf("keys");
        Map<String, Double> medians = new HashMap<>();
        String host = "";
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length != header.size()) {
                throw new UsageException("baseline " + file + " line " + (i + 1) + ": " + f.length + " fields, not "
                        + header.size());
            }
            if (hostColumn >= 0) {
                host = f[hostColumn];
            }
            if (keysColumn >= 0 && !f[keysColumn].equals("distinct")) {
                continue;  // a baseline compares distinct-key runs only
            }
            try {
                medians.put(key(f[backend], f[memory], f[set], f[op], Integer.parseInt(f[batch])),
                        Double.parseDouble(f[median]));
            } catch (NumberFormatException e) {
                throw new UsageException("baseline " + file + " line " + (i + 1) + ": " + e.getMessage());
            }
        }
        return new Baseline(file, host, Map.copyOf(medians));
    }

    private static int column(Path file, List<String> header, String name) throws UsageException {
        int i = header.indexOf(name);
        if (i < 0) {
            throw new UsageException("baseline " + file + " is not a throughput.csv: no column " + name);
        }
        return i;
    }

    private static String key(String backend, String memory, String set, String op, int batch) {
        return backend + "|" + memory + "|" + set + "|" + op + "|" + batch;
    }

    /** {@code --quick}'s last results on the host named {@code host}. */
    static Path quickHistory(String host) {
        String dir = System.getProperty(HISTORY_PROPERTY);
        Path base = dir != null ? Path.of(dir) : Path.of(System.getProperty("user.home"), ".cache", "dilithium-gpu");
        return base.resolve("throughput-quick-" + host.replaceAll("[^A-Za-z0-9._-]", "_") + ".csv");
    }

    boolean isEmpty() {
        return medians.isEmpty();
    }

    /** The file read, or null for {@link #NONE}. */
    Path file() {
        return file;
    }

    /** The host the baseline was measured on, or "" when its CSV does not say. */
    String host() {
        return host;
    }

    /** The earlier median of the same stage, if the baseline has it. */
    OptionalDouble median(String backend, BatchBench.Memory memory, ParameterSet set, Operation op, int batch) {
        Double v = medians.get(key(backend, memory.label(), set.algorithmName(), ThroughputCli.opName(op), batch));
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }
}
