package io.dilithiumgpu.backend.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.PinnedDigests;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;
import io.dilithiumgpu.core.Scheme;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(60)
class CpuBackendTest {
    private static final int N = 9;

    /** A batch of n key pairs from seeds 0, 1, 2, ... made with the backend. */
    private static final class Batch {
        final ParameterSet p;
        final int n;
        final byte[] seeds;
        final byte[] pks;
        final byte[] sks;

        Batch(CpuBackend backend, ParameterSet p, int n) {
            this.p = p;
            this.n = n;
            seeds = new byte[n * ParameterSet.SEED_BYTES];
            new Random(p.ordinal()).nextBytes(seeds);
            pks = new byte[n * p.publicKeyBytes()];
            sks = new byte[n * p.privateKeyBytes()];
            byte[] status = filled(n);
            backend.run(BatchRecords.keyGen(p, n, seeds, pks, sks, status));
            assertArrayEquals(new byte[n], status);
        }
    }

    private static byte[] filled(int n) {
        byte[] status = new byte[n];
        Arrays.fill(status, (byte) 0x7f);
        return status;
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void fixedSeedBatchesGiveThePinnedDigests(ParameterSet p) {
        try (CpuBackend backend = new CpuBackend(2)) {
            for (Operation op : Operation.values()) {
                assertEquals(PinnedDigests.expected(p, op), PinnedDigests.of(backend, p, op), p + " " + op);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void batchMatchesSingleCallsAndBadTasksFailAlone(ParameterSet p) {
        try (CpuBackend backend = new CpuBackend(4)) {
            Batch b = new Batch(backend, p, N);
            int pkBytes = p.publicKeyBytes();
            int skBytes = p.privateKeyBytes();
            int sigBytes = p.signatureBytes();

            // keys equal those of single calls
            for (int i = 0; i < N; i++) {
                byte[] pk = new byte[pkBytes];
                byte[] sk = new byte[skBytes];
                Scheme.keyGen(p, b.seeds, i * 32, pk, 0, sk, 0);
                assertArrayEquals(pk, Arrays.copyOfRange(b.pks, i * pkBytes, (i + 1) * pkBytes));
                assertArrayEquals(sk, Arrays.copyOfRange(b.sks, i * skBytes, (i + 1) * skBytes));
            }

            // task 3's s1 gets a field above 2η: that task alone reports INVALID_KEY
            int bad = 3;
            int s1Start = bad * skBytes + 64 + p.trBytes();
            b.sks[s1Start] = (byte) 0xff;
            byte[] mus = new byte[N * 64];
            new Random(7).nextBytes(mus);
            byte[] rnds = new byte[N * p.rndBytes()];
            new Random(8).nextBytes(rnds);
            byte[] sigs = new byte[N * sigBytes];
            byte[] status = filled(N);
            backend.run(BatchRecords.sign(p, N, b.sks, mus, rnds, sigs, status));
            for (int i = 0; i < N; i++) {
                assertEquals(i == bad ? TaskStatus.INVALID_KEY : TaskStatus.OK, status[i], "sign task " + i);
            }
            assertArrayEquals(new byte[sigBytes], Arrays.copyOfRange(sigs, bad * sigBytes, (bad + 1) * sigBytes));

            // task 5's signature is corrupted, task 3 has no signature: those two alone are rejected
            sigs[5 * sigBytes + 40] ^= 1;
            status = filled(N);
            backend.run(BatchRecords.verify(p, N, b.pks, mus, sigs, status));
            for (int i = 0; i < N; i++) {
                byte expected = i == bad || i == 5 ? TaskStatus.REJECTED : TaskStatus.OK;
                assertEquals(expected, status[i], "verify task " + i);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void batchesWithKeyCachesGiveThePlainResults(ParameterSet p) {
        int keys = 3;
        int n = 12;
        try (CpuBackend backend = new CpuBackend(3)) {
            Batch k = new Batch(backend, p, keys);
            int pkBytes = p.publicKeyBytes();
            int skBytes = p.privateKeyBytes();
            int sigBytes = p.signatureBytes();
            PrivateKeyCache[] privateCaches = new PrivateKeyCache[keys];
            PublicKeyCache[] publicCaches = new PublicKeyCache[keys];
            for (int j = 0; j < keys; j++) {
                privateCaches[j] = new PrivateKeyCache(p);
                publicCaches[j] = new PublicKeyCache(p);
            }
            // task i uses key i mod 3 and that key's caches; task 7 has none; task 10's key does not decode
            byte[] sks = new byte[n * skBytes];
            byte[] pks = new byte[n * pkBytes];
            PrivateKeyCache[] skCaches = new PrivateKeyCache[n];
            PublicKeyCache[] pkCaches = new PublicKeyCache[n];
            for (int i = 0; i < n; i++) {
                int j = i % keys;
                System.arraycopy(k.sks, j * skBytes, sks, i * skBytes, skBytes);
                System.arraycopy(k.pks, j * pkBytes, pks, i * pkBytes, pkBytes);
                skCaches[i] = i == 7 ? null : privateCaches[j];
                pkCaches[i] = i == 7 ? null : publicCaches[j];
            }
            int bad = 10;
            sks[bad * skBytes + 64 + p.trBytes()] = (byte) 0xff;

            for (int round = 0; round < 3; round++) {
                byte[] mus = new byte[n * 64];
                new Random(100 + round).nextBytes(mus);
                byte[] rnds = new byte[n * p.rndBytes()];
                new Random(200 + round).nextBytes(rnds);
                byte[] plain = new byte[n * sigBytes];
                byte[] cached = new byte[n * sigBytes];
                byte[] plainStatus = filled(n);
                byte[] cachedStatus = filled(n);
                backend.run(BatchRecords.sign(p, n, sks, mus, rnds, plain, plainStatus));
                backend.run(BatchRecords.sign(p, n, sks, mus, rnds, cached, cachedStatus).withCaches(skCaches));
                assertArrayEquals(plainStatus, cachedStatus, "round " + round);
                assertArrayEquals(plain, cached, "round " + round);
                for (int i = 0; i < n; i++) {
                    assertEquals(i == bad ? TaskStatus.INVALID_KEY : TaskStatus.OK, cachedStatus[i]);
                }

                cached[5 * sigBytes + 3] ^= 1;
                byte[] verdicts = filled(n);
                backend.run(BatchRecords.verify(p, n, pks, mus, cached, verdicts).withCaches(pkCaches));
                for (int i = 0; i < n; i++) {
                    byte expected = i == bad || i == 5 ? TaskStatus.REJECTED : TaskStatus.OK;
                    assertEquals(expected, verdicts[i], "round " + round + ", verify task " + i);
                }
            }
            for (int j = 0; j < keys; j++) {
                assertTrue(privateCaches[j].isDecoded(), "key " + j);
                assertTrue(publicCaches[j].isDecoded(), "key " + j);
            }
            assertThrows(IllegalArgumentException.class, () -> backend.run(BatchRecords.sign(p, n, sks,
                    new byte[n * 64], new byte[n * p.rndBytes()], new byte[n * sigBytes],
                            new byte[n]).withCaches(new PrivateKeyCache[n - 1])));
            privateCaches[0].destroy();
            assertFalse(privateCaches[0].isDecoded());
        }
    }

    @Test
    void callerOnlyBackendGivesTheSameResultsAndEmptyBatchesAreNoOps() {
        ParameterSet p = ParameterSet.DILITHIUM3;
        int n = 5;
        try (CpuBackend one = new CpuBackend(1); CpuBackend many = new CpuBackend(3)) {
            assertEquals(1, one.threads());
            Batch a = new Batch(one, p, n);
            Batch b = new Batch(many, p, n);
            assertArrayEquals(a.pks, b.pks);
            assertArrayEquals(a.sks, b.sks);

            byte[] mus = new byte[n * 64];
            new Random(3).nextBytes(mus);
            byte[] rnds = new byte[n * p.rndBytes()];
            byte[] sigsOne = new byte[n * p.signatureBytes()];
            byte[] sigsMany = new byte[n * p.signatureBytes()];
            one.run(BatchRecords.sign(p, n, a.sks, mus, rnds, sigsOne, new byte[n]));
            many.run(BatchRecords.sign(p, n, b.sks, mus, rnds, sigsMany, new byte[n]));
            assertArrayEquals(sigsOne, sigsMany);

            byte[] untouched = {0x7f};
            one.run(BatchRecords.verify(p, 0, new byte[0], new byte[0], new byte[0], untouched));
            many.run(BatchRecords.sign(p, 0, new byte[0], new byte[0], new byte[0], new byte[0], untouched));
            assertEquals(0x7f, untouched[0]);
        }
    }

    @Test
    void rejectsShortArraysAndUseAfterClose() {
        ParameterSet p = ParameterSet.ML_DSA_65;
        CpuBackend backend = new CpuBackend(2);
        assertThrows(IllegalArgumentException.class, () -> backend.run(BatchRecords.verify(p, 2,
                new byte[2 * p.publicKeyBytes()], new byte[2 * 64], new byte[2 * p.signatureBytes() - 1],
                        new byte[2])));
        assertThrows(IllegalArgumentException.class, () -> backend.run(BatchRecords.keyGen(p, 1,
                new byte[32], new byte[p.publicKeyBytes()], new byte[p.privateKeyBytes()], new byte[0])));
        assertEquals(8, backend.preferredBatchSize(p, Operation.SIGN));
        backend.close();
        backend.close();
        assertThrows(BackendException.class, () -> backend.run(BatchRecords.keyGen(p, 1,
                new byte[32], new byte[p.publicKeyBytes()], new byte[p.privateKeyBytes()], new byte[1])));
    }
}
