/*
 * The warps of one block as a team: once the batch has no task left for it, a warp helps a
 * sibling whose task is still in its rejection loop by trying later iterations kappa of that
 * task (the paper's dynamic scheduling of the signing loop, kept inside a block so that every
 * exchange goes through the block's shared memory and its multiprocessor's L1).
 *
 * Each warp owns one HelpRecord in the block's shared memory. While it signs, the record
 * publishes the task: which block of CANDIDATES iterations is next (next_block), how many taken
 * blocks are still being tried (pending), and the smallest accepted iteration so far (best, with
 * the warp that accepted it). Owner and helpers take blocks from the same counter, so blocks are
 * tried in increasing order of kappa, and a warp abandons a block as soon as best is below its
 * next kappa. The signature is that of the smallest accepted kappa, exactly the reference's:
 * its warp writes it out once pending is 0 (no smaller kappa can still be accepted).
 *
 * Every operation here is made by lane 0 and its result broadcast (warp::shfl), so that callers
 * stay converged. On the host (the tests run each emulated warp on its own thread) the same
 * operations are sequentially consistent atomics.
 */
#ifndef DILITHIUMGPU_TEAM_CUH
#define DILITHIUMGPU_TEAM_CUH

#include "platform.cuh"
#include "warp.cuh"

#if !DG_ON_DEVICE
#include <sched.h>
#endif

namespace dg {

/** best when no iteration has been accepted yet. */
constexpr int NO_KAPPA = 0x7fffffff;

struct HelpRecord {
    /** 1 while the owner has no task left to take (then it may help others); 0 while it has. */
    int idle;
    /** 1 while the owner's task takes helpers: its keys, seeds and mu are published. */
    int open;
    /** Helpers attached to this record (counted before they read open). */
    int helpers;
    /** The owner's task index. */
    int task;
    /** Next block of CANDIDATES iterations to try. */
    int next_block;
    /** Blocks taken and not finished. */
    int pending;
    /** (kappa << 2) | warp of the smallest accepted kappa, or NO_KAPPA. */
    int best;
    /** 1 once the signature of best has been written out. */
    int done;
};

namespace team {

/** Lane-0 operations on shared words (device: shared-memory atomics; host: __atomic). */
DG_HD int load(const int* p) {
#if DG_ON_DEVICE
    return *reinterpret_cast<const volatile int*>(p);
#else
    return __atomic_load_n(p, __ATOMIC_SEQ_CST);
#endif
}

DG_HD void store(int* p, int v) {
#if DG_ON_DEVICE
    *reinterpret_cast<volatile int*>(p) = v;
#else
    __atomic_store_n(p, v, __ATOMIC_SEQ_CST);
#endif
}

/** Adds v, returns the old value. */
DG_HD int add(int* p, int v) {
#if DG_ON_DEVICE
    return atomicAdd(p, v);
#else
    return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
#endif
}

/** Stores min(*p, v), returns the old value. */
DG_HD int min(int* p, int v) {
#if DG_ON_DEVICE
    return atomicMin(p, v);
#else
    int old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    while (v < old && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return old;
#endif
}

/** Orders this thread's shared- and global-memory accesses as seen by the block. */
DG_HD void fence() {
#if DG_ON_DEVICE
    __threadfence_block();
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/** A short back-off between polls. */
DG_HD void pause() {
#if DG_ON_DEVICE
#if __CUDA_ARCH__ >= 700
    __nanosleep(200);
#endif
#else
    sched_yield();
#endif
}

/** Every lane fences, then the warp meets: what any lane wrote is ordered before what follows. */
DG_HD void publish_fence() {
    fence();
    warp::sync();
}

/** op() on lane 0, its result on every lane. */
template <class Op>
DG_HD int lane0(Op op) {
    int v = 0;
    if (warp::lane() == 0) v = op();
    return warp::shfl(v, 0);
}

}  // namespace team

}  // namespace dg

#endif
