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

    /** A copy of the twiddle table (for the CUDA backend's constant memory and the tests). */
    public static int[] zetas() {
        return ZETAS.clone();
    }

    /**
     * Forward NTT (FIPS 204 Algorithm 41), in place.
     *
     * <p>Input: 256 plain coefficients at {@code off}, each |a_i| ≤ B with B + 8q &lt; 2^31.
     * Output: NTT domain, each |â_i| &lt; B + 8q (for |a_i| &lt; q: below 9q).
     */
    public static void forward(int[] a, int off) {
        int k = 0;
        for (int len = 128; len > 0; len >>= 1) {
            for (int start = 0; start < N; start += 2 * len) {
                long zeta = ZETAS[++k];
                int lo = off + start;
                int end = lo + len;
                for (int j = lo; j < end; j++) {
                    int t = montgomeryReduce(zeta * a[j + len]);
                    int x = a[j];
                    a[j + len] = x - t;
                    a[j] = x + t;
                }
            }
        }
    }

    /**
     * Inverse NTT followed by multiplication by 2^32 (FIPS 204 Algorithm 42 composed with a
     * conversion to Montgomery form), in place.
     *
     * <p>Input: 256 NTT-domain coefficients at {@code off}, each |â_i| &lt; q. Output: plain
     * domain times 2^32, each |a_i| &lt; q.
     */
    public static void inverseToMont(int[] a, int off) {
        int k = N;
        for (int len = 1; len < N; len <<= 1) {
            for (int start = 0; start < N; start += 2 * len) {
                long zeta = -ZETAS[--k];
                int lo = off + start;
                int end = lo + len;
                for (int j = lo; j < end; j++) {
                    int x = a[j];
                    int y = a[j + len];
                    a[j] = x + y;
                    a[j + len] = montgomeryReduce(zeta * (x - y));
                }
            }
        }
        for (int j = off; j < off + N; j++) {
            a[j] = montgomeryReduce((long) INVERSE_SCALE * a[j]);
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
