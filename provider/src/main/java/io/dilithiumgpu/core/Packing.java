package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.ParameterSet.D;
import static io.dilithiumgpu.core.ParameterSet.N;
import static io.dilithiumgpu.core.ParameterSet.T1_BITS;

/**
 * The byte encodings of polynomials (FIPS 204 §7.1, Algorithms 16 to 21; Dilithium r3.1 §5.2),
 * one polynomial of 256 coefficients at a time, on flat {@code int[]}s at an offset.
 *
 * <p>Every encoding is a little-endian bit string of fixed-width fields (SimpleBitPack or
 * BitPack): t1 (10 bits, value t1), t0 (13 bits, 2^12 − t0), s1/s2 (3 or 4 bits, η − s), z (18
 * or 20 bits, γ1 − z), w1 (6 or 4 bits, value w1). The hint vector h has its own sparse format
 * (HintBitPack, Algorithm 20). The bit packers are branch-free in the coefficient values; the
 * hint packer and unpacker branch on h, which is public (part of the signature).
 */
public final class Packing {
    private Packing() {}

    /**
     * SimpleBitPack: writes 256 values, each in [0, 2^bits), as a little-endian bit string of
     * 32·bits bytes. Values are taken as {@code bias − a_i} when {@code negate}, else as a_i.
     */
    private static void packBits(int[] a, int aOff, int bits, boolean negate, int bias,
                                 byte[] out, int outOff) {
        long acc = 0;
        int held = 0;
        int o = outOff;
        for (int i = 0; i < N; i++) {
            int v = negate ? bias - a[aOff + i] : a[aOff + i];
            acc |= (long) v << held;
            held += bits;
            while (held >= 8) {
                out[o++] = (byte) acc;
                acc >>>= 8;
                held -= 8;
            }
        }
    }

    /**
     * Reads 256 fields of {@code bits} bits (little-endian bit string) and stores
     * {@code bias − field} (or the field itself when {@code bias} is 0 and {@code negate} false).
     */
    private static void unpackBits(byte[] in, int inOff, int bits, boolean negate, int bias,
                                   int[] a, int aOff) {
        int mask = (1 << bits) - 1;
        long acc = 0;
        int held = 0;
        int p = inOff;
        for (int i = 0; i < N; i++) {
            while (held < bits) {
                acc |= (long) (in[p++] & 0xFF) << held;
                held += 8;
            }
            int v = (int) acc & mask;
            acc >>>= bits;
            held -= bits;
            a[aOff + i] = negate ? bias - v : v;
        }
    }

    /** t1 ↦ 320 bytes (FIPS 204 Algorithm 22, pkEncode, per polynomial). t1 in [0, 2^10). */
    public static void packT1(int[] t1, int off, byte[] out, int outOff) {
        packBits(t1, off, T1_BITS, false, 0, out, outOff);
    }

    /** 320 bytes ↦ t1 in [0, 2^10) (FIPS 204 Algorithm 23, pkDecode; every input is valid). */
    public static void unpackT1(byte[] in, int inOff, int[] t1, int off) {
        unpackBits(in, inOff, T1_BITS, false, 0, t1, off);
    }

    /** t0 in (−2^12, 2^12] ↦ 416 bytes of 2^12 − t0 (FIPS 204 Algorithm 24, skEncode). */
    public static void packT0(int[] t0, int off, byte[] out, int outOff) {
        packBits(t0, off, D, true, 1 << (D - 1), out, outOff);
    }

    /** 416 bytes ↦ t0 in [−2^12 + 1, 2^12] (FIPS 204 Algorithm 25, skDecode; every input is valid). */
    public static void unpackT0(byte[] in, int inOff, int[] t0, int off) {
        unpackBits(in, inOff, D, true, 1 << (D - 1), t0, off);
    }

    /** s in [−η, η] ↦ 96 (η = 2) or 128 (η = 4) bytes of η − s (FIPS 204 Algorithm 24). */
    public static void packEta(int[] s, int off, int eta, byte[] out, int outOff) {
        packBits(s, off, eta == 2 ? 3 : 4, true, eta, out, outOff);
    }

    /**
     * Decodes s1 or s2 (FIPS 204 Algorithm 25, skDecode, BitUnpack(·, η, η)) and checks that every
     * coefficient lies in [−η, η]: a 3- or 4-bit field above 2η is out of range. Branch-free.
     *
     * @return true when all 256 coefficients are in range
     */
    public static boolean unpackEta(byte[] in, int inOff, int eta, int[] s, int off) {
        unpackBits(in, inOff, eta == 2 ? 3 : 4, true, eta, s, off);
        int outOfRange = 0;
        for (int i = off; i < off + N; i++) {
            // field = η − s; out of range iff s < −η
            outOfRange |= s[i] + eta;
        }
        return outOfRange >= 0;
    }

    /** z in [−γ1 + 1, γ1] ↦ 576 (γ1 = 2^17) or 640 (γ1 = 2^19) bytes of γ1 − z (FIPS 204 Algorithm 26). */
    public static void packZ(int[] z, int off, int gamma1, byte[] out, int outOff) {
        packBits(z, off, gamma1 == (1 << 17) ? 18 : 20, true, gamma1, out, outOff);
    }

