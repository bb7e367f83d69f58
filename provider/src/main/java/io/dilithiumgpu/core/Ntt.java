package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.Field.Q;
import static io.dilithiumgpu.core.Field.montgomeryReduce;
import static io.dilithiumgpu.core.ParameterSet.N;

/**
 * The number-theoretic transform of R_q = Z_q[X]/(X^256 + 1) (FIPS 204 Algorithms 41, 42 and 45),
 * in place on 256 coefficients of a flat {@code int[]} starting at an offset.
 *
 * <p>Domains: the forward transform maps plain coefficients to NTT-domain coefficients (in the
 * bit-reversed order of FIPS 204); multiplying two NTT-domain polynomials with
 * {@link #pointwiseMontgomery} yields their product times 2^−32; the inverse transform
 * {@link #inverseToMont} multiplies by 2^32, so that inverse(pointwise(ntt(a), ntt(b))) = a·b in
 * plain form. Neither transform reduces after additions (lazy reduction); the ranges below are
 * what the callers must respect. All routines are branch-free.
 */
public final class Ntt {
    /** ζ = 1753, a primitive 512-th root of unity mod q. */
    static final int ZETA = 1753;
    /** 2^64 / 256 mod q: scales the inverse transform by 256^−1 and converts to Montgomery form. */
    static final int INVERSE_SCALE = 41978;

    /**
     * zetas[i] = ζ^brv8(i)·2^32 mod q, centred in (−q/2, q/2) (FIPS 204 Appendix B, in Montgomery
     * form); entry 0 is unused by the transforms.
     */
    private static final int[] ZETAS = computeZetas();
    /** zetas[i]·q^−1 mod 2^32: the precomputed low half of each twiddle's Montgomery product. */
    private static final int[] ZETAS_QINV = times(ZETAS, Field.Q_INV);
    /** −zetas[1]·(2^64/256)·2^−32 mod q: the last inverse twiddle with the final scaling folded in. */
    private static final int LAST_INVERSE_TWIDDLE = montgomeryReduce((long) -ZETAS[1] * INVERSE_SCALE);

    private Ntt() {}

    private static int[] computeZetas() {
        int[] zetas = new int[N];
        for (int i = 0; i < N; i++) {
            int exponent = Integer.reverse(i) >>> 24;
            long power = 1;
            for (int e = 0; e < exponent; e++) {
                power = power * ZETA % Q;
            }
            long montgomery = (power << 32) % Q;
            zetas[i] = (int) (montgomery > Q / 2 ? montgomery - Q : montgomery);
        }
        return zetas;
    }

