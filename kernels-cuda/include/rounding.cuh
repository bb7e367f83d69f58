/*
 * Rounding of Z_q elements (thread level): Power2Round, Decompose, MakeHint, UseHint
 * (FIPS 204 Algorithms 35, 36, 39, 40; round-3.1 rounding.c). All branch-free except where noted;
 * inputs are standard representatives in [0, q) unless stated. The host tests compare each one
 * with the specification's formulas over all of [0, q).
 */
#ifndef DILITHIUMGPU_ROUNDING_CUH
#define DILITHIUMGPU_ROUNDING_CUH

#include "reduce.cuh"

namespace dg {

/**
 * Power2Round (FIPS 204 Algorithm 35): a = a1 * 2^d + a0 with a0 in (-2^(d-1), 2^(d-1)].
 * Input a in [0, q). Returns a1 in [0, 2^10); a0 through *a0.
 */
DG_HD int32_t power2round(int32_t* a0, int32_t a) {
    const int32_t a1 = (a + (1 << (D - 1)) - 1) >> D;
    *a0 = a - (a1 << D);
    return a1;
}

/**
 * Decompose (FIPS 204 Algorithm 36): a = a1 * 2 gamma2 + a0 with a0 in (-gamma2, gamma2], except
 * that a - a0 = q - 1 gives a1 = 0 and a0 - 1. Input a in [0, q). Returns a1 in
 * [0, (q - 1) / (2 gamma2)); a0 through *a0 (centered, in [-gamma2, gamma2]).
 */
template <int GAMMA2>
DG_HD int32_t decompose(int32_t* a0, int32_t a) {
    static_assert(GAMMA2 == (Q - 1) / 88 || GAMMA2 == (Q - 1) / 32, "gamma2");
    int32_t a1 = (a + 127) >> 7;
    if (GAMMA2 == (Q - 1) / 32) {
        a1 = (a1 * 1025 + (1 << 21)) >> 22;
        a1 &= 15;
    } else {
        a1 = (a1 * 11275 + (1 << 23)) >> 24;
        a1 ^= ((43 - a1) >> 31) & a1;
    }
    int32_t r0 = a - a1 * 2 * GAMMA2;
    r0 -= (((Q - 1) / 2 - r0) >> 31) & Q;
    *a0 = r0;
    return a1;
}

/** HighBits (FIPS 204 Algorithm 37). Input a in [0, q). */
template <int GAMMA2>
DG_HD int32_t highbits(int32_t a) {
    int32_t a0;
    return decompose<GAMMA2>(&a0, a);
}

/**
 * The hint bit of a signature coefficient, in the reference's form: a0 is the centered low part
 * of w - c s2 + c t0 (an exact integer, |a0| <= gamma2 + gamma2), a1 = HighBits(w). Equal to
 * MakeHint(-c t0, w - c s2 + c t0) (FIPS 204 Algorithm 39) whenever the signing checks passed.
 */
template <int GAMMA2>
DG_HD int32_t make_hint(int32_t a0, int32_t a1) {
    return (a0 > GAMMA2) | (a0 < -GAMMA2) | ((a0 == -GAMMA2) & (a1 != 0));
}

/** UseHint (FIPS 204 Algorithm 40): the corrected high bits of a in [0, q) under hint h in {0, 1}. */
template <int GAMMA2>
DG_HD int32_t use_hint(int32_t a, int32_t h) {
    int32_t a0;
    const int32_t a1 = decompose<GAMMA2>(&a0, a);
    if (GAMMA2 == (Q - 1) / 32) {
        const int32_t up = (a1 + 1) & 15, down = (a1 - 1) & 15;
        return h ? (a0 > 0 ? up : down) : a1;
    } else {
        const int32_t up = a1 == 43 ? 0 : a1 + 1, down = a1 == 0 ? 43 : a1 - 1;
        return h ? (a0 > 0 ? up : down) : a1;
    }
}

}  // namespace dg

#endif
