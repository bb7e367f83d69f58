package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.Field.Q;
import static io.dilithiumgpu.core.ParameterSet.N;

/**
 * Pseudorandom sampling from SHAKE128 and SHAKE256 (FIPS 204 §7.3, Algorithms 29 to 34).
 *
 * <p>The XOF objects are the caller's (one per thread, reset here after use); output is squeezed
 * block-wise (168 bytes for SHAKE128, 136 for SHAKE256) into the caller's buffer, which must
 * hold at least {@link #BUFFER_BYTES} bytes. Every sampler consumes the XOF stream in order, so
 * the result does not depend on how many blocks are squeezed at once.
 *
 * <p>Timing: the rejection samplers run a variable number of iterations, as in the reference
 * implementation: RejNTTPoly sees only the public ρ; RejBoundedPoly's accept/reject pattern
 * reveals which XOF nibbles were rejected, which are independent of the accepted coefficients;
 * SampleInBall's pattern depends on c̃ only. ExpandMask is fixed-length.
 */
public final class Sampling {
    /** SHAKE128 rate in bytes. */
    public static final int SHAKE128_RATE = Shake.SHAKE128_RATE;
    /** SHAKE256 rate in bytes. */
    public static final int SHAKE256_RATE = Shake.SHAKE256_RATE;
    /** Scratch bytes the samplers need: five SHAKE128 blocks (and at least one 640-byte mask). */
    public static final int BUFFER_BYTES = 5 * SHAKE128_RATE;

    /** SHAKE128 blocks that almost always suffice for RejNTTPoly (768 bytes are needed on average). */
    private static final int REJ_NTT_FIRST_BLOCKS = 5;

    private Sampling() {}

