package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.Field.Q;
import static io.dilithiumgpu.core.ParameterSet.N;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class NttTest {
    private static final SplittableRandom RANDOM = new SplittableRandom(42);

    private static int[] random(int bound) {
        int[] a = new int[N];
        for (int i = 0; i < N; i++) {
            a[i] = RANDOM.nextInt(-bound + 1, bound);
        }
        return a;
    }

    private static int[] frozen(int[] a) {
        int[] r = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = Field.mod(a[i]);
        }
        return r;
    }

    /** a·b in Z_q[X]/(X^256 + 1), the textbook way. */
    private static int[] schoolbook(int[] a, int[] b) {
        long[] c = new long[N];
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                long product = (long) a[i] * b[j] % Q;
                if (i + j < N) {
                    c[i + j] += product;
                } else {
                    c[i + j - N] -= product;
                }
            }
        }
        int[] r = new int[N];
        for (int i = 0; i < N; i++) {
            r[i] = Field.mod(c[i]);
        }
        return r;
    }

    @Test
    void zetasArePowersOfZetaInBitReversedOrderInMontgomeryForm() {
        int[] zetas = Ntt.zetas();
        BigInteger q = BigInteger.valueOf(Q);
        BigInteger zeta = BigInteger.valueOf(Ntt.ZETA);
        assertEquals(q.subtract(BigInteger.ONE), zeta.modPow(BigInteger.valueOf(256), q), "ζ^256 = −1");
        for (int i = 1; i < N; i++) {
            int brv = Integer.reverse(i) >>> 24;
            int expected = zeta.modPow(BigInteger.valueOf(brv), q).intValueExact();
            assertEquals(expected, Field.mod(Field.montgomeryReduce(zetas[i])), "zetas[" + i + "]");
            assertTrue(Math.abs(zetas[i]) <= Q / 2);
        }
        // the first entries of FIPS 204 Appendix B
        assertEquals(4808194, Field.mod(Field.montgomeryReduce(zetas[1])));
        assertEquals(3765607, Field.mod(Field.montgomeryReduce(zetas[2])));
        assertEquals(3761513, Field.mod(Field.montgomeryReduce(zetas[3])));
    }

    /** FIPS 204 §2.5: the i-th NTT coefficient (stored at slot(i)) is a evaluated at ζ^(2·brv8(i)+1). */
    @Test
    void forwardIsEvaluationAtTheOddPowersOfZeta() {
        for (int trial = 0; trial < 20; trial++) {
            int[] a = random(Q);
            int[] t = a.clone();
            Ntt.forward(t, 0);
            for (int i = 0; i < N; i++) {
                long x = BigInteger.valueOf(Ntt.ZETA)
                        .modPow(BigInteger.valueOf(2L * (Integer.reverse(i) >>> 24) + 1), BigInteger.valueOf(Q))
                        .longValueExact();
                long value = 0;
                for (int j = N - 1; j >= 0; j--) {
                    value = (value * x + a[j]) % Q;
                }
                assertEquals(Field.mod(value), Field.mod(t[Ntt.slot(i)]), "coefficient " + i);
            }
        }
    }

    @Test
    void slotIsAnInvolutionOnTheIndices() {
        boolean[] seen = new boolean[N];
        for (int i = 0; i < N; i++) {
            assertEquals(i, Ntt.slot(Ntt.slot(i)));
            seen[Ntt.slot(i)] = true;
        }
        for (boolean s : seen) {
            assertTrue(s);
        }
    }

    @Test
    void roundTrip() {
        for (int trial = 0; trial < 200; trial++) {
            int[] a = random(Q);
            int[] t = a.clone();
            Ntt.forward(t, 0);
            for (int i = 0; i < N; i++) {
                assertTrue(Math.abs(t[i]) < 9 * Q);
                t[i] = Field.reduce32(t[i]);
            }
            Ntt.inverseToMont(t, 0);
            for (int i = 0; i < N; i++) {
                assertTrue(Math.abs(t[i]) < 3 * (Q / 4));
                t[i] = Field.montgomeryReduce(t[i]);
            }
            assertArrayEquals(frozen(a), frozen(t));
        }
    }

    @Test
    void nttProductEqualsSchoolbookProduct() {
        for (int trial = 0; trial < 50; trial++) {
            int[] a = random(Q);
            int[] b = trial % 2 == 0 ? random(Q) : random(5);
            int[] ah = a.clone();
            int[] bh = b.clone();
            Ntt.forward(ah, 0);
            Ntt.forward(bh, 0);
            int[] c = new int[N];
            Ntt.pointwiseMontgomery(ah, 0, bh, 0, c, 0);
            Ntt.inverseToMont(c, 0);
            assertArrayEquals(schoolbook(a, b), frozen(c));
        }
    }

    @Test
    void transformsWorkAtAnOffset() {
        int[] a = random(Q);
        int[] padded = new int[3 * N];
        System.arraycopy(a, 0, padded, N, N);
        Ntt.forward(a, 0);
        Ntt.forward(padded, N);
        for (int i = 0; i < N; i++) {
            assertEquals(a[i], padded[N + i]);
            assertEquals(0, padded[i]);
            assertEquals(0, padded[2 * N + i]);
        }
    }
}
