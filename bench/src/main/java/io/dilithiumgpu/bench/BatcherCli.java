package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.cuda.CudaConfig;
import io.dilithiumgpu.batch.BatchConfig;
import io.dilithiumgpu.batch.Batcher;
import io.dilithiumgpu.batch.BatcherMXBean;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Scheme;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code batcher}: the batcher alone, in front of a stand-in backend that takes a fixed time per
 * batch whatever its size (as a GPU batch roughly does) and accepts every request. A closed loop of
 * callers verifies through it; the output splits each request's round trip into the batcher's
 * stages ({@link BatcherMXBean}) and the wake-up of the caller after its future completes. It
 * bounds what the JCA path can reach for a given batch time, and shows what the batcher itself
 * costs.
 */
final class BatcherCli implements Subcommand {
    static final List<Integer> DEFAULT_CALLERS = List.of(256, 1024, 4096);

    @Override
    public String name() {
        return "batcher";
    }

    @Override
    public String summary() {
        return "the batcher alone over a stand-in backend with a fixed batch time: ops/s and where a request's time goes";
    }

    @Override
    public List<Option> options() {
        return List.of(
                Option.valued("callers", "LIST", "concurrency levels (default 256,1024,4096)"),
                Option.valued("batch-micros", "N", "the stand-in backend's time per batch (default 2000)"),
                Option.valued("backend", "standin|cuda", "the stand-in (default), or the CUDA backend verifying a"
                        + " valid signature: the batcher and a real backend without the JCA layers"),
                Option.valued("seconds", "S", "measured time per level (default 2)"),
                Option.valued("warmup-seconds", "S", "unmeasured time before each level (default 1)"));
    }

    @Override
    public int run(Args args, PrintStream out) throws Exception {
        List<Integer> levels = args.counts("callers", DEFAULT_CALLERS);
        long batchNanos = args.count("batch-micros", 2000) * 1000L;
        long measure = (long) (args.seconds("seconds", 2) * 1e9);
        long warmup = (long) (args.seconds("warmup-seconds", 1) * 1e9);
        String backendName = args.choice("backend", "standin", "standin", "cuda");
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
                LongAdder inBatcher = new LongAdder();
                LongAdder wake = new LongAdder();
                LongAdder calls = new LongAdder();
                Anatomy start = Anatomy.of(m);
                Callers.ClosedLoopResult<Callers.Call> r = Callers.closedLoop(callers, () -> {
                    long[] completed = new long[1];
                    return () -> {
                        long submitted = System.nanoTime();
                        // Waits on the dependent stage: it completes after the time stamp is taken.
                        CompletableFuture<Boolean> f = batcher.verify(p, pk, mu, sig)
                                .whenComplete((v, e) -> completed[0] = System.nanoTime());
                        if (!f.get()) {
                            throw new IllegalStateException("the " + backendName + " backend rejected a valid request");
                        }
                        long resumed = System.nanoTime();
                        inBatcher.add(completed[0] - submitted);
                        wake.add(resumed - completed[0]);
                        calls.increment();
                    };
                }, warmup, measure);
                long n = Math.max(1, calls.sum());
                out.printf(Locale.ROOT, "%,d callers: %,.0f ops/s; per call: submit to completion %.0f µs, completion to the "
                                + "caller running %.0f µs; %s; %s%n", callers, r.opsPerSecond(),
                        inBatcher.sum() / 1e3 / n, wake.sum() / 1e3 / n, Anatomy.of(m).since(start), r.cpu());
            }
        }
        return Cli.OK;
    }
}
