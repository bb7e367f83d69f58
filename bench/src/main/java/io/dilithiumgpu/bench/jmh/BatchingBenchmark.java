package io.dilithiumgpu.bench.jmh;

import io.dilithiumgpu.DilithiumGpuProvider;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.batch.BatchConfig;
import io.dilithiumgpu.batch.Batcher;
import io.dilithiumgpu.bench.StandInBackend;
import io.dilithiumgpu.core.MuHasher;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Scheme;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Signing throughput of the batcher against the backend it feeds (CPU backend, one signature per
 * operation):
 *
 * <ul>
 *   <li>{@code jcaSingleCalls}: {@code callers} platform threads, each looping over plain JCA
 *       {@code Signature.update} + {@code sign} on the {@code DilithiumGPU} provider (μ, rnd and
 *       the batcher's queueing, copies and futures included). The callers run from the trial's
 *       setup to its teardown; one benchmark invocation waits for {@value #OPS} of their
 *       signatures, so the score is the steady-state rate, free of ramp-up and drain.</li>
 *   <li>{@code directBatches}: one thread hands the backend whole batches of {@value #BATCH}
 *       precomputed (sk, μ, rnd) records: the best the backend does without a batcher.</li>
 *   <li>{@code engineOnly}: {@code callers} threads calling {@code Engine.sign} and waiting, on a
 *       batcher whose backend does no work: the batcher's own cost per operation, to set against
 *       a signature's.</li>
 * </ul>
 * Scores are operations (signatures) per second. Signing time varies with the rejection loop, so
 * both sides sign many different messages.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
public class BatchingBenchmark {
    static final int OPS = 256;
    static final int BATCH = 256;

    /** The parameter set, shared by both benchmarks. */
    @State(Scope.Benchmark)
    public static class Set {
        @Param({"ML-DSA-65"})
        public String set;
        ParameterSet params;

        @Setup(Level.Trial)
        public void setUp() {
            params = ParameterSet.forName(set);
        }
    }

    /** The JCA callers, running for the whole trial. */
    @State(Scope.Benchmark)
    public static class Callers {
        @Param({"1", "16", "256", "4096"})
        public int callers;
        final Semaphore signed = new Semaphore(0);
        volatile boolean stop;
        Thread[] threads;

        @Setup(Level.Trial)
        public void start(Set s) throws GeneralSecurityException {
            DilithiumGpuProvider provider = new DilithiumGpuProvider();
            KeyPairGenerator kpg = KeyPairGenerator.getInstance(s.params.algorithmName(), provider);
            KeyPair pair = kpg.generateKeyPair();
            threads = new Thread[callers];
            for (int t = 0; t < callers; t++) {
                Signature signer = Signature.getInstance(s.params.algorithmName(), provider);
                signer.initSign(pair.getPrivate());
                int caller = t;
                threads[t] = new Thread(() -> {
                    byte[] message = ("caller " + caller + " message ").getBytes(StandardCharsets.UTF_8);
                    long n = 0;
                    try {
                        while (!stop) {
                            signer.update(message);
                            signer.update(Long.toString(n++).getBytes(StandardCharsets.UTF_8));
                            signer.sign();
                            signed.release();
                        }
                    } catch (GeneralSecurityException e) {
                        throw new IllegalStateException("caller " + caller, e);
                    }
                }, "jca-caller-" + t);
                threads[t].setDaemon(true);
                threads[t].start();
            }
        }

        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            stop = true;
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    /** Precomputed batch arrays and the backend they go to. */
    @State(Scope.Benchmark)
    public static class Direct {
        CpuBackend backend;
        byte[] privateKeys;
        byte[] mus;
        byte[] rnds;
        byte[] signatures;
        byte[] status;

        @Setup(Level.Trial)
        public void setUp(Set s) {
            ParameterSet p = s.params;
            backend = new CpuBackend();
            SecureRandom random = new SecureRandom();
            byte[] seed = new byte[ParameterSet.SEED_BYTES];
            random.nextBytes(seed);
            byte[] pk = new byte[p.publicKeyBytes()];
            byte[] sk = new byte[p.privateKeyBytes()];
            Scheme.keyGen(p, seed, 0, pk, 0, sk, 0);
            byte[] tr = Scheme.tr(p, pk, 0);
            privateKeys = new byte[BATCH * sk.length];
            mus = new byte[BATCH * ParameterSet.MU_BYTES];
            rnds = new byte[BATCH * p.rndBytes()];
            signatures = new byte[BATCH * p.signatureBytes()];
            status = new byte[BATCH];
            random.nextBytes(rnds);
            for (int i = 0; i < BATCH; i++) {
                System.arraycopy(sk, 0, privateKeys, i * sk.length, sk.length);
                byte[] mu = MuHasher.pure(p, tr, new byte[0])
                        .update(("direct message " + i).getBytes(StandardCharsets.UTF_8)).finish();
                System.arraycopy(mu, 0, mus, i * mu.length, mu.length);
            }
            Arrays.fill(sk, (byte) 0);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            backend.close();
        }
    }

    /**
     * Callers of a batcher whose backend does no work: what remains is the batcher's own cost per
     * operation (copies, queueing, hand-offs, futures, waking the caller).
     */
    @State(Scope.Benchmark)
    public static class EngineOnly {
        @Param({"1", "16", "256", "4096"})
        public int callers;
        final Semaphore signed = new Semaphore(0);
        volatile boolean stop;
        Thread[] threads;
        Batcher batcher;

        @Setup(Level.Trial)
        public void start(Set s) {
            ParameterSet p = s.params;
            CpuBackend cpu = new CpuBackend();
            int preferred = cpu.preferredBatchSize(p, Operation.SIGN);
            cpu.close();
            batcher = Batcher.open(BatchConfig.fromSystemProperties(), new StandInBackend(preferred, 4, 0));
            byte[] sk = new byte[p.privateKeyBytes()];
            byte[] mu = new byte[ParameterSet.MU_BYTES];
            byte[] rnd = new byte[p.rndBytes()];
            threads = new Thread[callers];
            for (int t = 0; t < callers; t++) {
                threads[t] = new Thread(() -> {
                    try {
                        while (!stop) {
                            batcher.sign(p, sk, mu, rnd).get();
                            signed.release();
                        }
                    } catch (InterruptedException | ExecutionException e) {
                        throw new IllegalStateException(e);
                    }
                }, "engine-caller-" + t);
                threads[t].setDaemon(true);
                threads[t].start();
            }
        }

        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            stop = true;
            for (Thread t : threads) {
                t.join();
            }
            batcher.close();
        }
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public void engineOnly(EngineOnly callers) throws InterruptedException {
        callers.signed.acquire(OPS);
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public void jcaSingleCalls(Callers callers) throws InterruptedException {
        callers.signed.acquire(OPS);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public byte directBatches(Set s, Direct d) {
        d.backend.run(BatchRecords.sign(s.params, BATCH, d.privateKeys, d.mus, d.rnds, d.signatures, d.status));
        if (d.status[BATCH - 1] != TaskStatus.OK) {
            throw new IllegalStateException("signing failed: status " + d.status[BATCH - 1]);
        }
        return d.signatures[0];
    }
}
