package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.MuHasher;
import io.dilithiumgpu.core.ParameterSet;
import org.bouncycastle.crypto.digests.SHAKEDigest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

/**
 * The accumulated key-generation and signing test of C2SP's CCTV for ML-DSA
 * (github.com/C2SP/CCTV, {@code ML-DSA/accumulated}): iteration i reads a 32-byte seed ξ from one
 * SHAKE128 stream (of the empty input), generates the key pair (FIPS 204 Algorithm 6), signs the
 * empty message with the empty context deterministically (rnd = 0³², Algorithm 2), checks that the
 * signature verifies, and absorbs pk then the signature into a second SHAKE128; the result is 32
 * bytes of that one. CCTV publishes the result for 100, 10,000 and 60,000,000 iterations of each
 * set ({@link #published}), which covers nearly every coefficient value the arithmetic can meet
 * without storing the vectors.
 *
 * <p>The iterations run in batches on a {@link Backend}, their records in its host buffers: while
 * it generates, signs and verifies one batch, the calling thread absorbs the previous one, in
 * order. The state after any whole batch (the two SHAKE128s and the count) can be saved
 * ({@link #save}) and resumed ({@link #resume}), so a long run may stop and go on in another
 * process. Not thread-safe.
 */
public final class Accumulated {
    private static final String FORMAT = "cctv-ml-dsa-accumulated 1";
    private static final HexFormat HEX = HexFormat.of();
    /** The results CCTV publishes (ML-DSA/accumulated/README.md), by set and iteration count. */
    private static final Map<String, String> PUBLISHED = new LinkedHashMap<>();

    static {
        PUBLISHED.put("ML-DSA-44/100", "d51148e1f9f4fa1a723a6cf42e25f2a99eb5c1b378b3d2dbbd561b1203beeae4");
        PUBLISHED.put("ML-DSA-44/10000", "e7fd21f6a59bcba60d65adc44404bb29a7c00e5d8d3ec06a732c00a306a7d143");
        PUBLISHED.put("ML-DSA-44/60000000", "080b48049257f5cd30dee17d6aa393d6c42fe52a29099df84a460ebaf4b02330");
        PUBLISHED.put("ML-DSA-65/100", "8358a1843220194417cadbc2651295cd8fc65125b5a5c1a239a16dc8b57ca199");
        PUBLISHED.put("ML-DSA-65/10000", "5ff5e196f0b830c3b10a9eb5358e7c98a3a20136cb677f3ae3b90175c3ace329");
        PUBLISHED.put("ML-DSA-65/60000000", "0af0165db2b180f7a83dbecad1ccb758b9c2d834b7f801fc49dd572a9d4b1e83");
        PUBLISHED.put("ML-DSA-87/100", "8c3ad714777622b8f21ce31bb35f71394f23bc0fcf3c78ace5d608990f3b061b");
        PUBLISHED.put("ML-DSA-87/10000", "80a8cf39317f7d0be0e24972c51ac152bd2a3e09bc0c32ce29dd82c4e7385e60");
        PUBLISHED.put("ML-DSA-87/60000000", "011166e9d5032c9bdc5c9bbb5dbb6c86df1c3d9bf3570b65ebae942dd9830057");
    }

    private final ParameterSet params;
    private final long iterations;
    private final SHAKEDigest seeds;
    private final SHAKEDigest accumulator;
    private long done;

    private Accumulated(ParameterSet params, long iterations, SHAKEDigest seeds, SHAKEDigest accumulator, long done) {
        this.params = params;
        this.iterations = iterations;
        this.seeds = seeds;
        this.accumulator = accumulator;
        this.done = done;
    }