    /**
     * RejNTTPoly (FIPS 204 Algorithm 30) on SHAKE128(ρ ‖ s ‖ r): a uniform polynomial in the NTT
     * domain, coefficients in [0, q), stored in {@link Ntt}'s order (coefficient i at
     * {@link Ntt#slot}(i)).
     *
     * @param rho 32 bytes at {@code rhoOff}
     * @param s   column index, absorbed first
     * @param r   row index
     */
    public static void rejNttPoly(Shake shake128, byte[] rho, int rhoOff, int s, int r,
                                  byte[] buf, int[] a, int aOff) {
        shake128.update(rho, rhoOff, ParameterSet.SEED_BYTES);
        shake128.update((byte) s);
        shake128.update((byte) r);
        int squeezed = REJ_NTT_FIRST_BLOCKS * SHAKE128_RATE;
        shake128.squeeze(buf, 0, squeezed);
        int count = 0;
        while (true) {
            for (int pos = 0; pos < squeezed && count < N; pos += 3) {
                // CoeffFromThreeBytes (FIPS 204 Algorithm 14): 23 bits, accepted below q
                int t = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0x7F) << 16;
                if (t < Q) {
                    a[aOff + Ntt.slot(count++)] = t;
                }
            }
            if (count == N) {
                break;
            }
            squeezed = SHAKE128_RATE;
            shake128.squeeze(buf, 0, squeezed);
        }
        shake128.reset();
    }

    /**
     * ExpandA (FIPS 204 Algorithm 32): the k×ℓ matrix Â in the NTT domain, row-major, entry
     * (r, s) at offset (r·ℓ + s)·256, coefficients in [0, q).
     */
    public static void expandA(Shake shake128, byte[] rho, int rhoOff, int k, int l,
                               byte[] buf, int[] a) {
        for (int r = 0; r < k; r++) {
            for (int s = 0; s < l; s++) {
                rejNttPoly(shake128, rho, rhoOff, s, r, buf, a, (r * l + s) * N);
            }
        }
    }

    /**
     * RejBoundedPoly (FIPS 204 Algorithm 31) on SHAKE256(ρ′ ‖ nonce): coefficients in [−η, η].
     *
     * @param rhoPrime 64 bytes at {@code rhoPrimeOff}
     * @param nonce    16-bit nonce, little-endian
     */
    public static void rejBoundedPoly(Shake shake256, byte[] rhoPrime, int rhoPrimeOff,
                                      int nonce, int eta, byte[] buf, int[] a, int aOff) {
        shake256.update(rhoPrime, rhoPrimeOff, ParameterSet.MU_BYTES);
        shake256.update((byte) nonce);
        shake256.update((byte) (nonce >>> 8));
        int squeezed = (eta == 2 ? 1 : 2) * SHAKE256_RATE;
        shake256.squeeze(buf, 0, squeezed);
        int count = 0;
        while (true) {
            for (int pos = 0; pos < squeezed && count < N; pos++) {
                int b = buf[pos] & 0xFF;
                count = coeffFromHalfByte(b & 0x0F, eta, a, aOff, count);
                if (count < N) {
                    count = coeffFromHalfByte(b >>> 4, eta, a, aOff, count);
                }
            }
            if (count == N) {
                break;
            }
            squeezed = SHAKE256_RATE;
            shake256.squeeze(buf, 0, squeezed);
        }
        shake256.reset();
    }

    /**
     * CoeffFromHalfByte (FIPS 204 Algorithm 15): stores η − (b mod 2η+1) when b is accepted (b &lt; 15
     * for η = 2, b &lt; 9 for η = 4) and returns the new count.
     */
    private static int coeffFromHalfByte(int b, int eta, int[] a, int aOff, int count) {
        if (eta == 2) {
            if (b < 15) {
                int mod5 = b - ((205 * b) >>> 10) * 5;
                a[aOff + count++] = 2 - mod5;
            }
        } else if (b < 9) {
            a[aOff + count++] = 4 - b;
        }
        return count;
    }

    /**
     * ExpandS (FIPS 204 Algorithm 33): s1 (ℓ polynomials, nonces 0..ℓ−1) and s2 (k polynomials,
     * nonces ℓ..ℓ+k−1), coefficients in [−η, η].
     */
    public static void expandS(Shake shake256, byte[] rhoPrime, int rhoPrimeOff, int eta,
                               int l, int k, byte[] buf, int[] s1, int[] s2) {
        for (int r = 0; r < l; r++) {
            rejBoundedPoly(shake256, rhoPrime, rhoPrimeOff, r, eta, buf, s1, r * N);
        }
        for (int r = 0; r < k; r++) {
            rejBoundedPoly(shake256, rhoPrime, rhoPrimeOff, l + r, eta, buf, s2, r * N);
        }
    }

    /**
     * ExpandMask (FIPS 204 Algorithm 34): y[r] = BitUnpack(SHAKE256(ρ″ ‖ (κ + r)), γ1 − 1, γ1) for
     * r in [0, ℓ), coefficients in [−γ1 + 1, γ1]. Fixed-length, no rejection.
     *
     * @param rhoPrime 64 bytes at {@code rhoPrimeOff}
     * @param kappa    κ, a multiple of ℓ (the nonce advances by ℓ per signing attempt)
     */
    public static void expandMask(Shake shake256, byte[] rhoPrime, int rhoPrimeOff,
                                  int kappa, int l, int gamma1, byte[] buf, int[] y) {
        int bytes = gamma1 == (1 << 17) ? 576 : 640;
        for (int r = 0; r < l; r++) {
            int nonce = kappa + r;
            shake256.update(rhoPrime, rhoPrimeOff, ParameterSet.MU_BYTES);
            shake256.update((byte) nonce);
            shake256.update((byte) (nonce >>> 8));
            shake256.digest(buf, 0, bytes);
            Packing.unpackZ(buf, 0, gamma1, y, r * N);
        }
    }

    /**
     * SampleInBall (FIPS 204 Algorithm 29): the challenge c with exactly τ coefficients ±1 and the
     * rest 0, from SHAKE256 over all of c̃. Variable-time in c̃ only.
     *
     * @param cTilde c̃ at {@code off}, {@code len} bytes (32 in round 3.1, λ/4 in FIPS 204)
     * @param c      receives 256 coefficients in {−1, 0, 1} at {@code cOff}
     */
    public static void sampleInBall(Shake shake256, byte[] cTilde, int off, int len, int tau,
                                    byte[] buf, int[] c, int cOff) {
        shake256.update(cTilde, off, len);
        shake256.squeeze(buf, 0, SHAKE256_RATE);
        long signs = 0;
        for (int i = 0; i < 8; i++) {
            signs |= (long) (buf[i] & 0xFF) << (8 * i);
        }
        int pos = 8;
        java.util.Arrays.fill(c, cOff, cOff + N, 0);
        for (int i = N - tau; i < N; i++) {
            int j;
            do {
                if (pos == SHAKE256_RATE) {
                    shake256.squeeze(buf, 0, SHAKE256_RATE);
                    pos = 0;
                }
                j = buf[pos++] & 0xFF;
            } while (j > i);
            c[cOff + i] = c[cOff + j];
            c[cOff + j] = 1 - 2 * (int) (signs & 1);
            signs >>>= 1;
        }
        shake256.reset();
    }
}
