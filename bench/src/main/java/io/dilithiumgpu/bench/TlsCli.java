package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.tls.MlDsaTls;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code tls}: TLS 1.3 handshakes per second with an ML-DSA server certificate, N concurrent
 * clients against a loopback server, fresh sessions, a fixed time per level ({@link TlsLoad}).
 * Columns: BouncyCastle alone, and this provider through {@code MlDsaTls} on the cpu and on the
 * cuda backend. The batcher picks its backend once, when it opens, so each column runs in a JVM
 * of its own ({@link ChildJvm}, with {@code dilithiumgpu.backend} set for the column); it reports
 * one line per level, which this process gathers into the table.
 */
@Command(name = "tls",
        description = "TLS 1.3 handshakes/s with an ML-DSA server certificate at 1..1024 concurrent clients:"
                + " BouncyCastle alone against this provider on cpu and cuda")
public final class TlsCli extends Subcommand {
    static final List<Integer> DEFAULT_CLIENTS = List.of(1, 16, 64, 256, 1024);
    static final List<String> SETS = List.of("ML-DSA-44", "ML-DSA-65", "ML-DSA-87");
    static final double DEFAULT_SECONDS = 5.0;
    static final double DEFAULT_WARMUP_SECONDS = 2.0;
    /** The target on the H100 host: this many times BouncyCastle alone at {@link #TARGET_CLIENTS}. */
    static final double TARGET_RATIO = 1.2;
    static final int TARGET_CLIENTS = 256;
    /** The clients of the warm-up's busy slices; its other slices run one. */
    static final int WARMUP_CLIENTS = 64;
    private static final String LEVEL = "LEVEL ";
    private static final String BACKEND = "BACKEND ";
    private static final String UNAVAILABLE = "UNAVAILABLE ";

    @Option(names = "--set", paramLabel = "SET", description = "the server's ML-DSA set (default ${DEFAULT-VALUE})")
    String set = "ML-DSA-65";

    @Option(names = "--clients", paramLabel = "LIST", split = ",", converter = OptionTypes.PositiveCount.class,
            description = "concurrent clients per level (default 1,16,64,256,1024)")
    List<Integer> clients;

