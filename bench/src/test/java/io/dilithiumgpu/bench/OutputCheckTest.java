package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checks against a toy reference whose outputs are simple functions of the inputs, so that
 * correct and wrong batches can be built by hand.
 */
class OutputCheckTest {
    private static final ParameterSet P = ParameterSet.ML_DSA_44;

    /**
     * pk and sk bytes are seed bytes plus fixed offsets; signature byte j is sk[0] + μ[j mod 64] +
     * rnd[0], and verification checks that the signature bytes differ as μ's do.
     */
    private static final Reference TOY = new Reference() {
        @Override
        public byte[][] keyGen(ParameterSet p, byte[] seed) {
            byte[] pk = new byte[p.publicKeyBytes()];
            byte[] sk = new byte[p.privateKeyBytes()];
            for (int i = 0; i < pk.length; i++) {
                pk[i] = (byte) (seed[i % seed.length] + 1);
            }
            for (int i = 0; i < sk.length; i++) {
                sk[i] = (byte) (seed[i % seed.length] + 2);
            }
            return new byte[][] {pk, sk};
        }

        @Override
        public byte[] sign(ParameterSet p, byte[] sk, byte[] mu, byte[] rnd) {
            if (sk[0] == 0) {
                return null;
            }
            byte[] sig = new byte[p.signatureBytes()];
            for (int i = 0; i < sig.length; i++) {
                sig[i] = (byte) (sk[0] + mu[i % mu.length] + rnd[0]);
            }
            return sig;
        }

        @Override
        public boolean verify(ParameterSet p, byte[] pk, byte[] mu, byte[] sig) {
            for (int i = 1; i < sig.length; i++) {
                if ((byte) (sig[i] - sig[0]) != (byte) (mu[i % mu.length] - mu[0])) {
                    return false;
                }
            }
            return true;
        }
    };

    private final SplittableRandom random = new SplittableRandom(7);

    @Test
    void sampleHoldsEndsAndDistinctIndices() {
        for (int round = 0; round < 200; round++) {
            int[] s = OutputCheck.sample(1000, 8, random);
            assertEquals(8, s.length);
            assertEquals(0, s[0]);
            assertEquals(999, s[7]);
            for (int i = 1; i < s.length; i++) {
                assertTrue(s[i] > s[i - 1], Arrays.toString(s));
            }
        }
        assertArrayEquals(new int[] {0, 1, 2}, OutputCheck.sample(3, 8, random));
        assertArrayEquals(new int[] {0}, OutputCheck.sample(5, 1, random));
        assertArrayEquals(new int[] {0, 1}, OutputCheck.sample(2, 2, random));
        assertThrows(IllegalArgumentException.class, () -> OutputCheck.sample(0, 8, random));
    }

    @Test
    void statusMismatchNamesCountAndFirstTask() {
        byte[] expected = {0, 1, 0, 0};
        assertDoesNotThrow(() -> OutputCheck.statuses("v", new byte[] {0, 1, 0, 0}, expected, 4));
        WrongResultException e = assertThrows(WrongResultException.class,
                () -> OutputCheck.statuses("ML-DSA-44 verify", new byte[] {0, 0, 0, 2}, expected, 4));
        assertEquals("ML-DSA-44 verify: 2 of 4 statuses wrong; task 1 is OK, expected REJECTED", e.getMessage());
        // Bytes past n are not part of the batch.
        assertDoesNotThrow(() -> OutputCheck.statuses("v", new byte[] {0, 1, 9, 9}, expected, 2));
    }

    @Test
    void keyGenPassesOnlyWhenSampledKeysMatch() {
        int n = 50;
        byte[] seeds = new byte[n * ParameterSet.SEED_BYTES];
        random.nextBytes(seeds);
        byte[] pks = new byte[n * P.publicKeyBytes()];
        byte[] sks = new byte[n * P.privateKeyBytes()];
        for (int i = 0; i < n; i++) {
            byte[][] kp = TOY.keyGen(P, OutputCheck.slice(seeds, i, ParameterSet.SEED_BYTES));
            System.arraycopy(kp[0], 0, pks, i * P.publicKeyBytes(), P.publicKeyBytes());
            System.arraycopy(kp[1], 0, sks, i * P.privateKeyBytes(), P.privateKeyBytes());
        }
        byte[] status = new byte[n];
        OutputCheck check = new OutputCheck(TOY);
        assertDoesNotThrow(() -> check.keyGen(P, n, seeds, pks, sks, status, OutputCheck.sample(n, 8, random)));

        // The last task is always sampled: a wrong byte in its private key is caught.
        sks[sks.length - 1] ^= 1;
        WrongResultException e = assertThrows(WrongResultException.class,
                () -> check.keyGen(P, n, seeds, pks, sks, status, OutputCheck.sample(n, 8, random)));
        assertEquals("ML-DSA-44 keygen: task 49: private key differs from the reference", e.getMessage());
        sks[sks.length - 1] ^= 1;

        pks[0] ^= (byte) 0x80;
        e = assertThrows(WrongResultException.class,
                () -> check.keyGen(P, n, seeds, pks, sks, status, OutputCheck.sample(n, 8, random)));
        assertEquals("ML-DSA-44 keygen: task 0: public key differs from the reference", e.getMessage());
        pks[0] ^= (byte) 0x80;

        status[17] = TaskStatus.INVALID_KEY;
        assertThrows(WrongResultException.class,
                () -> check.keyGen(P, n, seeds, pks, sks, status, OutputCheck.sample(n, 8, random)));
    }

