package io.dilithiumgpu.backend;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One call's records: every length checked at creation, caches only where they belong. */
class BatchRecordsTest {
    private static final ParameterSet P = ParameterSet.ML_DSA_44;

    @Test
    void heapRecordsNameTheCallersArrays() {
        byte[] sks = new byte[2 * P.privateKeyBytes()];
        byte[] mus = new byte[2 * ParameterSet.MU_BYTES];
        byte[] rnds = new byte[2 * P.rndBytes()];
        byte[] sigs = new byte[2 * P.signatureBytes()];
        byte[] status = new byte[2];
        BatchRecords r = BatchRecords.sign(P, 2, sks, mus, rnds, sigs, status);
        assertEquals(Operation.SIGN, r.op());
        assertEquals(2, r.count());
        assertFalse(r.inHost());
        assertEquals(4, r.fields());
        assertSame(sks, r.array(0));
        assertSame(sigs, r.array(3));
        assertNull(r.host(0));
        assertSame(status, r.status());
        assertNull(r.listener());
        assertNull(r.privateKeyCaches());
    }

    @Test
    void aShortArrayIsRefusedByName() {
        byte[] seeds = new byte[2 * ParameterSet.SEED_BYTES];
        byte[] pks = new byte[2 * P.publicKeyBytes()];
        byte[] sks = new byte[2 * P.privateKeyBytes() - 1];
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BatchRecords.keyGen(P, 2, seeds, pks, sks, new byte[2]));
        assertTrue(e.getMessage().contains("privateKeys"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> BatchRecords.keyGen(P, 2, seeds, pks, new byte[2 * P.privateKeyBytes()], new byte[1]));
        assertTrue(e.getMessage().contains("status"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BatchRecords.keyGen(P, -1, seeds, pks, sks, new byte[2]));
        assertThrows(NullPointerException.class, () -> BatchRecords.keyGen(P, 1, null, pks, sks, new byte[1]));
    }

    @Test
    void hostRecordsAreCheckedAsTheyAre() {
        try (HostBuffer pks = HostBuffer.allocate(P.publicKeyBytes());
             HostBuffer mus = HostBuffer.allocate(ParameterSet.MU_BYTES);
             HostBuffer sigs = HostBuffer.allocate(P.signatureBytes())) {
            BatchRecords r = BatchRecords.verify(P, 1, pks, mus, sigs, new byte[1]);
            assertTrue(r.inHost());
            assertSame(mus, r.host(1));
            assertNull(r.array(1));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> BatchRecords.verify(P, 2, pks, mus, sigs, new byte[2]));
            assertTrue(e.getMessage().contains("publicKeys"), e.getMessage());
        }
    }

    /**
     * Message records replace the μ of one-key signing and verification records only, heap for
     * heap and host for host, once; too few are refused by name; the listener and key are kept.
     */
    @Test
    void messageRecordsReplaceTheMuOfOneKeyRecordsOnly() {
        ParameterSet p = ParameterSet.ML_DSA_44;
        int n = 3;
        byte[] sk = new byte[p.privateKeyBytes()];
        byte[] pk = new byte[p.publicKeyBytes()];
        byte[] messages = new byte[n * MessageRecord.BYTES];
        BatchRecords signing = BatchRecords.sign(new PrivateKeyCache(p), sk, n, new byte[n * 64],
                new byte[n * p.rndBytes()], new byte[n * p.signatureBytes()], new byte[n]);
        BatchRecords m = signing.withMessages(messages);
        assertTrue(m.messages() && m.oneKey());
        assertFalse(signing.messages());
        assertSame(messages, m.array(1));
        assertSame(sk, m.array(0));
        assertEquals(MessageRecord.BYTES, m.recordBytes(1));
        assertEquals("messages", m.name(1));
        assertTrue(m.withListener(null).messages());
        assertThrows(IllegalStateException.class, () -> m.withMessages(messages), "once");
        IllegalArgumentException shortOnes = assertThrows(IllegalArgumentException.class,
                () -> signing.withMessages(new byte[n * MessageRecord.BYTES - 1]));
        assertTrue(shortOnes.getMessage().contains("messages"), shortOnes.getMessage());
        BatchRecords perTask = BatchRecords.sign(p, n, new byte[n * p.privateKeyBytes()], new byte[n * 64],
                new byte[n * p.rndBytes()], new byte[n * p.signatureBytes()], new byte[n]);
        assertThrows(IllegalStateException.class, () -> perTask.withMessages(messages), "a key per task");
        try (HostBuffer mus = HostBuffer.allocate(n * 64); HostBuffer sigs = HostBuffer.allocate(n * p.signatureBytes());
             HostBuffer in = HostBuffer.allocate(n * MessageRecord.BYTES)) {
            BatchRecords host = BatchRecords.verify(new PublicKeyCache(p), pk, n, mus, sigs, new byte[n]);
            assertThrows(IllegalStateException.class, () -> host.withMessages(messages), "heap records for host ones");
            assertThrows(IllegalStateException.class, () -> signing.withMessages(in), "host records for heap ones");
            BatchRecords hm = host.withMessages(in);
            assertTrue(hm.messages());
            assertSame(in, hm.host(1));
            assertSame(sigs, hm.host(2));
        }
    }

