/*
 * Where a signing or verification task's key comes from: a packed record (sk or pk), which the
 * task decodes and expands into its workspace, or a slot of the device key cache (batch_abi.h),
 * which holds that expanded form and is read in place.
 *
 * Signing takes it as a template parameter: its blocks of iterations are shaped at compile time
 * (a packed key's first block also draws A^), and sign_keyed_ compiled one instance per source
 * without spills where a run-time choice spilled. Verification takes it as a value: its one
 * difference is which loads it makes, and a second instance in verify_keyed_ spilled instead.
 */
#ifndef DILITHIUMGPU_KEY_SOURCE_CUH
#define DILITHIUMGPU_KEY_SOURCE_CUH

namespace dg {

enum class KeySource { PACKED, SLOT };

}  // namespace dg

#endif