    /**
     * BitUnpack(·, γ1 − 1, γ1): 576 or 640 bytes ↦ z in [−γ1 + 1, γ1] (FIPS 204 Algorithm 27,
     * sigDecode, and Algorithm 34, ExpandMask). Every input decodes. Unrolled: it runs for every
     * polynomial of y in every signing attempt.
     */
    public static void unpackZ(byte[] in, int inOff, int gamma1, int[] z, int off) {
        if (gamma1 == (1 << 17)) {
            // four 18-bit fields in nine bytes
            for (int i = 0, p = inOff, o = off; i < N / 4; i++, p += 9, o += 4) {
                int b0 = in[p] & 0xFF;
                int b1 = in[p + 1] & 0xFF;
                int b2 = in[p + 2] & 0xFF;
                int b3 = in[p + 3] & 0xFF;
                int b4 = in[p + 4] & 0xFF;
                int b5 = in[p + 5] & 0xFF;
                int b6 = in[p + 6] & 0xFF;
                int b7 = in[p + 7] & 0xFF;
                int b8 = in[p + 8] & 0xFF;
                z[o] = gamma1 - ((b0 | b1 << 8 | b2 << 16) & 0x3FFFF);
                z[o + 1] = gamma1 - ((b2 >>> 2 | b3 << 6 | b4 << 14) & 0x3FFFF);
                z[o + 2] = gamma1 - ((b4 >>> 4 | b5 << 4 | b6 << 12) & 0x3FFFF);
                z[o + 3] = gamma1 - (b6 >>> 6 | b7 << 2 | b8 << 10);
            }
        } else {
            // two 20-bit fields in five bytes
            for (int i = 0, p = inOff, o = off; i < N / 2; i++, p += 5, o += 2) {
                int b0 = in[p] & 0xFF;
                int b1 = in[p + 1] & 0xFF;
                int b2 = in[p + 2] & 0xFF;
                int b3 = in[p + 3] & 0xFF;
                int b4 = in[p + 4] & 0xFF;
                z[o] = gamma1 - ((b0 | b1 << 8 | b2 << 16) & 0xFFFFF);
                z[o + 1] = gamma1 - (b2 >>> 4 | b3 << 4 | b4 << 12);
            }
        }
    }

    /**
     * w1 ↦ 192 (6-bit fields, γ2 = (q−1)/88) or 128 (4-bit, γ2 = (q−1)/32) bytes (FIPS 204
     * Algorithm 28). Unrolled: it runs for every polynomial of w1 in every signing attempt.
     */
    public static void packW1(int[] w1, int off, int w1Bits, byte[] out, int outOff) {
        if (w1Bits == 6) {
            for (int i = 0, o = outOff, a = off; i < N / 4; i++, o += 3, a += 4) {
                int c0 = w1[a];
                int c1 = w1[a + 1];
                int c2 = w1[a + 2];
                int c3 = w1[a + 3];
                out[o] = (byte) (c0 | c1 << 6);
                out[o + 1] = (byte) (c1 >>> 2 | c2 << 4);
                out[o + 2] = (byte) (c2 >>> 4 | c3 << 2);
            }
        } else {
            for (int i = 0, o = outOff, a = off; i < N / 2; i++, o++, a += 2) {
                out[o] = (byte) (w1[a] | w1[a + 1] << 4);
            }
        }
    }

    /**
     * HintBitPack (FIPS 204 Algorithm 20): k polynomials of 0/1 coefficients with at most ω ones
     * in total ↦ ω + k bytes: the positions of the ones, then after each polynomial the running
     * count of ones.
     *
     * @param h     k·256 coefficients, each 0 or 1, with at most ω ones
     * @param k     polynomials
     * @param omega ω
     */
    public static void packHint(int[] h, int k, int omega, byte[] out, int outOff) {
        int index = 0;
        for (int i = 0; i < omega; i++) {
            out[outOff + i] = 0;
        }
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < N; j++) {
                if (h[i * N + j] != 0) {
                    out[outOff + index++] = (byte) j;
                }
            }
            out[outOff + omega + i] = (byte) index;
        }
    }

    /**
     * HintBitUnpack (FIPS 204 Algorithm 21) with all of its checks: the running counts must be
     * non-decreasing and at most ω, the positions within each polynomial strictly increasing, and
     * the unused position bytes zero, so that every hint vector has exactly one encoding.
     *
     * @param h receives k·256 coefficients, each 0 or 1
     * @return false when the encoding is malformed (h is then unspecified)
     */
    public static boolean unpackHint(byte[] in, int inOff, int k, int omega, int[] h) {
        java.util.Arrays.fill(h, 0, k * N, 0);
        int index = 0;
        for (int i = 0; i < k; i++) {
            int end = in[inOff + omega + i] & 0xFF;
            if (end < index || end > omega) {
                return false;
            }
            int first = index;
            while (index < end) {
                int position = in[inOff + index] & 0xFF;
                if (index > first && (in[inOff + index - 1] & 0xFF) >= position) {
                    return false;
                }
                h[i * N + position] = 1;
                index++;
            }
        }
        for (int i = index; i < omega; i++) {
            if (in[inOff + i] != 0) {
                return false;
            }
        }
        return true;
    }
}
