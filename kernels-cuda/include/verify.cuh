/*
 * Verification of a precomputed mu for one task on one warp: FIPS 204 Algorithm 8
 * (ML-DSA.Verify_internal) from step 7 on, and round-3.1 crypto_sign_verify after mu.
 * Every lane of the warp calls run(). Returns ABI_STATUS_OK for a valid signature and
 * ABI_STATUS_REJECTED otherwise: malformed hints (HintBitUnpack, FIPS 204 Algorithm 21, with
 * its strict ordering and zero padding), ||z|| >= gamma1 - beta, or c~ mismatch.
 *
 * Workspace (global, per warp): A^ (K L polynomials), z^ (L).
 *
 * The key may also come expanded, from a slot of the device key cache (batch_abi.h):
 * A^ (K L) | NTT(t1 2^d) (K), read in place. NTT(t1 2^d) is the value the packed path computes
 * per row, stored as the transform leaves it, so a slot gives the packed key's status.
 */
#ifndef DILITHIUMGPU_VERIFY_CUH
#define DILITHIUMGPU_VERIFY_CUH

#include "batch_abi.h"
#include "expand.cuh"
#include "keccak.cuh"
#include "key_source.cuh"
#include "ntt.cuh"
#include "pack.cuh"
#include "params.cuh"
#include "poly.cuh"
#include "rounding.cuh"
#include "sample.cuh"
#include "warp_shared.cuh"

namespace dg {

template <class P>
struct VerifyTask {
    /** Statuses are read after the launch ends: no system-scope fence per task (schedule.cuh). */
    static constexpr bool STATUS_PUBLISHES = false;
    static constexpr int WS_A = 0;
    static constexpr int WS_Z = WS_A + P::K * P::L * N;
    static constexpr int WS_WORDS = WS_Z + P::L * N;

    /**
     * A cache slot: A^ (K L polynomials), then NTT(t1 2^d) (K), the consecutive layout, then tr =
     * H(pk) in a 256-byte tail, for the tasks that hash their own mu.
     */
    static constexpr int SLOT_A = 0;
    static constexpr int SLOT_T1 = SLOT_A + P::K * P::L * N;
    static constexpr int SLOT_TR = SLOT_T1 + P::K * N;
    static constexpr int SLOT_WORDS = SLOT_TR + 64;
    static_assert(SLOT_WORDS % 64 == 0, "slots are whole 256-byte units");

    struct Args {
        const uint8_t* pks;
        const uint8_t* mus;
        const uint8_t* sigs;
    };

    /**
     * HintBitUnpack into sh.hint (run by one lane). False for a malformed encoding: a running
     * count that decreases or exceeds omega, positions not strictly increasing within a
     * polynomial, or nonzero padding.
     */
    static DG_HD bool decode_hints(const uint8_t* hs, uint32_t* hint) {
        int k = 0;
        for (int i = 0; i < P::K; ++i) {
            const int end = hs[P::OMEGA + i];
            if (end < k || end > P::OMEGA) return false;
            for (int j = k; j < end; ++j) {
                if (j > k && hs[j] <= hs[j - 1]) return false;
                hint[8 * i + (hs[j] >> 5)] |= 1u << (hs[j] & 31);
            }
            k = end;
        }
        for (int j = k; j < P::OMEGA; ++j)
            if (hs[j] != 0) return false;
        return true;
    }

    /** NTT(t1_i 2^d) of a packed pk, in the consecutive layout (the transform's output, unreduced). */
    static DG_HD void t1_hat(const uint8_t* pk, int i, int32_t (&t)[8], WarpShared& sh, const int32_t* zt) {
        load_packed<10>(pk + P::PK_T1 + i * POLY_T1_BYTES, t);
        DG_UNROLL
        for (int m = 0; m < 8; ++m) t[m] <<= D;
        consecutive_to_strided(t, sh.x);
        warp_ntt_inline(t, sh.x, zt);
    }

    /** tr = H(pk) (TR_BYTES) into `to`, which the warp may read after this returns. */
    static DG_HD void tr_of(const uint8_t* pk, uint8_t* to) {
        WarpShake256 h;
        h.init();
        h.absorb_message(pk, P::PK_BYTES);
        h.write_block(to, P::TR_BYTES);
        warp::sync();
    }

    /** Expands a packed pk into a cache slot (SLOT_WORDS words). */
    static DG_HD void expand_slot(const uint8_t* pk, int32_t* slot, WarpShared& sh, const int32_t* zt) {
        uint8_t* tail = reinterpret_cast<uint8_t*>(slot + SLOT_TR);
        for (int i = (int)warp::lane(); i < 256; i += 32) tail[i] = 0;
        warp::sync();
        tr_of(pk, tail);
        reinterpret_cast<uint8_t*>(sh.seeds)[warp::lane()] = pk[warp::lane()];
        warp::sync();
        run_lane_streams<P>(MatrixStreams<P>{slot + SLOT_A}, sh.seeds, sh.stage);
        for (int i = 0; i < P::K; ++i) {
            int32_t t[8];
            t1_hat(pk, i, t, sh, zt);
            store_consecutive(slot + SLOT_T1 + i * N, t);
        }
    }

