package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.PinnedDigests;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Scheme;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The GPU against the CPU backend, byte for byte, on random batches: key generation from random
 * seeds; signing with random μ, deterministic and hedged, including keys that do not decode; and
 * verification of valid and corrupted signatures (signature, μ, public key or hint bytes altered).
 *
 * <p>System properties: {@code cuda.diff.tasks} tasks per set and operation (default 100000),
 * {@code cuda.diff.sets} the sets (default all six), {@code cuda.diff.seed} the random seed
 * (default: from the clock, printed so a failure can be replayed). Work goes in rounds of
 * {@value #ROUND} tasks; each round's GPU outputs are hashed into one SHA-256 per set and
 * operation (public outputs only), which is printed. Beside the random runs, fixed-seed batches
 * must give the digests the CPU core pinned ({@link PinnedDigests}). Skipped, with the reason,
 * without a usable GPU.
 */
@Timeout(300)
class CudaDifferentialTest extends GpuBesideCpu {
    private static final int ROUND = 16_384;
    /** Distinct keys per set; signing and verification tasks cycle through them. */
    private static final int KEYS = 2048;

    private final int tasks = GpuTests.intProperty("cuda.diff.tasks", 100_000);
    private final long seed = Long.getLong("cuda.diff.seed", System.nanoTime());

    @Override
    protected CudaConfig config() {
        return CudaConfig.fromSystemProperties();
    }

    @BeforeAll
    void describe() {
        if (gpu != null) {
            System.out.println("CudaDifferentialTest: " + tasks + " tasks per set and operation, seed " + seed
                    + " (-Dcuda.diff.seed to replay), on " + gpu.description() + "; CPU reference on "
                    + cpu.threads() + " threads");
        }
    }

    List<ParameterSet> sets() {
        return GpuTests.sets("cuda.diff.sets");
    }

    private SplittableRandom random(ParameterSet p, int salt) {
        return new SplittableRandom(seed ^ ((long) p.ordinal() << 40) ^ ((long) salt << 56));
    }

    private static byte[] bytes(SplittableRandom r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** Key pairs from random seeds, made by the CPU backend: {pks, sks}. */
    private byte[][] keyPool(ParameterSet p, SplittableRandom r) {
        int n = Math.min(KEYS, tasks);
        byte[] pks = new byte[n * p.publicKeyBytes()];
        byte[] sks = new byte[n * p.privateKeyBytes()];
        cpu.run(BatchRecords.keyGen(p, n, bytes(r, n * 32), pks, sks, new byte[n]));
        return new byte[][] {pks, sks};
    }

    @ParameterizedTest
    @MethodSource("sets")
    void fixedSeedBatchesGiveThePinnedDigests(ParameterSet p) {
        for (Operation op : Operation.values()) {
            assertEquals(PinnedDigests.expected(p, op), PinnedDigests.of(gpu, p, op), p + " " + op);
        }
    }

    @ParameterizedTest
    @MethodSource("sets")
    void keyGenMatchesTheCpu(ParameterSet p) {
        SplittableRandom r = random(p, 1);
        MessageDigest digest = sha256();
        for (int done = 0; done < tasks; done += ROUND) {
            int n = Math.min(ROUND, tasks - done);
            byte[] seeds = bytes(r, n * 32);
            byte[] gpuPk = new byte[n * p.publicKeyBytes()];
            byte[] gpuSk = new byte[n * p.privateKeyBytes()];
            byte[] gpuStatus = new byte[n];
            byte[] cpuPk = new byte[gpuPk.length];
            byte[] cpuSk = new byte[gpuSk.length];
            byte[] cpuStatus = new byte[n];
            gpu.run(BatchRecords.keyGen(p, n, seeds, gpuPk, gpuSk, gpuStatus));
            cpu.run(BatchRecords.keyGen(p, n, seeds, cpuPk, cpuSk, cpuStatus));
            same(p, "keyGen status", done, gpuStatus, cpuStatus, n, 1);
            same(p, "keyGen public key", done, gpuPk, cpuPk, n, p.publicKeyBytes());
            same(p, "keyGen private key", done, gpuSk, cpuSk, n, p.privateKeyBytes());
            digest.update(gpuPk);
        }
        report(p, "keyGen", digest, "");
    }

    @ParameterizedTest
    @MethodSource("sets")
    void signMatchesTheCpu(ParameterSet p) {
        SplittableRandom r = random(p, 2);
        byte[][] pool = keyPool(p, r);
        int keys = pool[0].length / p.publicKeyBytes();
        int skBytes = p.privateKeyBytes();
        int sigBytes = p.signatureBytes();
        int s1Offset = 2 * ParameterSet.SEED_BYTES + p.trBytes();
        MessageDigest digest = sha256();
        int ok = 0;
        int invalid = 0;
        for (int done = 0; done < tasks; done += ROUND) {
            int n = Math.min(ROUND, tasks - done);
            byte[] sks = new byte[n * skBytes];
            byte[] mus = bytes(r, n * 64);
            byte[] rnds = new byte[n * p.rndBytes()];
            for (int i = 0; i < n; i++) {
                int task = done + i;
                System.arraycopy(pool[1], (task % keys) * skBytes, sks, i * skBytes, skBytes);
                if (task % 97 == 96) {
                    // s1's first coefficient encodes η − 7 (η = 2) or η − 15 (η = 4): out of [−η, η].
                    sks[i * skBytes + s1Offset] = (byte) 0xFF;
                }
                byte[] rnd = task % 2 == 0
                        ? Scheme.deterministicRnd(p, sks, i * skBytes, mus, i * 64)
                        : bytes(r, p.rndBytes());
                System.arraycopy(rnd, 0, rnds, i * p.rndBytes(), p.rndBytes());
            }
            byte[] gpuSig = new byte[n * sigBytes];
            byte[] gpuStatus = new byte[n];
            byte[] cpuSig = new byte[n * sigBytes];
            byte[] cpuStatus = new byte[n];
            gpu.run(BatchRecords.sign(p, n, sks, mus, rnds, gpuSig, gpuStatus));
            cpu.run(BatchRecords.sign(p, n, sks, mus, rnds, cpuSig, cpuStatus));
            same(p, "sign status", done, gpuStatus, cpuStatus, n, 1);
            for (int i = 0; i < n; i++) {
                boolean corrupted = (done + i) % 97 == 96;
                assertEquals(corrupted ? TaskStatus.INVALID_KEY : TaskStatus.OK, cpuStatus[i],
                        p + " sign task " + (done + i) + ": unexpected CPU status");
                if (cpuStatus[i] == TaskStatus.OK) {
                    ok++;
                    int from = i * sigBytes;
                    if (!Arrays.equals(gpuSig, from, from + sigBytes, cpuSig, from, from + sigBytes)) {
                        fail(p + " sign task " + (done + i) + " (" + ((done + i) % 2 == 0 ? "deterministic" : "hedged")
                                + "): the GPU signature differs from the CPU's (seed " + seed + ")");
                    }
                    digest.update(gpuSig, from, sigBytes);
                } else {
                    invalid++;
                }
            }
        }
        report(p, "sign", digest, ok + " signed, " + invalid + " invalid keys");
    }

    @ParameterizedTest
    @MethodSource("sets")
    void verifyMatchesTheCpu(ParameterSet p) {
        SplittableRandom r = random(p, 3);
        byte[][] pool = keyPool(p, r);
        int keys = pool[0].length / p.publicKeyBytes();
        int pkBytes = p.publicKeyBytes();
        int skBytes = p.privateKeyBytes();
        int sigBytes = p.signatureBytes();
        int hintBytes = p.omega() + p.k();
        MessageDigest digest = sha256();
        int valid = 0;
        int rejected = 0;
        for (int done = 0; done < tasks; done += ROUND) {
            int n = Math.min(ROUND, tasks - done);
            byte[] pks = new byte[n * pkBytes];
            byte[] sks = new byte[n * skBytes];
            byte[] mus = bytes(r, n * 64);
            for (int i = 0; i < n; i++) {
                int key = (done + i) % keys;
                System.arraycopy(pool[0], key * pkBytes, pks, i * pkBytes, pkBytes);
                System.arraycopy(pool[1], key * skBytes, sks, i * skBytes, skBytes);
            }
            byte[] sigs = new byte[n * sigBytes];
            byte[] signStatus = new byte[n];
            gpu.run(BatchRecords.sign(p, n, sks, mus, bytes(r, n * p.rndBytes()), sigs, signStatus));
            for (int i = 0; i < n; i++) {
                assertEquals(TaskStatus.OK, signStatus[i], p + " signing verification input " + (done + i));
                corrupt(p, r, (done + i) % 8, pks, mus, sigs, i, hintBytes);
            }
            byte[] gpuStatus = new byte[n];
            byte[] cpuStatus = new byte[n];
            gpu.run(BatchRecords.verify(p, n, pks, mus, sigs, gpuStatus));
            cpu.run(BatchRecords.verify(p, n, pks, mus, sigs, cpuStatus));
            same(p, "verify status", done, gpuStatus, cpuStatus, n, 1);
            for (int i = 0; i < n; i++) {
                if ((done + i) % 8 < 4) {
                    assertEquals(TaskStatus.OK, cpuStatus[i], p + " verify task " + (done + i)
                            + ": the CPU rejects an unaltered GPU signature");
                }
                if (cpuStatus[i] == TaskStatus.OK) {
                    valid++;
                } else {
                    rejected++;
                }
            }
            digest.update(gpuStatus);
        }
        assertTrue(rejected >= tasks / 4, p + ": too few corrupted signatures were rejected: " + rejected);
        report(p, "verify", digest, valid + " valid, " + rejected + " rejected");
    }

    /**
     * Alters task {@code i} by {@code kind}: 0–3 unaltered; 4 a signature bit; 5 a μ bit; 6 a bit
     * of ρ in the public key; 7 a random byte of the hint encoding.
     */
    private static void corrupt(ParameterSet p, SplittableRandom r, int kind, byte[] pks, byte[] mus, byte[] sigs,
                                int i, int hintBytes) {
        int sigBytes = p.signatureBytes();
        switch (kind) {
            case 4 -> flip(sigs, i * sigBytes + r.nextInt(sigBytes), r);
            case 5 -> flip(mus, i * 64 + r.nextInt(64), r);
            case 6 -> flip(pks, i * p.publicKeyBytes() + r.nextInt(ParameterSet.SEED_BYTES), r);
            case 7 -> {
                int at = (i + 1) * sigBytes - hintBytes + r.nextInt(hintBytes);
                sigs[at] = (byte) (sigs[at] ^ (1 + r.nextInt(255)));
            }
            default -> { }
        }
    }

    private static void flip(byte[] b, int at, SplittableRandom r) {
        b[at] = (byte) (b[at] ^ (1 << r.nextInt(8)));
    }

    private void same(ParameterSet p, String what, int done, byte[] gpu, byte[] cpu, int n, int recordBytes) {
        int i = GpuTests.firstMismatch(gpu, cpu, n, recordBytes);
        if (i >= 0) {
            fail(p + " " + what + ": task " + (done + i) + " differs between GPU and CPU (seed " + seed + ")");
        }
    }

    private void report(ParameterSet p, String op, MessageDigest digest, String detail) {
        System.out.println("CudaDifferentialTest " + p + " " + op + ": " + tasks + " tasks identical"
                + (detail.isEmpty() ? "" : " (" + detail + ")") + "; GPU output SHA-256 "
                + HexFormat.of().formatHex(digest.digest()));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
