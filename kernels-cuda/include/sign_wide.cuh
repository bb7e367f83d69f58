/*
 * Signing with a group of warps per task (sign_keyed_wide_, batch_abi.h): the WIDE_WARPS warps of
 * a block share one task's rejection loop. Warp g tries iterations kappa = g, g + G, g + 2G, ...
 * in order (SignTask::sign_strided), and the task's signature is that of the smallest kappa any
 * warp accepts. A warp skips only iterations above a kappa already accepted, so every iteration
 * below the smallest was tried and rejected: signature and status are those of SignTask's
 * sequential loop, bit for bit.
 *
 * Why: one warp's loop runs about 1 / p iterations one after another (p, the chance that an
 * iteration is accepted, is about 0.235 for ML-DSA-44), and a launch ends with its slowest loop.
 * A group ends a task after about 1 / (1 - (1 - p)^G) rounds of G iterations side by side: more
 * work per signature, less time. The host launches it only where warps would otherwise idle
 * (SigningWidth: chunks that, with the signing warps in flight, fill at most half the GPU); on a
 * full GPU the extra iterations cost what they save, as the last part of a large batch measured
 * (docs/performance.md).
 *
 * Cached keys are read in place by every warp of the group; a task whose key is packed runs
 * SignTask's own loop on warp 0 while the others wait.
 */
#ifndef DILITHIUMGPU_SIGN_WIDE_CUH
#define DILITHIUMGPU_SIGN_WIDE_CUH

#include <stdint.h>

#include "atomic.cuh"
#include "batch_abi.h"
#include "key_cache.cuh"
#include "schedule.cuh"
#include "sign.cuh"
#include "warp_shared.cuh"

/* Warps per group (a kernel_bench build may set another). */
#ifndef DG_WIDE_WARPS
#define DG_WIDE_WARPS 4
#endif

namespace dg {

constexpr int WIDE_WARPS = DG_WIDE_WARPS;
constexpr int WIDE_BLOCK_THREADS = 32 * WIDE_WARPS;
static_assert(WIDE_WARPS >= 1 && 8 % WIDE_WARPS == 0, "whole groups fill the signing warps of a multiprocessor");

/** A group's shared state, after its warps' WarpShared. */
struct alignas(16) WideGroup {
    int32_t task;
    /** The smallest kappa a warp has accepted for the task, or NONE. */
    int32_t best;
    /** The host emulator's barrier (group_sync); unused on the device. */
    uint32_t arrived, generation;
};

/** Dynamic shared memory of a group's block. */
constexpr int wide_shared_bytes() {
    return block_shared_bytes(WIDE_WARPS) + (int)sizeof(WideGroup);
}

/** A barrier of the group's warps (the block's __syncthreads; on the host, emulated warps spinning at warp::sync). */
DG_HD void group_sync(WideGroup& grp, int warps) {
#if DG_ON_DEVICE
    (void)grp;
    (void)warps;
    __syncthreads();
#else
    const uint32_t gen = atomic::load(&grp.generation);
    warp::sync();
    if (warp::lane() == 0 && atomic::add(&grp.arrived, 1u) == (uint32_t)warps - 1) {
        atomic::store(&grp.arrived, 0u);
        atomic::add(&grp.generation, 1u);
    }
    warp::sync();
    while (atomic::load(&grp.generation) == gen) warp::sync();
#endif
}

template <class P>
struct WideSign {
    using Task = KeyedSignTask<P>;
    using Sign = SignTask<P>;
    static constexpr int32_t NONE = INT32_MAX;

    /** Workspace of a group: a SignTask slice per warp. */
    static constexpr int WS_WORDS = WIDE_WARPS * Sign::WS_WORDS;

