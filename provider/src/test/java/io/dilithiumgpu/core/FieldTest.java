package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.Field.Q;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class FieldTest {
    private static final long TWO_31_Q = (1L << 31) * Q;

    @Test
    void constants() {
        assertEquals(1, Field.Q_INV * Q, "q·q^−1 ≡ 1 (mod 2^32)");
        assertEquals(Field.mod(1L << 32), Field.mod(Field.MONT));
        assertTrue(Math.abs(Field.MONT) < Q / 2);
        assertEquals(BigInteger.TWO.pow(64).mod(BigInteger.valueOf(Q)).intValueExact(), Field.MONT_SQUARED);
    }

    private static void checkMontgomery(long a) {
        int r = Field.montgomeryReduce(a);
        assertTrue(-Q < r && r < Q, () -> "range for " + a + ": " + r);
        // r·2^32 ≡ a (mod q)
        assertEquals(Field.mod(a), Field.mod(((long) r) << 32), () -> "congruence for " + a);
    }

    @Test
    void montgomeryReduceOfLargerInputsStaysCongruentAndWithinItsLooserBound() {
        SplittableRandom random = new SplittableRandom(3);
        long limit = 144L * Q * Q;
        for (int i = 0; i < 1_000_000; i++) {
            long a = random.nextLong(-limit, limit + 1);
            int r = Field.montgomeryReduce(a);
            assertTrue(Math.abs(r) <= Math.abs(a) / (1L << 32) + Q / 2 + 1);
            assertEquals(Field.mod(a), Field.mod(((long) r) << 32));
        }
    }

    @Test
    void montgomeryReduceOnItsEdgesAndTwoMillionRandomPointsOfItsInputRange() {
        long[] edges = {0, 1, -1, Q, -Q, -TWO_31_Q, TWO_31_Q - 1, -TWO_31_Q + 1,
            (long) Q * Q, -(long) Q * Q, Integer.MAX_VALUE, Integer.MIN_VALUE};
        for (long a : edges) {
            checkMontgomery(a);
        }
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 2_000_000; i++) {
            checkMontgomery(random.nextLong(-TWO_31_Q, TWO_31_Q));
        }
    }

    @Test
    void montgomeryMulIsMultiplicationTimesInverseOfTwoTo32() {
        SplittableRandom random = new SplittableRandom(2);
        for (int i = 0; i < 1_000_000; i++) {
            int a = random.nextInt(-Q + 1, Q);
            int b = random.nextInt(-Q + 1, Q);
            int r = Field.montgomeryMul(a, Field.montgomeryMul(b, Field.MONT_SQUARED));
            assertEquals(Field.mod((long) a * b), Field.mod(r));
        }
    }

    @Test
    void reduce32AndFreeze() {
        int max = Integer.MAX_VALUE - (1 << 22);
        for (long a = Integer.MIN_VALUE; a <= max; a += 997) {
            checkReduce32((int) a);
        }
        for (int a : new int[] {max, max - 1, Integer.MIN_VALUE, Integer.MIN_VALUE + 1, 0, -1, 1,
            (1 << 22) - 1, 1 << 22, -(1 << 22), -(1 << 22) - 1, Q, -Q}) {
            checkReduce32(a);
        }
    }

    private static void checkReduce32(int a) {
        int r = Field.reduce32(a);
        assertTrue(-6283008 <= r && r <= 6283008, () -> "range for " + a + ": " + r);
        assertEquals(Field.mod(a), Field.mod(r));
        assertEquals(Field.mod(a), Field.freeze(a));
    }

    @Test
    void caddqOnAllOfMinusQToQ() {
        for (int a = -Q + 1; a < Q; a++) {
            int r = Field.caddq(a);
            if (r != Field.mod(a)) {
                assertEquals(Field.mod(a), r, "caddq(" + a + ")");
            }
        }
    }

    @Test
    void abs() {
        for (int a : new int[] {0, 1, -1, Q, -Q, Integer.MAX_VALUE, Integer.MIN_VALUE + 1}) {
            assertEquals(Math.abs(a), Field.abs(a));
        }
    }
}