    /** Verifies task `task` with its packed key. */
    static DG_HD uint8_t run(int task, const Args& a, WarpShared& sh, int32_t* ws, const int32_t* zt) {
        return verify(KeySource::PACKED, a.pks + (size_t)task * P::PK_BYTES, a.mus + (size_t)task * CRH_BYTES,
                      a.sigs + (size_t)task * P::SIG_BYTES, sh, ws, zt);
    }

    /**
     * Verifies sig on mu with `key`: a packed pk (PACKED: A^ expanded into the workspace,
     * NTT(t1 2^d) computed row by row) or a cache slot of SLOT_WORDS words (SLOT: read in place).
     */
    static DG_HD uint8_t verify(KeySource src, const uint8_t* key, const uint8_t* mu, const uint8_t* sig,
                                WarpShared& sh, int32_t* ws, const int32_t* zt) {
        const bool cached = src == KeySource::SLOT;
        const int32_t* slot = reinterpret_cast<const int32_t*>(key);
        const int l = (int)warp::lane();
        uint8_t* seed_bytes = reinterpret_cast<uint8_t*>(sh.seeds);
        const int32_t* a_hat = cached ? slot + SLOT_A : ws + WS_A;

        warp::sync();
        if (!cached) seed_bytes[l] = key[l];
        sh.msg[l] = mu[l];
        sh.msg[32 + l] = mu[32 + l];
        for (int i = l; i < P::CTILDE_BYTES; i += 32) sh.ctilde[i] = sig[i];
        for (int i = l; i < 8 * P::K; i += 32) sh.hint[i] = 0;
        warp::sync();
        int hints_ok = 1;
        if (l == 0) hints_ok = decode_hints(sig + P::SIG_H, sh.hint) ? 1 : 0;
        hints_ok = warp::shfl(hints_ok, 0);
        if (!hints_ok) return ABI_STATUS_REJECTED;

        // z (BitUnpack, FIPS 204 Algorithm 26), ||z|| < gamma1 - beta, z^ = NTT(z).
        for (int j = 0; j < P::L; ++j) {
            uint8_t bytes[P::Z_BITS];
            load_bytes<P::Z_BITS>(sig + P::SIG_Z + j * P::POLY_Z_BYTES + P::Z_BITS * l, bytes);
            int32_t z[8];
            unpack8_signed<P::Z_BITS>(bytes, P::GAMMA1, z);
            if (warp_norm_exceeds(z, P::GAMMA1 - P::BETA)) return ABI_STATUS_REJECTED;
            consecutive_to_strided(z, sh.x);
            warp_ntt_inline(z, sh.x, zt);
            store_consecutive(ws + WS_Z + j * N, z);
        }

        if (!cached) run_lane_streams<P>(MatrixStreams<P>{ws + WS_A}, sh.seeds, sh.stage);

        warp_sample_in_ball<P::TAU>(sh.x, sh.block, sh.ctilde, P::CTILDE_BYTES);
        int32_t chat[8];
        DG_UNROLL
        for (int j = 0; j < 8; ++j) chat[j] = sh.x[l + 32 * j];
        warp_ntt_inline(chat, sh.x, zt);

        // w'_approx = NTT^-1(A^ o z^ - c^ o NTT(t1 2^d)); w1' = UseHint(h, w'_approx).
        for (int i = 0; i < P::K; ++i) {
            int32_t t[8];
            if (cached) {
                load_consecutive(slot + SLOT_T1 + i * N, t);
            } else {
                t1_hat(key, i, t, sh, zt);
            }
            // |c^ t1^| < 8q 9q, A^ in [0, q), |z^| < gamma1 + 8q: the sum stays under 2^53.1 < 2^31 q.
            int64_t sum[8];
            DG_UNROLL
            for (int m = 0; m < 8; ++m) sum[m] = -(int64_t)chat[m] * t[m];
            dot_accumulate<P::L>(sum, a_hat + i * P::L * N, ws + WS_Z);
            int32_t acc[8];
            montgomery_reduce_all(acc, sum);
            warp_invntt_inline(acc, sh.x, zt);
            DG_UNROLL
            for (int m = 0; m < 8; ++m) {
                const int32_t h = (int32_t)((sh.hint[8 * i + m] >> l) & 1u);
                acc[m] = use_hint<P::GAMMA2>(caddq(acc[m]), h);
            }
            strided_to_consecutive(acc, sh.x);
            store_packed<P::W1_BITS>(sh.msg + CRH_BYTES + i * P::POLY_W1_BYTES, acc);
        }
        warp::sync();

        // c~ == H(mu || w1Encode(w1'), lambda/4)?
        WarpShake256 h;
        h.init();
        h.absorb_message(sh.msg, CRH_BYTES + P::W1_PACKED_BYTES);
        bool differs = false;
        if (l < P::CTILDE_BYTES / 8) {
            for (int b = 0; b < 8; ++b) differs |= (uint8_t)(h.a >> (8 * b)) != sh.ctilde[8 * l + b];
        }
        return warp::any(differs) ? ABI_STATUS_REJECTED : ABI_STATUS_OK;
    }
};

}  // namespace dg

#endif
