package io.dilithiumgpu.core;

/**
 * Arithmetic in Z_q, q = 2^23 − 2^13 + 1 = 8380417 (FIPS 204 §2.3, §7.5 and Appendix A).
 *
 * <p>Values are plain {@code int}s; a representative is "standard" when it lies in [0, q) and
 * "centred" when it lies in (−q, q) or a narrower symmetric range. Montgomery form means the
 * value times 2^32 mod q. Every function is branch-free.
 */
public final class Field {
    /** The modulus q = 8380417. */
    public static final int Q = 8380417;
    /** q^−1 mod 2^32: the Montgomery reduction constant. */
    public static final int Q_INV = 58728449;
    /** 2^32 mod q, centred: the Montgomery form of 1. */
    public static final int MONT = -4186625;
    /** 2^64 mod q: multiplying by it with {@link #montgomeryReduce} converts a value into Montgomery form. */
    public static final int MONT_SQUARED = 2365951;

    private Field() {}

    /**
     * Montgomery reduction (FIPS 204 Algorithm 49, MontgomeryReduce).
     *
     * @param a any value with −2^31·q ≤ a &lt; 2^31·q
     * @return r ≡ a·2^−32 (mod q) with −q &lt; r &lt; q; for larger |a| (below 2^63) the result is
     *         still congruent and bounded by |a|/2^32 + q/2
     */
    public static int montgomeryReduce(long a) {
        int t = (int) a * Q_INV;
        return (int) ((a - (long) t * Q) >> 32);
    }

    /** a·b·2^−32 mod q, in (−q, q), for |a·b| &lt; 2^31·q. */
    public static int montgomeryMul(int a, int b) {
        return montgomeryReduce((long) a * b);
    }

    /**
     * Barrett-style reduction to a centred representative.
     *
     * @param a any value with a ≤ 2^31 − 2^22 − 1
     * @return r ≡ a (mod q) with −6283008 ≤ r ≤ 6283008
     */
    public static int reduce32(int a) {
        int t = (a + (1 << 22)) >> 23;
        return a - t * Q;
    }

    /** Adds q if a is negative: maps (−q, q) onto [0, q). */
    public static int caddq(int a) {
        return a + ((a >> 31) & Q);
    }

    /** The standard representative in [0, q) of any a ≤ 2^31 − 2^22 − 1. */
    public static int freeze(int a) {
        return caddq(reduce32(a));
    }

    /** a mod q in [0, q) for any int a (slow path for tests and one-off conversions). */
    public static int mod(long a) {
        return (int) Math.floorMod(a, (long) Q);
    }

    /**
     * The absolute value of a centred representative, branch-free: |a| for −2^31 &lt; a.
     * The norm checks compare it with a bound (FIPS 204 §2.3, ‖·‖∞).
     */
    public static int abs(int a) {
        int sign = a >> 31;
        return (a ^ sign) - sign;
    }
}
