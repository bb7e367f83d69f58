package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.Field.Q;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Every rounding function over all of [0, q), against the one-line definitions of FIPS 204 §7.4. */
class RoundingTest {
    private static final int GAMMA2_88 = (Q - 1) / 88;
    private static final int GAMMA2_32 = (Q - 1) / 32;

    /** r mod± α: the representative in (−α/2, α/2] (FIPS 204 §2.3), α even. */
    private static int modPlusMinus(int r, int alpha) {
        int m = Math.floorMod(r, alpha);
        return m > alpha / 2 ? m - alpha : m;
    }

    /** Decompose by its definition (FIPS 204 Algorithm 36): {r1, r0}. */
    private static int[] decomposeSpec(int r, int gamma2) {
        int r0 = modPlusMinus(r, 2 * gamma2);
        if (r - r0 == Q - 1) {
            return new int[] {0, r0 - 1};
        }
        return new int[] {(r - r0) / (2 * gamma2), r0};
    }

    @Test
    void power2RoundOnAllOfZq() {
        int[] t = new int[Q];
        for (int r = 0; r < Q; r++) {
            t[r] = r;
        }
        int[] t1 = new int[Q];
        int[] t0 = new int[Q];
        Rounding.power2Round(t, t1, t0, Q);
        for (int r = 0; r < Q; r++) {
            int r0 = modPlusMinus(r, 1 << 13);
            int r1 = (r - r0) >> 13;
            if (t0[r] != r0 || t1[r] != r1 || Rounding.power2RoundHigh(r) != r1) {
                fail("Power2Round(" + r + ") = (" + t1[r] + ", " + t0[r] + "), expected (" + r1 + ", " + r0 + ")");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {GAMMA2_88, GAMMA2_32})
    void decomposeHighBitsLowBitsOnAllOfZq(int gamma2) {
        int[] w = new int[Q];
        for (int r = 0; r < Q; r++) {
            w[r] = r;
        }
        int[] w1 = new int[Q];
        int[] w0 = new int[Q];
        Rounding.decompose(w, w1, w0, Q, gamma2);
        for (int r = 0; r < Q; r++) {
            int[] expected = decomposeSpec(r, gamma2);
            if (w1[r] != expected[0] || w0[r] != expected[1]
                    || Rounding.highBits(r, gamma2) != expected[0]
                    || Rounding.lowBits(r, gamma2) != expected[1]) {
                fail("Decompose(" + r + ") = (" + w1[r] + ", " + w0[r] + "), expected ("
                        + expected[0] + ", " + expected[1] + ")");
            }
        }
    }

    /** FIPS 204 §7.4 (Lemma): UseHint(MakeHint(z, r), r) = HighBits(r + z) for ‖z‖∞ ≤ γ2. */
    @ParameterizedTest
    @ValueSource(ints = {GAMMA2_88, GAMMA2_32})
    void useHintRecoversHighBitsOfTheSumOnAllOfZq(int gamma2) {
        SplittableRandom random = new SplittableRandom(gamma2);
        int[] edges = {0, 1, -1, gamma2, -gamma2, gamma2 - 1, -gamma2 + 1};
        for (int r = 0; r < Q; r++) {
            int z = r < edges.length * 1000 ? edges[r % edges.length] : random.nextInt(-gamma2, gamma2 + 1);
            int h = Rounding.makeHint(z, r, gamma2);
            int expected = Rounding.highBits(Field.mod((long) r + z), gamma2);
            if (Rounding.useHint(h, r, gamma2) != expected) {
                fail("UseHint(MakeHint(" + z + ", " + r + "), " + r + ") != HighBits(r + z) = " + expected);
            }
        }
    }

    /**
     * Signing's MakeHint form equals MakeHint(−ct0, w − cs2 + ct0) under the checks signing makes:
     * here r plays w − cs2 with ‖LowBits(r)‖∞ &lt; γ2 − β, and d plays ct0 with ‖d‖∞ &lt; γ2.
     */
    @ParameterizedTest
    @ValueSource(ints = {GAMMA2_88, GAMMA2_32})
    void signingHintFormMatchesMakeHint(int gamma2) {
        int beta = gamma2 == GAMMA2_88 ? 78 : 120;
        SplittableRandom random = new SplittableRandom(~gamma2);
        for (int r = 0; r < Q; r++) {
            int r1 = Rounding.highBits(r, gamma2);
            int r0 = Rounding.lowBits(r, gamma2);
            if (Math.abs(r0) >= gamma2 - beta) {
                continue;
            }
            int d = (r & 1) == 0 ? random.nextInt(-gamma2 + 1, gamma2) : (r & 2) == 0 ? gamma2 - 1 : -gamma2 + 1;
            int v = Field.mod((long) r + d);
            int expected = Rounding.makeHint(-d, v, gamma2);
            if (Rounding.makeHintFromLowBits(r0 + d, r1, gamma2) != expected) {
                fail("hint for r = " + r + ", ct0 = " + d + ": expected " + expected);
            }
        }
    }

    @Test
    void makeHintFromLowBitsEdges() {
        for (int gamma2 : new int[] {GAMMA2_88, GAMMA2_32}) {
            assertEquals(0, Rounding.makeHintFromLowBits(gamma2, 5, gamma2));
            assertEquals(1, Rounding.makeHintFromLowBits(gamma2 + 1, 5, gamma2));
            assertEquals(1, Rounding.makeHintFromLowBits(-gamma2, 5, gamma2));
            assertEquals(0, Rounding.makeHintFromLowBits(-gamma2, 0, gamma2));
            assertEquals(1, Rounding.makeHintFromLowBits(-gamma2 - 1, 0, gamma2));
            assertEquals(0, Rounding.makeHintFromLowBits(0, 0, gamma2));
        }
    }
}
