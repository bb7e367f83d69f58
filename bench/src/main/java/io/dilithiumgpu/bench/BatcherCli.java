package io.dilithiumgpu.bench;

import io.dilithiumgpu.DilithiumGpuProvider;
import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.cuda.CudaConfig;
import io.dilithiumgpu.batch.BatchConfig;
import io.dilithiumgpu.batch.Batcher;
import io.dilithiumgpu.batch.BatcherMXBean;
import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Scheme;
import io.dilithiumgpu.route.RouteSetting;
import io.dilithiumgpu.spec.RawPrivateKeySpec;
import io.dilithiumgpu.spec.RawPublicKeySpec;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.Provider;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code batcher}: the batcher alone, in front of a stand-in backend that takes a fixed time per
 * batch whatever its size (as a GPU batch roughly does) and accepts every request. A closed loop of
 * callers verifies through it; the output splits each request's round trip into the batcher's
 * stages ({@link BatcherMXBean}) and the wake-up of the caller after its future completes. It
 * bounds what the JCA path can reach for a given batch time, and shows what the batcher itself
 * costs. With {@code --backend none} there is no batcher either: each call hands a future to one
 * of {@code --completers} platform threads, which complete every waiting future once per batch
 * time: the least any blocking single-call API over a batching engine costs on this host and JDK.
 */
@Command(name = "batcher", description = "the batcher alone over a stand-in backend with a fixed batch time: ops/s"
        + " and where a request's time goes")
final class BatcherCli extends Subcommand {
    static final List<Integer> DEFAULT_CALLERS = List.of(256, 1024, 4096);

    /** What {@code --backend} puts behind the callers. */
    enum BackendChoice {
        STANDIN, CUDA, NONE;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Option(names = "--callers", paramLabel = "LIST", split = ",", converter = OptionTypes.PositiveCount.class,
            description = "concurrency levels (default 256,1024,4096)")
    List<Integer> callers;

    @Option(names = "--batch-micros", paramLabel = "N", converter = OptionTypes.Count.class,
            description = "the stand-in backend's time per batch (default ${DEFAULT-VALUE})")
    int batchMicros = 2000;

    @Option(names = "--backend", paramLabel = "standin|cuda|none", description = "the stand-in (default), the CUDA"
            + " backend verifying a valid signature (the batcher and a real backend without the JCA layers), or none:"
            + " no batcher, futures completed by --completers threads once per batch time (the JDK's floor)")
    BackendChoice backend = BackendChoice.STANDIN;

    /** What the callers call: the batcher itself, or {@code Signature} through the provider over it. */
    enum Via {
        ENGINE, JCA;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Option(names = "--via", paramLabel = "engine|jca", description = "engine (default): callers verify through the"
            + " batcher's own API; jca: through Signature.getInstance(\"ML-DSA-44\", provider) (--style, --ops), the"
            + " provider's shared batcher opened over the stand-in, every call routed to it (a fresh JVM only)")
    Via via = Via.ENGINE;

    @Option(names = "--style", paramLabel = "LIST", split = ",", converter = JcaCli.StyleName.class,
            description = "with --via jca: reuse and/or getInstance (default both)")
    List<JcaLoad.Style> styles;

    @Option(names = "--ops", paramLabel = "LIST", split = ",", converter = OptionTypes.OperationName.class,
            description = "with --via jca: sign and/or verify (default both)")
    List<Operation> ops;

    @Option(names = "--attempt-micros", paramLabel = "N", converter = OptionTypes.Count.class,
            description = "with --via jca: the stand-in signs as the kernels do, each task ending after --batch-micros"
                    + " plus a geometric count of attempts of N µs (mean --mean-attempts), its batch with the longest,"
                    + " each caller told as its task ends; 0 (default): every task ends with its batch")
    int attemptMicros;

