package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.Field.Q;
import static io.dilithiumgpu.core.ParameterSet.D;

/**
 * The rounding functions of FIPS 204 §7.4 (Algorithms 35 to 40): Power2Round, Decompose,
 * HighBits, LowBits, MakeHint and UseHint, for the two values of γ2, (q−1)/88 and (q−1)/32.
 *
 * <p>Inputs r are standard representatives in [0, q). Power2Round, Decompose, HighBits, LowBits
 * and {@link #makeHintFromLowBits} are branch-free (they see secret-dependent values while
 * signing); {@link #useHint} branches on the hint and on public values only (verification).
 */
public final class Rounding {
    private static final int GAMMA2_88 = (Q - 1) / 88;
    private static final int GAMMA2_32 = (Q - 1) / 32;

    private Rounding() {}

    /** r1 of Power2Round (FIPS 204 Algorithm 35): (r − (r mod± 2^d)) / 2^d, in [0, 2^10), for r in [0, q). */
    public static int power2RoundHigh(int r) {
        return (r + (1 << (D - 1)) - 1) >> D;
    }

    /**
     * Power2Round over {@code count} coefficients (FIPS 204 Algorithm 35): t ↦ (t1, t0) with
     * t = t1·2^d + t0, t1 in [0, 2^10) and t0 in (−2^12, 2^12].
     *
     * @param t  standard representatives in [0, q)
     * @param t1 receives the high parts (may alias t)
     * @param t0 receives the low parts
     */
    public static void power2Round(int[] t, int[] t1, int[] t0, int count) {
        for (int i = 0; i < count; i++) {
            int r = t[i];
            int r1 = power2RoundHigh(r);
            t0[i] = r - (r1 << D);
            t1[i] = r1;
        }
    }

    /**
     * HighBits (FIPS 204 Algorithm 37): r1 of Decompose(r) (Algorithm 36), for r in [0, q).
     * Range: [0, 43] for γ2 = (q−1)/88, [0, 15] for γ2 = (q−1)/32.
     */
    public static int highBits(int r, int gamma2) {
        int a1 = (r + 127) >> 7;
        if (gamma2 == GAMMA2_32) {
            a1 = (a1 * 1025 + (1 << 21)) >> 22;
            return a1 & 15;
        }
        a1 = (a1 * 11275 + (1 << 23)) >> 24;
        return a1 ^ (((43 - a1) >> 31) & a1);
    }

    /**
     * r0 of Decompose(r) (FIPS 204 Algorithm 36) given r1 = {@link #highBits}(r): r − r1·2γ2,
     * or r − q in the wrap-around case r − (r mod± 2γ2) = q − 1, where r1 is 0. Range: [−γ2, γ2].
     */
    static int lowBitsGivenHigh(int r, int r1, int gamma2) {
        int a0 = r - r1 * 2 * gamma2;
        return a0 - ((((Q - 1) / 2) - a0) >> 31 & Q);
    }

    /** LowBits (FIPS 204 Algorithm 38): r0 of Decompose(r), in [−γ2, γ2], for r in [0, q). */
    public static int lowBits(int r, int gamma2) {
        return lowBitsGivenHigh(r, highBits(r, gamma2), gamma2);
    }

    /**
     * Decompose (FIPS 204 Algorithm 36) over {@code count} coefficients: w ↦ (w1, w0) with
     * w ≡ w1·2γ2 + w0 (mod q).
     *
     * @param w  standard representatives in [0, q)
     * @param w1 receives HighBits (may alias w)
     * @param w0 receives LowBits, in [−γ2, γ2]
     */
    public static void decompose(int[] w, int[] w1, int[] w0, int count, int gamma2) {
        for (int i = 0; i < count; i++) {
            int r = w[i];
            int r1 = highBits(r, gamma2);
            w0[i] = lowBitsGivenHigh(r, r1, gamma2);
            w1[i] = r1;
        }
    }

    /**
     * MakeHint (FIPS 204 Algorithm 39) as specified: 1 when adding z to r changes its high bits.
     *
     * @param z any integer (reduced mod q here)
     * @param r a standard representative in [0, q)
     */
    public static int makeHint(int z, int r, int gamma2) {
        return highBits(r, gamma2) != highBits(Field.mod((long) r + z), gamma2) ? 1 : 0;
    }

    /**
     * MakeHint in the form signing uses (Dilithium r3.1 §3.4, reference {@code make_hint}): the hint
     * for r = a1·2γ2 + a0 against a1, given the low part a0 of w − cs2 + ct0 and a1 = HighBits(w).
     * It equals {@code makeHint(−ct0, w − cs2 + ct0)} whenever ‖LowBits(w − cs2)‖∞ &lt; γ2 − β and
     * ‖ct0‖∞ &lt; γ2, which signing checks before it calls this. Branch-free.
     *
     * @param a0 in (−2γ2, 2γ2)
     * @param a1 HighBits(w)
     * @return 0 or 1
     */
    public static int makeHintFromLowBits(int a0, int a1, int gamma2) {
        // 1 iff a0 > γ2, or a0 < −γ2, or (a0 == −γ2 and a1 != 0)
        int above = (gamma2 - a0) >>> 31;
        int below = (a0 + gamma2) >>> 31;
        int atLowerEdge = ((a0 + gamma2) | -(a0 + gamma2)) >>> 31 ^ 1;
        int a1NonZero = (a1 | -a1) >>> 31;
        return above | below | (atLowerEdge & a1NonZero);
    }

    /**
     * UseHint (FIPS 204 Algorithm 40): the high bits of r corrected by hint h. Variable-time in h
     * and r, which are public during verification.
     *
     * @param h 0 or 1
     * @param r a standard representative in [0, q)
     */
    public static int useHint(int h, int r, int gamma2) {
        int r1 = highBits(r, gamma2);
        if (h == 0) {
            return r1;
        }
        int r0 = lowBitsGivenHigh(r, r1, gamma2);
        if (gamma2 == GAMMA2_32) {
            return r0 > 0 ? (r1 + 1) & 15 : (r1 - 1) & 15;
        }
        if (r0 > 0) {
            return r1 == 43 ? 0 : r1 + 1;
        }
        return r1 == 0 ? 43 : r1 - 1;
    }
}
