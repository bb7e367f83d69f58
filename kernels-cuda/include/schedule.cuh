/*
 * Device level: the persistent-warp loop every entry point runs (device only).
 *
 * A block of BLOCK_THREADS threads fills its zeta table, then each warp is one worker: it takes
 * the next task index from the atomic counter scratch[ABI_SCRATCH_NEXT_TASK], runs the task (a
 * signing task keeps iterating kappa until it accepts), writes the status byte and takes the
 * next index, until the batch is exhausted. Slow tasks therefore never hold up a whole block,
 * and no host round trip is needed between signing iterations. A task type whose
 * STATUS_PUBLISHES is true (signing) orders its outputs before its status at system scope, so
 * that a host reading outputs and status in mapped host memory may take each task as it ends.
 *
 * Worker w uses workspace bytes [w * WS, (w + 1) * WS), WS = Task::WS_WORDS * 4; workers with
 * w >= n exit at once, so at most min(n, grid * warps) slices are touched. Before exiting, a
 * worker zeroes its workspace slice and its shared memory (they held secret-derived values).
 * The last worker to exit sets the scratch counters back to zero, so the next launch on the same
 * scratch needs no memset from the host (a driver call less per launch).
 */
#ifndef DILITHIUMGPU_SCHEDULE_CUH
#define DILITHIUMGPU_SCHEDULE_CUH

#include "batch_abi.h"
#include "atomic.cuh"
#include "ntt.cuh"
#include "poly.cuh"
#include "warp_shared.cuh"

namespace dg {

constexpr int BLOCK_THREADS = 128;
constexpr int BLOCK_WARPS = BLOCK_THREADS / 32;
constexpr int BLOCK_SHARED_BYTES = block_shared_bytes(BLOCK_WARPS);

/*
 * Blocks resident per multiprocessor, which is both the __launch_bounds__ minimum (it caps
 * registers at 65536 / (BLOCK_THREADS * this)) and the cfg PERSISTENT factor. Parts with 100 KB
 * of shared memory per multiprocessor (sm_86, sm_87, sm_89, sm_120, sm_121) hold two blocks.
 * The fatbin carries no sm_86 or sm_89 code (build-fatbin.sh): those GPUs run the sm_80 code,
 * and the host caps its persistent grid at the blocks that fit (DeviceContext: the occupancy query).
 */
#if defined(DG_BLOCKS_PER_SM)
/* Set on the command line (kernel_bench variants). */
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
#define DG_BLOCKS_PER_SM 2
#else
#define DG_BLOCKS_PER_SM 4
#endif

/*
 * Signing runs one warp per block, four times as many blocks per multiprocessor: the same warps,
 * registers (the __launch_bounds__ cap stays 65536 / 512 = 128 per thread) and shared memory per
 * warp, but a block no longer holds its multiprocessor slot until the slowest of four rejection
 * loops ends. With one task per warp (a 1,250-task chunk on a GPU of 2,112 resident warps) a block
 * of four lived for the longest of four geometric loops, about twice the mean for ML-DSA-44.
 * Key generation and verification, whose tasks take equal time, gain nothing from it and keep
 * four warps (docs/performance.md).
 */
constexpr int SIGN_BLOCK_THREADS = 32;
#define DG_SIGN_BLOCKS_PER_SM (4 * DG_BLOCKS_PER_SM)

/**
 * Writes task `task`'s status after every lane's output stores, at system scope: the status may
 * be host memory that the host polls while the launch runs (signing batches of single calls
 * complete each caller as its task ends).
 */
DG_HD void publish_status(uint8_t* status, int task, uint8_t st) {
    atomic::fence_system();
    warp::sync();
    if (warp::lane() == 0) *reinterpret_cast<volatile uint8_t*>(status + task) = st;
}

/**
 * A worker's exit: zeroes its workspace slice (ws_words words) and its shared memory, which held
 * secret-derived values, and, the last of the launch's `workers` to get here, the scratch counters.
 */
DG_HD void worker_exit(int32_t* ws, int ws_words, WarpShared& sh, uint32_t* scratch, int workers) {
    // Every lane's last reads of the task's shared and global state happen before any lane
    // wipes them (compute-sanitizer racecheck: a WAR hazard between SignTask's hint encoding
    // and this wipe; the last broadcast converges the lanes but does not order memory).
    warp::sync();
    warp_zero_words(ws, ws_words);
    uint32_t* shw = reinterpret_cast<uint32_t*>(&sh);
    for (unsigned i = warp::lane(); i < sizeof(WarpShared) / 4; i += 32) shw[i] = 0;
    // Every worker's last take from the counter is ordered before its count of the exits (the
    // fence before), and the last to count orders its resets after every count it has seen (the
    // fence after): no worker of this launch touches the counter once it is reset.
    warp::lane0([&] {
        atomic::fence_device();
        if (atomic::add(&scratch[ABI_SCRATCH_EXITED], 1u) == (uint32_t)(workers - 1)) {
            atomic::fence_device();
            atomic::store(&scratch[ABI_SCRATCH_NEXT_TASK], 0u);
            atomic::store(&scratch[ABI_SCRATCH_EXITED], 0u);
        }
        return 0;
    });
}

/*
 * One worker's part of a launch of `workers` workers (min(n, grid * warps)): takes task indices
 * from the scratch counter until the batch has none left, runs each and writes its status (for a
 * task type whose STATUS_PUBLISHES, after its outputs at system scope); then zeroes its workspace
 * slice and shared memory, and, the last of the workers to get there, the scratch counters.
 * Runs on the host too, one emulated warp each (the host tests).
 */
template <class Task>
DG_HD void worker_loop(const typename Task::Args& args, uint8_t* status, int n, int workers, uint32_t* scratch,
                       WarpShared& sh, int32_t* ws, const int32_t* zt) {
    uint32_t* next_task = &scratch[ABI_SCRATCH_NEXT_TASK];
    DG_NO_UNROLL
    for (;;) {
        const int task = warp::lane0([&] { return (int)atomic::add(next_task, 1u); });
        if (task >= n) break;
        const uint8_t st = Task::run(task, args, sh, ws, zt);
        if (Task::STATUS_PUBLISHES) {
            publish_status(status, task, st);
        } else if (warp::lane() == 0) {
            status[task] = st;
        }
    }
    worker_exit(ws, Task::WS_WORDS, sh, scratch, workers);
}

#if defined(__CUDACC__)

template <class Task>
__device__ __forceinline__ void run_persistent(const typename Task::Args& args, uint8_t* status, int n,
                                               uint32_t* scratch, uint8_t* workspace) {
    // Worker w's workspace starts at w * WS_WORDS * 4 bytes; the polynomial accessors use int4.
    static_assert(Task::WS_WORDS % 4 == 0, "every worker's workspace slice must start 16-byte aligned");
    extern __shared__ __align__(16) uint8_t dg_dynamic_shared[];
    int32_t* zt = reinterpret_cast<int32_t*>(dg_dynamic_shared);
    fill_zeta_table(zt, (int)threadIdx.x, (int)blockDim.x);
    __syncthreads();

    const int warps = (int)(blockDim.x >> 5);
    const int warp_in_block = (int)(threadIdx.x >> 5);
    WarpShared& sh = reinterpret_cast<WarpShared*>(dg_dynamic_shared + ZETA_TABLE_BYTES)[warp_in_block];
    const long long worker = (long long)blockIdx.x * warps + warp_in_block;
    if (worker >= n) return;
    const long long slice_bytes = (long long)Task::WS_WORDS * 4;
    int32_t* ws = reinterpret_cast<int32_t*>(workspace + worker * slice_bytes);
    const long long grid_workers = (long long)gridDim.x * warps;
    const int workers = (int)(grid_workers < n ? grid_workers : n);
    worker_loop<Task>(args, status, n, workers, scratch, sh, ws, zt);
}
#endif

}  // namespace dg

