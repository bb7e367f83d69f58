package io.dilithiumgpu.bench;

import io.dilithiumgpu.DilithiumGpuProvider;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.core.ParameterSet;

import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import javax.security.auth.DestroyFailedException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code jca}: the JCA path under load. For each set and operation: throughput with 1, 16, 256,
 * 1024 and 4096 concurrent callers, each calling {@code Signature.sign()} or {@code verify()} in a
 * loop (closed loop); then latency percentiles with calls arriving at half the peak throughput on
 * a fixed schedule (open loop), measured from each call's scheduled arrival.
 */
@Command(name = "jca",
        description = "Signature.sign()/verify() ops/s at 1..4096 concurrent callers, p50/p99 latency at half the peak")
public final class JcaCli extends Subcommand {
    static final List<Integer> DEFAULT_CALLERS = List.of(1, 16, 256, 1024, 4096);
    static final double DEFAULT_SECONDS = 2.0;
    static final double DEFAULT_WARMUP_SECONDS = 0.5;
    /** Signatures of signers checked with the CPU core after each run. */
    static final int CHECKED_SIGNERS = 32;
    /** Callers of the warm-up pass over every set before the first measurement. */
    static final int WARMUP_CALLERS = 64;

    @Option(names = "--sets", paramLabel = "LIST", converter = OptionTypes.Sets.class,
            description = "parameter sets (default all six)")
    OptionTypes.SetList sets = OptionTypes.SetList.ALL;

    @Option(names = "--ops", paramLabel = "LIST", split = ",", converter = OptionTypes.OperationName.class,
            description = "sign and/or verify (default both)")
    List<Operation> ops;

    @Option(names = "--callers", paramLabel = "LIST", split = ",", converter = OptionTypes.PositiveCount.class,
            description = "concurrency levels (default 1,16,256,1024,4096)")
    List<Integer> callers;

