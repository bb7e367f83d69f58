/*
 * Where a signing or verification task's key comes from: a packed record (sk or pk), which the
 * task decodes and expands into its workspace, or a slot of the device key cache (batch_abi.h),
 * which holds that expanded form and is read in place.
 *
 * Both take it as a value: signing's one difference is which loads it makes and whether its first
 * block of iterations draws A^ too. A template instance per source doubled sign_keyed_'s code, and
 * a launch that mixed cached and uncached tasks ran both copies at once (twice the instructions to
 * cache) and ran slower than sign_ on the same tasks; verification's second instance spilled.
 */
#ifndef DILITHIUMGPU_KEY_SOURCE_CUH
#define DILITHIUMGPU_KEY_SOURCE_CUH

namespace dg {

enum class KeySource { PACKED, SLOT };

}  // namespace dg

#endif