    @Option(names = "--seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "measured time per level (default ${DEFAULT-VALUE})")
    double seconds = DEFAULT_SECONDS;

    @Option(names = "--warmup-seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "unmeasured time before each level (default ${DEFAULT-VALUE})")
    double warmupSeconds = DEFAULT_WARMUP_SECONDS;

    @Option(names = "--jit-quiet-seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "before the first level, the most time per column its load runs on at 1 and "
                    + WARMUP_CLIENTS + " clients until the JIT is quiet (default ${DEFAULT-VALUE})")
    double jitQuietSeconds = JcaCli.DEFAULT_JIT_QUIET_SECONDS;

    @Option(names = "--columns", paramLabel = "LIST", split = ",",
            description = "bc (BouncyCastle alone), cpu, cuda (this provider on that backend); default all three")
    List<String> columns;

    @Option(names = "--rounds", paramLabel = "N", converter = OptionTypes.PositiveCount.class,
            description = "run the columns N times, alternating, each compared with the bc run of its round"
                    + " (default ${DEFAULT-VALUE})")
    int rounds = 1;

    @Option(names = "--out", paramLabel = "DIR", description = "also write tls.csv there")
    Path outDir;

    /** Set in the JVM that measures one column; its report is for the parent, one line per level. */
    @Option(names = "--column", hidden = true)
    String column;

    /** What one column's JVM reported. */
    record ColumnResult(TlsLoad.Column column, String backend, String unavailable, List<TlsLoad.Level> levels,
                        int exitStatus) {}

    @Override
    int run(PrintStream out) throws Exception {
        if (!SETS.contains(set)) {
            throw new UsageException("--set must be one of " + SETS + ", not " + set);
        }
        List<Integer> levels = clients == null ? DEFAULT_CLIENTS : clients;
        if (column != null) {
            return measureHere(TlsLoad.Column.of(column), levels, out);
        }
        List<TlsLoad.Column> cols = new ArrayList<>();
        List<String> round = columns == null ? List.of("bc", "cpu", "cuda") : columns;
        List<String> order = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            order.addAll(round);
        }
        for (String c : order) {
            try {
                cols.add(TlsLoad.Column.of(c));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        out.println("dilithium-gpu tls: TLS 1.3, " + set + " server certificate issued by an " + set
                + " CA, fresh sessions (no resumption), loopback, " + Callers.threadKind() + " for clients and"
                + " server connections; " + Format.seconds(seconds) + " measured per level after "
                + Format.seconds(warmupSeconds) + " of warm-up; each column in a JVM of its own");
        JitActivity jit = JitActivity.ofThisJvm();
        out.println("warm-up: before a column's first level, its load at 1 and " + WARMUP_CLIENTS + " clients in turn, "
                + (jit == null ? "no wait for the JIT: this JVM shows no compiler work"
                        : JitQuiet.rule(jit) + ", for at most " + Format.seconds(jitQuietSeconds)));
        out.println("columns: bc = BouncyCastle " + bouncyCastleVersion() + " alone (its JSSE, provider for every"
                + " primitive, ML-DSA included, PKIX trust manager, default suites and groups); cpu, cuda = this provider's ML-DSA through MlDsaTls on that backend"
                + " (BouncyCastle's JSSE and X25519; the JDK's SHA-2, HMAC and AES-GCM, AES-GCM suites first)");
        out.println("latency: connect, handshake and a one-byte echo; host cpu: the whole process (server and"
                + " clients); ml-dsa: this provider's threads (batcher, cpu workers, cuda streams; also shown alone)"
                + " plus the ML-DSA share of the other threads' execution samples (bc: BouncyCastle's ML-DSA);"
                + " rest: everything else (direct/batch/jdk: the share of this provider's calls on each route, %)");
        out.println(Host.describe());
        List<ColumnResult> results = new ArrayList<>();
        for (TlsLoad.Column c : cols) {
            System.err.printf(Locale.ROOT, "[tls] %s: starting its JVM%n", c.label);
            results.add(runColumn(c, levels));
        }
        out.println();
        for (ColumnResult r : results) {
            out.println(r.column().label + ": " + (r.unavailable() != null ? "not measured: " + r.unavailable()
                    : r.backend() != null ? "this provider, " + r.backend() : "BouncyCastle alone")
                    + (r.exitStatus() == Cli.OK ? "" : " (its JVM exited with status " + r.exitStatus() + ")"));
        }
        out.println();
        out.print(table(results, levels).render());
        out.println();
        out.println("host cpu per handshake by part, us (JFR execution samples of the measured window scaled to the"
                + " process's cpu; ml-dsa includes this provider's threads, measured)");
        out.print(splitTable(results, levels).render());
        String target = targetLine(results);
        if (target != null) {
            out.println(target);
        }
        if (outDir != null) {
            csv(results).write(outDir.resolve("tls.csv"));
            out.println("wrote " + outDir.resolve("tls.csv"));
        }
        boolean ok = results.stream().allMatch(r -> r.exitStatus() == Cli.OK
                && (r.unavailable() != null || r.levels().size() == levels.size()));
        return ok ? Cli.OK : Cli.FAILED;
    }

    /** The child's part: one column, measured in this JVM, reported line by line. */
    private int measureHere(TlsLoad.Column c, List<Integer> levels, PrintStream out) throws Exception {
        if (c.usesProvider()) {
            String why = SharedBatcher.openAndExplain();
            String backend = Engines.sharedBatcher().metrics().getBackend();
            if (!backend.equals(c.label)) {
                out.println(UNAVAILABLE + "the batcher opened the " + backend + " backend: " + why);
                return c == TlsLoad.Column.CUDA ? Cli.OK : Cli.FAILED;
            }
            out.println(BACKEND + why);
        }
        try (TlsLoad load = TlsLoad.open(c, set)) {
            JitQuiet.Outcome warm = JitQuiet.warmUp((slice, nanos) -> load.drive(slice == 0 ? 1 : WARMUP_CLIENTS, nanos),
                    2, (long) (jitQuietSeconds * 1e9), System::nanoTime, JitActivity.ofThisJvm());
            System.err.printf(Locale.ROOT, "[tls] %s warm-up: %.1f s (%d slices), %s%n", c.label, warm.nanos() / 1e9,
                    warm.slices(), warm.describe());
            for (int n : levels) {
                TlsLoad.Level l = load.run(n, (long) (warmupSeconds * 1e9), (long) (seconds * 1e9));
                out.println(LEVEL + encode(l));
                out.flush();
                System.err.printf(Locale.ROOT, "[tls] %s %d clients: %.0f handshakes/s%s%n", c.label, n, l.perSecond(),
                        c == TlsLoad.Column.CUDA ? routerLine() : "");
            }
        }
        return Cli.OK;
    }

    /** The router's estimates for the set's signatures and verifications, as jca prints them per level. */
    private String routerLine() {
        ParameterSet p = ParameterSet.forName(set);
        return "; sign " + RouteEstimates.of(p, Operation.SIGN) + "; verify " + RouteEstimates.of(p, Operation.VERIFY);
    }

    /** Starts the column's JVM and reads its report. */
    private ColumnResult runColumn(TlsLoad.Column c, List<Integer> levels) throws IOException, InterruptedException {
        List<String> command = ChildJvm.command(c.usesProvider() ? c.label : null, List.of("tls",
                "--column", c.label, "--set", set,
                "--clients", levels.stream().map(String::valueOf).collect(Collectors.joining(",")),
                "--seconds", Double.toString(seconds), "--warmup-seconds", Double.toString(warmupSeconds),
                "--jit-quiet-seconds", Double.toString(jitQuietSeconds)));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        p.getOutputStream().close();
        String backend = null;
        String unavailable = null;
        List<TlsLoad.Level> got = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.startsWith(LEVEL)) {
                    got.add(decode(line.substring(LEVEL.length())));
                } else if (line.startsWith(BACKEND)) {
                    backend = line.substring(BACKEND.length());
                } else if (line.startsWith(UNAVAILABLE)) {
                    unavailable = line.substring(UNAVAILABLE.length());
                } else {
                    System.err.println("[tls " + c.label + "] " + line);
                }
            }
        }
        return new ColumnResult(c, backend, unavailable, got, p.waitFor());
    }

