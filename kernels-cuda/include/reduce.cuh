/*
 * Modular reduction in Z_q, q = 8380417 (thread level). The ranges below are the contracts the
 * NTT and the scheme rely on; the host tests check each one over its whole stated input range
 * (reduce32, caddq, freeze) or on random and extreme inputs (montgomery_reduce).
 *
 * Domains: "Montgomery form" of x is x * 2^32 mod q. A Montgomery product of a value in normal
 * form with one in Montgomery form is in normal form.
 */
#ifndef DILITHIUMGPU_REDUCE_CUH
#define DILITHIUMGPU_REDUCE_CUH

#include "params.cuh"

namespace dg {

/** q^-1 mod 2^32. */
constexpr int32_t QINV = 58728449;
/** 2^32 mod q, centered: the Montgomery form of 1. */
constexpr int32_t MONT = -4186625;

/** The high 32 bits of the signed 64-bit product a * b (one multiply on the GPU). */
DG_HD int32_t mulhi(int32_t a, int32_t b) {
#if DG_ON_DEVICE
    return __mulhi(a, b);
#else
    return (int32_t)(((int64_t)a * b) >> 32);
#endif
}

/**
 * Montgomery reduction: r = a * 2^-32 mod q.
 * Input: |a| < 2^31 * q. Output: r = (a - t*q) / 2^32 with t in [-2^31, 2^31), so
 * -q/2 - |a|/2^32 < r <= q/2 + |a|/2^32; in particular |r| < q. (At |a| = 2^31 q exactly, r can
 * reach +-q.)
 *
 * t = a q^-1 mod 2^32 makes the low halves of a and t*q equal, so r is the difference of their
 * high halves, with no 64-bit subtraction.
 */
DG_HD int32_t montgomery_reduce(int64_t a) {
    const int32_t t = (int32_t)((uint32_t)(uint64_t)a * (uint32_t)QINV);
    return (int32_t)(a >> 32) - mulhi(t, Q);
}

/** Montgomery product a * b * 2^-32 mod q. Input: |a * b| < 2^31 * q. Output as montgomery_reduce. */
DG_HD int32_t montmul(int32_t a, int32_t b) {
    return montgomery_reduce((int64_t)a * b);
}

/**
 * r = a mod q with r in [-6283009, 6283007] (a representative, not the centered one).
 * Input: a <= 2^31 - 2^22 - 1 (any negative a down to INT32_MIN + 2^22 is fine too).
 */
DG_HD int32_t reduce32(int32_t a) {
    const int32_t t = (a + (1 << 22)) >> 23;
    return a - t * Q;
}

/** Adds q to a negative a. Input: -q < a < q (or any a in [-q, 2^31 - q)). Output: a mod q in [0, q) for |a| < q. */
DG_HD int32_t caddq(int32_t a) {
    return a + ((a >> 31) & Q);
}

/** The standard representative a mod q in [0, q). Input as reduce32. */
DG_HD int32_t freeze(int32_t a) {
    return caddq(reduce32(a));
}

/**
 * |a| for a reduce32 output, branch-free. chknorm-style tests |a| >= bound on a reduce32
 * representative are exact tests of the centered representative for bound <= (q - 1) / 8,
 * because reduce32's output equals the centered representative whenever the latter is that small.
 */
DG_HD int32_t abs32(int32_t a) {
    const int32_t m = a >> 31;
    return (a ^ m) - m;
}

}  // namespace dg

#endif