    private static int[] times(int[] values, int factor) {
        int[] out = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i] * factor;
        }
        return out;
    }

    /** A copy of the twiddle table (for the CUDA backend's constant memory and the tests). */
    public static int[] zetas() {
        return ZETAS.clone();
    }

    /**
     * b·ζ·2^−32 mod q for a twiddle ζ with precomputed ζ·q^−1 mod 2^32: the same value as
     * {@code montgomeryReduce((long) ζ * b)}, with the two multiplications independent.
     * For |b·ζ| &lt; 2^31·q the result is in (−q, q).
     */
    private static int mulTwiddle(int b, int zeta, int zetaQinv) {
        int m = b * zetaQinv;
        return (int) (((long) b * zeta - (long) m * Q) >> 32);
    }

    /**
     * Forward NTT (FIPS 204 Algorithm 41), in place: the eight Cooley–Tukey layers done as four
     * radix-4 passes, each reading and writing a coefficient once for two layers.
     *
     * <p>Input: 256 plain coefficients at {@code off}, each |a_i| ≤ B with B + 8q &lt; 2^31.
     * Output: NTT domain, â_i ≡ a(ζ^(2·brv8(i)+1)) (mod q), each |â_i| &lt; B + 8q (for
     * |a_i| &lt; q: below 9q), since every layer adds less than q.
     */
    public static void forward(int[] a, int off) {
        int k = 1;
        for (int len = 128; len >= 2; len >>= 2) {
            int half = len >> 1;
            int groups = N / (2 * len);
            for (int g = 0; g < groups; g++) {
                int z1 = ZETAS[k + g];
                int q1 = ZETAS_QINV[k + g];
                int child = 2 * (k + g);
                int z2 = ZETAS[child];
                int q2 = ZETAS_QINV[child];
                int z3 = ZETAS[child + 1];
                int q3 = ZETAS_QINV[child + 1];
                int base = off + g * 2 * len;
                for (int j = base; j < base + half; j++) {
                    int a0 = a[j];
                    int a1 = a[j + half];
                    int a2 = a[j + len];
                    int a3 = a[j + len + half];
                    // layer with distance len
                    int t = mulTwiddle(a2, z1, q1);
                    a2 = a0 - t;
                    a0 = a0 + t;
                    t = mulTwiddle(a3, z1, q1);
                    a3 = a1 - t;
                    a1 = a1 + t;
                    // layer with distance len/2
                    t = mulTwiddle(a1, z2, q2);
                    a1 = a0 - t;
                    a0 = a0 + t;
                    t = mulTwiddle(a3, z3, q3);
                    a3 = a2 - t;
                    a2 = a2 + t;
                    a[j] = a0;
                    a[j + half] = a1;
                    a[j + len] = a2;
                    a[j + len + half] = a3;
                }
            }
            k <<= 2;
        }
    }

    /**
     * Inverse NTT followed by multiplication by 2^32 (FIPS 204 Algorithm 42 composed with a
     * conversion to Montgomery form), in place: the eight Gentleman–Sande layers done as four
     * radix-4 passes, with the final scaling by 2^64/256 folded into the last layer.
     *
     * <p>Input: 256 NTT-domain coefficients at {@code off}, each |â_i| &lt; q. Output: plain
     * domain times 2^32, each |a_i| &lt; 3q/4. (Sums grow to below 128q before the last layer; its
     * products are below 256q·q/2, which Montgomery reduction maps below q/4 + q/2.)
     */
    public static void inverseToMont(int[] a, int off) {
        for (int len = 1; len <= 64; len <<= 2) {
            int count = N / (2 * len);          // blocks in the layer with distance len
            int groups = count / 2;             // radix-4 groups = blocks of the layer 2·len
            boolean last = len == 64;
            for (int g = 0; g < groups; g++) {
                int i1 = 2 * count - 1 - 2 * g;
                int z1 = -ZETAS[i1];
                int q1 = -ZETAS_QINV[i1];
                int z2 = -ZETAS[i1 - 1];
                int q2 = -ZETAS_QINV[i1 - 1];
                int i3 = count - 1 - g;
                int z3 = -ZETAS[i3];
                int q3 = -ZETAS_QINV[i3];
                int base = off + g * 4 * len;
                for (int j = base; j < base + len; j++) {
                    int a0 = a[j];
                    int a1 = a[j + len];
                    int a2 = a[j + 2 * len];
                    int a3 = a[j + 3 * len];
                    // layer with distance len
                    int t = a0;
                    a0 = t + a1;
                    a1 = mulTwiddle(t - a1, z1, q1);
                    t = a2;
                    a2 = t + a3;
                    a3 = mulTwiddle(t - a3, z2, q2);
                    // layer with distance 2·len
                    if (last) {
                        t = a0;
                        a0 = montgomeryReduce((long) INVERSE_SCALE * (t + a2));
                        a2 = montgomeryReduce((long) LAST_INVERSE_TWIDDLE * (t - a2));
                        t = a1;
                        a1 = montgomeryReduce((long) INVERSE_SCALE * (t + a3));
                        a3 = montgomeryReduce((long) LAST_INVERSE_TWIDDLE * (t - a3));
                    } else {
                        t = a0;
                        a0 = t + a2;
                        a2 = mulTwiddle(t - a2, z3, q3);
                        t = a1;
                        a1 = t + a3;
                        a3 = mulTwiddle(t - a3, z3, q3);
                    }
                    a[j] = a0;
                    a[j + len] = a1;
                    a[j + 2 * len] = a2;
                    a[j + 3 * len] = a3;
                }
            }
        }
    }

    /**
     * c = a ∘ b·2^−32 coefficient-wise (FIPS 204 Algorithm 45, MultiplyNTT, in Montgomery form).
     *
     * <p>Input: NTT-domain polynomials with |a_i·b_i| &lt; 2^31·q. Output: |c_i| &lt; q. c may alias
     * a or b.
     */
    public static void pointwiseMontgomery(int[] a, int aOff, int[] b, int bOff, int[] c, int cOff) {
        for (int i = 0; i < N; i++) {
            c[cOff + i] = montgomeryReduce((long) a[aOff + i] * b[bOff + i]);
        }
    }
}
