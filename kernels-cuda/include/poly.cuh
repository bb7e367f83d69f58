/*
 * Warp-level polynomial helpers: one polynomial in eight registers per lane (layouts in
 * ntt.cuh: strided for the normal domain, consecutive for the NTT domain), moved between
 * global memory (natural coefficient order, int32, 16-byte aligned), the warp's shared
 * exchange buffer (natural order with pad8 padding) and packed byte strings.
 *
 * Every helper that writes the exchange buffer first syncs the warp (earlier readers are done)
 * and syncs again before reading it back.
 */
#ifndef DILITHIUMGPU_POLY_CUH
#define DILITHIUMGPU_POLY_CUH

#include "ntt.cuh"
#include "pack.cuh"
#include "reduce.cuh"
#include "warp.cuh"

namespace dg {

using Regs = int32_t[8];

/** r[j] = g[lane + 32 j]: each j is one coalesced 128-byte access. */
DG_HD void load_strided(const int32_t* g, int32_t (&r)[8]) {
    const int l = (int)warp::lane();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) r[j] = g[l + 32 * j];
}

DG_HD void store_strided(int32_t* g, const int32_t (&r)[8]) {
    const int l = (int)warp::lane();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) g[l + 32 * j] = r[j];
}

/** r[j] = g[8 lane + j]: two 16-byte accesses per lane. */
DG_HD void load_consecutive(const int32_t* g, int32_t (&r)[8]) {
    const int l = (int)warp::lane();
#if DG_ON_DEVICE
    const int4 lo = reinterpret_cast<const int4*>(g)[2 * l];
    const int4 hi = reinterpret_cast<const int4*>(g)[2 * l + 1];
    r[0] = lo.x; r[1] = lo.y; r[2] = lo.z; r[3] = lo.w;
    r[4] = hi.x; r[5] = hi.y; r[6] = hi.z; r[7] = hi.w;
#else
    for (int j = 0; j < 8; ++j) r[j] = g[8 * l + j];
#endif
}

DG_HD void store_consecutive(int32_t* g, const int32_t (&r)[8]) {
    const int l = (int)warp::lane();
#if DG_ON_DEVICE
    reinterpret_cast<int4*>(g)[2 * l] = make_int4(r[0], r[1], r[2], r[3]);
    reinterpret_cast<int4*>(g)[2 * l + 1] = make_int4(r[4], r[5], r[6], r[7]);
#else
    for (int j = 0; j < 8; ++j) g[8 * l + j] = r[j];
#endif
}

/** Bits shift..shift + 31 of hi:lo (shift 0..31): a word at a byte offset from two aligned ones. */
DG_HD uint32_t funnel_right(uint32_t lo, uint32_t hi, int shift) {
#if DG_ON_DEVICE
    return __funnelshift_r(lo, hi, (unsigned)shift);
#else
    return (uint32_t)((((uint64_t)hi << 32) | lo) >> shift);
#endif
}

/** v[0..3] little-endian at p, which is 16-byte aligned: one store on the GPU. */
DG_HD void store16(uint8_t* p, const uint32_t (&v)[4]) {
#if DG_ON_DEVICE
    *reinterpret_cast<uint4*>(p) = make_uint4(v[0], v[1], v[2], v[3]);
#else
    for (int j = 0; j < 16; ++j) p[j] = (uint8_t)(v[j / 4] >> (8 * (j % 4)));
#endif
}

/** Strided -> consecutive through the exchange buffer x. */
DG_HD void strided_to_consecutive(int32_t (&r)[8], int32_t* x) {
    const int l = (int)warp::lane();
    warp::sync();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) x[pad8(l + 32 * j)] = r[j];
    warp::sync();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) r[j] = x[pad8(8 * l + j)];
}

/** Consecutive -> strided through the exchange buffer x. */
DG_HD void consecutive_to_strided(int32_t (&r)[8], int32_t* x) {
    const int l = (int)warp::lane();
    warp::sync();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) x[pad8(8 * l + j)] = r[j];
    warp::sync();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) r[j] = x[pad8(l + 32 * j)];
}

