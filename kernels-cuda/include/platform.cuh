/*
 * Compilation-target glue shared by every header: the same source builds as CUDA device code
 * (nvcc, __CUDA_ARCH__ defined), as host code inside an nvcc translation unit, and as plain C++
 * (g++/clang++ for the host tests under sanitizers).
 *
 *   DG_HD      a helper that runs on both sides; always inlined (register arrays it takes by
 *              reference stay in registers only when the call is inlined).
 *   DG_DEVICE  device-only helper.
 *   DG_ON_DEVICE  1 while compiling for the GPU, 0 otherwise.
 */
#ifndef DILITHIUMGPU_PLATFORM_CUH
#define DILITHIUMGPU_PLATFORM_CUH

#include <stdint.h>
#include <stddef.h>

#if defined(__CUDACC__)
#define DG_HD __host__ __device__ __forceinline__
#define DG_DEVICE __device__ __forceinline__
#else
#define DG_HD inline __attribute__((always_inline))
#define DG_DEVICE inline
#endif

/*
 * DG_HD_CALLED: a helper that the GPU code calls rather than inlines (one copy of its code, however
 * many places call it; its operands travel by value in registers). The host side inlines it.
 */
#if defined(__CUDA_ARCH__)
#define DG_HD_CALLED __host__ __device__ __noinline__
#elif defined(__CUDACC__)
#define DG_HD_CALLED __host__ __device__ __forceinline__
#else
#define DG_HD_CALLED inline
#endif

#if defined(__CUDA_ARCH__)
#define DG_ON_DEVICE 1
#else
#define DG_ON_DEVICE 0
#endif

#if defined(__CUDACC__) || defined(__clang__) || defined(__GNUC__)
#define DG_RESTRICT __restrict__
#else
#define DG_RESTRICT
#endif

#if defined(__CUDA_ARCH__)
#define DG_UNROLL _Pragma("unroll")
#define DG_NO_UNROLL _Pragma("unroll 1")
#elif defined(__clang__)
#define DG_UNROLL _Pragma("clang loop unroll(full)")
#define DG_NO_UNROLL
#else
#define DG_UNROLL
#define DG_NO_UNROLL
#endif

#endif
