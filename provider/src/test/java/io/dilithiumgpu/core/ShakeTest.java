package io.dilithiumgpu.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import java.util.Random;

import org.bouncycastle.crypto.digests.SHAKEDigest;
import org.junit.jupiter.api.Test;

/** {@link Shake} and {@link Keccak} against FIPS 202 answers and BouncyCastle's SHAKE. */
class ShakeTest {
    private final Random random = new Random(202);

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static byte[] ours(Shake shake, byte[] in, int outBytes) {
        byte[] out = new byte[outBytes];
        shake.update(in, 0, in.length);
        shake.digest(out, 0, outBytes);
        return out;
    }

    private static byte[] bc(int bits, byte[] in, int outBytes) {
        SHAKEDigest d = new SHAKEDigest(bits);
        d.update(in, 0, in.length);
        byte[] out = new byte[outBytes];
        d.doFinal(out, 0, outBytes);
        return out;
    }

    @Test
    void emptyInputGivesThePublishedDigests() {
        // FIPS 202 example values (NIST CSRC), SHAKE128("") and SHAKE256("") prefixes
        assertEquals("7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26",
                HexFormat.of().formatHex(ours(Shake.shake128(), new byte[0], 32)));
        assertEquals("46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
                        + "d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be",
                HexFormat.of().formatHex(ours(Shake.shake256(), new byte[0], 64)));
    }

    @Test
    void matchesBouncyCastleAcrossBlockBoundaries() {
        Shake s128 = Shake.shake128();
        Shake s256 = Shake.shake256();
        for (int inBytes = 0; inBytes <= 3 * 168 + 9; inBytes += 7) {
            byte[] in = bytes(inBytes);
            for (int outBytes : new int[] {1, 8, 31, 135, 136, 137, 168, 169, 840, 1001}) {
                assertArrayEquals(bc(128, in, outBytes), ours(s128, in, outBytes), "SHAKE128 " + inBytes + "/" + outBytes);
                assertArrayEquals(bc(256, in, outBytes), ours(s256, in, outBytes), "SHAKE256 " + inBytes + "/" + outBytes);
            }
        }
    }

    @Test
    void splitUpdatesAndSqueezesGiveTheSameStream() {
        byte[] in = bytes(700);
        byte[] whole = bc(256, in, 900);
        for (int trial = 0; trial < 50; trial++) {
            Shake s = Shake.shake256();
            int off = 0;
            while (off < in.length) {
                int n = Math.min(in.length - off, random.nextInt(20) == 0 ? 1 : random.nextInt(300));
                if (n == 1) {
                    s.update(in[off]);
                } else {
                    s.update(in, off, n);
                }
                off += n;
            }
            byte[] out = new byte[whole.length];
            off = 0;
            while (off < out.length) {
                int n = Math.min(out.length - off, random.nextInt(200));
                s.squeeze(out, off, n);
                off += n;
            }
            assertArrayEquals(whole, out);
        }
    }

    @Test
    void resetForgetsEverything() {
        Shake s = Shake.shake128();
        byte[] out = new byte[100];
        s.update(bytes(500), 0, 500);
        s.squeeze(out, 0, 100);
        s.reset();
        assertArrayEquals(bc(128, new byte[] {1, 2, 3}, 50), ours(s, new byte[] {1, 2, 3}, 50));
    }

    @Test
    void inputAfterOutputIsRefused() {
        Shake s = Shake.shake256();
        s.squeeze(new byte[1], 0, 1);
        assertThrows(IllegalStateException.class, () -> s.update((byte) 0));
        assertThrows(IllegalStateException.class, () -> s.update(new byte[1], 0, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> s.squeeze(new byte[4], 2, 3));
    }
}
