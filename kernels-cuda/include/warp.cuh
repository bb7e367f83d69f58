/*
 * Warp-level primitives behind one small interface, so that every warp-cooperative routine is
 * written once and runs both on the GPU and, for the host tests, under a host SIMT emulator
 * (test/simt_host.cpp runs the 32 lanes of a warp as fibers and meets them at each primitive).
 *
 * Contract for callers: every primitive here is called by all 32 lanes together (converged code,
 * full mask), in the same order. Lanes that have nothing to contribute pass a dummy value.
 * sync() orders shared- and global-memory accesses among the warp's lanes (__syncwarp).
 */
#ifndef DILITHIUMGPU_WARP_CUH
#define DILITHIUMGPU_WARP_CUH

#include "platform.cuh"

#if !DG_ON_DEVICE
/* Host SIMT emulator hooks (test/simt_host.cpp). Never referenced by device code. */
unsigned dg_simt_lane();
uint64_t dg_simt_shfl(uint64_t value, int src_lane);
uint32_t dg_simt_ballot(int predicate);
void dg_simt_sync();
#endif

namespace dg {
namespace warp {

constexpr unsigned SIZE = 32;
constexpr unsigned FULL = 0xffffffffu;

/** This thread's lane, 0..31. */
DG_HD unsigned lane() {
#if DG_ON_DEVICE
    return threadIdx.x & 31u;
#else
    return dg_simt_lane();
#endif
}

/** __syncwarp: a barrier and memory fence among the warp's lanes. */
DG_HD void sync() {
#if DG_ON_DEVICE
    __syncwarp(FULL);
#else
    dg_simt_sync();
#endif
}

/** The value src_lane passed (src_lane in 0..31). */
DG_HD uint32_t shfl(uint32_t v, int src_lane) {
#if DG_ON_DEVICE
    return __shfl_sync(FULL, v, src_lane);
#else
    return (uint32_t)dg_simt_shfl(v, src_lane);
#endif
}

DG_HD int32_t shfl(int32_t v, int src_lane) {
    return (int32_t)shfl((uint32_t)v, src_lane);
}

DG_HD uint64_t shfl(uint64_t v, int src_lane) {
#if DG_ON_DEVICE
    return __shfl_sync(FULL, (unsigned long long)v, src_lane);
#else
    return dg_simt_shfl(v, src_lane);
#endif
}

/** Bit i set iff lane i's predicate is true. */
DG_HD uint32_t ballot(bool p) {
#if DG_ON_DEVICE
    return __ballot_sync(FULL, p);
#else
    return dg_simt_ballot(p ? 1 : 0);
#endif
}

DG_HD bool any(bool p) { return ballot(p) != 0; }
DG_HD bool all(bool p) { return ballot(p) == FULL; }

DG_HD int popc(uint32_t x) {
#if DG_ON_DEVICE
    return __popc(x);
#else
    return __builtin_popcount(x);
#endif
}

/** The lowest set bit's index (x != 0). */
DG_HD int lowest(uint32_t x) {
#if DG_ON_DEVICE
    return __ffs(x) - 1;
#else
    return __builtin_ctz(x);
#endif
}

/** Lanes below this one: (1 << lane) - 1. */
DG_HD uint32_t lanes_below() {
    return (1u << lane()) - 1u;
}

/** op() on lane 0 alone, its result on every lane. */
template <class Op>
DG_HD auto lane0(Op op) -> decltype(op()) {
    decltype(op()) v{};
    if (lane() == 0) v = op();
    return shfl(v, 0);
}

/** Exclusive prefix count of p over the lanes, and the total through *total. */
DG_HD int prefix_count(bool p, int* total) {
    const uint32_t b = ballot(p);
    *total = popc(b);
    return popc(b & lanes_below());
}

}  // namespace warp
}  // namespace dg

#endif
