package io.dilithiumgpu.backend;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Scheme;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Fixed-seed batches of the three operations, whose outputs are pinned by SHA-256 digests that the
 * CPU core computed once. Every backend must reproduce them bit for bit: the CPU backend in every
 * build ({@code CpuBackendTest}), the CUDA backend on a GPU ({@code CudaDifferentialTest}, beside its
 * random runs). The inputs come from the core ({@link Scheme}), never from the backend under test.
 *
 * <ul>
 *   <li>key generation: {@link #TASKS} seeds; digest of the statuses, public keys and private keys
 *       (test keys of a fixed seed, nothing secret);</li>
 *   <li>signing: {@link #TASKS} tasks over {@link #KEYS} keys, deterministic (even tasks) and hedged
 *       (odd), every thirteenth key made undecodable; digest of the statuses and the signatures of
 *       the tasks that signed;</li>
 *   <li>verification: {@link #TASKS} signatures by the core over {@link #KEYS} keys, half of them
 *       altered (a signature bit, a μ bit, a bit of ρ, a hint byte); digest of the statuses, which
 *       is the same for every set: tasks 0 to 3 of every eight valid, the others rejected.</li>
 * </ul>
 */
public final class PinnedDigests {
    public static final int TASKS = 128;
    public static final int KEYS = 16;
    private static final long SEED = 204;

    /** Digests by set and operation, as the CPU core printed them. */
    private static final Map<String, String> EXPECTED = Map.ofEntries(
            Map.entry("ML_DSA_44 KEYGEN", "fbb05a498305e646ae801fec506ebe2aadaede5fef585ea1db2e1a2a60cfbede"),
            Map.entry("ML_DSA_44 SIGN", "b0ced7434e78cf2434c532d54c191b323b93c71081758d87d12b4361497d75ae"),
            Map.entry("ML_DSA_44 VERIFY", "44686d1edec807d270349456c6dc1b19e5d1f4674797ae4974d0b8b5ff3e238f"),
            Map.entry("ML_DSA_65 KEYGEN", "f1827ad6f7462eea823153cf4207b0cfef2b498fcbd48e50ca0946d45d00a95b"),
            Map.entry("ML_DSA_65 SIGN", "0f70f41c718b1c7962f1013625fc373db2bd6c713f51f6b681920bad7cc32a51"),
            Map.entry("ML_DSA_65 VERIFY", "44686d1edec807d270349456c6dc1b19e5d1f4674797ae4974d0b8b5ff3e238f"),
            Map.entry("ML_DSA_87 KEYGEN", "c88dc710c2916f2fe1a4a1db9726fc3587df9ce8ebbba4b0da55387d0507d670"),
            Map.entry("ML_DSA_87 SIGN", "4db7b5320df294853de56d77b8e75eecf58ca6b47dea5e3f9cb931bf15716563"),
            Map.entry("ML_DSA_87 VERIFY", "44686d1edec807d270349456c6dc1b19e5d1f4674797ae4974d0b8b5ff3e238f"),
            Map.entry("DILITHIUM2 KEYGEN", "02171666b7ab0f836297551b23aab71c560b86f0c46866024d6cfe396b654508"),
            Map.entry("DILITHIUM2 SIGN", "edec56a429cde488a61379c455e6bec61b31ae823f6995371d299f15f5b64a4f"),
            Map.entry("DILITHIUM2 VERIFY", "44686d1edec807d270349456c6dc1b19e5d1f4674797ae4974d0b8b5ff3e238f"),
            Map.entry("DILITHIUM3 KEYGEN", "97879cb28e8818581be625383415867a25ae02527af72af7e855099b56f25753"),
            Map.entry("DILITHIUM3 SIGN", "a361c9b7c3c026cf638adc239379922120076712709f7a454408867928c7f76f"),
            Map.entry("DILITHIUM3 VERIFY", "44686d1edec807d270349456c6dc1b19e5d1f4674797ae4974d0b8b5ff3e238f"),
            Map.entry("DILITHIUM5 KEYGEN", "301219aa7d28d0dce383fbcd1b9eaf2bedeecfaa72f48665f64e90810868447c"),
            Map.entry("DILITHIUM5 SIGN", "9f9a4c8d1613f897065c5f58f1b0da975a0cb466b80571c66bd6ed86caf8d05f"),
            Map.entry("DILITHIUM5 VERIFY", "44686d1edec807d270349456c6dc1b19e5d1f4674797ae4974d0b8b5ff3e238f"));

    private PinnedDigests() {}

    /** The pinned digest of {@code op} on {@code p}, in hex. */
    public static String expected(ParameterSet p, Operation op) {
        return EXPECTED.get(p.name() + " " + op);
    }

    /** The digest of {@code backend}'s outputs for the pinned batch of {@code op} on {@code p}, in hex. */
    public static String of(Backend backend, ParameterSet p, Operation op) {
        return switch (op) {
            case KEYGEN -> keyGen(backend, p);
            case SIGN -> sign(backend, p);
            case VERIFY -> verify(backend, p);
        };
    }

    private static SplittableRandom random(ParameterSet p, Operation op) {
        return new SplittableRandom(SEED ^ ((long) p.ordinal() << 8) ^ op.ordinal());
    }

    private static byte[] bytes(SplittableRandom r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** {@link #KEYS} key pairs by the core: {pks, sks}. */
    private static byte[][] keys(ParameterSet p, SplittableRandom r) {
        byte[] pks = new byte[KEYS * p.publicKeyBytes()];
        byte[] sks = new byte[KEYS * p.privateKeyBytes()];
        for (int k = 0; k < KEYS; k++) {
            Scheme.keyGen(p, bytes(r, ParameterSet.SEED_BYTES), 0, pks, k * p.publicKeyBytes(),
                    sks, k * p.privateKeyBytes());
        }
        return new byte[][] {pks, sks};
    }

    private static String keyGen(Backend backend, ParameterSet p) {
        SplittableRandom r = random(p, Operation.KEYGEN);
        byte[] pks = new byte[TASKS * p.publicKeyBytes()];
        byte[] sks = new byte[TASKS * p.privateKeyBytes()];
        byte[] status = new byte[TASKS];
        backend.run(BatchRecords.keyGen(p, TASKS, bytes(r, TASKS * ParameterSet.SEED_BYTES), pks, sks, status));
        MessageDigest d = sha256();
        d.update(status);
        d.update(pks);
        d.update(sks);
        return HexFormat.of().formatHex(d.digest());
    }

    private static String sign(Backend backend, ParameterSet p) {
        SplittableRandom r = random(p, Operation.SIGN);
        byte[][] pool = keys(p, r);
        int skBytes = p.privateKeyBytes();
        int rndBytes = p.rndBytes();
        int sigBytes = p.signatureBytes();
        int s1Offset = 2 * ParameterSet.SEED_BYTES + p.trBytes();
        byte[] sks = new byte[TASKS * skBytes];
        byte[] mus = bytes(r, TASKS * ParameterSet.MU_BYTES);
        byte[] rnds = new byte[TASKS * rndBytes];
        for (int i = 0; i < TASKS; i++) {
            System.arraycopy(pool[1], (i % KEYS) * skBytes, sks, i * skBytes, skBytes);
            if (i % 13 == 12) {
                // s1's first coefficient encodes η − 7 (η = 2) or η − 15 (η = 4): out of [−η, η].
                sks[i * skBytes + s1Offset] = (byte) 0xFF;
            }
            byte[] rnd = i % 2 == 0
                    ? Scheme.deterministicRnd(p, sks, i * skBytes, mus, i * ParameterSet.MU_BYTES)
                    : bytes(r, rndBytes);
            System.arraycopy(rnd, 0, rnds, i * rndBytes, rndBytes);
        }
        byte[] sigs = new byte[TASKS * sigBytes];
        byte[] status = new byte[TASKS];
        backend.run(BatchRecords.sign(p, TASKS, sks, mus, rnds, sigs, status));
        MessageDigest d = sha256();
        d.update(status);
        for (int i = 0; i < TASKS; i++) {
            if (status[i] == TaskStatus.OK) {
                d.update(sigs, i * sigBytes, sigBytes);
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }

    private static String verify(Backend backend, ParameterSet p) {
        SplittableRandom r = random(p, Operation.VERIFY);
        byte[][] pool = keys(p, r);
        int pkBytes = p.publicKeyBytes();
        int skBytes = p.privateKeyBytes();
        int sigBytes = p.signatureBytes();
        int muBytes = ParameterSet.MU_BYTES;
        int hintBytes = p.omega() + p.k();
        byte[] pks = new byte[TASKS * pkBytes];
        byte[] mus = bytes(r, TASKS * muBytes);
        byte[] sigs = new byte[TASKS * sigBytes];
        for (int i = 0; i < TASKS; i++) {
            int key = i % KEYS;
            System.arraycopy(pool[0], key * pkBytes, pks, i * pkBytes, pkBytes);
            if (!Scheme.sign(p, pool[1], key * skBytes, mus, i * muBytes, bytes(r, p.rndBytes()), 0,
                    sigs, i * sigBytes)) {
                throw new AssertionError(p + ": the core did not sign pinned task " + i);
            }
            switch (i % 8) {
                case 4 -> flip(sigs, i * sigBytes + r.nextInt(sigBytes), r);
                case 5 -> flip(mus, i * muBytes + r.nextInt(muBytes), r);
                case 6 -> flip(pks, i * pkBytes + r.nextInt(ParameterSet.SEED_BYTES), r);
                case 7 -> {
                    int at = (i + 1) * sigBytes - hintBytes + r.nextInt(hintBytes);
                    sigs[at] = (byte) (sigs[at] ^ (1 + r.nextInt(255)));
                }
                default -> { }
            }
        }
        byte[] status = new byte[TASKS];
        backend.run(BatchRecords.verify(p, TASKS, pks, mus, sigs, status));
        return HexFormat.of().formatHex(sha256().digest(status));
    }

    private static void flip(byte[] b, int at, SplittableRandom r) {
        b[at] = (byte) (b[at] ^ (1 << r.nextInt(8)));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
