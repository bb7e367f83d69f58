package io.dilithiumgpu.core;

/**
 * The Keccak-f[1600] permutation (FIPS 202 §3.3 and §3.4: 24 rounds of θ, ρ, π, χ, ι) on a state
 * of 25 64-bit lanes, lane (x, y) at index x + 5y, each lane little-endian as FIPS 202 §B.1 maps
 * bytes to lanes. {@link Shake} builds the sponge on it.
 *
 * <p>One round is written out over 25 local lanes, so that the state stays in registers (or the
 * stack frame) for all 24 rounds and is read and written once per permutation. Branch-free: it
 * uses only xor, and-not and rotations, and its loop count is fixed.
 */
final class Keccak {
    /** Lanes in the state. */
    static final int LANES = 25;
    static final int ROUNDS = 24;

    /** The round constants RC[i] of ι (FIPS 202 Algorithms 5 and 6). */
    private static final long[] RC = roundConstants();

    private Keccak() {}

    /**
     * RC[i] for i in [0, 24): bit 2^j − 1 of RC[i] is rc(j + 7i) (FIPS 202 Algorithm 6), the
     * output of the LFSR with polynomial x^8 + x^6 + x^5 + x^4 + 1.
     */
    private static long[] roundConstants() {
        long[] rc = new long[ROUNDS];
        int lfsr = 1;
        for (int i = 0; i < ROUNDS; i++) {
            long c = 0;
            for (int j = 0; j < 7; j++) {
                c |= (long) (lfsr & 1) << ((1 << j) - 1);
                lfsr = (lfsr << 1) ^ ((lfsr >>> 7) * 0x171);
            }
            rc[i] = c;
        }
        return rc;
    }

    /** Keccak-f[1600] in place on {@code s[0..25)} (FIPS 202 Algorithm 7, Keccak-p[1600, 24]). */
    static void permute(long[] s) {
        long a00 = s[0], a10 = s[1], a20 = s[2], a30 = s[3], a40 = s[4];
        long a01 = s[5], a11 = s[6], a21 = s[7], a31 = s[8], a41 = s[9];
        long a02 = s[10], a12 = s[11], a22 = s[12], a32 = s[13], a42 = s[14];
        long a03 = s[15], a13 = s[16], a23 = s[17], a33 = s[18], a43 = s[19];
        long a04 = s[20], a14 = s[21], a24 = s[22], a34 = s[23], a44 = s[24];
        for (int round = 0; round < ROUNDS; round++) {
            // θ: each lane xors the parities of the two neighbouring columns
            long c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04;
            long c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14;
            long c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24;
            long c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34;
            long c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44;
            long d0 = c4 ^ Long.rotateLeft(c1, 1);
            long d1 = c0 ^ Long.rotateLeft(c2, 1);
            long d2 = c1 ^ Long.rotateLeft(c3, 1);
            long d3 = c2 ^ Long.rotateLeft(c4, 1);
            long d4 = c3 ^ Long.rotateLeft(c0, 1);
            // ρ and π: b(y, 2x + 3y) = rot(a(x, y), r(x, y))
            long b00 = a00 ^ d0;
            long b10 = Long.rotateLeft(a11 ^ d1, 44);
            long b20 = Long.rotateLeft(a22 ^ d2, 43);
            long b30 = Long.rotateLeft(a33 ^ d3, 21);
            long b40 = Long.rotateLeft(a44 ^ d4, 14);
            long b01 = Long.rotateLeft(a30 ^ d3, 28);
            long b11 = Long.rotateLeft(a41 ^ d4, 20);
            long b21 = Long.rotateLeft(a02 ^ d0, 3);
            long b31 = Long.rotateLeft(a13 ^ d1, 45);
            long b41 = Long.rotateLeft(a24 ^ d2, 61);
            long b02 = Long.rotateLeft(a10 ^ d1, 1);
            long b12 = Long.rotateLeft(a21 ^ d2, 6);
            long b22 = Long.rotateLeft(a32 ^ d3, 25);
            long b32 = Long.rotateLeft(a43 ^ d4, 8);
            long b42 = Long.rotateLeft(a04 ^ d0, 18);
            long b03 = Long.rotateLeft(a40 ^ d4, 27);
            long b13 = Long.rotateLeft(a01 ^ d0, 36);
            long b23 = Long.rotateLeft(a12 ^ d1, 10);
            long b33 = Long.rotateLeft(a23 ^ d2, 15);
            long b43 = Long.rotateLeft(a34 ^ d3, 56);
            long b04 = Long.rotateLeft(a20 ^ d2, 62);
            long b14 = Long.rotateLeft(a31 ^ d3, 55);
            long b24 = Long.rotateLeft(a42 ^ d4, 39);
            long b34 = Long.rotateLeft(a03 ^ d0, 41);
            long b44 = Long.rotateLeft(a14 ^ d1, 2);
            // χ along each row, then ι
            a00 = b00 ^ (~b10 & b20);
            a10 = b10 ^ (~b20 & b30);
            a20 = b20 ^ (~b30 & b40);
            a30 = b30 ^ (~b40 & b00);
            a40 = b40 ^ (~b00 & b10);
            a01 = b01 ^ (~b11 & b21);
            a11 = b11 ^ (~b21 & b31);
            a21 = b21 ^ (~b31 & b41);
            a31 = b31 ^ (~b41 & b01);
            a41 = b41 ^ (~b01 & b11);
            a02 = b02 ^ (~b12 & b22);
            a12 = b12 ^ (~b22 & b32);
            a22 = b22 ^ (~b32 & b42);
            a32 = b32 ^ (~b42 & b02);
            a42 = b42 ^ (~b02 & b12);
            a03 = b03 ^ (~b13 & b23);
            a13 = b13 ^ (~b23 & b33);
            a23 = b23 ^ (~b33 & b43);
            a33 = b33 ^ (~b43 & b03);
            a43 = b43 ^ (~b03 & b13);
            a04 = b04 ^ (~b14 & b24);
            a14 = b14 ^ (~b24 & b34);
            a24 = b24 ^ (~b34 & b44);
            a34 = b34 ^ (~b44 & b04);
            a44 = b44 ^ (~b04 & b14);
            a00 ^= RC[round];
        }
        s[0] = a00; s[1] = a10; s[2] = a20; s[3] = a30; s[4] = a40;
        s[5] = a01; s[6] = a11; s[7] = a21; s[8] = a31; s[9] = a41;
        s[10] = a02; s[11] = a12; s[12] = a22; s[13] = a32; s[14] = a42;
        s[15] = a03; s[16] = a13; s[17] = a23; s[18] = a33; s[19] = a43;
        s[20] = a04; s[21] = a14; s[22] = a24; s[23] = a34; s[24] = a44;
    }
}
