package io.dilithiumgpu.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * The extendable-output functions SHAKE128 and SHAKE256 (FIPS 202 §6.2): the sponge over
 * {@link Keccak} with rate 168 or 136 bytes and the domain suffix 1111 followed by pad10*1.
 *
 * <p>Use: {@link #update} any number of times, then {@link #squeeze} any number of times (the
 * first squeeze pads), then {@link #reset()} before the next input. Input is xored straight into
 * the state and output read straight out of it, eight bytes at a time where the position allows,
 * with no block buffer and no allocation after construction.
 *
 * <p>Not thread-safe: each thread owns its instances ({@link Workspace}). Branch-free in the data:
 * only the lengths, which are public, decide the control flow. {@link #reset()} zeroes the state,
 * which may hold secret material.
 */
public final class Shake {
    /** SHAKE128 rate in bytes. */
    public static final int SHAKE128_RATE = 168;
    /** SHAKE256 rate in bytes. */
    public static final int SHAKE256_RATE = 136;

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final long[] state = new long[Keccak.LANES];
    private final int rate;
    /** Byte position in the current block: the next byte to absorb, or to squeeze. */
    private int pos;
    private boolean squeezing;

    private Shake(int rate) {
        this.rate = rate;
    }

    /** A fresh SHAKE128 instance. */
    public static Shake shake128() {
        return new Shake(SHAKE128_RATE);
    }

    /** A fresh SHAKE256 instance. */
    public static Shake shake256() {
        return new Shake(SHAKE256_RATE);
    }

    /** The rate in bytes: 168 for SHAKE128, 136 for SHAKE256. */
    public int rate() {
        return rate;
    }

    /**
     * Absorbs one byte.
     *
     * @throws IllegalStateException after the first squeeze (until {@link #reset()})
     */
    public void update(byte b) {
        requireAbsorbing();
        state[pos >>> 3] ^= (long) (b & 0xFF) << ((pos & 7) << 3);
        if (++pos == rate) {
            Keccak.permute(state);
            pos = 0;
        }
    }

    /**
     * Absorbs {@code len} bytes of {@code in} from {@code off}.
     *
     * @throws IllegalStateException after the first squeeze (until {@link #reset()})
     */
    public void update(byte[] in, int off, int len) {
        requireAbsorbing();
        Objects.checkFromIndexSize(off, len, in.length);
        long[] s = state;
        int p = pos;
        int end = off + len;
        while (off < end) {
            if ((p & 7) == 0 && end - off >= 8) {
                int lanes = Math.min((end - off) >>> 3, (rate - p) >>> 3);
                for (int i = 0, lane = p >>> 3; i < lanes; i++, lane++, off += 8) {
                    s[lane] ^= (long) LONG_LE.get(in, off);
                }
                p += lanes << 3;
            } else {
                s[p >>> 3] ^= (long) (in[off++] & 0xFF) << ((p & 7) << 3);
                p++;
            }
            if (p == rate) {
                Keccak.permute(s);
                p = 0;
            }
        }
        pos = p;
    }

    /**
     * Writes the next {@code len} bytes of output to {@code out} from {@code off}; the first call
     * after input pads and switches to squeezing. Output continues across calls: two squeezes of
     * m and n bytes give the same bytes as one of m + n.
     */
    public void squeeze(byte[] out, int off, int len) {
        Objects.checkFromIndexSize(off, len, out.length);
        if (!squeezing) {
            pad();
        }
        long[] s = state;
        int p = pos;
        int end = off + len;
        while (off < end) {
            if (p == rate) {
                Keccak.permute(s);
                p = 0;
            }
            if ((p & 7) == 0 && end - off >= 8) {
                int lanes = Math.min((end - off) >>> 3, (rate - p) >>> 3);
                for (int i = 0, lane = p >>> 3; i < lanes; i++, lane++, off += 8) {
                    LONG_LE.set(out, off, s[lane]);
                }
                p += lanes << 3;
            } else {
                out[off++] = (byte) (s[p >>> 3] >>> ((p & 7) << 3));
                p++;
            }
        }
        pos = p;
    }

    /** {@link #squeeze} then {@link #reset()}: a one-shot digest of {@code len} bytes. */
    public void digest(byte[] out, int off, int len) {
        squeeze(out, off, len);
        reset();
    }

    /**
     * Makes this instance a copy of {@code other}'s state: same rate, same input absorbed, same
     * position; the two then go on independently. Copies 25 lanes and allocates nothing.
     *
     * @throws IllegalArgumentException when the rates differ
     */
    void copyFrom(Shake other) {
        if (other.rate != rate) {
            throw new IllegalArgumentException("SHAKE rates differ: " + other.rate + " and " + rate);
        }
        System.arraycopy(other.state, 0, state, 0, Keccak.LANES);
        pos = other.pos;
        squeezing = other.squeezing;
    }

    /** Zeroes the state and starts absorbing anew. */
    public void reset() {
        Arrays.fill(state, 0L);
        pos = 0;
        squeezing = false;
    }

    /** The SHAKE suffix 1111 and pad10*1 (FIPS 202 §5.1 and §6.2), then the first permutation. */
    private void pad() {
        state[pos >>> 3] ^= 0x1FL << ((pos & 7) << 3);
        state[(rate - 1) >>> 3] ^= 0x80L << 56;
        Keccak.permute(state);
        pos = 0;
        squeezing = true;
    }

    private void requireAbsorbing() {
        if (squeezing) {
            throw new IllegalStateException("SHAKE is squeezing: reset() before new input");
        }
    }
}
