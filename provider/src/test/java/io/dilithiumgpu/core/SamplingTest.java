package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.Field.Q;
import static io.dilithiumgpu.core.ParameterSet.N;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

/** Range and shape properties of the samplers (their exact outputs are covered by the KATs). */
class SamplingTest {
    private final Shake shake128 = Shake.shake128();
    private final Shake shake256 = Shake.shake256();
    private final byte[] buf = new byte[Sampling.BUFFER_BYTES];
    private final Random random = new Random(9);

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    @Test
    void sampleInBallHasExactlyTauSignedOnes() {
        int[] c = new int[N];
        for (int tau : new int[] {39, 49, 60}) {
            for (int trial = 0; trial < 200; trial++) {
                byte[] cTilde = bytes(32 + 16 * (trial % 3));
                Sampling.sampleInBall(shake256, cTilde, 0, cTilde.length, tau, buf, c, 0);
                int weight = 0;
                for (int x : c) {
                    assertTrue(x >= -1 && x <= 1);
                    weight += Math.abs(x);
                }
                assertEquals(tau, weight);
            }
        }
    }

    @Test
    void rejNttPolyIsInZqAndDependsOnBothIndices() {
        byte[] rho = bytes(32);
        int[] a = new int[3 * N];
        Sampling.rejNttPoly(shake128, rho, 0, 0, 1, buf, a, 0);
        Sampling.rejNttPoly(shake128, rho, 0, 1, 0, buf, a, N);
        Sampling.rejNttPoly(shake128, rho, 0, 0, 1, buf, a, 2 * N);
        for (int x : a) {
            assertTrue(x >= 0 && x < Q);
        }
        assertArrayEquals(java.util.Arrays.copyOfRange(a, 0, N), java.util.Arrays.copyOfRange(a, 2 * N, 3 * N));
        assertTrue(!java.util.Arrays.equals(a, 0, N, a, N, 2 * N));
    }

    @Test
    void expandSAndExpandMaskRanges() {
        byte[] rhoPrime = bytes(64);
        for (int eta : new int[] {2, 4}) {
            int[] s1 = new int[7 * N];
            int[] s2 = new int[8 * N];
            Sampling.expandS(shake256, rhoPrime, 0, eta, 7, 8, buf, s1, s2);
            int seen = 0;
            for (int[] v : new int[][] {s1, s2}) {
                for (int x : v) {
                    assertTrue(Math.abs(x) <= eta);
                    seen |= 1 << (x + eta);
                }
            }
            assertEquals((1 << (2 * eta + 1)) - 1, seen, "every value in [−η, η] occurs");
        }
        for (int gamma1 : new int[] {1 << 17, 1 << 19}) {
            int[] y = new int[7 * N];
            Sampling.expandMask(shake256, rhoPrime, 0, 700, 7, gamma1, buf, y);
            for (int x : y) {
                assertTrue(x > -gamma1 && x <= gamma1);
            }
        }
    }
}
