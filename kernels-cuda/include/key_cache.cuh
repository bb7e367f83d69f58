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

/**
 * mu of a message record (ABI_MESSAGE_BYTES, batch_abi.h): the record itself when it holds mu
 * (tag 0), else H(tr || M', 64), hashed into sh.msg from sh.block, where `tr` may already lie.
 * tr || M' is one SHAKE256 block at most, so mu costs one permutation.
 */
template <class P>
DG_HD const uint8_t* message_mu(const uint8_t* rec, const uint8_t* tr, WarpShared& sh) {
    static_assert(P::TR_BYTES + ABI_MESSAGE_BYTES - 1 < SHAKE256_RATE, "tr || M' is one block");
    const int tag = rec[ABI_MESSAGE_BYTES - 1];
    if (tag == 0) return rec;
    const int len = tag - 1 < ABI_MESSAGE_BYTES - 1 ? tag - 1 : ABI_MESSAGE_BYTES - 1;
    const int l = (int)warp::lane();
    warp::sync();
    for (int i = l; i < P::TR_BYTES; i += 32) sh.block[i] = tr[i];
    for (int i = l; i < len; i += 32) sh.block[P::TR_BYTES + i] = rec[i];
    warp::sync();
    WarpShake256 h;
    h.init();
    h.absorb_message(sh.block, P::TR_BYTES + len);
    h.write_block(sh.msg, CRH_BYTES);
    warp::sync();
    return sh.msg;
}

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
        const uint8_t* msgs;
        const uint8_t* rnds;
        uint8_t* sigs;
    };

    static DG_HD uint8_t run(int task, const Args& a, WarpShared& sh, int32_t* ws, const int32_t* zt) {
        const int32_t k = a.key_of[task];
        const uint8_t* rnd = a.rnds + (size_t)task * P::RND_BYTES;
        uint8_t* sig = a.sigs + (size_t)task * P::SIG_BYTES;
        // One call for both sources, so one copy of the code (key_source.cuh).
        const uint8_t* key =
            k < 0 ? a.sks + uncached_record(k) * P::SK_BYTES : a.slots + (size_t)k * ExpandSkTask<P>::SLOT_BYTES;
        const uint8_t* mu = a.msgs == nullptr
                ? a.mus + (size_t)task * CRH_BYTES
                : message_mu<P>(a.msgs + (size_t)task * ABI_MESSAGE_BYTES,
                                k < 0 ? key + P::SK_TR : key + SignTask<P>::SLOT_TR_BYTE, sh);
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
        const uint8_t* msgs;
        const uint8_t* sigs;
    };

    static DG_HD uint8_t run(int task, const Args& a, WarpShared& sh, int32_t* ws, const int32_t* zt) {
        const int32_t k = a.key_of[task];
        const uint8_t* key =
            k < 0 ? a.pks + uncached_record(k) * P::PK_BYTES : a.slots + (size_t)k * ExpandPkTask<P>::SLOT_BYTES;
        const uint8_t* mu = a.mus + (size_t)task * CRH_BYTES;
        if (a.msgs != nullptr) {
            const uint8_t* rec = a.msgs + (size_t)task * ABI_MESSAGE_BYTES;
            const uint8_t* tr = key + VerifyTask<P>::SLOT_TR * 4;
            if (k < 0 && rec[ABI_MESSAGE_BYTES - 1] != 0) {
                // An uncached key's tr is hashed here, into the block that message_mu reads.
                VerifyTask<P>::tr_of(key, sh.block);
                tr = sh.block;
            }
            mu = message_mu<P>(rec, tr, sh);
        }
        return VerifyTask<P>::verify(k < 0 ? KeySource::PACKED : KeySource::SLOT, key, mu,
                                     a.sigs + (size_t)task * P::SIG_BYTES, sh, ws, zt);
    }
};

}  // namespace dg

#endif
