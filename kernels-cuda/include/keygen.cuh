/*
 * Key generation for one task on one warp: FIPS 204 Algorithm 6 (ML-DSA.KeyGen_internal) and
 * round-3.1 crypto_sign_keypair after randombytes. Every lane of the warp calls run().
 *
 * Flow: (rho, rho', K) = H(seed) [warp sponge]; ExpandA and ExpandS [lane streams];
 * s1^ = NTT(s1); t = NTT^-1(A^ o s1^) + s2; (t1, t0) = Power2Round(t); pk = rho || t1;
 * tr = H(pk) [warp sponge, reading pk back from global memory]; sk = rho || K || tr || s1 || s2 || t0.
 *
 * Workspace (global, per warp): A^ (K L polynomials), then s1 (overwritten by s1^) and s2.
 */
#ifndef DILITHIUMGPU_KEYGEN_CUH
#define DILITHIUMGPU_KEYGEN_CUH

#include "batch_abi.h"
#include "expand.cuh"
#include "keccak.cuh"
#include "ntt.cuh"
#include "params.cuh"
#include "poly.cuh"
#include "rounding.cuh"
#include "warp_shared.cuh"

namespace dg {

template <class P>
struct KeygenTask {
    /** Statuses are read after the launch ends: no system-scope fence per task (schedule.cuh). */
    static constexpr bool STATUS_PUBLISHES = false;
    static constexpr int WS_A = 0;
    static constexpr int WS_S = WS_A + P::K * P::L * N;
    static constexpr int WS_WORDS = WS_S + (P::L + P::K) * N;

    struct Args {
        const uint8_t* seeds;
        uint8_t* pks;
        uint8_t* sks;
    };

    static DG_HD uint8_t run(int task, const Args& a, WarpShared& sh, int32_t* ws, const int32_t* zt) {
        const uint8_t* seed = a.seeds + (size_t)task * SEED_BYTES;
        uint8_t* pk = a.pks + (size_t)task * P::PK_BYTES;
        uint8_t* sk = a.sks + (size_t)task * P::SK_BYTES;
        const int l = (int)warp::lane();
        uint8_t* seed_bytes = reinterpret_cast<uint8_t*>(sh.seeds);

        // (rho, rho', K) = H(zeta, 128) in round 3.1; H(xi || IntegerToBytes(k, 1) || IntegerToBytes(l, 1), 128) in FIPS 204.
        warp::sync();
        sh.block[l] = seed[l];
        if (l == 0) {
            sh.block[32] = (uint8_t)P::K;
            sh.block[33] = (uint8_t)P::L;
        }
        warp::sync();
        {
            WarpShake256 h;
            h.init();
            h.absorb_message(sh.block, P::FIPS204 ? SEED_BYTES + 2 : SEED_BYTES);
            h.write_block(seed_bytes, 2 * SEED_BYTES + CRH_BYTES);
        }
        warp::sync();

        run_lane_streams<P>(KeygenStreams<P>{ws + WS_A, ws + WS_S}, sh.seeds, sh.stage);

        pk[l] = seed_bytes[l];
        sk[P::SK_RHO + l] = seed_bytes[l];
        sk[P::SK_KEY + l] = seed_bytes[SEED_BYTES + CRH_BYTES + l];

        // Pack s1 and s2 (field value eta - c); replace s1 by s1^.
        for (int r = 0; r < P::L + P::K; ++r) {
            int32_t c[8], v[8];
            load_consecutive(ws + WS_S + r * N, c);
            DG_UNROLL
            for (int m = 0; m < 8; ++m) v[m] = P::ETA - c[m];
            store_packed<P::ETA_BITS>(sk + P::SK_S1 + r * P::POLY_ETA_BYTES, v);
            if (r < P::L) {
                consecutive_to_strided(c, sh.x);
                warp_ntt(c, sh.x, zt);
                store_consecutive(ws + WS_S + r * N, c);
            }
        }

        // t = NTT^-1(A^ o s1^) + s2, then Power2Round; t1 into pk, t0 into sk.
        // A^ in [0, q), |s1^| < eta + 8q: each product under 2^49.1, L of them under 2^31 q.
        for (int i = 0; i < P::K; ++i) {
            int32_t acc[8];
            dot_montgomery<P::L>(acc, ws + WS_A + i * P::L * N, ws + WS_S);
            warp_invntt_tomont(acc, sh.x, zt);
            int32_t s2[8];
            load_strided(ws + WS_S + (P::L + i) * N, s2);
            DG_UNROLL
            for (int m = 0; m < 8; ++m) {
                int32_t t0;
                const int32_t t1 = power2round(&t0, caddq(acc[m] + s2[m]));
                acc[m] = (t1 << D) | ((1 << (D - 1)) - t0);  // both fields, one exchange
            }
            strided_to_consecutive(acc, sh.x);
            int32_t v1[8], v0[8];
            DG_UNROLL
            for (int m = 0; m < 8; ++m) {
                v1[m] = acc[m] >> D;
                v0[m] = acc[m] & ((1 << D) - 1);
            }
            store_packed<10>(pk + P::PK_T1 + i * POLY_T1_BYTES, v1);
            store_packed<D>(sk + P::SK_T0 + i * POLY_T0_BYTES, v0);
        }

        // tr = H(pk, 32 or 64), read back from the pk this warp wrote.
        warp::sync();
        {
            WarpShake256 h;
            h.init();
            h.absorb_message(pk, P::PK_BYTES);
            h.write_block(sk + P::SK_TR, P::TR_BYTES);
        }
        return ABI_STATUS_OK;
    }
};

}  // namespace dg

#endif