    @Option(names = "--seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "measured time per level, and of the latency run (default ${DEFAULT-VALUE})")
    double seconds = DEFAULT_SECONDS;

    @Option(names = "--warmup-seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "unmeasured time before each level, and per set and operation in a warm-up pass before"
                    + " the first (default ${DEFAULT-VALUE})")
    double warmupSeconds = DEFAULT_WARMUP_SECONDS;

    @Option(names = "--out", paramLabel = "DIR", description = "also write jca.csv and jca-latency.csv there")
    Path outDir;

    /** Throughput of one (set, operation) at each concurrency, and latency at half the peak. */
    record Result(ParameterSet set, Operation op, List<Integer> callers, double[] opsPerSecond,
                  double arrivalRate, int calls, long p50, long p99, long max) {
        double peak() {
            double best = 0;
            for (double v : opsPerSecond) {
                best = Math.max(best, v);
            }
            return best;
        }
    }

    @Override
    int run(PrintStream out) throws Exception {
        List<ParameterSet> sets = this.sets.sets();
        List<Operation> ops = operations();
        List<Integer> levels = callers == null ? DEFAULT_CALLERS : callers;
        long measure = (long) (seconds * 1e9);
        long warmup = (long) (warmupSeconds * 1e9);

        Provider provider = new DilithiumGpuProvider();
        String selection = SharedBatcher.openAndExplain();
        out.println("dilithium-gpu jca: Signature calls through provider " + provider.getName() + " on backend "
                + Engines.sharedBatcher().metrics().getBackend() + " (" + selection + ")");
        out.println("closed loop: each caller has its own Signature and calls it in a loop; callers on "
                + Callers.threadKind());
        out.println("open loop: calls arrive every 1/rate s at half the peak; latency from scheduled arrival"
                + " to return");
        out.println(Host.describe());

        SplittableRandom random = new SplittableRandom();
        List<Result> results = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<ParameterSet, JcaLoad> loads = new LinkedHashMap<>();
        List<KeyPair> pairs = new ArrayList<>();
        try {
            for (ParameterSet p : sets) {
                KeyPair keys = KeyPairGenerator.getInstance(p.algorithmName(), provider).generateKeyPair();
                pairs.add(keys);
                loads.put(p, new JcaLoad(provider, p, keys, new byte[0], random));
            }
            JcaLoad.warmUp(loads.values(), WARMUP_CALLERS, warmup);
            for (Map.Entry<ParameterSet, JcaLoad> e : loads.entrySet()) {
                ParameterSet p = e.getKey();
                for (Operation op : ops) {
                    try {
                        results.add(measure(e.getValue(), p, op, levels, warmup, measure));
                    } catch (WrongResultException wrong) {
                        problems.add("REFUSED " + p + " " + ThroughputCli.opName(op) + ": " + wrong.getMessage());
                    }
                    System.err.printf(Locale.ROOT, "[jca] %s %s done%n", p, ThroughputCli.opName(op));
                }
            }
        } finally {
            for (KeyPair keys : pairs) {
                try {
                    keys.getPrivate().destroy();
                } catch (DestroyFailedException e) {
                    problems.add(keys.getPrivate().getAlgorithm() + " private key could not be destroyed: "
                            + e.getMessage());
                }
            }
        }

        out.println();
        out.print(table(results, levels).render());
        problems.forEach(out::println);
        if (outDir != null) {
            Path dir = outDir;
            throughputCsv(results).write(dir.resolve("jca.csv"));
            latencyCsv(results).write(dir.resolve("jca-latency.csv"));
            out.println("wrote " + dir.resolve("jca.csv") + " and " + dir.resolve("jca-latency.csv"));
        }
        return problems.isEmpty() ? Cli.OK : Cli.FAILED;
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

    private static Result measure(JcaLoad load, ParameterSet p, Operation op, List<Integer> levels,
                                  long warmup, long measure) throws Exception {
        double[] rates = new double[levels.size()];
        for (int i = 0; i < levels.size(); i++) {
            Anatomy before = Anatomy.snapshot();
            long[] inCallsBefore = load.timeInCalls();
            Callers.ClosedLoopResult<?> r = closedLoop(load, op, levels.get(i), warmup, measure);
            rates[i] = r.opsPerSecond();
            long[] inCalls = load.timeInCalls();
            double inCall = (inCalls[0] - inCallsBefore[0]) / 1e3 / Math.max(1, inCalls[1] - inCallsBefore[1]);
            System.err.printf(Locale.ROOT, "[jca] %s %s, %d callers: round trip %.0f µs, %.0f µs of it in the call; "
                            + "%s; %s%n", p, ThroughputCli.opName(op), levels.get(i), levels.get(i) * 1e6 / rates[i],
                    inCall, Anatomy.snapshot().since(before), r.cpu());
        }
        double peak = 0;
        for (double r : rates) {
            peak = Math.max(peak, r);
        }
        double rate = peak / 2;
        Histogram latency = openLoop(load, op, rate, measure);
        return new Result(p, op, levels, rates, rate, (int) latency.getTotalCount(),
                latency.getValueAtPercentile(50), latency.getValueAtPercentile(99), latency.getMaxValue());
    }

    private static Callers.ClosedLoopResult<?> closedLoop(JcaLoad load, Operation op, int callers, long warmup,
                                                          long measure) throws Exception {
        if (op == Operation.SIGN) {
            Callers.ClosedLoopResult<JcaLoad.Signer> r = Callers.closedLoop(callers, load.signers(), warmup, measure);
            load.checkSigners(r.callers(), CHECKED_SIGNERS);
            return r;
        }
        return Callers.closedLoop(callers, load.verifiers(), warmup, measure);
    }

    private static Histogram openLoop(JcaLoad load, Operation op, double rate, long duration) throws Exception {
        if (op == Operation.SIGN) {
            List<JcaLoad.Signer> made = Collections.synchronizedList(new ArrayList<>());
            Histogram latency = Callers.openLoop(rate, duration, () -> {
                JcaLoad.Signer s = load.signers().create();
                made.add(s);
                return s;
            });
            synchronized (made) {
                load.checkSigners(made, CHECKED_SIGNERS);
            }
            return latency;
        }
        return Callers.openLoop(rate, duration, load.verifiers());
    }

    static TextTable table(List<Result> results, List<Integer> levels) {
        List<String> headers = new ArrayList<>(List.of("set", "op"));
        for (int c : levels) {
            headers.add(Format.count(c) + (c == 1 ? " caller" : " callers"));
        }
        headers.addAll(List.of("peak ops/s", "load ops/s", "p50", "p99"));
        TextTable t = new TextTable(headers.toArray(new String[0]));
        for (Result r : results) {
            List<String> row = new ArrayList<>(List.of(r.set().algorithmName(), ThroughputCli.opName(r.op())));
            for (double v : r.opsPerSecond()) {
                row.add(Format.rate(v));
            }
            row.addAll(List.of(Format.rate(r.peak()), Format.rate(r.arrivalRate()), Format.millis(r.p50()),
                    Format.millis(r.p99())));
            t.row(row.toArray(new String[0]));
        }
        return t;
    }

    static Csv throughputCsv(List<Result> results) {
        Csv csv = new Csv("set", "operation", "callers", "ops_per_s");
        for (Result r : results) {
            for (int i = 0; i < r.callers().size(); i++) {
                csv.row(r.set().algorithmName(), ThroughputCli.opName(r.op()), r.callers().get(i), r.opsPerSecond()[i]);
            }
        }
        return csv;
    }

    static Csv latencyCsv(List<Result> results) {
        Csv csv = new Csv("set", "operation", "arrival_rate_per_s", "calls", "p50_ms", "p99_ms", "max_ms");
        for (Result r : results) {
            csv.row(r.set().algorithmName(), ThroughputCli.opName(r.op()), r.arrivalRate(), r.calls(),
                    r.p50() / 1e6, r.p99() / 1e6, r.max() / 1e6);
        }
        return csv;
    }
}
