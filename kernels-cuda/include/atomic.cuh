/*
 * Global-memory words that several warps, or the GPU and the host, share: the persistent
 * workers' task counter and the status bytes the host may read while a launch runs. Each
 * operation is made by one lane (warp::lane0 broadcasts its result). On the device they are
 * atomics and fences at device or system scope; on the host (the tests interleave emulated warps
 * on one thread) the same operations are sequentially consistent __atomic builtins.
 */
#ifndef DILITHIUMGPU_ATOMIC_CUH
#define DILITHIUMGPU_ATOMIC_CUH

#include "platform.cuh"

namespace dg {
namespace atomic {

/** A load that the compiler neither caches nor reorders with other volatile accesses. */
template <class T>
DG_HD T load(const T* p) {
#if DG_ON_DEVICE
    return *reinterpret_cast<const volatile T*>(p);
#else
    return __atomic_load_n(p, __ATOMIC_SEQ_CST);
#endif
}

/** Adds v at device scope; returns the old value. */
DG_HD uint32_t add(uint32_t* p, uint32_t v) {
#if DG_ON_DEVICE
    return atomicAdd(p, v);
#else
    return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
#endif
}

/** Adds v to a 64-bit word at device scope; returns the old value. */
DG_HD uint64_t add(uint64_t* p, uint64_t v) {
#if DG_ON_DEVICE
    return atomicAdd(reinterpret_cast<unsigned long long*>(p), (unsigned long long)v);
#else
    return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
#endif
}

/** Replaces *p by v if it holds expected, at device scope; returns the old value. */
DG_HD uint64_t cas(uint64_t* p, uint64_t expected, uint64_t v) {
#if DG_ON_DEVICE
    return atomicCAS(reinterpret_cast<unsigned long long*>(p), (unsigned long long)expected, (unsigned long long)v);
#else
    __atomic_compare_exchange_n(p, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expected;
#endif
}

/** A pause in a wait for other warps, which leaves the multiprocessor's issue slots to them. */
DG_HD void backoff() {
#if DG_ON_DEVICE
    __nanosleep(128);
#endif
}

/** Lowers *p to v if v is smaller, at device scope (shared or global memory); returns the old value. */
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

/** Stores v so that other warps' atomics and loads see it. */
template <class T>
DG_HD void store(T* p, T v) {
#if DG_ON_DEVICE
    *reinterpret_cast<volatile T*>(p) = v;
#else
    __atomic_store_n(p, v, __ATOMIC_SEQ_CST);
#endif
}

/** Orders this thread's memory accesses for every thread of the device. */
DG_HD void fence_device() {
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

}  // namespace atomic
}  // namespace dg

#endif
