package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * A known-answer self-test compiled into the provider: for each of the six sets, key generation
 * from a fixed seed, signing a fixed μ with fixed randomness, verification of that signature and
 * rejection of a corrupted one, all through an {@link Engine} (the shared batcher, so the backend in
 * use, or a batcher over a chosen backend). Needs no files.
 *
 * <p>The inputs are derived from their labels ({@code SHA-256("dilithium-gpu self-test seed
 * ML-DSA-44")} and so on); the answers are SHA-256 digests of the public key, the private key and
 * the signature as the CPU core computes them, which the build checks against the NIST round 3.1
 * KATs, ACVP and Wycheproof (the kat-vectors module), and the ML-DSA public keys also against
 * BouncyCastle ({@code SelfTestTest}).
 */
public final class SelfTest {
    /** The longest the whole test waits for the engine. */
    static final long TIMEOUT_SECONDS = 120;

    /** One set's answers: SHA-256 of pk, sk and the signature, in hex. */
    private record Answer(ParameterSet set, String pk, String sk, String signature) {}

    private static final List<Answer> ANSWERS = List.of(
            new Answer(ParameterSet.ML_DSA_44,
                    "8cef2258174576ad83902d724514aff64211ad039a1ddeb79581f4d37d2471c9",
                    "dae949ccdd08a25ecb189b4956f04a59c78ab185fb04284d9bb3662efbfae8f9",
                    "4fc44f85742a87d4f37fac6b2684bc4b14e6f050041f0de25dcfdf0435dc93c9"),
            new Answer(ParameterSet.ML_DSA_65,
                    "c088f753028cbb31f99306dec08f79692d856ed4ff149a43345a697cc6f7fb0e",
                    "47d3dc788031802d95e63bae78551c6bdc8ad2e56761a3a3ed9291dc1295283f",
                    "6f2206465d1b6e9479696a6b58ae72351ad2b0795efc877198ba3216211c0ce4"),
            new Answer(ParameterSet.ML_DSA_87,
                    "accbce674a3f7ccab8eee6dfbfa668a09af53f95a5231d36147e548c925ed62f",
                    "79bd59e7f8bfe77f2cf100dbeb5c08eb75f1cd9a97cb3dcf267c76afe436b2b0",
                    "4ee723826893d38bf66226313dc06e826f249769497a4dbe1a464e4ef3a0adb8"),
            new Answer(ParameterSet.DILITHIUM2,
                    "0ac492da17b8c8e4d997d24c4f7eeb538861f9b92e7debfc820a7e20a73a4239",
                    "936b26b29fbe13952f8335a290078b78404caef4dae6d988e3ae88860a0db067",
                    "b020e6b169f98ccf10675c6168297eef5c1310c472e387dab25ae964f1a16728"),
            new Answer(ParameterSet.DILITHIUM3,
                    "55a837325056ae1feaca3c9b803fd9b314fb101b7c1f35aae2e461f0250b23fa",
                    "5db0327ae5814de4145a85b2c3ff5c02b9507666dee12a1bb634ea4f7e0ed37a",
                    "4d452876506d0ebe46ce7ba2e70c33f0af6a21b3edc78b359d1b8b3c1bc8cf38"),
            new Answer(ParameterSet.DILITHIUM5,
                    "00109c6a7409ce03db8519c19213e078a2ef8336b9c60e83b64ece5dafd3e249",
                    "69d68b6ff5155b2e93d6dcd71965ffb862bada6038fceb603fd4a43dee3a062c",
                    "186c23a3b800f7f3d317dea4022b124bc2315513e7cd32403965ddcbee683fbc"));

    private SelfTest() {}

    /**
     * What a self-test found.
     *
     * @param checks   the checks made (four per set)
     * @param failures one line per failed check; empty when every answer matched
     */
    public record Result(int checks, List<String> failures) {
        public Result {
            failures = List.copyOf(failures);
        }

        /** Whether every answer matched. */
        public boolean passed() {
            return failures.isEmpty();
        }

        @Override
        public String toString() {
            return passed() ? "self-test passed: " + checks + " known answers"
                    : "self-test FAILED: " + String.join("; ", failures);
        }
    }

    /** The fixed inputs of one set, derived from their labels. */
    static byte[] seed(ParameterSet p) {
        return digest("SHA-256", "dilithium-gpu self-test seed " + p.algorithmName());
    }

    static byte[] mu(ParameterSet p) {
        return digest("SHA-512", "dilithium-gpu self-test mu " + p.algorithmName());
    }

    static byte[] rnd(ParameterSet p) {
        return Arrays.copyOf(digest("SHA-512", "dilithium-gpu self-test rnd " + p.algorithmName()), p.rndBytes());
    }

    /**
     * Runs the known answers of all six sets on {@code engine}, all sets at once (so that a
     * batching engine runs them as batches). A failure or a refusal of the engine is a failed
     * check, not an exception.
     *
     * @throws InterruptedException when interrupted while waiting for the engine
     */
    public static Result run(Engine engine) throws InterruptedException {
        List<String> failures = new ArrayList<>();
        List<CompletableFuture<byte[][]>> keys = new ArrayList<>();
        for (Answer a : ANSWERS) {
            keys.add(engine.keyGen(a.set(), seed(a.set())));
        }
        List<CompletableFuture<byte[]>> signatures = new ArrayList<>();
        List<byte[][]> pairs = new ArrayList<>();
        for (int i = 0; i < ANSWERS.size(); i++) {
            Answer a = ANSWERS.get(i);
            byte[][] pair = await(keys.get(i), a.set() + " key generation", failures);
            pairs.add(pair);
            if (pair == null) {
                signatures.add(null);
                continue;
            }
            expect(a.set() + " public key", a.pk(), pair[0], failures);
            expect(a.set() + " private key", a.sk(), pair[1], failures);
            signatures.add(engine.sign(a.set(), pair[1].clone(), mu(a.set()), rnd(a.set())));
        }
        List<CompletableFuture<Boolean>> valid = new ArrayList<>();
        List<CompletableFuture<Boolean>> corrupted = new ArrayList<>();
        for (int i = 0; i < ANSWERS.size(); i++) {
            Answer a = ANSWERS.get(i);
            byte[] sig = signatures.get(i) == null ? null : await(signatures.get(i), a.set() + " signing", failures);
            if (sig == null) {
                valid.add(null);
                corrupted.add(null);
                continue;
            }
            expect(a.set() + " signature", a.signature(), sig, failures);
            byte[] pk = pairs.get(i)[0];
            valid.add(engine.verify(a.set(), pk, mu(a.set()), sig));
            byte[] bad = sig.clone();
            bad[bad.length / 2] ^= 0x10;
            corrupted.add(engine.verify(a.set(), pk, mu(a.set()), bad));
        }
        for (int i = 0; i < ANSWERS.size(); i++) {
            ParameterSet p = ANSWERS.get(i).set();
            if (valid.get(i) != null && !Boolean.TRUE.equals(await(valid.get(i), p + " verification", failures))) {
                failures.add(p + " verification rejected the known signature");
            }
            if (corrupted.get(i) != null
                    && !Boolean.FALSE.equals(await(corrupted.get(i), p + " verification", failures))) {
                failures.add(p + " verification accepted a corrupted signature");
            }
        }
        for (byte[][] pair : pairs) {
            if (pair != null) {
                Arrays.fill(pair[1], (byte) 0);
            }
        }
        return new Result(4 * ANSWERS.size(), failures);
    }

    /**
     * {@link #run(Engine)} straight on a backend, one task per call, without a batcher (the caller
     * keeps and closes the backend).
     */
    public static Result run(Backend backend) throws InterruptedException {
        return run(new Engine() {
            @Override
            public CompletableFuture<byte[][]> keyGen(ParameterSet p, byte[] seed) {
                byte[] pk = new byte[p.publicKeyBytes()];
                byte[] sk = new byte[p.privateKeyBytes()];
                byte[] status = new byte[1];
                return call(() -> backend.run(BatchRecords.keyGen(p, 1, seed, pk, sk, status)), status,
                        () -> new byte[][] {pk, sk});
            }

            @Override
            public CompletableFuture<byte[]> sign(ParameterSet p, byte[] sk, byte[] mu, byte[] rnd) {
                byte[] sig = new byte[p.signatureBytes()];
                byte[] status = new byte[1];
                return call(() -> backend.run(BatchRecords.sign(p, 1, sk, mu, rnd, sig, status)), status, () -> sig);
            }

            @Override
            public CompletableFuture<Boolean> verify(ParameterSet p, byte[] pk, byte[] mu, byte[] sig) {
                byte[] status = new byte[1];
                return call(() -> backend.run(BatchRecords.verify(p, 1, pk, mu, sig, status)), null,
                        () -> status[0] == TaskStatus.OK);
            }

            /** Runs one task; a status other than OK fails the future (except for verification). */
            private <T> CompletableFuture<T> call(Runnable task, byte[] status, Supplier<T> result) {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    return CompletableFuture.failedFuture(e);
                }
                return status == null || status[0] == TaskStatus.OK ? CompletableFuture.completedFuture(result.get())
                        : CompletableFuture.failedFuture(new BackendException(backend.name()
                                + " backend returned task status " + status[0]));
            }
        });
    }

    private static <T> T await(CompletableFuture<T> f, String what, List<String> failures)
            throws InterruptedException {
        try {
            return f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            failures.add(what + " failed: " + e.getCause());
        } catch (TimeoutException e) {
            failures.add(what + " took over " + TIMEOUT_SECONDS + " s");
        }
        return null;
    }

    private static void expect(String what, String sha256, byte[] actual, List<String> failures) {
        String got = HexFormat.of().formatHex(digest("SHA-256", actual));
        if (!got.equals(sha256)) {
            failures.add(what + " differs from the known answer (SHA-256 " + got + ", expected " + sha256 + ")");
        }
    }

    private static byte[] digest(String algorithm, String label) {
        return digest(algorithm, label.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] digest(String algorithm, byte[] data) {
        try {
            return MessageDigest.getInstance(algorithm).digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is required of every Java platform", e);
        }
    }
}
