/*
 * The shared memory one warp owns while it runs a task (the task level's "TempStorage"): the
 * caller places it (one per warp, after the block's zeta table) and passes it in. Plain data;
 * every field's use is listed where it is written.
 */
#ifndef DILITHIUMGPU_WARP_SHARED_CUH
#define DILITHIUMGPU_WARP_SHARED_CUH

#include "expand.cuh"
#include "keccak.cuh"
#include "ntt.cuh"

namespace dg {

/** Largest mu || w1 message: 64 + 8 * 128 bytes (levels 3 and 5); level 2 needs 64 + 4 * 192. */
constexpr int MAX_MU_W1_BYTES = CRH_BYTES + 8 * (N * 4 / 8);

struct alignas(16) WarpShared {
    /** Lane-stream staging rows (expand.cuh). */
    uint32_t stage[STAGE_WORDS];
    /** NTT and layout exchange buffer; also SampleInBall's c in natural order. */
    int32_t x[NTT_EXCHANGE_WORDS];
    /** rho (words 0-3), rho' or rho'' (4-11), K (12-15). */
    uint64_t seeds[16];
    /** mu || w1, the input of H for c~. */
    uint8_t msg[MAX_MU_W1_BYTES];
    /** One SHAKE256 block: SampleInBall's output, and small hash inputs (K || rnd || mu). */
    uint8_t block[SHAKE256_RATE];
    /** c~, at most 64 bytes. */
    uint8_t ctilde[64];
    /** Hint bits: polynomial i, coefficient c is bit (c & 31) of word 8 i + (c >> 5). */
    uint32_t hint[8 * 8];
};

static_assert(sizeof(WarpShared) % 16 == 0, "WarpShared keeps 16-byte alignment in arrays");

/** Bytes of the block's zeta table at the start of dynamic shared memory. */
constexpr int ZETA_TABLE_BYTES = N * 4;

/** Dynamic shared memory of a block of `warps` warps. */
constexpr int block_shared_bytes(int warps) {
    return ZETA_TABLE_BYTES + warps * (int)sizeof(WarpShared);
}

}  // namespace dg

#endif
