/*
 * The device key cache's tasks (batch_abi.h), one warp each: expansion of packed keys into cache
 * slots, and signing and verification whose tasks take their key from a slot or, when uncached,
 * from a packed record. The slot layouts belong to the tasks that read them (SignTask::SLOT_*,
 * VerifyTask::SLOT_*): a slot is the key part of the workspace the packed path fills, written by
 * the same code, so a cached and an uncached task run one code path on it.
 */
#ifndef DILITHIUMGPU_KEY_CACHE_CUH
#define DILITHIUMGPU_KEY_CACHE_CUH

#include "batch_abi.h"
#include "key_source.cuh"
#include "sign.cuh"
#include "verify.cuh"
#include "warp_shared.cuh"

namespace dg {

/** keyOf[i] < 0 names packed record -keyOf[i] - 1 (never overflows, INT32_MIN included). */
DG_HD size_t uncached_record(int32_t key_of) { return (size_t)(-(key_of + 1)); }

/** expand_sk: packed sk i into slot slot_of[i]; ABI_STATUS_INVALID_KEY for s1 or s2 out of range. */
template <class P>
struct ExpandSkTask {
    static constexpr bool STATUS_PUBLISHES = false;
    /** Writes straight into the slot: no workspace. */
    static constexpr int WS_WORDS = 0;
    static constexpr int SLOT_BYTES = SignTask<P>::SLOT_WORDS * 4;

    struct Args {
        const uint8_t* sks;
        const int32_t* slot_of;
        uint8_t* slots;
    };

    static DG_HD uint8_t run(int task, const Args& a, WarpShared& sh, int32_t*, const int32_t* zt) {
        int32_t* slot = reinterpret_cast<int32_t*>(a.slots + (size_t)a.slot_of[task] * SLOT_BYTES);
        const bool valid = SignTask<P>::expand_slot(a.sks + (size_t)task * P::SK_BYTES, slot, sh, zt);
        return valid ? ABI_STATUS_OK : ABI_STATUS_INVALID_KEY;
    }
};

/** expand_pk: packed pk i into slot slot_of[i]. */
template <class P>
struct ExpandPkTask {
    static constexpr bool STATUS_PUBLISHES = false;
    static constexpr int WS_WORDS = 0;
    static constexpr int SLOT_BYTES = VerifyTask<P>::SLOT_WORDS * 4;

    struct Args {
        const uint8_t* pks;
        const int32_t* slot_of;
        uint8_t* slots;
    };

    static DG_HD uint8_t run(int task, const Args& a, WarpShared& sh, int32_t*, const int32_t* zt) {
        int32_t* slot = reinterpret_cast<int32_t*>(a.slots + (size_t)a.slot_of[task] * SLOT_BYTES);
        VerifyTask<P>::expand_slot(a.pks + (size_t)task * P::PK_BYTES, slot, sh, zt);
        return ABI_STATUS_OK;
    }
};

/** sign_keyed: SignTask with task i's key in slot key_of[i], or packed (key_of[i] < 0). */
template <class P>
struct KeyedSignTask {
    static constexpr bool STATUS_PUBLISHES = SignTask<P>::STATUS_PUBLISHES;
    /** An uncached task expands its key into the workspace, as sign_ does. */
    static constexpr int WS_WORDS = SignTask<P>::WS_WORDS;

    struct Args {
        const uint8_t* sks;
        const int32_t* key_of;
        const uint8_t* slots;
        const uint8_t* mus;
        const uint8_t* rnds;
        uint8_t* sigs;
    };

    static DG_HD uint8_t run(int task, const Args& a, WarpShared& sh, int32_t* ws, const int32_t* zt) {
        const int32_t k = a.key_of[task];
        const uint8_t* mu = a.mus + (size_t)task * CRH_BYTES;
        const uint8_t* rnd = a.rnds + (size_t)task * P::RND_BYTES;
        uint8_t* sig = a.sigs + (size_t)task * P::SIG_BYTES;
        // One call for both sources, so one copy of the code (key_source.cuh).
        const uint8_t* key =
            k < 0 ? a.sks + uncached_record(k) * P::SK_BYTES : a.slots + (size_t)k * ExpandSkTask<P>::SLOT_BYTES;
        return SignTask<P>::sign(k < 0 ? KeySource::PACKED : KeySource::SLOT, key, mu, rnd, sig, sh, ws, zt);
    }
};

/** verify_keyed: VerifyTask with task i's key in slot key_of[i], or packed (key_of[i] < 0). */
template <class P>
struct KeyedVerifyTask {
    static constexpr bool STATUS_PUBLISHES = VerifyTask<P>::STATUS_PUBLISHES;
    static constexpr int WS_WORDS = VerifyTask<P>::WS_WORDS;

    struct Args {
        const uint8_t* pks;
        const int32_t* key_of;
        const uint8_t* slots;
        const uint8_t* mus;
        const uint8_t* sigs;
    };

    static DG_HD uint8_t run(int task, const Args& a, WarpShared& sh, int32_t* ws, const int32_t* zt) {
        const int32_t k = a.key_of[task];
        const uint8_t* key =
            k < 0 ? a.pks + uncached_record(k) * P::PK_BYTES : a.slots + (size_t)k * ExpandPkTask<P>::SLOT_BYTES;
        return VerifyTask<P>::verify(k < 0 ? KeySource::PACKED : KeySource::SLOT, key,
                                     a.mus + (size_t)task * CRH_BYTES, a.sigs + (size_t)task * P::SIG_BYTES, sh, ws, zt);
    }
};

}  // namespace dg

#endif
