package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.ParameterSet.N;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PackingTest {
    private static final SplittableRandom RANDOM = new SplittableRandom(5);

    /** 256 random values in [lo, hi], with both ends present. */
    private static int[] random(int lo, int hi) {
        int[] a = new int[N];
        for (int i = 0; i < N; i++) {
            a[i] = RANDOM.nextInt(lo, hi + 1);
        }
        a[0] = lo;
        a[N - 1] = hi;
        return a;
    }

    @Test
    void t1LayoutIsLittleEndianTenBitFields() {
        int[] t1 = new int[N];
        t1[0] = 0x3ff;
        t1[1] = 0x001;
        byte[] out = new byte[320];
        Packing.packT1(t1, 0, out, 0);
        assertEquals((byte) 0xff, out[0]);
        assertEquals(0x03 | 0x01 << 2, out[1]);
        assertEquals(0, out[2]);
    }

    @Test
    void roundTrips() {
        for (int trial = 0; trial < 20; trial++) {
            int[] t1 = random(0, 1023);
            byte[] b = new byte[320];
            Packing.packT1(t1, 0, b, 0);
            int[] back = new int[N];
            Packing.unpackT1(b, 0, back, 0);
            assertArrayEquals(t1, back);

            int[] t0 = random(-(1 << 12) + 1, 1 << 12);
            b = new byte[416];
            Packing.packT0(t0, 0, b, 0);
            Packing.unpackT0(b, 0, back, 0);
            assertArrayEquals(t0, back);

            for (int eta : new int[] {2, 4}) {
                int[] s = random(-eta, eta);
                b = new byte[eta == 2 ? 96 : 128];
                Packing.packEta(s, 0, eta, b, 0);
                assertTrue(Packing.unpackEta(b, 0, eta, back, 0));
                assertArrayEquals(s, back);
            }
            for (int gamma1 : new int[] {1 << 17, 1 << 19}) {
                int[] z = random(-gamma1 + 1, gamma1);
                b = new byte[gamma1 == 1 << 17 ? 576 : 640];
                Packing.packZ(z, 0, gamma1, b, 0);
                Packing.unpackZ(b, 0, gamma1, back, 0);
                assertArrayEquals(z, back);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void unpackEtaRejectsEveryOutOfRangeFieldAtEveryPosition(int eta) {
        int bits = eta == 2 ? 3 : 4;
        byte[] packed = new byte[N * bits / 8];
        Packing.packEta(new int[N], 0, eta, packed, 0);
        int[] s = new int[N];
        for (int position = 0; position < N; position++) {
            for (int field = 2 * eta + 1; field < 1 << bits; field++) {
                byte[] bad = packed.clone();
                int bit = position * bits;
                // clear the field (it holds η), then write the out-of-range value
                for (int j = 0; j < bits; j++) {
                    int at = bit + j;
                    bad[at >> 3] &= (byte) ~(1 << (at & 7));
                    if ((field >> j & 1) != 0) {
                        bad[at >> 3] |= (byte) (1 << (at & 7));
                    }
                }
                assertFalse(Packing.unpackEta(bad, 0, eta, s, 0), "position " + position + " field " + field);
            }
        }
        assertTrue(Packing.unpackEta(packed, 0, eta, s, 0));
    }

    private static final int K = 4;
    private static final int OMEGA = 80;

    private static byte[] packHints(int[][] ones) {
        int[] h = new int[K * N];
        for (int i = 0; i < K; i++) {
            for (int j : ones[i]) {
                h[i * N + j] = 1;
            }
        }
        byte[] out = new byte[OMEGA + K];
        Packing.packHint(h, K, OMEGA, out, 0);
        return out;
    }

    @Test
    void hintRoundTripAndLayout() {
        int[][] ones = {{3, 200}, {}, {0, 3, 255}, {7}};
        byte[] packed = packHints(ones);
        assertArrayEquals(new byte[] {3, (byte) 200, 0, 3, (byte) 255, 7, 0}, java.util.Arrays.copyOf(packed, 7));
        assertArrayEquals(new byte[] {2, 2, 5, 6}, java.util.Arrays.copyOfRange(packed, OMEGA, OMEGA + K));
        int[] h = new int[K * N];
        assertTrue(Packing.unpackHint(packed, 0, K, OMEGA, h));
        int[] expected = new int[K * N];
        for (int i = 0; i < K; i++) {
            for (int j : ones[i]) {
                expected[i * N + j] = 1;
            }
        }
        assertArrayEquals(expected, h);
    }

    @Test
    void hintUnpackRejectsEveryNonCanonicalEncoding() {
        int[] h = new int[K * N];
        byte[] good = packHints(new int[][] {{3, 200}, {}, {0, 3, 255}, {7}});

        byte[] decreasingCount = good.clone();
        decreasingCount[OMEGA + 1] = 1;
        assertFalse(Packing.unpackHint(decreasingCount, 0, K, OMEGA, h), "running count decreases");

        byte[] countAboveOmega = good.clone();
        countAboveOmega[OMEGA + 3] = (byte) (OMEGA + 1);
        assertFalse(Packing.unpackHint(countAboveOmega, 0, K, OMEGA, h), "count above ω");

        byte[] unordered = good.clone();
        unordered[0] = (byte) 201;
        assertFalse(Packing.unpackHint(unordered, 0, K, OMEGA, h), "positions not increasing");

        byte[] repeated = good.clone();
        repeated[1] = 3;
        assertFalse(Packing.unpackHint(repeated, 0, K, OMEGA, h), "position repeated");

        byte[] dirtyPadding = good.clone();
        dirtyPadding[OMEGA - 1] = 1;
        assertFalse(Packing.unpackHint(dirtyPadding, 0, K, OMEGA, h), "non-zero unused byte");

        // the same position in two different polynomials is canonical
        assertTrue(Packing.unpackHint(packHints(new int[][] {{9}, {9}, {9}, {9}}), 0, K, OMEGA, h));
        // all ω positions used
        int[][] full = new int[K][20];
        for (int i = 0; i < K; i++) {
            for (int j = 0; j < 20; j++) {
                full[i][j] = 10 * j;
            }
        }
        assertTrue(Packing.unpackHint(packHints(full), 0, K, OMEGA, h));
    }
}
