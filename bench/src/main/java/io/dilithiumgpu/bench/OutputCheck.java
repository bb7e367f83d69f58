package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Checks of a backend's batch outputs. Every status byte of a batch is checked against what the
 * inputs call for; a sample of the records is recomputed with a {@link Reference} and compared
 * byte for byte. The sample always holds the first and the last task, where a wrong stride or
 * offset shows first.
 */
final class OutputCheck {
    private final Reference reference;

    OutputCheck(Reference reference) {
        this.reference = reference;
    }

    /**
     * Up to {@code k} distinct task indices in [0, n), ascending: 0, n − 1 and random others;
     * all of [0, n) when n ≤ k.
     */
    static int[] sample(int n, int k, SplittableRandom random) {
        if (n < 1 || k < 1) {
            throw new IllegalArgumentException("n and k must be positive: " + n + ", " + k);
        }
        if (n <= k) {
            int[] all = new int[n];
            Arrays.setAll(all, i -> i);
            return all;
        }
        int[] picked = new int[k];
        picked[0] = 0;
        int count = 1;
        if (k > 1) {
            picked[count++] = n - 1;
        }
        while (count < k) {
            int candidate = random.nextInt(1, n - 1);
            boolean fresh = true;
            for (int j = 0; j < count; j++) {
                fresh &= picked[j] != candidate;
            }
            if (fresh) {
                picked[count++] = candidate;
            }
        }
        Arrays.sort(picked);
        return picked;
    }

    /** Key generation: every status OK, and the sampled key pairs equal the reference's. */
    void keyGen(ParameterSet p, int n, byte[] seeds, byte[] pks, byte[] sks, byte[] status, int[] sample)
            throws WrongResultException {
        byte[] ok = new byte[n];
        statuses(p + " keygen", status, ok, n);
        int pkLen = p.publicKeyBytes();
        int skLen = p.privateKeyBytes();
        for (int i : sample) {
            byte[][] expected = reference.keyGen(p, slice(seeds, i, ParameterSet.SEED_BYTES));
            try {
                if (!Arrays.equals(expected[0], slice(pks, i, pkLen))) {
                    throw new WrongResultException(p + " keygen: task " + i + ": public key differs from the reference");
                }
                if (!Arrays.equals(expected[1], slice(sks, i, skLen))) {
                    throw new WrongResultException(p + " keygen: task " + i + ": private key differs from the reference");
                }
            } finally {
                Arrays.fill(expected[1], (byte) 0);
            }
        }
    }

    /**
     * Signing: every status OK; each sampled signature equals the reference's for the same
     * (sk, μ, rnd) and verifies under the reference with its public key.
     */
    void sign(ParameterSet p, int n, byte[] pks, byte[] sks, byte[] mus, byte[] rnds, byte[] sigs,
              byte[] status, int[] sample) throws WrongResultException {
        byte[] ok = new byte[n];
        statuses(p + " sign", status, ok, n);
        int sigLen = p.signatureBytes();
        for (int i : sample) {
            byte[] sk = slice(sks, i, p.privateKeyBytes());
            byte[] mu = slice(mus, i, ParameterSet.MU_BYTES);
            byte[] rnd = slice(rnds, i, p.rndBytes());
            byte[] sig = slice(sigs, i, sigLen);
            try {
                byte[] expected = reference.sign(p, sk, mu, rnd);
                if (expected == null) {
                    throw new WrongResultException(p + " sign: task " + i + ": the reference rejects the private key");
                }
                if (!Arrays.equals(expected, sig)) {
                    throw new WrongResultException(p + " sign: task " + i + ": signature differs from the reference");
                }
                if (!reference.verify(p, slice(pks, i, p.publicKeyBytes()), mu, sig)) {
                    throw new WrongResultException(p + " sign: task " + i + ": signature does not verify");
                }
            } finally {
                Arrays.fill(sk, (byte) 0);
                Arrays.fill(rnd, (byte) 0);
            }
        }
    }

    /**
     * Compares the first {@code n} status bytes with the expected ones.
     *
     * @throws WrongResultException naming how many differ and the first that does
     */
    static void statuses(String what, byte[] actual, byte[] expected, int n) throws WrongResultException {
        int wrong = 0;
        int first = -1;
        for (int i = 0; i < n; i++) {
            if (actual[i] != expected[i]) {
                if (wrong++ == 0) {
                    first = i;
                }
            }
        }
        if (wrong > 0) {
            throw new WrongResultException(what + ": " + wrong + " of " + n + " statuses wrong; task " + first
                    + " is " + statusName(actual[first]) + ", expected " + statusName(expected[first]));
        }
    }

    /** Which input of a verification task {@link #corrupt} changed. */
    enum Corruption { SIGNATURE, MU, PUBLIC_KEY }

    /**
     * Turns valid verification tasks at {@code indices} into invalid ones by flipping one random bit,
     * in turn of the signature, of μ and of the public key's ρ. Each makes a valid signature
     * invalid except with negligible probability: c̃ is a 2λ-bit hash over μ and w1, and a changed ρ
     * gives a new matrix A and so an unrelated w1.
     *
     * <p>The public key is changed only in ρ, never in t1. A backend verifies a given μ, and μ binds
     * the public key through tr = H(pk) only when it is computed from that key; with μ fixed, a
     * low-order bit of t1 moves c·t1·2^d by less than the rounding of w1 often enough that the
     * signature stays valid (FIPS 204 Algorithm 8 computes μ from pk itself, which the batch
     * contract leaves to the caller).
     *
     * @return the statuses verification must produce: {@link TaskStatus#REJECTED} at the
     *         corrupted tasks, {@link TaskStatus#OK} elsewhere
     */
    static byte[] corrupt(ParameterSet p, int n, byte[] pks, byte[] mus, byte[] sigs, int[] indices,
                          SplittableRandom random) {
        byte[] expected = new byte[n];
        Corruption[] kinds = Corruption.values();
        for (int j = 0; j < indices.length; j++) {
            int i = indices[j];
            switch (kinds[j % kinds.length]) {
                case SIGNATURE -> flipBit(sigs, i * p.signatureBytes(), p.signatureBytes(), random);
                case MU -> flipBit(mus, i * ParameterSet.MU_BYTES, ParameterSet.MU_BYTES, random);
                case PUBLIC_KEY -> flipBit(pks, i * p.publicKeyBytes(), ParameterSet.SEED_BYTES, random);
            }
            expected[i] = TaskStatus.REJECTED;
        }
        return expected;
    }

    /** Flips one random bit of {@code bytes[offset, offset + length)}. */
    private static void flipBit(byte[] bytes, int offset, int length, SplittableRandom random) {
        int bit = random.nextInt(length * 8);
        bytes[offset + bit / 8] ^= (byte) (1 << (bit % 8));
    }

    static byte[] slice(byte[] records, int index, int size) {
        return Arrays.copyOfRange(records, index * size, (index + 1) * size);
    }

    static String statusName(byte status) {
        return switch (status) {
            case TaskStatus.OK -> "OK";
            case TaskStatus.REJECTED -> "REJECTED";
            case TaskStatus.INVALID_KEY -> "INVALID_KEY";
            default -> "unknown status " + (status & 0xFF);
        };
    }
}
