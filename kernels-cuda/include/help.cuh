/*
 * Helping at the end of the GPU's work: once no launch on the device has a task left to start,
 * a warp without a task tries later iterations kappa of a task that is still in its rejection
 * loop (the paper's dynamic scheduling of the signing loop). While work is queued, helping
 * would take multiprocessor slots from tasks not yet started, so a gate keeps it shut then.
 *
 * The gate (HelpGate, one per device context):
 *   launched   launches the host has submitted on the device, counted before each launch, in
 *              host memory mapped into the device (null: helping is off);
 *   started    launches whose first block has run (counted after adding its tasks to ...);
 *   unclaimed  tasks of started launches that no worker has taken yet.
 * It is open when started == launched and unclaimed == 0: every submitted task is running or
 * done. A launch counted by the host but not started keeps it shut (started < launched).
 *
 * The help record (HelpRecord, in each worker's workspace slice, zero when no task is in hand):
 * while its owner's task runs with helpers, the record publishes the task's rho'' and mu, and
 * hands out its blocks of iterations (sign.cuh) from one claim word:
 *   bits  0-15  next block to try
 *   bits 16-30  blocks taken and not finished (pending)
 *   bit  31     OPEN: blocks may be taken (cleared while the task is closed to helpers, and once a
 *               kappa has been accepted; a zeroed record is closed)
 *   bits 32-63  the owner's task generation (every task of the worker has a new one)
 * A block is taken with a compare-and-swap that keeps the generation: a helper that looked at an
 * earlier task of the worker can never take a block of a later one. Blocks go out in increasing
 * order of kappa, and a warp abandons its block as soon as a smaller kappa has been accepted
 * (best). The warp whose finished block brings pending to 0 once no block may be taken any more
 * writes the outcome: the staged signature of the smallest accepted kappa (exactly the
 * reference's signature), or no signature when every block was tried; then `done`.
 *
 * Every operation is made by lane 0 and its result broadcast, so that callers stay converged.
 * On the host (the tests interleave emulated warps on one thread) the same operations are
 * sequentially consistent atomics.
 */
#ifndef DILITHIUMGPU_HELP_CUH
#define DILITHIUMGPU_HELP_CUH

#include "platform.cuh"
#include "warp.cuh"

