/*
 * Host SIMT emulator for the warp-level code (include/warp.cuh): runs a function once per lane,
 * as 32 fibers on the calling thread, meeting at every warp primitive in lock step. Lanes must
 * call the primitives in the same order (the same contract as the device's full-mask
 * primitives); the emulator aborts with a message when they do not.
 */
#ifndef DILITHIUMGPU_TEST_SIMT_HOST_H
#define DILITHIUMGPU_TEST_SIMT_HOST_H

#include <cstdint>
#include <functional>

namespace dgtest {

/** Runs body() on 32 emulated lanes; warp::lane() tells each which it is. */
void run_warp(const std::function<void()>& body);

/**
 * Runs body(w) on `warps` warps of 32 emulated lanes each, interleaved: a warp runs until it has
 * completed a warp primitive, then the next unfinished warp runs, in turn, or, with a nonzero
 * `shuffle` seed, one picked at random (possibly the same one again).
 */
void run_warps(int warps, const std::function<void(int)>& body, uint64_t shuffle = 0);

/** Warp primitives executed by the last run_warp(s) (for operation counts). */
unsigned long long warp_primitive_count();

}  // namespace dgtest

#endif
