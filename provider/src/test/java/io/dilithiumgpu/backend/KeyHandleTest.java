package io.dilithiumgpu.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Key handles and one-key records: the same results as per-task records, on the heap and in host buffers. */
@Timeout(60)
class KeyHandleTest {
    private static final ParameterSet P = ParameterSet.ML_DSA_44;

    private static byte[] random(SplittableRandom r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    @Test
    void oneKeyRecordsGiveWhatPerTaskRecordsGive() {
        SplittableRandom r = new SplittableRandom(9);
        int n = 5;
        try (CpuBackend cpu = new CpuBackend(2)) {
            byte[] pk = new byte[P.publicKeyBytes()];
            byte[] sk = new byte[P.privateKeyBytes()];
            cpu.run(BatchRecords.keyGen(P, 1, random(r, 32), pk, sk, new byte[1]));
            byte[] sks = new byte[n * sk.length];
            byte[] pks = new byte[n * pk.length];
            for (int i = 0; i < n; i++) {
                System.arraycopy(sk, 0, sks, i * sk.length, sk.length);
                System.arraycopy(pk, 0, pks, i * pk.length, pk.length);
            }
            byte[] mus = random(r, n * 64);
            byte[] rnds = random(r, n * P.rndBytes());
            byte[] expected = new byte[n * P.signatureBytes()];
            byte[] status = new byte[n];
            cpu.run(BatchRecords.sign(P, n, sks, mus, rnds, expected, status));

            KeyHandle signer = KeyHandle.ofPrivateKey(P, sk);
            KeyHandle verifier = KeyHandle.ofPublicKey(P, pk);
            BatchRecords heap = BatchRecords.sign(signer, n, mus, rnds, new byte[expected.length], new byte[n]);
            assertSame(signer, heap.key());
            assertEquals(1, heap.privateKeyCaches().length);
            assertSame(signer.privateKeyCache(), heap.privateKeyCaches()[0]);
            assertArrayEquals(sk, heap.array(0));
            assertThrows(IllegalStateException.class, () -> heap.withCaches(new PrivateKeyCache[n]));
            for (int round = 0; round < 3; round++) {
                byte[] sigs = new byte[expected.length];
                Arrays.fill(status, (byte) 9);
                cpu.run(BatchRecords.sign(signer, n, mus, rnds, sigs, status));
                assertArrayEquals(new byte[n], status);
                assertArrayEquals(expected, sigs, "round " + round);
            }
            assertTrue(signer.privateKeyCache().isDecoded(), "the CPU backend caches the handle's key");
            try (HostBuffer musIn = HostBuffer.allocate(mus.length);
                 HostBuffer rndsIn = HostBuffer.allocate(rnds.length);
                 HostBuffer sigOut = HostBuffer.allocate(expected.length);
                 HostBuffer sigIn = HostBuffer.allocate(expected.length)) {
                musIn.buffer().put(0, mus);
                rndsIn.buffer().put(0, rnds);
                sigIn.buffer().put(0, expected);
                BatchRecords inHost = BatchRecords.sign(signer, n, musIn, rndsIn, sigOut, status);
                assertTrue(inHost.inHost());
                assertNull(inHost.host(0));
                cpu.run(inHost);
                byte[] sigs = new byte[expected.length];
                sigOut.buffer().get(0, sigs);
                assertArrayEquals(expected, sigs);
                byte[] badMus = mus.clone();
                badMus[64 * 3] ^= 1;
                musIn.buffer().put(0, badMus);
                cpu.run(BatchRecords.verify(verifier, n, musIn, sigIn, status));
                assertArrayEquals(new byte[] {0, 0, 0, TaskStatus.REJECTED, 0}, status);
            }
            cpu.run(BatchRecords.verify(verifier, n, mus, expected, status));
            assertArrayEquals(new byte[n], status);
            assertArrayEquals(sk, signer.copyKey(), "the bulk call kept the handle's key intact");
            signer.destroy();
            assertTrue(signer.isDestroyed());
            assertTrue(signer.privateKeyCache().isDestroyed());
            assertThrows(IllegalStateException.class, signer::copyKey);
            assertThrows(IllegalStateException.class,
                    () -> BatchRecords.sign(signer, n, mus, rnds, new byte[expected.length], status));
        }
    }

    @Test
    void handlesCheckTheirKeys() {
        assertThrows(IllegalArgumentException.class, () -> KeyHandle.ofPrivateKey(P, new byte[10]));
        assertThrows(IllegalArgumentException.class, () -> KeyHandle.ofPublicKey(P, new byte[P.privateKeyBytes()]));
        KeyHandle pub = KeyHandle.ofPublicKey(P, new byte[P.publicKeyBytes()]);
        KeyHandle priv = KeyHandle.ofPrivateKey(P, new byte[P.privateKeyBytes()]);
        assertNull(pub.privateKeyCache());
        assertNull(priv.publicKeyCache());
        assertThrows(IllegalArgumentException.class, () -> BatchRecords.sign(pub, 1, new byte[64],
                new byte[P.rndBytes()], new byte[P.signatureBytes()], new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> BatchRecords.verify(priv, 1, new byte[64],
                new byte[P.signatureBytes()], new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> BatchRecords.verify(pub, 2, new byte[64],
                new byte[2 * P.signatureBytes()], new byte[2]), "short μ records");
        // In place: a public key's own bytes and tr, the same arrays every time; none for a private key.
        assertSame(pub.publicKeyInPlace(), pub.publicKeyInPlace());
        assertArrayEquals(pub.copyKey(), pub.publicKeyInPlace());
        assertArrayEquals(pub.tr(), pub.trInPlace());
        assertThrows(IllegalStateException.class, priv::publicKeyInPlace);
        int trAt = 2 * ParameterSet.SEED_BYTES;
        assertArrayEquals(java.util.Arrays.copyOfRange(priv.copyKey(), trAt, trAt + P.trBytes()), priv.trInPlace());
        pub.destroy();
        assertThrows(IllegalStateException.class, pub::publicKeyInPlace);

        // A private key's bytes copied where a batch wants them, until the handle is destroyed.
        KeyHandle signer = KeyHandle.ofPrivateKey(P, filled(P.privateKeyBytes(), (byte) 7));
        java.nio.ByteBuffer dst = java.nio.ByteBuffer.allocate(P.privateKeyBytes() + 3);
        assertTrue(signer.copyPrivateKeyTo(dst, 3));
        assertArrayEquals(signer.copyKey(), java.util.Arrays.copyOfRange(dst.array(), 3, dst.capacity()));
        assertEquals(0, dst.position());
        assertThrows(IllegalStateException.class, () -> pub.copyPrivateKeyTo(dst, 0));
        signer.destroy();
        assertFalse(signer.copyPrivateKeyTo(dst, 3));
        assertArrayEquals(new byte[P.privateKeyBytes()], java.util.Arrays.copyOfRange(dst.array(), 3, dst.capacity()));
    }

    private static byte[] filled(int n, byte b) {
        byte[] a = new byte[n];
        java.util.Arrays.fill(a, b);
        return a;
    }
}