namespace dg {

struct HelpGate {
    /** Launches whose first block has run. */
    uint32_t started;
    /** Tasks of started launches not taken by a worker yet (may dip below 0 before a launch's count arrives). */
    int32_t unclaimed;
    /** Launches the host has submitted, in mapped host memory; null: helping is off. */
    const volatile uint32_t* launched;
};

/** best when no kappa has been accepted. */
constexpr int32_t NO_KAPPA = 0x7fffffff;
/** best = (kappa << KAPPA_SHIFT) | worker. */
constexpr int KAPPA_SHIFT = 21;
constexpr int32_t WORKER_MASK = (1 << KAPPA_SHIFT) - 1;

constexpr uint64_t CLAIM_NEXT_MASK = 0xFFFFu;
constexpr uint64_t CLAIM_PENDING_ONE = 1ull << 16;
constexpr uint64_t CLAIM_PENDING_MASK = 0x7FFFull << 16;
constexpr uint64_t CLAIM_OPEN = 1ull << 31;

DG_HD uint32_t claim_gen(uint64_t c) { return (uint32_t)(c >> 32); }
DG_HD int claim_next(uint64_t c) { return (int)(c & CLAIM_NEXT_MASK); }
DG_HD int claim_pending(uint64_t c) { return (int)((c & CLAIM_PENDING_MASK) >> 16); }
DG_HD bool claim_open(uint64_t c) { return (c & CLAIM_OPEN) != 0; }
DG_HD uint64_t make_claim(uint32_t gen, int pending, int next, bool open) {
    return ((uint64_t)gen << 32) | (open ? CLAIM_OPEN : 0) | ((uint64_t)pending << 16) | (uint64_t)next;
}

/** One worker's help record: 160 bytes, at the end of its workspace slice. */
struct alignas(16) HelpRecord {
    uint64_t claim;
    /** (kappa << KAPPA_SHIFT) | worker of the smallest accepted kappa, or NO_KAPPA. */
    int32_t best;
    /** The task in hand + 1; 0: none (the worker has no task, or has not started). */
    int32_t task;
    /** (generation << 8) | status once the task's outcome is written. */
    uint64_t done;
    uint64_t unused;
    /** rho'' (y's seed) and mu of the task in hand, for helpers. */
    uint64_t rho2[8];
    uint64_t mu[8];
};

static_assert(sizeof(HelpRecord) == 160, "HelpRecord keeps its ABI-neutral 160-byte layout");

namespace help {

/** Lane-0 operations on global words (device: atomics at device scope; host: __atomic). */
template <class T>
DG_HD T load(const T* p) {
#if DG_ON_DEVICE
    return *reinterpret_cast<const volatile T*>(p);
#else
    return __atomic_load_n(p, __ATOMIC_SEQ_CST);
#endif
}

template <class T>
DG_HD void store(T* p, T v) {
#if DG_ON_DEVICE
    *reinterpret_cast<volatile T*>(p) = v;
#else
    __atomic_store_n(p, v, __ATOMIC_SEQ_CST);
#endif
}

/** The type CUDA's atomic functions take for a word of type T. */
template <class T> struct AtomicWord;
template <> struct AtomicWord<int32_t> { using type = int; };
template <> struct AtomicWord<uint32_t> { using type = unsigned; };
template <> struct AtomicWord<uint64_t> { using type = unsigned long long; };

/** Adds v (modulo 2^bits: a "negative" unsigned v subtracts); returns the old value. */
template <class T>
DG_HD T add(T* p, T v) {
#if DG_ON_DEVICE
    using W = typename AtomicWord<T>::type;
    return (T)atomicAdd(reinterpret_cast<W*>(p), (W)v);
#else
    return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
#endif
}

/** Replaces `expected` by `desired`; returns the value found. */
template <class T>
DG_HD T cas(T* p, T expected, T desired) {
#if DG_ON_DEVICE
    using W = typename AtomicWord<T>::type;
    return (T)atomicCAS(reinterpret_cast<W*>(p), (W)expected, (W)desired);
#else
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expected;
#endif
}

/** Stores min(*p, v); returns the old value. */
DG_HD int32_t min(int32_t* p, int32_t v) {
#if DG_ON_DEVICE
    return atomicMin(p, v);
#else
    int32_t old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    while (v < old && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return old;
#endif
}

/** Orders this thread's memory accesses at device scope (sequentially consistent). */
DG_HD void fence() {
#if DG_ON_DEVICE
    __threadfence();
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/** Orders this thread's memory accesses for every observer, the host included. */
DG_HD void fence_system() {
#if DG_ON_DEVICE
    __threadfence_system();
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/** A back-off between polls of `ns` nanoseconds (none on the host: the emulator interleaves warps at every primitive). */
DG_HD void pause(uint32_t ns = 2000) {
#if DG_ON_DEVICE && __CUDA_ARCH__ >= 700
    __nanosleep(ns);
#else
    (void)ns;
#endif
}

/** Every lane fences, then the warp meets: what any lane wrote is ordered before what follows. */
DG_HD void publish_fence() {
    fence();
    warp::sync();
}

/** op() on lane 0, its result on every lane. */
template <class Op>
DG_HD auto lane0(Op op) -> decltype(op()) {
    decltype(op()) v{};
    if (warp::lane() == 0) v = op();
    return warp::shfl(v, 0);
}

/**
 * Lane 0's view of the gate: open when every launch the host submitted has started and none
 * has a task left to take. The cheap device-memory word first; the mapped host word (a PCIe
 * read) only when it is 0.
 */
DG_HD bool gate_open_lane0(HelpGate* g) {
    if (g == nullptr || g->launched == nullptr) return false;
    if (load(&g->unclaimed) != 0) return false;
    const uint32_t started = load(&g->started);
    fence();
    const uint32_t launched = *g->launched;
    fence();
    return started == launched && load(&g->unclaimed) == 0;
}

/** gate_open_lane0 on every lane. */
DG_HD bool gate_open(HelpGate* g) {
    return lane0([&] { return gate_open_lane0(g) ? 1 : 0; }) != 0;
}

/**
 * The gate for a warp that polls it: the host's count (a read over PCIe, which thousands of
 * polling warps would saturate) only on every 16th call, the device's counts on the others
 * (a launch that starts meanwhile shows there: its tasks, then its start).
 */
struct GatePoller {
    HelpGate* g;
    uint32_t started = 0;
    int calls = 0;

    DG_HD bool open() {
        const int r = lane0([&] {
            if ((calls++ & 15) == 0) {
                if (!gate_open_lane0(g)) return 0;
                started = load(&g->started);
                return 1;
            }
            return load(&g->unclaimed) == 0 && load(&g->started) == started ? 1 : 0;
        });
        return r != 0;
    }
};

/**
 * A launch's first block: its n tasks join the unclaimed count before the launch counts as
 * started, so that a gate that sees it started also sees its tasks.
 */
DG_HD void launch_started(HelpGate* g, int n) {
    if (g == nullptr) return;
    add(&g->unclaimed, n);
    fence();
    add(&g->started, 1u);
}

/** A worker took a task of its launch. */
DG_HD void task_taken(HelpGate* g) {
    if (g != nullptr) add(&g->unclaimed, -1);
}

}  // namespace help

/** Where one launch's workers are: what a helper needs to find the others' records. */
struct Crew {
    /** The launch's workspace: worker w's slice starts at w * slice_bytes. */
    uint8_t* workspace;
    long long slice_bytes;
    /** Workers of the launch that may hold a task: min(n, workers in the grid). */
    int workers;
    /** This warp's worker index. */
    int me;
    HelpGate* gate;

    DG_HD int32_t* slice(int w) const {
        return reinterpret_cast<int32_t*>(workspace + (long long)w * slice_bytes);
    }
};

}  // namespace dg

#endif