    @Test
    void signComparesBytesAndVerifies() {
        int n = 20;
        byte[] pks = new byte[n * P.publicKeyBytes()];
        byte[] sks = new byte[n * P.privateKeyBytes()];
        byte[] mus = new byte[n * ParameterSet.MU_BYTES];
        byte[] rnds = new byte[n * P.rndBytes()];
        random.nextBytes(mus);
        random.nextBytes(rnds);
        Arrays.fill(sks, (byte) 5);
        byte[] sigs = new byte[n * P.signatureBytes()];
        for (int i = 0; i < n; i++) {
            byte[] sig = TOY.sign(P, OutputCheck.slice(sks, i, P.privateKeyBytes()),
                    OutputCheck.slice(mus, i, ParameterSet.MU_BYTES), OutputCheck.slice(rnds, i, P.rndBytes()));
            System.arraycopy(sig, 0, sigs, i * P.signatureBytes(), sig.length);
        }
        byte[] status = new byte[n];
        OutputCheck check = new OutputCheck(TOY);
        int[] all = OutputCheck.sample(n, n, random);
        assertDoesNotThrow(() -> check.sign(P, n, pks, sks, mus, rnds, sigs, status, all));

        sigs[3 * P.signatureBytes() + 100] ^= 4;
        WrongResultException e = assertThrows(WrongResultException.class,
                () -> check.sign(P, n, pks, sks, mus, rnds, sigs, status, all));
        assertEquals("ML-DSA-44 sign: task 3: signature differs from the reference", e.getMessage());
        // Not sampled: not compared (the verify stage checks every signature).
        assertDoesNotThrow(() -> check.sign(P, n, pks, sks, mus, rnds, sigs, status, new int[] {0, 19}));
    }

    @Test
    void signFailsWhenTheReferenceSignatureDoesNotVerify() {
        Reference neverVerifies = new Reference() {
            @Override
            public byte[][] keyGen(ParameterSet p, byte[] seed) {
                return TOY.keyGen(p, seed);
            }

            @Override
            public byte[] sign(ParameterSet p, byte[] sk, byte[] mu, byte[] rnd) {
                return new byte[p.signatureBytes()];
            }

            @Override
            public boolean verify(ParameterSet p, byte[] pk, byte[] mu, byte[] sig) {
                return false;
            }
        };
        int n = 2;
        byte[] sigs = new byte[n * P.signatureBytes()];
        WrongResultException e = assertThrows(WrongResultException.class, () -> new OutputCheck(neverVerifies).sign(
                P, n, new byte[n * P.publicKeyBytes()], new byte[n * P.privateKeyBytes()],
                new byte[n * ParameterSet.MU_BYTES], new byte[n * P.rndBytes()], sigs, new byte[n], new int[] {1}));
        assertEquals("ML-DSA-44 sign: task 1: signature does not verify", e.getMessage());
    }

    @Test
    void corruptionFlipsExactlyOneBitPerChosenTaskAndExpectsRejection() {
        int n = 30;
        byte[] pks = new byte[n * P.publicKeyBytes()];
        byte[] mus = new byte[n * ParameterSet.MU_BYTES];
        byte[] sigs = new byte[n * P.signatureBytes()];
        random.nextBytes(pks);
        random.nextBytes(mus);
        random.nextBytes(sigs);
        byte[] pks0 = pks.clone();
        byte[] mus0 = mus.clone();
        byte[] sigs0 = sigs.clone();
        int[] chosen = {0, 4, 11, 29};
        byte[] expected = OutputCheck.corrupt(P, n, pks, mus, sigs, chosen, random);

        for (int i = 0; i < n; i++) {
            int j = Arrays.binarySearch(chosen, i);
            assertEquals(j >= 0 ? TaskStatus.REJECTED : TaskStatus.OK, expected[i], "task " + i);
            int sigBits = flippedBits(sigs0, sigs, i, P.signatureBytes());
            int muBits = flippedBits(mus0, mus, i, ParameterSet.MU_BYTES);
            int pkBits = flippedBits(pks0, pks, i, P.publicKeyBytes());
            int rhoBits = 0;
            for (int k = 0; k < ParameterSet.SEED_BYTES; k++) {
                int at = i * P.publicKeyBytes() + k;
                rhoBits += Integer.bitCount((pks0[at] ^ pks[at]) & 0xFF);
            }
            // Only ρ of a public key is changed: t1 alone may not invalidate a signature on a fixed μ.
            assertEquals(pkBits, rhoBits, "task " + i);
            if (j < 0) {
                assertEquals(0, sigBits + muBits + pkBits, "task " + i);
            } else {
                // The kinds rotate: signature, μ, public key, signature, ...
                assertEquals(j % 3 == 0 ? 1 : 0, sigBits, "task " + i);
                assertEquals(j % 3 == 1 ? 1 : 0, muBits, "task " + i);
                assertEquals(j % 3 == 2 ? 1 : 0, pkBits, "task " + i);
            }
        }
    }

    private static int flippedBits(byte[] before, byte[] after, int index, int size) {
        int bits = 0;
        for (int k = index * size; k < (index + 1) * size; k++) {
            bits += Integer.bitCount((before[k] ^ after[k]) & 0xFF);
        }
        return bits;
    }

    @Test
    void statusNames() {
        assertEquals("OK", OutputCheck.statusName(TaskStatus.OK));
        assertEquals("REJECTED", OutputCheck.statusName(TaskStatus.REJECTED));
        assertEquals("INVALID_KEY", OutputCheck.statusName(TaskStatus.INVALID_KEY));
        assertEquals("unknown status 255", OutputCheck.statusName((byte) -1));
    }
}
