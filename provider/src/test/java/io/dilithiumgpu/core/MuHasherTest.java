package io.dilithiumgpu.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.util.Random;

import org.bouncycastle.crypto.digests.SHAKEDigest;
import org.junit.jupiter.api.Test;

class MuHasherTest {
    private static byte[] shake256(byte[] in, int outBytes) {
        SHAKEDigest d = new SHAKEDigest(256);
        d.update(in, 0, in.length);
        byte[] out = new byte[outBytes];
        d.doFinal(out, 0, outBytes);
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.write(p, 0, p.length);
        }
        return out.toByteArray();
    }

    private final Random random = new Random(11);

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    @Test
    void formatsOfMPrime() {
        byte[] tr64 = bytes(64);
        byte[] tr32 = bytes(32);
        byte[] ctx = bytes(17);
        byte[] msg = bytes(1000);

        assertArrayEquals(shake256(concat(tr64, msg), 64),
                MuHasher.internal(ParameterSet.ML_DSA_44, tr64).update(msg, 0, 10).update(msg, 10, 990).finish());
        assertArrayEquals(shake256(concat(tr64, new byte[] {0, 17}, ctx, msg), 64),
                MuHasher.pure(ParameterSet.ML_DSA_65, tr64, ctx).update(msg).finish());
        assertArrayEquals(shake256(concat(tr32, msg), 64),
                MuHasher.pure(ParameterSet.DILITHIUM3, tr32, new byte[0]).update(msg).finish());

        byte[] digest = PreHash.SHA3_256.digest(msg);
        assertArrayEquals(shake256(concat(tr64, new byte[] {1, 17}, ctx, PreHash.SHA3_256.oidDer(), digest), 64),
                MuHasher.preHashed(ParameterSet.ML_DSA_87, tr64, ctx, PreHash.SHA3_256, digest));
    }

    @Test
    void restartStartsTheNextMessageAfterTheSamePrefix() {
        byte[] tr64 = bytes(64);
        byte[] ctx = bytes(200);
        MuHasher hasher = MuHasher.pure(ParameterSet.ML_DSA_87, tr64, ctx);
        for (int length : new int[] {0, 1, 135, 136, 500}) {
            byte[] msg = bytes(length);
            assertArrayEquals(shake256(concat(tr64, new byte[] {0, (byte) 200}, ctx, msg), 64),
                    hasher.update(msg).finish(), "message of " + length + " bytes");
            hasher.restart();
        }
        hasher.update(bytes(300));   // abandoned before finish
        byte[] msg = bytes(40);
        assertArrayEquals(shake256(concat(tr64, new byte[] {0, (byte) 200}, ctx, msg), 64),
                hasher.restart().update(msg).finish());
        MuHasher internal = MuHasher.internal(ParameterSet.ML_DSA_44, tr64);
        internal.update(msg).finish();
        assertArrayEquals(shake256(concat(tr64, msg), 64), internal.restart().update(msg).finish());
    }

    /**
     * The prefix is the hasher's own: changing the caller's tr or context after construction, before
     * or after the first restart, changes no μ; a prefix shorter than one block restarts too.
     */
    @Test
    void thePrefixIsCopiedAtConstruction() {
        for (int ctxLength : new int[] {0, 3, 200}) {
            byte[] tr64 = bytes(64);
            byte[] ctx = bytes(ctxLength);
            byte[] prefix = concat(tr64, new byte[] {0, (byte) ctxLength}, ctx);
            MuHasher hasher = MuHasher.pure(ParameterSet.ML_DSA_44, tr64, ctx);
            tr64[0] ^= 1;
            if (ctxLength > 0) {
                ctx[ctxLength - 1] ^= 1;
            }
            for (int round = 0; round < 3; round++) {
                byte[] msg = bytes(32 + round);
                assertArrayEquals(shake256(concat(prefix, msg), 64), hasher.update(msg).finish(),
                        "context of " + ctxLength + " bytes, message " + round);
                tr64[1] ^= 1;
                hasher.restart();
            }
        }
    }

    @Test
    void misuseIsRejected() {
        byte[] tr64 = bytes(64);
        assertThrows(IllegalArgumentException.class, () -> MuHasher.internal(ParameterSet.ML_DSA_44, bytes(32)));
        assertThrows(IllegalArgumentException.class, () -> MuHasher.internal(ParameterSet.DILITHIUM2, tr64));
        assertThrows(IllegalArgumentException.class, () -> MuHasher.pure(ParameterSet.ML_DSA_44, tr64, new byte[256]));
        assertEquals(64, MuHasher.pure(ParameterSet.ML_DSA_44, tr64, new byte[255]).finish().length);
        assertThrows(IllegalArgumentException.class, () -> MuHasher.pure(ParameterSet.DILITHIUM2, bytes(32), new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> MuHasher.preHashed(ParameterSet.DILITHIUM2, bytes(32),
                new byte[0], PreHash.SHA2_256, new byte[32]));
        assertThrows(IllegalArgumentException.class, () -> MuHasher.preHashed(ParameterSet.ML_DSA_44, tr64,
                new byte[0], PreHash.SHA2_256, new byte[31]));
        assertThrows(IllegalArgumentException.class, () -> MuHasher.preHashed(ParameterSet.ML_DSA_44, tr64,
                new byte[256], PreHash.SHA2_256, new byte[32]));
        MuHasher spent = MuHasher.internal(ParameterSet.ML_DSA_44, tr64);
        spent.finish();
        assertThrows(IllegalStateException.class, spent::finish);
        assertThrows(IllegalStateException.class, () -> spent.update(new byte[1]));
    }
}
