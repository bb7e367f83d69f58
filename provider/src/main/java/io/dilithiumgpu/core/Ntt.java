package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.Field.Q;
import static io.dilithiumgpu.core.Field.montgomeryReduce;
import static io.dilithiumgpu.core.ParameterSet.N;

/**
 * The number-theoretic transform of R_q = Z_q[X]/(X^256 + 1) (FIPS 204 Algorithms 41, 42 and 45),
 * in place on 256 coefficients of a flat {@code int[]} starting at an offset.
 *
 * <p>Domains: the forward transform maps plain coefficients to NTT-domain coefficients;
 * multiplying two NTT-domain polynomials with {@link #pointwiseMontgomery} yields their product
 * times 2^−32; the inverse transform {@link #inverseToMont} multiplies by 2^32, so that
 * inverse(pointwise(ntt(a), ntt(b))) = a·b in plain form. Neither transform reduces after
 * additions (lazy reduction); the ranges below are what the callers must respect. All routines
 * are branch-free.
 *
 * <p>Storage order of the NTT domain: FIPS 204's coefficient â[i] (bit-reversed order) is stored
 * at index {@link #slot}(i) = 16·(i mod 16) + ⌊i/16⌋, the 16 × 16 transpose of FIPS 204's order.
 * Every operation in the NTT domain is coefficient-wise, so the order matters only where NTT-domain
 * values are made without this class: ExpandA ({@link Sampling#rejNttPoly}) stores through
 * {@link #slot}. The reason: each of the eight layers then pairs coefficients a fixed distance
 * apart over contiguous runs (the first four layers before the transpose, the last four after it),
 * loops that a vectorizing JIT turns into SIMD code.
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
    /** −zetas[1]·(2^64/256)·2^−32 mod q: the last inverse twiddle with the final scaling folded in. */
    private static final int LAST_INVERSE_TWIDDLE = montgomeryReduce((long) -ZETAS[1] * INVERSE_SCALE);

    /*
     * The twiddles of the four layers done on the transposed order, one per butterfly in loop
     * order (see transposedTwiddles): 128 per layer, the forward layers of distance 8, 4, 2, 1
     * from 0, 128, 256, 384, the inverse layers of distance 1, 2, 4, 8 likewise. long[] rather
     * than int[] so that no store into a polynomial can alias them.
     */
    private static final long[] FORWARD_TRANSPOSED = transposedTwiddles(true);
    private static final long[] INVERSE_TRANSPOSED = transposedTwiddles(false);

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

    /**
     * In the transposed order, the layer of distance len (1 to 8 in FIPS 204's order) pairs slots
     * 16·len apart; its butterflies come in groups g of 16·len consecutive slots, butterfly i of
     * group g holding row r = i mod 16, whose block in FIPS 204's layer is 8r/len + g. The forward
     * layer of distance len uses zetas[128/len + block], the inverse one −zetas[256/len − 1 − block].
     */
    private static long[] transposedTwiddles(boolean forward) {
        long[] table = new long[4 * 128];
        for (int layer = 0; layer < 4; layer++) {
            int len = forward ? 8 >> layer : 1 << layer;
            for (int g = 0; g < 8 / len; g++) {
                for (int i = 0; i < 16 * len; i++) {
                    int block = (i % 16) * (8 / len) + g;
                    table[layer * 128 + g * 16 * len + i] =
                            forward ? ZETAS[128 / len + block] : -ZETAS[256 / len - 1 - block];
                }
            }
        }
        return table;
    }

    /** A copy of the twiddle table (for the CUDA backend's constant memory and the tests). */
    public static int[] zetas() {
        return ZETAS.clone();
    }

    /**
     * Where FIPS 204's NTT coefficient i is stored: 16·(i mod 16) + ⌊i/16⌋ (an involution, so it
     * also maps a storage index back to FIPS 204's).
     */
    public static int slot(int i) {
        return (i & 15) << 4 | i >>> 4;
    }

    /**
     * Forward NTT (FIPS 204 Algorithm 41), in place: the eight Cooley–Tukey layers, the first four
     * (distance 128 to 16) in natural order, then a transpose, then the last four on rows of the
     * transpose.
     *
     * <p>Input: 256 plain coefficients at {@code off}, each |a_i| ≤ B with B + 8q &lt; 2^31.
     * Output: NTT domain in the storage order of this class, â[i] ≡ a(ζ^(2·brv8(i)+1)) (mod q) at
     * {@link #slot}(i), each |â| &lt; B + 8q (for |a_i| &lt; q: below 9q), since every layer adds
     * less than q.
     */
    public static void forward(int[] a, int off) {
        forwardNatural(a, off);
        transpose(a, off);
        forwardTransposed(a, off);
    }

    /*
     * Each transform is three methods (layers in natural order, the transpose, layers on the
     * transpose) rather than one: compiled as one, the JIT vectorized its loops in some runs only.
     */

    /** The forward layers of distance 128, 64, 32, 16. */
    private static void forwardNatural(int[] a, int off) {
        forwardLayer(a, off, 128, 128, ZETAS[1]);
        for (int b = 0; b < 2; b++) {
            forwardLayer(a, off + b * 128, 64, 64, ZETAS[2 + b]);
        }
        for (int b = 0; b < 4; b++) {
            forwardLayer(a, off + b * 64, 32, 32, ZETAS[4 + b]);
        }
        for (int b = 0; b < 8; b++) {
            forwardLayer(a, off + b * 32, 16, 16, ZETAS[8 + b]);
        }
    }

    /** The forward layers of distance 8, 4, 2, 1, on the transpose, where they are 16·len apart. */
    private static void forwardTransposed(int[] a, int off) {
        forwardTransposedLayer(a, off, 128, 128, 0);
        for (int g = 0; g < 2; g++) {
            forwardTransposedLayer(a, off + g * 128, 64, 64, 128 + g * 64);
        }
        for (int g = 0; g < 4; g++) {
            forwardTransposedLayer(a, off + g * 64, 32, 32, 256 + g * 32);
        }
        for (int g = 0; g < 8; g++) {
            forwardTransposedLayer(a, off + g * 32, 16, 16, 384 + g * 16);
        }
    }

    /**
     * Cooley–Tukey butterflies (a_j, a_{j+d}) ← (a_j + ζ·a_{j+d}, a_j − ζ·a_{j+d}) for j in
     * [lo, lo + n), with one twiddle ζ (Montgomery form, |ζ| &lt; q/2); d ≥ n. Each output grows
     * by less than q. (A small method of its own, with a plain counted loop: the form the JIT
     * vectorizes best, measured against the layers written out in place.)
     */
    private static void forwardLayer(int[] a, int lo, int n, int d, int zeta) {
        for (int j = lo; j < lo + n; j++) {
            int t = montgomeryReduce((long) zeta * a[j + d]);
            a[j + d] = a[j] - t;
            a[j] = a[j] + t;
        }
    }

    /** {@link #forwardLayer} with butterfly j taking twiddle {@code FORWARD_TRANSPOSED[to + j − lo]}. */
    private static void forwardTransposedLayer(int[] a, int lo, int n, int d, int to) {
        int shift = to - lo;
        for (int j = lo; j < lo + n; j++) {
            int t = montgomeryReduce(FORWARD_TRANSPOSED[j + shift] * a[j + d]);
            a[j + d] = a[j] - t;
            a[j] = a[j] + t;
        }
    }

    /** Transposes the 16 × 16 matrix of the 256 coefficients at off, in place. */
    private static void transpose(int[] a, int off) {
        for (int r = 0; r < 16; r++) {
            for (int c = r + 1; c < 16; c++) {
                int x = a[off + 16 * r + c];
                a[off + 16 * r + c] = a[off + 16 * c + r];
                a[off + 16 * c + r] = x;
            }
        }
    }

    /**
     * Inverse NTT followed by multiplication by 2^32 (FIPS 204 Algorithm 42 composed with a
     * conversion to Montgomery form), in place: the eight Gentleman–Sande layers, the first four
     * (distance 1 to 8) on rows of the storage order, then a transpose back to natural order, then
     * the last four (distance 16 to 128), with the final scaling by 2^64/256 folded into the last.
     *
     * <p>Input: 256 NTT-domain coefficients at {@code off} in the storage order of this class,
     * each |â_i| &lt; q. Output: plain domain times 2^32, each |a_i| &lt; 3q/4. (Sums double in each
     * layer, to below 128q before the last; differences are Montgomery products below q. The last
     * layer's products are below 256q·q/2, which Montgomery reduction maps below q/4 + q/2.)
     */
    public static void inverseToMont(int[] a, int off) {
        inverseTransposed(a, off);
        transpose(a, off);
        inverseNatural(a, off);
    }

    /** The inverse layers of distance 1, 2, 4, 8, on the storage order, where they are 16·len apart. */
    private static void inverseTransposed(int[] a, int off) {
        for (int g = 0; g < 8; g++) {
            inverseTransposedLayer(a, off + g * 32, 16, 16, g * 16);
        }
        for (int g = 0; g < 4; g++) {
            inverseTransposedLayer(a, off + g * 64, 32, 32, 128 + g * 32);
        }
        for (int g = 0; g < 2; g++) {
            inverseTransposedLayer(a, off + g * 128, 64, 64, 256 + g * 64);
        }
        inverseTransposedLayer(a, off, 128, 128, 384);
    }

    /** The inverse layers of distance 16, 32, 64, 128, the last one scaling by 2^64/256. */
    private static void inverseNatural(int[] a, int off) {
        for (int b = 0; b < 8; b++) {
            inverseLayer(a, off + b * 32, 16, 16, -ZETAS[15 - b]);
        }
        for (int b = 0; b < 4; b++) {
            inverseLayer(a, off + b * 64, 32, 32, -ZETAS[7 - b]);
        }
        for (int b = 0; b < 2; b++) {
            inverseLayer(a, off + b * 128, 64, 64, -ZETAS[3 - b]);
        }
        // distance 128, with the scaling by 2^64/256 folded in
        for (int j = off; j < off + 128; j++) {
            int t = a[j];
            int u = a[j + 128];
            a[j] = montgomeryReduce((long) INVERSE_SCALE * (t + u));
            a[j + 128] = montgomeryReduce((long) LAST_INVERSE_TWIDDLE * (t - u));
        }
    }

    /**
     * Gentleman–Sande butterflies (a_j, a_{j+d}) ← (a_j + a_{j+d}, ζ·(a_j − a_{j+d})) for j in
     * [lo, lo + n), with one twiddle ζ (|ζ| &lt; q/2); d ≥ n. Sums double; differences become
     * Montgomery products in (−q, q) (for |a_j − a_{j+d}| &lt; 2^32).
     */
    private static void inverseLayer(int[] a, int lo, int n, int d, int zeta) {
        for (int j = lo; j < lo + n; j++) {
            int t = a[j];
            int u = a[j + d];
            a[j] = t + u;
            a[j + d] = montgomeryReduce((long) zeta * (t - u));
        }
    }

    /** {@link #inverseLayer} with butterfly j taking twiddle {@code INVERSE_TRANSPOSED[to + j − lo]}. */
    private static void inverseTransposedLayer(int[] a, int lo, int n, int d, int to) {
        int shift = to - lo;
        for (int j = lo; j < lo + n; j++) {
            int t = a[j];
            int u = a[j + d];
            a[j] = t + u;
            a[j + d] = montgomeryReduce(INVERSE_TRANSPOSED[j + shift] * (t - u));
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