    static String encode(TlsLoad.Level l) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "clients=%d handshakes=%d window=%d p50=%d"
                        + " p99=%d cpu=%d mldsa=%d direct=%d batch=%d jdk=%d batches=%d samples.provider=%d",
                l.clients(), l.handshakes(), l.windowNanos(), l.p50Nanos(), l.p99Nanos(), l.processCpuNanos(),
                l.providerCpuNanos(), l.directOps(), l.batchOps(), l.jdkOps(), l.batches(),
                l.samples().providerThreads()));
        for (CpuSplit.Part p : CpuSplit.Part.values()) {
            s.append(" samples.").append(p.name()).append('=').append(l.samples().others(p));
        }
        return s.toString();
    }

    static TlsLoad.Level decode(String text) {
        Map<String, Long> f = new LinkedHashMap<>();
        for (String field : text.trim().split(" ")) {
            int eq = field.indexOf('=');
            f.put(field.substring(0, eq), Long.parseLong(field.substring(eq + 1)));
        }
        List<Long> parts = new ArrayList<>();
        for (CpuSplit.Part p : CpuSplit.Part.values()) {
            parts.add(f.getOrDefault("samples." + p.name(), 0L));
        }
        return new TlsLoad.Level(Math.toIntExact(f.get("clients")), f.get("handshakes"), f.get("window"),
                f.get("p50"), f.get("p99"), f.get("cpu"), f.get("mldsa"), f.get("direct"), f.get("batch"), f.get("jdk"),
                f.get("batches"), new CpuSplit.Counts(f.getOrDefault("samples.provider", 0L), parts));
    }

    /**
     * One row per level and column run, in the order the columns ran; each compared with the bc
     * run before it (the same round when the columns repeat), else the first bc run.
     */
    static TextTable table(List<ColumnResult> results, List<Integer> levels) {
        TextTable t = new TextTable("clients", "column", "handshakes/s", "x bc", "p50 ms", "p99 ms",
                "host cpu us/hs", "ml-dsa us/hs", "rest us/hs", "provider threads us/hs", "ml-dsa ops/hs",
                "direct/batch/jdk", "mean batch");
        List<String> labels = labels(results);
        for (int k = 0; k < levels.size(); k++) {
            int n = levels.get(k);
            for (int i = 0; i < results.size(); i++) {
                ColumnResult r = results.get(i);
                TlsLoad.Level l = levelAt(r, k, n);
                if (l == null) {
                    continue;
                }
                boolean ours = r.column().usesProvider();
                TlsLoad.Level base = baseline(results, i, k, n);
                double perHandshake = l.handshakes() == 0 ? Double.NaN : 1.0 / l.handshakes();
                long mlDsa = l.cpuNanos(CpuSplit.Part.ML_DSA);
                t.row(String.valueOf(n), labels.get(i), String.format(Locale.ROOT, "%.0f", l.perSecond()),
                        base == null || base.handshakes() == 0 ? "-"
                                : String.format(Locale.ROOT, "%.2f", l.perSecond() / base.perSecond()),
                        millis(l.p50Nanos()), millis(l.p99Nanos()),
                        l.processCpuNanos() < 0 ? "-" : micros(l.processCpuNanos() * perHandshake),
                        mlDsa < 0 ? "-" : micros(mlDsa * perHandshake),
                        mlDsa < 0 ? "-" : micros((l.processCpuNanos() - mlDsa) * perHandshake),
                        ours && l.providerCpuNanos() >= 0 ? micros(l.providerCpuNanos() * perHandshake) : "-",
                        ours ? String.format(Locale.ROOT, "%.2f", l.providerOps() * perHandshake) : "-",
                        ours ? routeShares(l) : "-",
                        ours && l.batches() > 0 ? String.format(Locale.ROOT, "%.1f", (double) l.batchOps() / l.batches())
                                : "-");
            }
        }
        return t;
    }

    /** The host CPU per handshake by part ({@link CpuSplit}), one row per level and column run. */
    static TextTable splitTable(List<ColumnResult> results, List<Integer> levels) {
        List<String> header = new ArrayList<>(List.of("clients", "column"));
        for (CpuSplit.Part p : CpuSplit.Part.values()) {
            header.add(p.label);
        }
        header.add("samples");
        TextTable t = new TextTable(header.toArray(new String[0]));
        List<String> labels = labels(results);
        for (int k = 0; k < levels.size(); k++) {
            int n = levels.get(k);
            for (int i = 0; i < results.size(); i++) {
                TlsLoad.Level l = levelAt(results.get(i), k, n);
                if (l == null) {
                    continue;
                }
                List<String> row = new ArrayList<>(List.of(String.valueOf(n), labels.get(i)));
                for (CpuSplit.Part p : CpuSplit.Part.values()) {
                    long nanos = l.cpuNanos(p);
                    row.add(nanos < 0 || l.handshakes() == 0 ? "-" : micros((double) nanos / l.handshakes()));
                }
                row.add(String.valueOf(l.samples().providerThreads() + l.samples().othersTotal()));
                t.row(row.toArray(new String[0]));
            }
        }
        return t;
    }

    /**
     * The column's {@code k}-th level, run at {@code clients}: its JVM runs the levels in the order
     * given, so a count given twice has a row for each run (a column that stopped early lacks the rest).
     */
    private static TlsLoad.Level levelAt(ColumnResult r, int k, int clients) {
        List<TlsLoad.Level> got = r.levels();
        if (k < got.size() && got.get(k).clients() == clients) {
            return got.get(k);
        }
        for (TlsLoad.Level l : got) {
            if (l.clients() == clients) {
                return l;
            }
        }
        return null;
    }

    /** The bc level to compare result {@code i} with: the last bc run before it, else the first one. */
    private static TlsLoad.Level baseline(List<ColumnResult> results, int i, int k, int clients) {
        for (int j = i; j >= 0; j--) {
            if (results.get(j).column() == TlsLoad.Column.BC) {
                return levelAt(results.get(j), k, clients);
            }
        }
        for (ColumnResult r : results) {
            if (r.column() == TlsLoad.Column.BC) {
                return levelAt(r, k, clients);
            }
        }
        return null;
    }

    /** Column labels, numbered by round ({@code cpu#2}) when a column runs more than once. */
    static List<String> labels(List<ColumnResult> results) {
        Map<TlsLoad.Column, Integer> seen = new EnumMap<>(TlsLoad.Column.class);
        List<String> out = new ArrayList<>();
        for (ColumnResult r : results) {
            int round = seen.merge(r.column(), 1, Integer::sum);
            out.add(round == 1 ? r.column().label : r.column().label + "#" + round);
        }
        return out;
    }

    /**
     * Whether the cuda column met the target against bc: {@value #TARGET_RATIO} times at
     * {@value #TARGET_CLIENTS} clients, and never below at any level measured; null without both.
     */
    static String targetLine(List<ColumnResult> results) {
        Map<TlsLoad.Column, Map<Integer, TlsLoad.Level>> byColumn = byColumn(results);
        Map<Integer, TlsLoad.Level> bc = byColumn.get(TlsLoad.Column.BC);
        Map<Integer, TlsLoad.Level> cuda = byColumn.get(TlsLoad.Column.CUDA);
        if (bc == null || cuda == null || bc.isEmpty() || cuda.isEmpty()) {
            return null;
        }
        StringBuilder s = new StringBuilder("target (cuda against bc, same run): ");
        TlsLoad.Level at = cuda.get(TARGET_CLIENTS);
        TlsLoad.Level base = bc.get(TARGET_CLIENTS);
        if (at != null && base != null) {
            double ratio = at.perSecond() / base.perSecond();
            s.append(String.format(Locale.ROOT, "%.2f x at %d clients (target %.1f x): %s; ", ratio, TARGET_CLIENTS,
                    TARGET_RATIO, ratio >= TARGET_RATIO ? "met" : "NOT met"));
        } else {
            s.append(TARGET_CLIENTS).append(" clients not measured; ");
        }
        List<Integer> below = new ArrayList<>();
        for (Map.Entry<Integer, TlsLoad.Level> e : cuda.entrySet()) {
            TlsLoad.Level b = bc.get(e.getKey());
            if (b != null && e.getValue().perSecond() < b.perSecond()) {
                below.add(e.getKey());
            }
        }
        s.append(below.isEmpty() ? "never below bc" : "below bc at " + below + " clients");
        return s.toString();
    }

    static Csv csv(List<ColumnResult> results) {
        List<String> header = new ArrayList<>(List.of("column", "backend", "clients", "handshakes", "window_ns",
                "handshakes_per_s", "p50_ns", "p99_ns", "process_cpu_ns", "provider_cpu_ns", "direct_ops", "batch_ops",
                "jdk_ops", "batches"));
        for (CpuSplit.Part p : CpuSplit.Part.values()) {
            header.add("cpu_ns_" + p.name().toLowerCase(Locale.ROOT));
        }
        Csv csv = new Csv(header.toArray(new String[0]));
        List<String> labels = labels(results);
        for (int i = 0; i < results.size(); i++) {
            ColumnResult r = results.get(i);
            for (TlsLoad.Level l : r.levels()) {
                List<Object> row = new ArrayList<>(List.of(labels.get(i),
                        r.column().usesProvider() ? r.column().label : "bouncycastle", l.clients(), l.handshakes(),
                        l.windowNanos(), String.format(Locale.ROOT, "%.1f", l.perSecond()), l.p50Nanos(), l.p99Nanos(),
                        l.processCpuNanos(), l.providerCpuNanos(), l.directOps(), l.batchOps(), l.jdkOps(),
                        l.batches()));
                for (CpuSplit.Part p : CpuSplit.Part.values()) {
                    row.add(l.cpuNanos(p));
                }
                csv.row(row.toArray());
            }
        }
        return csv;
    }

    private static Map<TlsLoad.Column, Map<Integer, TlsLoad.Level>> byColumn(List<ColumnResult> results) {
        Map<TlsLoad.Column, Map<Integer, TlsLoad.Level>> out = new EnumMap<>(TlsLoad.Column.class);
        for (ColumnResult r : results) {
            Map<Integer, TlsLoad.Level> m = new LinkedHashMap<>();
            r.levels().forEach(l -> m.put(l.clients(), l));
            out.put(r.column(), m);
        }
        return out;
    }

    /** The share of this provider's calls on each route, in percent: {@code 0/100/0}. */
    private static String routeShares(TlsLoad.Level l) {
        long all = l.providerOps();
        if (all == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.0f/%.0f/%.0f", 100.0 * l.directOps() / all, 100.0 * l.batchOps() / all,
                100.0 * l.jdkOps() / all);
    }

    private static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    private static String micros(double nanos) {
        return String.format(Locale.ROOT, "%.0f", nanos / 1e3);
    }

    private static String bouncyCastleVersion() {
        return MlDsaTls.bouncyCastle().getVersionStr();
    }
}
