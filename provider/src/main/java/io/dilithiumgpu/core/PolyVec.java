package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.Field.montgomeryReduce;
import static io.dilithiumgpu.core.ParameterSet.D;
import static io.dilithiumgpu.core.ParameterSet.N;

/**
 * Vector and matrix helpers over flat {@code int[]}s: a vector of m polynomials occupies
 * m·256 consecutive coefficients from index 0, polynomial i at i·256; the k×ℓ matrix Â is
 * row-major (entry (r, s) at (r·ℓ + s)·256). All routines are branch-free in the coefficient
 * values; the ranges each one needs and produces are stated with it.
 */
public final class PolyVec {
    private PolyVec() {}

    /** Forward NTT of each of {@code polys} polynomials (ranges of {@link Ntt#forward}). */
    public static void ntt(int[] v, int polys) {
        for (int i = 0; i < polys; i++) {
            Ntt.forward(v, i * N);
        }
    }

    /** Inverse NTT times 2^32 of each polynomial (ranges of {@link Ntt#inverseToMont}). */
    public static void inverseToMont(int[] v, int polys) {
        for (int i = 0; i < polys; i++) {
            Ntt.inverseToMont(v, i * N);
        }
    }

    /** {@link Field#reduce32} of the first {@code count} coefficients. */
    public static void reduce32(int[] v, int count) {
        for (int i = 0; i < count; i++) {
            v[i] = Field.reduce32(v[i]);
        }
    }

    /** {@link Field#caddq} of the first {@code count} coefficients: (−q, q) to [0, q). */
    public static void caddq(int[] v, int count) {
        for (int i = 0; i < count; i++) {
            v[i] = Field.caddq(v[i]);
        }
    }

    /** c = a + b over {@code count} coefficients, without reduction (c may alias a or b). */
    public static void add(int[] a, int[] b, int[] c, int count) {
        for (int i = 0; i < count; i++) {
            c[i] = a[i] + b[i];
        }
    }

    /** c = a − b over {@code count} coefficients, without reduction (c may alias a or b). */
    public static void sub(int[] a, int[] b, int[] c, int count) {
        for (int i = 0; i < count; i++) {
            c[i] = a[i] - b[i];
        }
    }

    /** v·2^d: t1 in [0, 2^10) becomes t1·2^13 in [0, q). */
    public static void shiftLeftD(int[] v, int count) {
        for (int i = 0; i < count; i++) {
            v[i] <<= D;
        }
    }

    /**
     * out = Â ∘ v·2^−32 (FIPS 204 Algorithm 48, MatrixVectorNTT, in Montgomery form) with lazy
     * reduction: each output coefficient sums its ℓ 64-bit products in {@code acc} (256 longs of
     * scratch) before one Montgomery reduction.
     *
     * <p>Input: Â in [0, q), |v̂_i| &lt; 9q (ℓ ≤ 7, so |sum| ≤ 63q² &lt; 2^53). Output: |out_i| &lt;
     * 63q²/2^32 + q/2 &lt; 0.63q, in the NTT domain.
     */
    public static void matrixMultiplyMontgomery(int[] a, int[] v, int k, int l, int[] out, long[] acc) {
        for (int r = 0; r < k; r++) {
            int row = r * l * N;
            for (int i = 0; i < N; i++) {
                acc[i] = (long) a[row + i] * v[i];
            }
            for (int s = 1; s < l; s++) {
                accumulate(a, row + s * N, v, s * N, acc);
            }
            reduceInto(acc, out, r * N);
        }
    }

    /**
     * out = (Â ∘ ẑ − ĉ ∘ t̂1)·2^−32 (FIPS 204 Algorithm 8, step 9, before the inverse NTT), with
     * one Montgomery reduction per coefficient ({@code acc}: 256 longs of scratch).
     *
     * <p>Input: Â in [0, q), |ẑ_i| &lt; 9q, |ĉ_i| &lt; 9q, |t̂1_i| &lt; 9q (|sum| ≤ 144q² &lt; 2^54).
     * Output: |out_i| &lt; 144q²/2^32 + q/2 &lt; 0.79q, in the NTT domain.
     */
    public static void matrixMultiplySubMontgomery(int[] a, int[] z, int[] c, int cOff, int[] t1,
                                                   int k, int l, int[] out, long[] acc) {
        for (int r = 0; r < k; r++) {
            int row = r * l * N;
            int t = r * N;
            for (int i = 0; i < N; i++) {
                acc[i] = -(long) c[cOff + i] * t1[t + i];
            }
            for (int s = 0; s < l; s++) {
                accumulate(a, row + s * N, z, s * N, acc);
            }
            reduceInto(acc, out, r * N);
        }
    }

    private static void accumulate(int[] a, int aOff, int[] v, int vOff, long[] acc) {
        for (int i = 0; i < N; i++) {
            acc[i] += (long) a[aOff + i] * v[vOff + i];
        }
    }

    private static void reduceInto(long[] acc, int[] out, int outOff) {
        for (int i = 0; i < N; i++) {
            out[outOff + i] = montgomeryReduce(acc[i]);
        }
    }

    /**
     * out_j = ĉ ∘ v̂_j·2^−32 for each of {@code polys} polynomials (FIPS 204 Algorithm 47,
     * ScalarVectorNTT, in Montgomery form). Input: |ĉ_i·v̂_i| &lt; 2^31·q; output |out_i| &lt; q.
     */
    public static void pointwisePolyMontgomery(int[] c, int cOff, int[] v, int polys, int[] out) {
        for (int j = 0; j < polys; j++) {
            Ntt.pointwiseMontgomery(c, cOff, v, j * N, out, j * N);
        }
    }

    /**
     * Whether ‖v‖∞ ≥ bound over {@code count} coefficients from {@code off} (FIPS 204 §2.3
     * infinity norm; the signing and verification checks). Branch-free over all those
     * coefficients: only the result is revealed, never which coefficient exceeded the bound or
     * its sign.
     *
     * <p>Input: centred values with |v_i| ≤ 2^22 + 2^13 (outputs of {@link Field#reduce32} on
     * values below 2^31 − 2^22), bound ≤ (q − 1)/8. A value whose {@code reduce32}
     * representative is not the one nearest zero is at least q/2 − 2^13 from zero either way, so
     * it fails any such bound, as it must.
     */
    public static boolean exceedsNorm(int[] v, int off, int count, int bound) {
        int exceeded = 0;
        for (int i = off; i < off + count; i++) {
            exceeded |= (bound - 1) - Field.abs(v[i]);
        }
        return exceeded < 0;
    }

    /**
     * MakeHint over {@code count} coefficients in the signing form
     * ({@link Rounding#makeHintFromLowBits}): h_i = hint(w0_i, w1_i). Branch-free.
     *
     * @return the number of ones in h
     */
    public static int makeHints(int[] w0, int[] w1, int count, int gamma2, int[] h) {
        int ones = 0;
        for (int i = 0; i < count; i++) {
            int hint = Rounding.makeHintFromLowBits(w0[i], w1[i], gamma2);
            h[i] = hint;
            ones += hint;
        }
        return ones;
    }

    /** w_i ← UseHint(h_i, w_i) over {@code count} coefficients; w in [0, q). Public data only. */
    public static void useHints(int[] h, int[] w, int count, int gamma2) {
        for (int i = 0; i < count; i++) {
            w[i] = Rounding.useHint(h[i], w[i], gamma2);
        }
    }
}