    @Test
    void cachesBelongToTheirOperationAndCoverEveryTask() {
        byte[] status = new byte[1];
        BatchRecords verify = BatchRecords.verify(P, 1, new byte[P.publicKeyBytes()], new byte[64],
                new byte[P.signatureBytes()], status);
        PublicKeyCache[] caches = new PublicKeyCache[1];
        assertSame(caches, verify.withCaches(caches).publicKeyCaches());
        assertThrows(IllegalStateException.class, () -> verify.withCaches(new PrivateKeyCache[1]));
        assertThrows(IllegalArgumentException.class, () -> verify.withCaches(new PublicKeyCache[0]));
        TaskListener listener = (task, code) -> { };
        BatchRecords told = verify.withCaches(caches).withListener(listener);
        assertSame(listener, told.listener());
        assertSame(caches, told.publicKeyCaches(), "with... keeps what was set before");
        assertNull(verify.listener(), "with... leaves the original as it was");
        assertNull(told.keySources(), "no key sources unless given");
        Object[] sources = {new Object()};
        BatchRecords sourced = verify.withCaches(caches, sources).withListener(listener);
        assertSame(sources, sourced.keySources(), "with... keeps the key sources");
        assertSame(caches, sourced.publicKeyCaches());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> verify.withCaches(caches, new Object[0]));
        assertTrue(e.getMessage().contains("key sources"), e.getMessage());
        BatchRecords sign = BatchRecords.sign(P, 1, new byte[P.privateKeyBytes()], new byte[64],
                new byte[P.rndBytes()], new byte[P.signatureBytes()], status);
        assertSame(sources, sign.withCaches(new PrivateKeyCache[1], sources).keySources());
        assertThrows(IllegalStateException.class, () -> verify.withCaches(new PrivateKeyCache[1], sources));
    }

    /**
     * One-key records from a key's record and its cache: the key one record long, its cache the
     * only entry and kept through {@code withListener}, no per-task caches on top; the CPU backend
     * and the expansion into per-task records give the signatures and verdicts of per-task records.
     */
    @Test
    @Timeout(60)
    void oneKeyRecordsFromAKeyAndItsCacheAreTheirPerTaskRecords() {
        byte[] pk = new byte[P.publicKeyBytes()];
        byte[] sk = new byte[P.privateKeyBytes()];
        byte[] seed = new byte[ParameterSet.SEED_BYTES];
        seed[0] = 7;
        io.dilithiumgpu.core.Scheme.keyGen(P, seed, 0, pk, 0, sk, 0);
        int n = 3;
        byte[] mus = new byte[n * ParameterSet.MU_BYTES];
        byte[] rnds = new byte[n * P.rndBytes()];
        for (int i = 0; i < mus.length; i++) {
            mus[i] = (byte) (31 * i + 5);
        }
        for (int i = 0; i < rnds.length; i++) {
            rnds[i] = (byte) (17 * i + 3);
        }
        PrivateKeyCache signer = new PrivateKeyCache(P);
        assertThrows(IllegalArgumentException.class, () -> BatchRecords.sign(signer, new byte[P.privateKeyBytes() - 1],
                n, mus, rnds, new byte[n * P.signatureBytes()], new byte[n]));
        byte[] sigs = new byte[n * P.signatureBytes()];
        byte[] status = new byte[n];
        BatchRecords one = BatchRecords.sign(signer, sk, n, mus, rnds, sigs, status);
        TaskListener listener = (task, code) -> { };
        assertTrue(one.oneKey());
        assertNull(one.key(), "no handle: a key given as its record");
        assertSame(sk, one.array(0));
        assertSame(signer, one.withListener(listener).privateKeyCaches()[0]);
        assertTrue(one.withListener(listener).oneKey(), "with... keeps the one key");
        assertThrows(IllegalStateException.class, () -> one.withCaches(new PrivateKeyCache[n]));

        byte[] perTaskSigs = new byte[n * P.signatureBytes()];
        byte[] perTaskStatus = new byte[n];
        byte[] sks = new byte[n * sk.length];
        for (int i = 0; i < n; i++) {
            System.arraycopy(sk, 0, sks, i * sk.length, sk.length);
        }
        try (io.dilithiumgpu.backend.cpu.CpuBackend cpu = new io.dilithiumgpu.backend.cpu.CpuBackend(2)) {
            cpu.run(one);
            cpu.run(BatchRecords.sign(P, n, sks, mus, rnds, perTaskSigs, perTaskStatus));
            assertArrayEquals(perTaskSigs, sigs, "one-key signatures are the per-task records'");
            assertArrayEquals(perTaskStatus, status);
            byte[] expanded = new byte[n * P.signatureBytes()];
            OneKeyRecords.runExpanded(cpu, BatchRecords.sign(signer, sk, n, mus, rnds, expanded, new byte[n]));
            assertArrayEquals(perTaskSigs, expanded, "expanded into per-task records, the same signatures");
            assertThrows(IllegalArgumentException.class, () -> OneKeyRecords.runExpanded(cpu,
                    BatchRecords.sign(P, n, sks, mus, rnds, new byte[n * P.signatureBytes()], new byte[n])));

            byte[] verdicts = new byte[n];
            sigs[P.signatureBytes() + 9] ^= 1;
            cpu.run(BatchRecords.verify(new PublicKeyCache(P), pk, n, mus, sigs, verdicts));
            assertArrayEquals(new byte[] {TaskStatus.OK, TaskStatus.REJECTED, TaskStatus.OK}, verdicts);
        }
    }
}