    /**
     * A run of {@code iterations} from the start.
     *
     * @throws IllegalArgumentException for a round 3.1 set (CCTV defines the test for ML-DSA only)
     *                                  or a count below 1
     */
    public static Accumulated start(ParameterSet params, long iterations) {
        if (!params.isFips204()) {
            throw new IllegalArgumentException("the accumulated test is defined for ML-DSA, not " + params);
        }
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be at least 1, not " + iterations);
        }
        SHAKEDigest seeds = new SHAKEDigest(128);
        return new Accumulated(params, iterations, seeds, new SHAKEDigest(128), 0);
    }

    /** The result CCTV publishes for this set and count, in hex, or null when it publishes none. */
    public static String published(ParameterSet params, long iterations) {
        return PUBLISHED.get(params.algorithmName() + "/" + iterations);
    }

    public ParameterSet params() { return params; }

    public long iterations() { return iterations; }

    /** Iterations done so far. */
    public long done() { return done; }

    public boolean finished() { return done == iterations; }

    /**
     * Runs iterations in batches of {@code batch} on {@code backend} until the run is finished or
     * {@code goOn}, asked after each batch with the count done, says to stop; the batch already
     * under way then completes too, so that the state can be {@link #save saved}.
     *
     * @throws AccumulationException when a task fails or a signature does not verify; the run
     *                               cannot go on then (resume it from its last {@link #save})
     */
    public void run(Backend backend, int batch, LongPredicate goOn) throws AccumulationException, InterruptedException {
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be at least 1, not " + batch);
        }
        int size = (int) Math.min(batch, iterations - done);
        ExecutorService device = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "accumulated-" + params);
            t.setDaemon(true);
            return t;
        });
        Slot[] slots = new Slot[2];
        try {
            slots[0] = new Slot(params, size, backend);
            slots[1] = new Slot(params, size, backend);
            long fed = done;
            boolean stop = false;
            Future<Slot> running = null;
            for (int k = 0; fed < iterations && !stop || running != null; k++) {
                Future<Slot> next = null;
                if (fed < iterations && !stop) {
                    int n = (int) Math.min(size, iterations - fed);
                    next = device.submit(feed(slots[k % 2], fed, n, backend));
                    fed += n;
                }
                if (running != null) {
                    absorb(running.get());  // the device thread runs the next batch meanwhile
                    stop |= !goOn.test(done);
                }
                running = next;
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof AccumulationException) {
                throw (AccumulationException) cause;
            }
            throw new AccumulationException(params + " batch failed: " + cause, cause);
        } finally {
            device.shutdownNow();
            device.awaitTermination(1, TimeUnit.MINUTES);
            for (Slot slot : slots) {
                if (slot != null) {
                    slot.close();
                }
            }
        }
    }

    /** The 32-byte result, once every iteration is done. */
    public byte[] result() {
        if (!finished()) {
            throw new IllegalStateException("done " + done + " of " + iterations + " iterations");
        }
        SHAKEDigest copy = new SHAKEDigest(accumulator);
        byte[] out = new byte[32];
        copy.doFinal(out, 0, out.length);
        return out;
    }

    /**
     * Writes the state after the last whole batch to {@code file} (through a temporary file and a
     * rename, so that an interrupted write leaves the previous one).
     */
    public void save(Path file) throws IOException {
        String text = FORMAT + "\n"
                + "set " + params.algorithmName() + "\n"
                + "iterations " + iterations + "\n"
                + "done " + done + "\n"
                + "seeds " + HEX.formatHex(seeds.getEncodedState()) + "\n"
                + "accumulator " + HEX.formatHex(accumulator.getEncodedState()) + "\n";
        Path parent = file.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(parent, file.getFileName().toString(), ".tmp");
        Files.writeString(tmp, text, StandardCharsets.US_ASCII);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * The run saved in {@code file}.
     *
     * @throws IOException when it cannot be read or is not a saved run
     */
    public static Accumulated resume(Path file) throws IOException {
        Map<String, String> fields = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        if (lines.isEmpty() || !lines.get(0).equals(FORMAT)) {
            throw new IOException(file + " is not a saved accumulated run (" + FORMAT + ")");
        }
        for (String line : lines.subList(1, lines.size())) {
            int space = line.indexOf(' ');
            if (space > 0) {
                fields.put(line.substring(0, space), line.substring(space + 1));
            }
        }
        try {
            ParameterSet params = ParameterSet.forName(field(fields, "set", file));
            long iterations = Long.parseLong(field(fields, "iterations", file));
            long done = Long.parseLong(field(fields, "done", file));
            SHAKEDigest seeds = new SHAKEDigest(HEX.parseHex(field(fields, "seeds", file)));
            SHAKEDigest accumulator = new SHAKEDigest(HEX.parseHex(field(fields, "accumulator", file)));
            if (!params.isFips204() || iterations < 1 || done < 0 || done > iterations) {
                throw new IOException(file + " holds an impossible run: " + params + ", " + done + " of " + iterations);
            }
            return new Accumulated(params, iterations, seeds, accumulator, done);
        } catch (RuntimeException e) {
            // a malformed number, name or digest state (BouncyCastle reads it unchecked)
            throw new IOException(file + " is not a saved accumulated run: " + e, e);
        }
    }

    private static String field(Map<String, String> fields, String name, Path file) throws IOException {
        String value = fields.get(name);
        if (value == null) {
            throw new IOException(file + " has no " + name);
        }
        return value;
    }

    // ---- one batch

    /** Reads the seeds of iterations [first, first + n) now, in order; the rest runs on the device thread. */
    private Callable<Slot> feed(Slot slot, long first, int n, Backend backend) {
        byte[] seedBytes = new byte[n * ParameterSet.SEED_BYTES];
        seeds.doOutput(seedBytes, 0, seedBytes.length);
        slot.seeds.buffer().put(0, seedBytes);
        Arrays.fill(seedBytes, (byte) 0);
        return () -> slot.run(first, n, backend);
    }

    private void absorb(Slot slot) {
        int pkBytes = params.publicKeyBytes();
        int sigBytes = params.signatureBytes();
        ByteBuffer pks = slot.publicKeys.buffer();
        ByteBuffer sigs = slot.signatures.buffer();
        byte[] pk = new byte[pkBytes];
        byte[] sig = new byte[sigBytes];
        for (int i = 0; i < slot.n; i++) {
            pks.get(i * pkBytes, pk);
            sigs.get(i * sigBytes, sig);
            accumulator.update(pk, 0, pkBytes);
            accumulator.update(sig, 0, sigBytes);
        }
        done += slot.n;
    }

    /**
     * The records of one batch in the backend's host buffers (page-locked for the CUDA backend, so
     * that its copies go straight to the device), reused batch after batch; zeroed when closed.
     */
    private static final class Slot implements AutoCloseable {
        final ParameterSet p;
        final HostBuffer seeds;
        final HostBuffer publicKeys;
        final HostBuffer privateKeys;
        final HostBuffer mus;
        final HostBuffer rnds;
        final HostBuffer signatures;
        final byte[] status;
        int n;

        Slot(ParameterSet p, int capacity, Backend backend) {
            this.p = p;
            this.seeds = backend.allocateHost((long) capacity * ParameterSet.SEED_BYTES);
            this.publicKeys = backend.allocateHost((long) capacity * p.publicKeyBytes());
            this.privateKeys = backend.allocateHost((long) capacity * p.privateKeyBytes());
            this.mus = backend.allocateHost((long) capacity * ParameterSet.MU_BYTES);
            this.rnds = backend.allocateHost((long) capacity * p.rndBytes());
            this.signatures = backend.allocateHost((long) capacity * p.signatureBytes());
            this.status = new byte[capacity];
            rnds.wipe();  // deterministic signing: rnd = 0^32
        }

        /** Key generation, μ of the empty message and context, signing and verification of n tasks. */
        Slot run(long first, int count, Backend backend) throws AccumulationException {
            n = count;
            backend.run(BatchRecords.keyGen(p, n, seeds, publicKeys, privateKeys, status));
            check(first, "key generation");
            // μ = H(tr ‖ 0 ‖ 0, 64): the empty message with the empty context (FIPS 204 Algorithm 2)
            ByteBuffer sks = privateKeys.buffer();
            ByteBuffer out = mus.buffer();
            byte[] tr = new byte[p.trBytes()];
            byte[] empty = new byte[0];
            int trAt = 2 * ParameterSet.SEED_BYTES;
            for (int i = 0; i < n; i++) {
                sks.get(i * p.privateKeyBytes() + trAt, tr);
                out.put(i * ParameterSet.MU_BYTES, MuHasher.pure(p, tr, empty).finish());
            }
            backend.run(BatchRecords.sign(p, n, privateKeys, mus, rnds, signatures, status));
            check(first, "signing");
            backend.run(BatchRecords.verify(p, n, publicKeys, mus, signatures, status));
            check(first, "verification");
            return this;
        }

        private void check(long first, String what) throws AccumulationException {
            List<Long> failed = new ArrayList<>();
            for (int i = 0; i < n && failed.size() < 5; i++) {
                if (status[i] != TaskStatus.OK) {
                    failed.add(first + i);
                }
            }
            if (!failed.isEmpty()) {
                throw new AccumulationException(p + " " + what + " failed at iteration " + failed.get(0)
                        + (failed.size() > 1 ? " (and at " + failed.subList(1, failed.size()) + ")" : ""));
            }
        }

        @Override
        public void close() {
            for (HostBuffer b : new HostBuffer[] {seeds, publicKeys, privateKeys, mus, rnds, signatures}) {
                b.close();
            }
        }
    }
}