    @Option(names = "--mean-attempts", paramLabel = "X", converter = MeanAttempts.class,
            description = "with --attempt-micros: a signature's mean attempts (default ${DEFAULT-VALUE}, ML-DSA-44's)")
    double meanAttempts = 4.25;

    @Option(names = "--untold", description = "with --attempt-micros: the stand-in tells no task as it ends, so each"
            + " caller waits for its batch's longest task (a backend without early delivery)")
    boolean untold;

    @Option(names = "--rate", paramLabel = "R", converter = OptionTypes.Rate.class,
            description = "with --via jca: calls arriving at R per second (an open loop, as jca's) instead of the"
                    + " closed loop's levels; p50/p99 and the run by windows of arrival")
    Double rate;

    @Option(names = "--jit-quiet-seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "with --rate: the most an open loop's lead-in runs past --warmup-seconds until the JIT is"
                    + " quiet (default ${DEFAULT-VALUE})")
    double jitQuietSeconds = JcaCli.DEFAULT_JIT_QUIET_SECONDS;

    @Option(names = "--completers", paramLabel = "N", converter = OptionTypes.Count.class,
            description = "with --backend none: threads completing the futures (default ${DEFAULT-VALUE})")
    int completers = 1;

    @Option(names = "--seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "measured time per level (default ${DEFAULT-VALUE})")
    double seconds = 2;

    @Option(names = "--warmup-seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "unmeasured time before each level (default ${DEFAULT-VALUE})")
    double warmupSeconds = 1;

    @Override
    int run(PrintStream out) throws Exception {
        List<Integer> levels = callers == null ? DEFAULT_CALLERS : callers;
        long batchNanos = batchMicros * 1000L;
        long measure = (long) (seconds * 1e9);
        long warmup = (long) (warmupSeconds * 1e9);
        String backendName = backend.toString();
        if (rate != null && via != Via.JCA) {
            throw new UsageException("--rate runs with --via jca only");
        }
        if (backend == BackendChoice.NONE) {
            return runHandOff(levels, batchNanos, completers, warmup, measure, out);
        }
        if (via == Via.JCA) {
            if (backend != BackendChoice.STANDIN) {
                throw new UsageException("--via jca runs over the stand-in backend only (for JCA over CUDA: jca)");
            }
            return runJca(levels, batchNanos, warmup, measure, out);
        }
        if (attemptMicros > 0 || untold) {
            throw new UsageException("--attempt-micros and --untold model signing: they need --via jca");
        }
        BatchConfig config = BatchConfig.builder(System.getProperties()).build();
        ParameterSet p = ParameterSet.ML_DSA_44;
        byte[] pk = new byte[p.publicKeyBytes()];
        byte[] mu = new byte[ParameterSet.MU_BYTES];
        byte[] sig = new byte[p.signatureBytes()];
        Backend backend;
        String described;
        if (backendName.equals("standin")) {
            backend = new StandInBackend(65_536, 8, batchNanos);
            described = "stand-in backend " + batchNanos / 1000 + " µs per batch";
        } else {
            Backends.Opened cuda = Backends.cuda(CudaConfig.fromSystemProperties());
            if (!cuda.available()) {
                out.println("dilithium-gpu batcher: CUDA backend unavailable: " + cuda.unavailable());
                return Cli.FAILED;
            }
            backend = cuda.backend();
            described = "CUDA backend (" + cuda.description() + ") verifying one valid " + p + " signature";
            SplittableRandom random = new SplittableRandom();
            byte[] seed = new byte[ParameterSet.SEED_BYTES];
            byte[] sk = new byte[p.privateKeyBytes()];
            random.nextBytes(seed);
            random.nextBytes(mu);
            Scheme.keyGen(p, seed, 0, pk, 0, sk, 0);
            Scheme.sign(p, sk, 0, mu, 0, new byte[p.rndBytes()], 0, sig, 0);
            Arrays.fill(sk, (byte) 0);
        }
        out.println("dilithium-gpu batcher: closed-loop verify callers on " + Callers.threadKind()
                + "; " + described + "; " + config);
        out.println(Host.describe());
        try (Batcher batcher = Batcher.open(config, backend)) {
            BatcherMXBean m = batcher.metrics();
            for (int callers : levels) {
                LongAdder inCall = new LongAdder();
                LongAdder calls = new LongAdder();
                Anatomy start = Anatomy.of(m);
                Callers.ClosedLoopResult<Callers.Call> r = Callers.closedLoop(callers, () -> () -> {
                    long submitted = System.nanoTime();
                    // As a JCA verification waits: the key's arrays read in place, awaited by Engines.await.
                    boolean valid = Engines.await(batcher.verifyInPlace(p, pk, null, mu, sig), IllegalStateException::new);
                    if (!valid) {
                        throw new IllegalStateException("the " + backendName + " backend rejected a valid request");
                    }
                    inCall.add(System.nanoTime() - submitted);
                    calls.increment();
                }, warmup, measure);
                out.printf(Locale.ROOT, "%,d callers: %,.0f ops/s; %.0f µs per call; %s; %s; %s; %s%n", callers,
                        r.opsPerSecond(), inCall.sum() / 1e3 / Math.max(1, calls.sum()), Anatomy.of(m).since(start),
                        r.cpu(), r.allocated(), r.gc());
            }
        }
        return Cli.OK;
    }

    /**
     * {@code --via jca}: {@code Signature} callers of this provider, whose shared batcher runs on the
     * stand-in, each call routed to it ({@value RouteSetting#PROPERTY}{@code =batch}): the provider's
     * whole host cost per call, the JCA layer's included. The stand-in's signatures are zeros and
     * its verdicts always true; the keys are real (made by the CPU core), so every JCA step runs as
     * it would over a GPU.
     */
    private int runJca(List<Integer> levels, long batchNanos, long warmup, long measure, PrintStream out)
            throws Exception {
        List<JcaLoad.Style> chosenStyles = styles == null ? List.of(JcaLoad.Style.REUSE, JcaLoad.Style.GET_INSTANCE)
                : styles.stream().distinct().toList();
        List<Operation> chosenOps = ops == null ? List.of(Operation.SIGN, Operation.VERIFY) : OptionTypes.inOrder(ops);
        if (chosenOps.contains(Operation.KEYGEN)) {
            throw new UsageException("--ops takes sign and verify here");
        }
        if (Engines.openedBatcher().isPresent()) {
            out.println("dilithium-gpu batcher: --via jca needs a JVM whose provider has not opened its batcher yet");
            return Cli.FAILED;
        }
        if (untold && attemptMicros == 0) {
            throw new UsageException("--untold needs --attempt-micros");
        }
        ParameterSet p = ParameterSet.ML_DSA_44;
        StandInBackend standIn = attemptMicros == 0 ? new StandInBackend(65_536, 8, batchNanos)
                : StandInBackend.signingLoops(65_536, 8, batchNanos, attemptMicros * 1000L, meanAttempts, !untold);
        Batcher batcher = Engines.openShared(standIn);
        System.setProperty(RouteSetting.PROPERTY, "batch");
        Provider provider = new DilithiumGpuProvider();
        SplittableRandom random = new SplittableRandom();
        byte[] seed = new byte[ParameterSet.SEED_BYTES];
        byte[] pk = new byte[p.publicKeyBytes()];
        byte[] sk = new byte[p.privateKeyBytes()];
        random.nextBytes(seed);
        Scheme.keyGen(p, seed, 0, pk, 0, sk, 0);
        KeyFactory factory = KeyFactory.getInstance(p.algorithmName(), provider);
        KeyPair keys = new KeyPair(factory.generatePublic(new RawPublicKeySpec(p.algorithmName(), pk)),
                factory.generatePrivate(new RawPrivateKeySpec(p.algorithmName(), sk)));
        Arrays.fill(sk, (byte) 0);
        Arrays.fill(seed, (byte) 0);
        out.println("dilithium-gpu batcher: " + (rate == null ? "closed-loop JCA callers" : "JCA calls arriving at "
                + Format.rate(rate) + " per second (" + Format.seconds(warmup / 1e9) + " or more unmeasured, until"
                + " the JIT is quiet, then " + Format.seconds(measure / 1e9) + "), each")
                + " on " + Callers.threadKind() + "; " + p
                + " Signature of " + provider.getName() + ", update(" + JcaLoad.MESSAGE_BYTES + " bytes) and sign() or"
                + " verify() per call; stand-in backend " + batchNanos / 1000 + " µs per batch"
                + (attemptMicros == 0 ? "" : String.format(Locale.ROOT, ", signing %.2f attempts of %d µs on average"
                        + " after it, %s", meanAttempts, attemptMicros,
                        untold ? "callers waiting for their batch's longest" : "each caller told as its task ends"))
                + "; " + batcher.config());
        out.println(Host.describe());
        try {
            JcaLoad load = new JcaLoad(provider, p, keys, new byte[0], random);
            BatcherMXBean m = batcher.metrics();
            for (Operation op : chosenOps) {
                for (JcaLoad.Style style : chosenStyles) {
                    if (rate != null) {
                        openLoop(load, op, style, m, warmup, measure, out);
                        continue;
                    }
                    for (int callers : levels) {
                        Anatomy start = Anatomy.of(m);
                        Callers.ClosedLoopResult<?> r = op == Operation.SIGN
                                ? Callers.closedLoop(callers, load.signers(style), warmup, measure)
                                : Callers.closedLoop(callers, load.verifiers(style), warmup, measure);
                        out.printf(Locale.ROOT, "%s %s, %,d callers: %,.0f ops/s; %s; %s; %s; %s%n",
                                ThroughputCli.opName(op), style.label, callers, r.opsPerSecond(),
                                Anatomy.of(m).since(start), r.cpu(), r.allocated(), r.gc());
                    }
                }
            }
        } finally {
            keys.getPrivate().destroy();
        }
        return Cli.OK;
    }

    /** {@code --rate}: one open loop of {@code load}'s calls, its lead-in {@code warmup}, its line on {@code out}. */
    private void openLoop(JcaLoad load, Operation op, JcaLoad.Style style, BatcherMXBean m, long warmup, long measure,
                          PrintStream out) throws Exception {
        Anatomy start = Anatomy.of(m);
        CpuUse cpuStart = CpuUse.snapshot();
        long allocatedStart = Allocated.now();
        GcTime gcStart = GcTime.now();
        Callers.OpenLoopResult r = Callers.openLoop(rate,
                new Callers.LeadIn(warmup, warmup + (long) (jitQuietSeconds * 1e9)), measure,
                op == Operation.SIGN ? load.signers(style) : load.verifiers(style));
        long calls = r.calls();
        out.printf(Locale.ROOT, "%s %s at %,.0f/s (CPU, bytes and collections of the lead-in too): p50 %s, p99 %s,"
                        + " p99.9 %s, max %s; %s; %s; %s; %s%n",
                ThroughputCli.opName(op), style.label, rate, Format.millis(r.latency().getValueAtPercentile(50)),
                Format.millis(r.latency().getValueAtPercentile(99)), Format.millis(r.latency().getValueAtPercentile(99.9)),
                Format.millis(r.latency().getMaxValue()), Anatomy.of(m).since(start), CpuUse.snapshot().since(cpuStart,
                        calls), Allocated.perCall(allocatedStart, Allocated.now(), calls), GcTime.now().since(gcStart));
        out.println("  " + OpenLoopTimeline.summary(r.timeline()));
    }

    /**
     * {@code --backend none}: callers block on futures that {@code completers} platform threads
     * complete, each all those waiting in its own queue, once every {@code batchNanos} (at once
     * when 0): no batcher, no copies, no backend, only the JDK's hand-off between completing
     * threads and blocked callers. Caller i queues to completer i mod {@code completers}.
     */
    private static int runHandOff(List<Integer> levels, long batchNanos, int completers, long warmup, long measure,
                                  PrintStream out) throws Exception {
        out.println("dilithium-gpu batcher: closed-loop callers on " + Callers.threadKind() + "; no batcher: "
                + completers + " platform thread" + (completers == 1 ? "" : "s") + " complete every waiting future"
                + " once per " + batchNanos / 1000 + " µs");
        out.println(Host.describe());
        try (HandOff handOff = new HandOff(batchNanos, completers)) {
            for (int callers : levels) {
                java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
                Callers.ClosedLoopResult<Callers.Call> r = Callers.closedLoop(callers, () -> {
                    int queue = next.getAndIncrement();
                    return () -> {
                        if (!handOff.call(queue).get()) {
                            throw new IllegalStateException("a hand-off completed false");
                        }
                    };
                }, warmup, measure);
                out.printf(Locale.ROOT, "%,d callers: %,.0f ops/s; %,.1f futures per completion round; %s; %s%n",
                        callers, r.opsPerSecond(), handOff.meanRound(), r.cpu(), r.allocated());
            }
        }
        return Cli.OK;
    }

    /** Platform threads completing queued futures in rounds, each from its own queue. */
    private static final class HandOff implements AutoCloseable {
        private final List<ConcurrentLinkedQueue<CompletableFuture<Boolean>>> queues = new java.util.ArrayList<>();
        private final List<Thread> completers = new java.util.ArrayList<>();
        private final LongAdder completed = new LongAdder();
        private final LongAdder rounds = new LongAdder();
        private volatile boolean closed;

        HandOff(long roundNanos, int threads) {
            for (int t = 0; t < threads; t++) {
                ConcurrentLinkedQueue<CompletableFuture<Boolean>> waiting = new ConcurrentLinkedQueue<>();
                queues.add(waiting);
                Thread completer = new Thread(() -> {
                    while (!closed) {
                        if (roundNanos > 0) {
                            LockSupport.parkNanos(roundNanos);
                        } else {
                            Thread.onSpinWait();
                        }
                        int n = 0;
                        for (CompletableFuture<Boolean> f; (f = waiting.poll()) != null; n++) {
                            f.complete(Boolean.TRUE);
                        }
                        if (n > 0) {
                            completed.add(n);
                            rounds.increment();
                        }
                    }
                }, "dilithiumgpu-bench-handoff-" + t);
                completer.setDaemon(true);
                completers.add(completer);
            }
            completers.forEach(Thread::start);
        }

        /** A future that completer {@code queue} mod their number completes in its next round. */
        CompletableFuture<Boolean> call(int queue) {
            CompletableFuture<Boolean> f = new CompletableFuture<>();
            queues.get(queue % queues.size()).add(f);
            return f;
        }

        double meanRound() {
            long r = rounds.sum();
            return r == 0 ? 0 : (double) completed.sum() / r;
        }

        @Override
        public void close() throws InterruptedException {
            closed = true;
            for (Thread t : completers) {
                t.join();
            }
            for (ConcurrentLinkedQueue<CompletableFuture<Boolean>> q : queues) {
                for (CompletableFuture<Boolean> f; (f = q.poll()) != null; ) {
                    f.complete(Boolean.TRUE);
                }
            }
        }
    }

    /** A mean count of attempts: a number of at least 1. */
    static final class MeanAttempts implements picocli.CommandLine.ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            try {
                double x = Double.parseDouble(text);
                if (x >= 1 && Double.isFinite(x)) {
                    return x;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new picocli.CommandLine.TypeConversionException("not a mean count of attempts (at least 1): " + text);
        }
    }
}
