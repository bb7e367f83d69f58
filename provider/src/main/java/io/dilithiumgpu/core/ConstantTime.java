package io.dilithiumgpu.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Equality of secret byte ranges in constant time: every byte of both ranges is read, eight at a
 * time, their differences ORed together, and only whether any differed is revealed, never where.
 * No branch and no index depends on the bytes; the loop count depends only on the length.
 *
 * <p>Whole words are read through byte-view {@link VarHandle}s (little-endian: the order is
 * irrelevant to equality, and it is the order of common hosts, so no swap is made); the last
 * {@code length mod 8} bytes one at a time.
 */
final class ConstantTime {
    private static final VarHandle ARRAY_WORDS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BUFFER_WORDS = MethodHandles.byteBufferViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    private ConstantTime() {}

    /**
     * Whether {@code a[aOff .. aOff + length)} equals {@code b[bOff .. bOff + length)}.
     *
     * @throws IndexOutOfBoundsException when a range lies outside its array
     */
    static boolean equal(byte[] a, int aOff, byte[] b, int bOff, int length) {
        Objects.checkFromIndexSize(aOff, length, a.length);
        Objects.checkFromIndexSize(bOff, length, b.length);
        long diff = 0;
        int i = 0;
        for (; i <= length - Long.BYTES; i += Long.BYTES) {
            diff |= (long) ARRAY_WORDS.get(a, aOff + i) ^ (long) ARRAY_WORDS.get(b, bOff + i);
        }
        for (; i < length; i++) {
            diff |= a[aOff + i] ^ b[bOff + i];
        }
        return diff == 0;
    }

    /**
     * Whether {@code a} equals the {@code a.length} bytes of {@code b} from absolute position
     * {@code bOff} (the buffer's position, limit and order are ignored and left alone).
     *
     * @throws IndexOutOfBoundsException when the range lies outside the buffer's limit
     */
    static boolean equal(byte[] a, ByteBuffer b, int bOff) {
        int length = a.length;
        Objects.checkFromIndexSize(bOff, length, b.limit());
        long diff = 0;
        int i = 0;
        for (; i <= length - Long.BYTES; i += Long.BYTES) {
            diff |= (long) ARRAY_WORDS.get(a, i) ^ (long) BUFFER_WORDS.get(b, bOff + i);
        }
        for (; i < length; i++) {
            diff |= a[i] ^ b.get(bOff + i);
        }
        return diff == 0;
    }
}
