package io.dilithiumgpu.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.core.MuHasher;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Scheme;
import io.dilithiumgpu.core.Shake;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * {@link MessageRecord}: the record a backend hashes μ from. μ of a record is the pure μ of its
 * message (FIPS 204 Algorithms 2/3, round 3.1's H(tr ‖ M)) at every length a record holds; a μ
 * record is μ itself; tr is read from a private key and hashed from a public one; one-key
 * records of messages run on a backend of μ with the same outcomes.
 */
class MessageRecordTest {

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void aRecordsMuIsThePureMuOfItsMessageAtEveryLength(ParameterSet p) {
        SplittableRandom r = new SplittableRandom(p.ordinal());
        byte[] tr = new byte[p.trBytes()];
        r.nextBytes(tr);
        byte[] context = p.isFips204() ? new byte[] {7, 8, 9} : new byte[0];
        int header = p.isFips204() ? 2 + context.length : 0;
        Shake shake = Shake.shake256();
        for (int len = 0; header + len <= MessageRecord.MAX_MESSAGE; len++) {
            byte[] m = new byte[len];
            r.nextBytes(m);
            byte[] record = new byte[MessageRecord.BYTES];
            if (p.isFips204()) {
                record[1] = (byte) context.length;
                System.arraycopy(context, 0, record, 2, context.length);
            }
            System.arraycopy(m, 0, record, header, len);
            MessageRecord.tag(record, header + len);
            byte[] expected = MuHasher.pure(p, tr, context).update(m).finish();
            assertArrayEquals(expected, MessageRecord.mu(tr, record), p + ", " + len + " message bytes");
            ByteBuffer records = ByteBuffer.allocate(3 * MessageRecord.BYTES).put(MessageRecord.BYTES, record);
            byte[] mu = new byte[ParameterSet.MU_BYTES + 5];
            MessageRecord.mu(tr, records, MessageRecord.BYTES, shake, mu, 5);
            assertArrayEquals(expected, Arrays.copyOfRange(mu, 5, mu.length), p + ", " + len + ", at an offset");
            assertEquals(header + len + 1, records.get(2 * MessageRecord.BYTES - 1), "the tag: M′'s length + 1");
        }
    }

    @Test
    void aMuRecordIsMuAndTagsAreChecked() {
        byte[] mu = new byte[ParameterSet.MU_BYTES];
        new SplittableRandom(3).nextBytes(mu);
        ByteBuffer records = ByteBuffer.allocate(2 * MessageRecord.BYTES);
        records.put(MessageRecord.BYTES - 1, (byte) 9);
        MessageRecord.putMu(records, 0, mu, 0);
        assertEquals(0, records.get(MessageRecord.BYTES - 1), "the tag of μ");
        byte[] out = new byte[ParameterSet.MU_BYTES];
        MessageRecord.mu(new byte[64], records, 0, Shake.shake256(), out, 0);
        assertArrayEquals(mu, out);
        byte[] record = new byte[MessageRecord.BYTES];
        MessageRecord.tag(record, MessageRecord.MAX_MESSAGE);
        assertEquals(MessageRecord.BYTES, record[MessageRecord.BYTES - 1]);
        assertThrows(IndexOutOfBoundsException.class, () -> MessageRecord.tag(record, MessageRecord.MAX_MESSAGE + 1));
        assertThrows(IndexOutOfBoundsException.class, () -> MessageRecord.tag(record, -1));
        record[MessageRecord.BYTES - 1] = (byte) (MessageRecord.BYTES + 1);
        assertThrows(IllegalArgumentException.class, () -> MessageRecord.mu(new byte[64], record));
    }

    @ParameterizedTest
    @EnumSource(value = ParameterSet.class, names = {"ML_DSA_65", "DILITHIUM2"})
    void trIsAPrivateKeysOwnAndThePublicKeysHash(ParameterSet p) {
        byte[] pk = new byte[p.publicKeyBytes()];
        byte[] sk = new byte[p.privateKeyBytes()];
        Scheme.keyGen(p, new byte[32], 0, pk, 0, sk, 0);
        byte[] tr = Scheme.tr(p, pk, 0);
        assertArrayEquals(tr, MessageRecord.trOf(p, true, sk));
        assertArrayEquals(tr, MessageRecord.trOf(p, false, pk));
    }

    /** One-key records of messages on a backend of μ: signatures and statuses as from μ records. */
    @Test
    @Timeout(60)
    void oneKeyMessageRecordsRunOnMuWithTheSameOutcomes() {
        ParameterSet p = ParameterSet.ML_DSA_44;
        byte[] pk = new byte[p.publicKeyBytes()];
        byte[] sk = new byte[p.privateKeyBytes()];
        Scheme.keyGen(p, new byte[32], 0, pk, 0, sk, 0);
        byte[] tr = Scheme.tr(p, pk, 0);
        int n = 4;
        byte[] messages = new byte[n * MessageRecord.BYTES];
        byte[] mus = new byte[n * ParameterSet.MU_BYTES];
        for (int i = 0; i < n; i++) {
            byte[] record = new byte[MessageRecord.BYTES];
            record[2] = (byte) i;
            MessageRecord.tag(record, 2 + 20 * i);
            System.arraycopy(record, 0, messages, i * MessageRecord.BYTES, record.length);
            System.arraycopy(MessageRecord.mu(tr, record), 0, mus, i * ParameterSet.MU_BYTES, ParameterSet.MU_BYTES);
        }
        MessageRecord.putMu(ByteBuffer.wrap(messages), 3 * MessageRecord.BYTES, mus, 3 * ParameterSet.MU_BYTES);
        byte[] rnds = new byte[n * p.rndBytes()];
        new SplittableRandom(5).nextBytes(rnds);
        List<BatchRecords> seen = new ArrayList<>();
        Backend cpu = new io.dilithiumgpu.backend.cpu.CpuBackend(2);
        Backend onMu = new Backend() {
            @Override
            public String name() {
                return "cpu";
            }

            @Override
            public int preferredBatchSize(ParameterSet params, Operation op) {
                return 16;
            }

            @Override
            public void run(BatchRecords r) {
                seen.add(r);
                cpu.run(r);
            }

            @Override
            public void close() {
                cpu.close();
            }
        };
        try (onMu) {
            byte[] expected = new byte[n * p.signatureBytes()];
            byte[] status = new byte[n];
            onMu.run(BatchRecords.sign(p, n, spread(sk, n), mus, rnds, expected, status));
            byte[] sigs = new byte[expected.length];
            BatchRecords messageRecords = BatchRecords.sign(new io.dilithiumgpu.core.PrivateKeyCache(p), sk, n,
                    new byte[n * ParameterSet.MU_BYTES], rnds, sigs, status).withMessages(messages);
            assertTrue(messageRecords.messages());
            assertEquals(MessageRecord.BYTES, messageRecords.recordBytes(1));
            assertEquals("messages", messageRecords.name(1));
            seen.clear();
            MessageRecord.runOnMu(onMu, messageRecords);
            assertArrayEquals(expected, sigs);
            assertArrayEquals(new byte[n], status);
            assertFalse(seen.get(0).messages(), "the backend got μ records");
            byte[] forged = expected.clone();
            forged[p.signatureBytes() + 3] ^= 1;
            try (HostBuffer in = HostBuffer.allocate(messages.length); HostBuffer sigIn = HostBuffer.allocate(forged.length);
                 HostBuffer unused = HostBuffer.allocate(mus.length)) {
                in.buffer().put(0, messages);
                sigIn.buffer().put(0, forged);
                MessageRecord.runOnMu(onMu, BatchRecords.verify(new io.dilithiumgpu.core.PublicKeyCache(p), pk, n,
                        unused, sigIn, status).withMessages(in));
                assertArrayEquals(new byte[] {0, 1, 0, 0}, status, "a forged signature rejected alone, host buffers");
            }
        }
    }

    private static byte[] spread(byte[] key, int n) {
        byte[] out = new byte[n * key.length];
        for (int i = 0; i < n; i++) {
            System.arraycopy(key, 0, out, i * key.length, key.length);
        }
        return out;
    }
}