    /**
     * Warp g of a group of G: takes tasks with the group until the launch has none left, then
     * exits as every worker does (worker_exit), the launch's `workers` counting each warp.
     */
    static DG_HD void worker_loop(const typename Task::Args& a, uint8_t* status, int n, int workers, int g, int G,
                                  uint32_t* scratch, WideGroup& grp, WarpShared& sh, int32_t* ws, const int32_t* zt) {
        uint32_t* next_task = &scratch[ABI_SCRATCH_NEXT_TASK];
        DG_NO_UNROLL
        for (;;) {
            group_sync(grp, G);  // every warp is done with the last task's group state
            if (g == 0) {
                warp::lane0([&] {
                    atomic::store(&grp.best, NONE);
                    atomic::store(&grp.task, (int32_t)atomic::add(next_task, 1u));
                    return 0;
                });
            }
            group_sync(grp, G);
            const int task = warp::lane0([&] { return (int)atomic::load(&grp.task); });
            if (task >= n) break;
            const int32_t k = a.key_of[task];
            if (k < 0) {
                if (g == 0) publish_status(status, task, Task::run(task, a, sh, ws, zt));
                continue;
            }
            const uint8_t* slot = a.slots + (size_t)k * ExpandSkTask<P>::SLOT_BYTES;
            const uint8_t* mu = a.msgs == nullptr
                    ? a.mus + (size_t)task * CRH_BYTES
                    : message_mu<P>(a.msgs + (size_t)task * ABI_MESSAGE_BYTES, slot + Sign::SLOT_TR_BYTE, sh);
            const int kappa =
                Sign::sign_strided(slot, mu, a.rnds + (size_t)task * P::RND_BYTES, g, G, &grp.best, sh, ws, zt);
            group_sync(grp, G);  // every warp has stopped: best is final
            const int32_t best = warp::lane0([&] { return atomic::load(&grp.best); });
            if (best == NONE && g == 0) {
                publish_status(status, task, ABI_STATUS_INVALID_KEY);
            } else if (best != NONE && kappa == best) {
                Sign::copy_out(Sign::staged(ws), a.sigs + (size_t)task * P::SIG_BYTES);
                publish_status(status, task, ABI_STATUS_OK);
            }
        }
        worker_exit(ws, Sign::WS_WORDS, sh, scratch, workers);
    }
};

#if defined(__CUDACC__)

/** A block of WIDE_WARPS warps, one group; group b's workspace is slice b of WideSign::WS_WORDS words. */
template <class P>
__device__ __forceinline__ void run_wide(const typename KeyedSignTask<P>::Args& args, uint8_t* status, int n,
                                         uint32_t* scratch, uint8_t* workspace) {
    extern __shared__ __align__(16) uint8_t dg_dynamic_shared[];
    int32_t* zt = reinterpret_cast<int32_t*>(dg_dynamic_shared);
    fill_zeta_table(zt, (int)threadIdx.x, (int)blockDim.x);
    WarpShared* shared = reinterpret_cast<WarpShared*>(dg_dynamic_shared + ZETA_TABLE_BYTES);
    WideGroup& grp = *reinterpret_cast<WideGroup*>(shared + WIDE_WARPS);
    __syncthreads();
    if ((long long)blockIdx.x >= n) return;
    const int g = (int)(threadIdx.x >> 5);
    int32_t* ws = reinterpret_cast<int32_t*>(workspace) + ((long long)blockIdx.x * WIDE_WARPS + g) * SignTask<P>::WS_WORDS;
    const int groups = (long long)gridDim.x < n ? (int)gridDim.x : n;
    WideSign<P>::worker_loop(args, status, n, groups * WIDE_WARPS, g, WIDE_WARPS, scratch, grp, shared[g], ws, zt);
}

#endif

}  // namespace dg

/** sign_keyed_wide_<tag>'s launch configuration: one task per block at a time, a slice per warp. */
#define DG_DEFINE_WIDE_CFG(tag, PARAMS)                                                               \
    extern "C" {                                                                                      \
    __constant__ int32_t sign_keyed_wide_##tag##_cfg[ABI_CFG_WORDS] = {                               \
        dg::WIDE_BLOCK_THREADS, 1, dg::wide_shared_bytes(), DG_SIGN_BLOCKS_PER_SM / dg::WIDE_WARPS,    \
        dg::WideSign<dg::PARAMS>::WS_WORDS * 4};                                                      \
    }

/** __global__ with a group's block size; the warps per multiprocessor of the one-warp signing blocks. */
#define DG_WIDE_ENTRY \
    extern "C" __global__ void __launch_bounds__(dg::WIDE_BLOCK_THREADS, DG_SIGN_BLOCKS_PER_SM / dg::WIDE_WARPS)

#endif
