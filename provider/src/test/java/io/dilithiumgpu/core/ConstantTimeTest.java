package io.dilithiumgpu.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Constant-time equality: any one differing byte, in a whole word or in the tail, is found. */
class ConstantTimeTest {
    /** Lengths of whole words, of words and a tail, of a tail alone, and the private and public key sizes. */
    private static final int[] LENGTHS = {0, 1, 7, 8, 9, 15, 16, 63, 64, 65,
        ParameterSet.ML_DSA_44.privateKeyBytes(), ParameterSet.ML_DSA_87.publicKeyBytes() + 3};

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void arraysDifferingInAnySingleByteAreUnequal() {
        for (int length : LENGTHS) {
            byte[] a = bytes(length, length);
            // b holds a's bytes at offset 3 (unaligned), between other bytes.
            byte[] b = bytes(length + 5, ~length);
            System.arraycopy(a, 0, b, 3, length);
            assertTrue(ConstantTime.equal(a, 0, b, 3, length), "length " + length);
            for (int i = 0; i < length; i++) {
                for (int bit = 0; bit < 8; bit += 7) {
                    b[3 + i] ^= (byte) (1 << bit);
                    assertFalse(ConstantTime.equal(a, 0, b, 3, length), "byte " + i + " bit " + bit + " of " + length);
                    b[3 + i] ^= (byte) (1 << bit);
                }
            }
            assertTrue(ConstantTime.equal(a, 0, b, 3, length));
            if (length > 0) {
                assertFalse(ConstantTime.equal(a, 0, b, 2, length), "shifted by one");
            }
        }
    }

    @Test
    void buffersDifferingInAnySingleByteAreUnequal() {
        for (int length : LENGTHS) {
            byte[] a = bytes(length, length);
            for (ByteBuffer b : new ByteBuffer[] {ByteBuffer.allocateDirect(length + 5), ByteBuffer.allocate(length + 5)}) {
                b.put(5, a);
                assertTrue(ConstantTime.equal(a, b, 5), "length " + length);
                for (int i = 0; i < length; i++) {
                    b.put(5 + i, (byte) (a[i] ^ 0x80));
                    assertFalse(ConstantTime.equal(a, b, 5), "byte " + i + " of " + length);
                    b.put(5 + i, a[i]);
                }
                assertTrue(ConstantTime.equal(a, b.asReadOnlyBuffer(), 5), "a read-only view");
                assertTrue(b.position() == 0 && b.limit() == length + 5, "position and limit left alone");
            }
        }
    }

    @Test
    void rangesOutsideTheirArraysAreRefused() {
        byte[] a = new byte[16];
        assertThrows(IndexOutOfBoundsException.class, () -> ConstantTime.equal(a, 0, new byte[15], 0, 16));
        assertThrows(IndexOutOfBoundsException.class, () -> ConstantTime.equal(a, 1, new byte[16], 0, 16));
        assertThrows(IndexOutOfBoundsException.class, () -> ConstantTime.equal(a, ByteBuffer.allocate(20).limit(17), 2));
    }
}