/*
 * Defines the launch-configuration constant <op>_<tag>_cfg of entry point <op>_<tag>
 * (batch_abi.h) for task template TASK on parameter set PARAMS. The braced extern "C" gives C
 * linkage (an unmangled name for cuModuleGetGlobal) and, unlike `extern "C" <declaration>`, still
 * defines the variable, so that a whole-program host build (test/kernel_bench.cu) links too.
 */
#define DG_DEFINE_CFG(op, tag, TASK, PARAMS) \
    DG_DEFINE_CFG_SHAPED(op, tag, TASK, PARAMS, dg::BLOCK_THREADS, DG_BLOCKS_PER_SM)

/** DG_DEFINE_CFG for blocks of THREADS threads, PER_SM of them resident per multiprocessor. */
#define DG_DEFINE_CFG_SHAPED(op, tag, TASK, PARAMS, THREADS, PER_SM)                            \
    extern "C" {                                                                               \
    __constant__ int32_t op##_##tag##_cfg[ABI_CFG_WORDS] = {                                   \
        (THREADS), (THREADS) / 32, dg::block_shared_bytes((THREADS) / 32), (PER_SM),           \
        dg::TASK<dg::PARAMS>::WS_WORDS * 4};                                                   \
    }

/** __global__ with this file's block size and residency. */
#define DG_ENTRY extern "C" __global__ void __launch_bounds__(dg::BLOCK_THREADS, DG_BLOCKS_PER_SM)

/** __global__ with the signing kernels' block size and residency. */
#define DG_SIGN_ENTRY extern "C" __global__ void __launch_bounds__(dg::SIGN_BLOCK_THREADS, DG_SIGN_BLOCKS_PER_SM)

#endif