/** r = a o b (Montgomery pointwise product). Input |a b| < 2^31 q; output |r| < q. */
DG_HD void pointwise_montgomery(int32_t (&r)[8], const int32_t (&a)[8], const int32_t (&b)[8]) {
    DG_UNROLL
    for (int j = 0; j < 8; ++j) r[j] = montmul(a[j], b[j]);
}

/**
 * acc += sum over j < L of a_j b_j, coefficient by coefficient in 64 bits (consecutive layout;
 * a_j at a + j N, b_j at b + j N): the products of a matrix row and a vector in the NTT domain,
 * to be reduced once (dot_montgomery), where a Montgomery product per term cost a reduction each.
 */
template <int L>
DG_HD void dot_accumulate(int64_t (&acc)[8], const int32_t* a, const int32_t* b) {
    for (int j = 0; j < L; ++j) {
        int32_t av[8], bv[8];
        load_consecutive(a + j * N, av);
        load_consecutive(b + j * N, bv);
        DG_UNROLL
        for (int m = 0; m < 8; ++m) acc[m] += (int64_t)av[m] * bv[m];
    }
}

/** r = acc 2^-32 mod q, coefficient by coefficient. Input |acc| < 2^31 q; output |r| < q. */
DG_HD void montgomery_reduce_all(int32_t (&r)[8], const int64_t (&acc)[8]) {
    DG_UNROLL
    for (int m = 0; m < 8; ++m) r[m] = montgomery_reduce(acc[m]);
}

/** r = sum over j < L of a_j o b_j (see dot_accumulate). Input: the sum below 2^31 q. Output |r| < q. */
template <int L>
DG_HD void dot_montgomery(int32_t (&r)[8], const int32_t* a, const int32_t* b) {
    int64_t acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    dot_accumulate<L>(acc, a, b);
    montgomery_reduce_all(r, acc);
}

DG_HD void reduce32_all(int32_t (&r)[8]) {
    DG_UNROLL
    for (int j = 0; j < 8; ++j) r[j] = reduce32(r[j]);
}

DG_HD void caddq_all(int32_t (&r)[8]) {
    DG_UNROLL
    for (int j = 0; j < 8; ++j) r[j] = caddq(r[j]);
}

/**
 * True on every lane when some coefficient of the warp's polynomial has |r| >= bound
 * (the reference's chknorm; exact on reduce32 outputs for bound <= (q - 1) / 8).
 */
DG_HD bool warp_norm_exceeds(const int32_t (&r)[8], int32_t bound) {
    bool big = false;
    DG_UNROLL
    for (int j = 0; j < 8; ++j) big |= abs32(r[j]) >= bound;
    return warp::any(big);
}

/** Packs the lane's 8 consecutive values (already field values < 2^BITS) to dst + BITS * lane. */
template <int BITS>
DG_HD void store_packed(uint8_t* dst, const int32_t (&v)[8]) {
    uint8_t bytes[BITS];
    pack8_unsigned<BITS>(v, bytes);
    store_bytes<BITS>(dst + BITS * (int)warp::lane(), bytes);
}

/** Reads the lane's BITS bytes at src + BITS * lane as 8 unsigned field values. */
template <int BITS>
DG_HD void load_packed(const uint8_t* src, int32_t (&v)[8]) {
    uint8_t bytes[BITS];
    load_bytes<BITS>(src + BITS * (int)warp::lane(), bytes);
    unpack8_unsigned<BITS>(bytes, v);
}

/** Copies n bytes between any two addresses, lanes striding by 32. */
DG_HD void warp_copy_bytes(uint8_t* dst, const uint8_t* src, int n) {
    for (int i = (int)warp::lane(); i < n; i += 32) dst[i] = src[i];
}

/** Zeroes n 32-bit words (16-byte aligned, n a multiple of 128). */
DG_HD void warp_zero_words(int32_t* dst, int n) {
    const int l = (int)warp::lane();
#if DG_ON_DEVICE
    int4* d = reinterpret_cast<int4*>(dst);
    for (int i = l; i < n / 4; i += 32) d[i] = make_int4(0, 0, 0, 0);
#else
    for (int i = l; i < n; i += 32) dst[i] = 0;
#endif
}

}  // namespace dg

#endif
