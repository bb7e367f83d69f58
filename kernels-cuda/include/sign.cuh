/*
 * Signing of a precomputed mu for one task on one warp: FIPS 204 Algorithm 7
 * (ML-DSA.Sign_internal) from step 6 on, and round-3.1 crypto_sign_signature after mu.
 * Every lane of the warp calls run().
 *
 * rho'' is H(K || rnd || mu, 64) in FIPS 204 (rnd: 32 bytes) and the task's 64-byte rnd itself in
 * round 3.1 (the caller passes rho' = H(K || mu) for deterministic signing).
 *
 * The rejection loop draws y for a block of consecutive iterations kappa at once (one SHAKE
 * stream per lane), then tries those iterations in order and stops at the first that passes every
 * check. The signature is therefore exactly the reference's: that of the first accepted kappa.
 * Every block but the first holds CANDIDATES = floor(32 / L) iterations, one pass of the warp's
 * lanes. The first block is drawn with ExpandA, whose K L streams leave lanes of their last pass
 * idle: it holds FIRST iterations, as many as fill those lanes (ML-DSA-44: 16 streams of A^ and 4
 * iterations of 4 make one pass, where A^ and 8 iterations took two, and a task needs 4.25
 * iterations on average). Where A^ alone takes more than one pass (levels 3 and 5), or not even
 * one iteration fits, it holds CANDIDATES (ML-DSA-87 with one iteration measured 4 % slower on
 * an H100). A key that has not produced a signature after MAX_ITERATIONS iterations
 * (probability below 2^-300 for a well-formed key) gets ABI_STATUS_INVALID_KEY, so that a
 * crafted key cannot hold the GPU forever.
 *
 * SignTask<P, true> (the sign_<set>_help entry points) helps: when the device has no task left
 * to start (help.cuh's gate), the warp opens its task to helpers at the next block boundary:
 * warps without a task of their own then take later blocks of it from the task's help record,
 * each with its own y, w and staging rows and the owner's keys, and every warp stages its
 * signature in its own workspace; the outcome (the smallest accepted kappa's signature) is
 * written once no smaller kappa can still be accepted. A task that never opens writes its
 * signature directly, as before. SignTask<P> (sign_<set>) is the same loop without any of that:
 * the helping code held registers even while its gate stayed shut (sm_90 sign_mldsa44: 176 / 336
 * bytes of spill stores / loads against 20 / 36), and signing without it ran 1.3 to 3.6 % faster
 * on an H100 (docs/performance.md).
 *
 * Workspace (global, per warp), int32 polynomials:
 *   A^ (K L) | s1^ (L) | s2^ (K) | t0^ (K) | y (CANDIDATES L) | [y^ (L)] | w, then (HighBits, r0) (K)
 *   | the staged signature (SIG_BYTES, whole 16-byte units) | the help record (help.cuh)
 * A^, s1^, s2^ and t0^ are the task's keys: helpers read them from the owner's workspace.
 * y^ is read K L times per iteration. Where it fits (L <= 5) it lives in the warp's lane-stream
 * staging rows instead, which are idle while iterations run (they serve only the drawing of y),
 * and the workspace has no y^ slice.
 */
#ifndef DILITHIUMGPU_SIGN_CUH
#define DILITHIUMGPU_SIGN_CUH

#include "batch_abi.h"
#include "expand.cuh"
#include "keccak.cuh"
#include "ntt.cuh"
#include "pack.cuh"
#include "params.cuh"
#include "poly.cuh"
#include "rounding.cuh"
#include "help.cuh"
#include "sample.cuh"
#include "warp_shared.cuh"

/* 1 draws the first block of iterations as large as the others (A/B runs of SignTask::FIRST). */
#ifndef DG_SIGN_FIRST_FULL
#define DG_SIGN_FIRST_FULL 0
#endif

namespace dg {

template <class P, bool HELPERS = false>
struct SignTask {
    static constexpr int CANDIDATES = 32 / P::L;
    /** Iterations of L streams that fit the lanes ExpandA leaves idle in its one pass (0: none, or more passes). */
    static constexpr int FIRST_FIT = P::K * P::L < 32 ? (32 - P::K * P::L) / P::L : 0;
    static constexpr int FIRST = DG_SIGN_FIRST_FULL || FIRST_FIT < 1 ? CANDIDATES : FIRST_FIT;
    static constexpr int MAX_ITERATIONS = 1000;
    /** The status follows the signature at system scope (schedule.cuh): hosts take each task as it ends. */
    static constexpr bool STATUS_PUBLISHES = true;

    static constexpr int WS_A = 0;
    static constexpr int WS_S1 = WS_A + P::K * P::L * N;
    static constexpr int WS_S2 = WS_S1 + P::L * N;
    static constexpr int WS_T0 = WS_S2 + P::K * N;
    static constexpr int WS_Y = WS_T0 + P::K * N;
    static constexpr bool YHAT_SHARED = P::L * N <= STAGE_WORDS;
    static constexpr int WS_YHAT = WS_Y + CANDIDATES * P::L * N;
    static constexpr int WS_W = WS_YHAT + (YHAT_SHARED ? 0 : P::L * N);
    static constexpr int WS_SIG = WS_W + P::K * N;
    /** Blocks: FIRST iterations, then CANDIDATES each; kappa < MAX_ITERATIONS + CANDIDATES - 1 at most. */
    static constexpr int BLOCKS = 1 + (MAX_ITERATIONS - FIRST + CANDIDATES - 1) / CANDIDATES;

    /** The first iteration of block b, and its iterations. */
    static DG_HD int block_base(int b) { return b == 0 ? 0 : FIRST + (b - 1) * CANDIDATES; }
    static DG_HD int block_size(int b) { return b == 0 ? FIRST : CANDIDATES; }
    /** Idle warps take blocks of this task once the device has no task left to start (help.cuh). */
    static constexpr bool HELPS = HELPERS;
    /** Blocks of one task tried at once, the owner's included: helpers beyond it only load the GPU. */
    static constexpr int MAX_PENDING = 3;
    static constexpr int WS_RECORD = WS_SIG + (P::SIG_BYTES + 15) / 16 * 4;
    static constexpr int WS_WORDS = WS_RECORD + (HELPS ? (int)sizeof(HelpRecord) / 4 : 0);
    static_assert(BLOCKS < (int)CLAIM_NEXT_MASK && (MAX_ITERATIONS + CANDIDATES) < (NO_KAPPA >> KAPPA_SHIFT),
                  "block numbers and kappa fit the claim word and best");

    struct Args {
        const uint8_t* sks;
        const uint8_t* mus;
        const uint8_t* rnds;
        uint8_t* sigs;
    };

    /** (HighBits(w), r0) in one word: a1 in bits 24..29, r0 (|r0| < 2^23) in bits 0..23. */
    static DG_HD int32_t pack_w(int32_t a1, int32_t r0) { return (a1 << 24) | (r0 & 0xFFFFFF); }
    static DG_HD int32_t w_high(int32_t v) { return (int32_t)((uint32_t)v >> 24); }
    static DG_HD int32_t w_r0(int32_t v) { return (int32_t)((uint32_t)v << 8) >> 8; }

    /**
     * Signs task `task`. With HELPS, crew says where the launch's other workers are and whether
     * helping may start (a null gate, as by default: never).
     */
    static DG_HD uint8_t run(int task, const Args& a, WarpShared& sh, int32_t* ws, const int32_t* zt,
                             const Crew& crew = Crew{}) {
        const uint8_t* sk = a.sks + (size_t)task * P::SK_BYTES;
        const uint8_t* mu = a.mus + (size_t)task * CRH_BYTES;
        const uint8_t* rnd = a.rnds + (size_t)task * P::RND_BYTES;
        uint8_t* sig = a.sigs + (size_t)task * P::SIG_BYTES;
        const int l = (int)warp::lane();
        uint8_t* seed_bytes = reinterpret_cast<uint8_t*>(sh.seeds);

        // rho and K from sk; mu at the head of the c~ message.
        warp::sync();
        seed_bytes[l] = sk[P::SK_RHO + l];
        seed_bytes[SEED_BYTES + CRH_BYTES + l] = sk[P::SK_KEY + l];
        sh.msg[l] = mu[l];
        sh.msg[32 + l] = mu[32 + l];
        if (P::FIPS204) {
            // rho'' = H(K || rnd || mu, 64) (FIPS 204 Algorithm 7, step 7).
            sh.block[l] = sk[P::SK_KEY + l];
            sh.block[32 + l] = rnd[l];
            sh.block[64 + l] = mu[l];
            sh.block[96 + l] = mu[32 + l];
            warp::sync();
            WarpShake256 h;
            h.init();
            h.absorb_message(sh.block, 2 * SEED_BYTES + CRH_BYTES);
            h.write_block(seed_bytes + SEED_BYTES, CRH_BYTES);
        } else {
            seed_bytes[SEED_BYTES + l] = rnd[l];
            seed_bytes[SEED_BYTES + 32 + l] = rnd[32 + l];
        }

        // s1^, s2^, t0^ (skDecode, FIPS 204 Algorithm 25, rejecting s outside [-eta, eta]).
        bool valid = true;
        for (int r = 0; r < P::L + P::K; ++r) {
            uint8_t bytes[P::ETA_BITS];
            load_bytes<P::ETA_BITS>(sk + P::SK_S1 + r * P::POLY_ETA_BYTES + P::ETA_BITS * l, bytes);
            int32_t c[8];
            valid &= unpack8_eta<P::ETA, P::ETA_BITS>(bytes, c);
            consecutive_to_strided(c, sh.x);
            warp_ntt(c, sh.x, zt);
            store_consecutive(ws + WS_S1 + r * N, c);
        }
        if (!warp::all(valid)) return ABI_STATUS_INVALID_KEY;
        for (int i = 0; i < P::K; ++i) {
            uint8_t bytes[D];
            load_bytes<D>(sk + P::SK_T0 + i * POLY_T0_BYTES + D * l, bytes);
            int32_t c[8];
            unpack8_signed<D>(bytes, 1 << (D - 1), c);
            consecutive_to_strided(c, sh.x);
            warp_ntt(c, sh.x, zt);
            store_consecutive(ws + WS_T0 + i * N, c);
        }
        warp::sync();

        // This task's record: a new generation, closed to helpers.
        HelpRecord* rec = record_of(ws);
        if (HELPS) {
            help::lane0([&] {
                uint32_t g = claim_gen(help::load(&rec->claim)) + 1;
                if (g == 0) g = 1;
                help::store(&rec->claim, make_claim(g, 0, 0, false));
                help::store(&rec->best, NO_KAPPA);
                help::store(&rec->done, (uint64_t)0);
                help::store(&rec->task, task + 1);
                return 0;
            });
        }

        DG_NO_UNROLL
        for (int b = 0; b < BLOCKS; ++b) {
            draw(b, b == 0, sh, ws);
            // Only a task whose first block failed opens (about 12 % of ML-DSA-44 tasks): for the
            // others helpers would only draw blocks that are never needed.
            if (HELPS && b > 0 && help::gate_open(crew.gate)) return closed(rec, run_opened(b, rec, sh, ws, zt, crew, sig));
            DG_NO_UNROLL
            for (int c = 0; c < block_size(b); ++c) {
                if (attempt(ws + WS_Y + c * P::L * N, staged(ws), sh, ws, ws, zt)) {
                    copy_out(staged(ws), sig);
                    return closed(rec, ABI_STATUS_OK);
                }
            }
        }
        return closed(rec, ABI_STATUS_INVALID_KEY);
    }

    /**
     * The rest of a task that opens to helpers with block b drawn: its blocks are taken from its
     * record from b + 1 on, by this warp and by helpers, every accepted signature is staged, and
     * the outcome is written by whichever warp finishes the last block; returns it.
     */
    static DG_HD uint8_t run_opened(int b, HelpRecord* rec, WarpShared& sh, int32_t* ws, const int32_t* zt,
                                    const Crew& crew, uint8_t* sig) {
        const uint32_t gen = (uint32_t)help::lane0([&] { return (int)claim_gen(help::load(&rec->claim)); });
        open_to_helpers(rec, gen, b, sh);
        DG_NO_UNROLL
        for (;;) {
            finish_block(rec, gen, try_block(b, rec, staged(ws), sh, ws, ws, zt, crew), crew, sig);
            uint32_t g = 0;
            b = take_block(rec, &g, true);  // g == gen: only this warp starts a new generation
            if (b < 0) break;
            draw(b, false, sh, ws);
        }
        return (uint8_t)await_outcome(rec, gen);  // the generation is this warp's to end
    }

    /**
     * Waits until the outcome of generation gen of the record's task is written and returns its
     * status, or -1 once the owner has started a later generation (which only a helper can see).
     */
    static DG_HD int await_outcome(HelpRecord* rec, uint32_t gen) {
        constexpr int WAITING = -2;
        DG_NO_UNROLL
        for (;;) {
            const int d = help::lane0([&] {
                const uint64_t done = help::load(&rec->done);
                if ((uint32_t)(done >> 8) == gen) return (int)(done & 0xFF);
                if (claim_gen(help::load(&rec->claim)) != gen) return -1;
                help::pause();
                return WAITING;
            });
            if (d != WAITING) {
                help::publish_fence();
                return d;
            }
        }
    }

    /** The record of the workspace slice `slice`. */
    static DG_HD HelpRecord* record_of(int32_t* slice) { return reinterpret_cast<HelpRecord*>(slice + WS_RECORD); }

    /**
     * Copies a staged signature to the task's output, each store of the warp 32 consecutive bytes.
     * The output may be host memory mapped into the device (published signing, StreamSlot), where
     * every partly written sector costs a PCIe transaction of its own: the signature is built in
     * the workspace (an attempt packs z and the hints with scattered byte stores, and rejected
     * attempts leave partial z) and leaves it once, whole.
     */
    static DG_HD void copy_out(const uint8_t* from, uint8_t* sig) {
        warp::sync();  // every lane's stores of the staged signature come first
        for (int i = (int)warp::lane(); i < P::SIG_BYTES; i += 32) sig[i] = help::load(&from[i]);
    }

    /** The staged signature in a workspace slice. */
    static DG_HD uint8_t* staged(int32_t* slice) { return reinterpret_cast<uint8_t*>(slice + WS_SIG); }

    /** A task that never opened ends: its record holds no task. */
    static DG_HD uint8_t closed(HelpRecord* rec, uint8_t status) {
        if (HELPS) {
            help::lane0([&] {
                help::store(&rec->task, 0);
                return 0;
            });
        }
        return status;
    }

    /** Draws y for block b of the task whose seeds are in sh (and expands A^ into ws first when with_a). */
    static DG_HD void draw(int b, bool with_a, WarpShared& sh, int32_t* ws) {
        warp::sync();  // the last iteration's reads of y^ in the staging rows come first
        run_lane_streams<P>(SignStreams<P>{with_a ? ws + WS_A : nullptr, ws + WS_Y, block_base(b), block_size(b)},
                            sh.seeds, sh.stage);
    }

    /**
     * Opens the task to helpers with block b drawn and in hand: its rho'' and mu go to the record
     * (its keys are in the workspace already), then the claim word hands out blocks from b + 1.
     */
    static DG_HD void open_to_helpers(HelpRecord* rec, uint32_t gen, int b, WarpShared& sh) {
        const int l = (int)warp::lane();
        if (l < 8) rec->rho2[l] = sh.seeds[4 + l];
        else if (l < 16) rec->mu[l - 8] = reinterpret_cast<const uint64_t*>(sh.msg)[l - 8];
        help::publish_fence();  // keys, rho'' and mu before the claim word that opens them
        help::lane0([&] {
            help::store(&rec->claim, make_claim(gen, 1, b + 1, true));
            return 0;
        });
    }

    /**
     * Lane 0 takes the next block of the record's task, whatever its generation; returns it and
     * the generation, or -1 when none may be taken (for a helper, also while MAX_PENDING blocks
     * are being tried: the owner always takes the next block, so the task never stalls). The
     * caller must finish a block it took.
     */
    static DG_HD int take_block(HelpRecord* rec, uint32_t* gen, bool owner) {
        uint64_t taken = 0;
        const int b = help::lane0([&] {
            uint64_t c = help::load(&rec->claim);
            for (;;) {
                if (!claim_open(c) || claim_next(c) >= BLOCKS) return -1;
                if (!owner && claim_pending(c) >= MAX_PENDING) return -1;
                const uint64_t found = help::cas(&rec->claim, c, c + CLAIM_PENDING_ONE + 1);
                if (found == c) {
                    taken = c;
                    help::fence();
                    return claim_next(c);
                }
                c = found;
            }
        });
        *gen = (uint32_t)help::lane0([&] { return (int)claim_gen(taken); });
        help::publish_fence();  // every lane reads the task's state after the claim
        return b;
    }

    /**
     * Tries the drawn y of block b of the record's task in order, writing the signature to `out`,
     * until one is accepted or a smaller kappa has been. Returns
     * (kappa << KAPPA_SHIFT) | worker of the accepted kappa, or NO_KAPPA.
     */
    static DG_HD int32_t try_block(int b, HelpRecord* rec, uint8_t* out, WarpShared& sh, const int32_t* keys,
                                   int32_t* own, const int32_t* zt, const Crew& crew) {
        DG_NO_UNROLL
        for (int c = 0; c < block_size(b); ++c) {
            const int kappa = block_base(b) + c;
            if ((help::lane0([&] { return help::load(&rec->best); }) >> KAPPA_SHIFT) < kappa) break;
            if (attempt(own + WS_Y + c * P::L * N, out, sh, keys, own, zt)) return (kappa << KAPPA_SHIFT) | crew.me;
        }
        return NO_KAPPA;
    }

    /**
     * Ends a block taken from the record: its accepted kappa (code, or NO_KAPPA) goes to best and
     * closes the record to further blocks; the warp whose block was the last pending one once
     * none may be taken writes the outcome into sig and then `done`.
     */
    static DG_HD void finish_block(HelpRecord* rec, uint32_t gen, int32_t code, const Crew& crew, uint8_t* sig) {
        help::publish_fence();  // the staged signature before best names it
        const int last = help::lane0([&] {
            if (code != NO_KAPPA) {
                help::min(&rec->best, code);
                help::fence();
                for (uint64_t c = help::load(&rec->claim), found; claim_open(c); c = found) {
                    found = help::cas(&rec->claim, c, c & ~CLAIM_OPEN);
                    if (found == c) break;
                }
                help::fence();
            }
            const uint64_t was = help::add(&rec->claim, (uint64_t)0 - CLAIM_PENDING_ONE);
            help::fence();
            return claim_pending(was) == 1 && (!claim_open(was) || claim_next(was) >= BLOCKS) ? 1 : 0;
        });
        if (!last) return;
        const int32_t best = help::lane0([&] { return help::load(&rec->best); });
        help::publish_fence();
        uint8_t status = ABI_STATUS_INVALID_KEY;
        if (best != NO_KAPPA) {
            copy_out(staged(crew.slice(best & WORKER_MASK)), sig);
            status = ABI_STATUS_OK;
        }
        help::fence_system();  // the signature reaches the host before the owner's status
        warp::sync();
        help::lane0([&] {
            help::store(&rec->done, ((uint64_t)gen << 8) | status);
            return 0;
        });
    }

    /**
     * After the launch has no task left for this warp: while the gate is open, takes blocks of
     * tasks that other warps of the launch opened, until no warp holds a task any more. A warp
     * that accepted a kappa waits for that task's outcome before it tries anything else, since
     * its staged signature may be the one written out.
     */
    static DG_HD void help(const Args& a, WarpShared& sh, int32_t* ws, const int32_t* zt, const Crew& crew) {
        if (!HELPS || crew.gate == nullptr || crew.workers <= 1) return;
        const int l = (int)warp::lane();
        int from = crew.me + 1;
        // Polls for an open task back off from 2 to 128 µs: a scan reads a word of every worker.
        uint32_t backoff = 2000;
        auto back_off = [&] {
            help::lane0([&] {
                help::pause(backoff);
                return 0;
            });
            backoff = backoff < 128000 ? 2 * backoff : backoff;
        };
        help::GatePoller gate{crew.gate};
        DG_NO_UNROLL
        for (;;) {
            if (!gate.open()) return;
            // The first open record after `from`, and whether any worker still holds a task.
            int target = -1;
            bool holding = false;
            for (int base = 0; base < crew.workers && target < 0; base += 32) {
                const int w = (from + base + l) % crew.workers;
                bool open = false, holds = false;
                if (base + l < crew.workers && w != crew.me) {
                    HelpRecord* r = record_of(crew.slice(w));
                    const uint64_t c = help::load(&r->claim);
                    open = claim_open(c) && claim_next(c) < BLOCKS && claim_pending(c) < MAX_PENDING;
                    holds = help::load(&r->task) != 0;
                }
                const uint32_t bits = warp::ballot(open);
                holding |= warp::any(holds);
                if (bits != 0) target = (from + base + warp::popc((bits & (0u - bits)) - 1u)) % crew.workers;
            }
            if (target < 0) {
                if (!holding) return;
                back_off();
                continue;
            }
            HelpRecord* rec = record_of(crew.slice(target));
            bool helped = false;
            DG_NO_UNROLL
            for (;;) {
                uint32_t gen = 0;
                const int b = take_block(rec, &gen, false);
                if (b < 0) break;
                helped = true;
                // The task's rho'' and mu: fixed while a block of this generation is pending.
                if (l < 8) sh.seeds[4 + l] = help::load(&rec->rho2[l]);
                else if (l < 16) reinterpret_cast<uint64_t*>(sh.msg)[l - 8] = help::load(&rec->mu[l - 8]);
                const int task = help::lane0([&] { return help::load(&rec->task); }) - 1;
                warp::sync();
                draw(b, false, sh, ws);
                const int32_t code = try_block(b, rec, staged(ws), sh, crew.slice(target), ws, zt, crew);
                finish_block(rec, gen, code, crew, a.sigs + (size_t)task * P::SIG_BYTES);
                // This warp's staged signature may be the outcome: it stays untouched until the
                // outcome is written (or the owner has moved on to its next task).
                if (code != NO_KAPPA) await_outcome(rec, gen);
                if (!gate.open()) return;
            }
            from = target + 1;
            if (helped) {
                backoff = 2000;
            } else {
                back_off();  // taken by others meanwhile: as after an empty scan
            }
        }
    }

    /** Where y^ lives: the staging rows when it fits there, else the workspace. */
    static DG_HD int32_t* yhat_of(WarpShared& sh, int32_t* ws) {
        return YHAT_SHARED ? reinterpret_cast<int32_t*>(sh.stage) : ws + WS_YHAT;
    }

    /**
     * One iteration of the rejection loop for the y at `y`, with the task's keys (A^, s1^, s2^,
     * t0^) in the workspace slice `keys` and this warp's w (and y^) in its own slice `own`;
     * writes sig and returns true on accept.
     */
    static DG_HD bool attempt(const int32_t* y, uint8_t* sig, WarpShared& sh, const int32_t* keys, int32_t* own,
                              const int32_t* zt) {
        const int l = (int)warp::lane();
        int32_t* yhat = yhat_of(sh, own);
        warp::sync();  // the drawing of y is done with the staging rows

        // y^ = NTT(y).
        for (int j = 0; j < P::L; ++j) {
            int32_t r[8];
            load_strided(y + j * N, r);
            warp_ntt(r, sh.x, zt);
            store_consecutive(yhat + j * N, r);
        }

        // w = NTT^-1(A^ o y^); w1 = HighBits(w) packed after mu.
        for (int i = 0; i < P::K; ++i) {
            int32_t acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            for (int j = 0; j < P::L; ++j) {
                int32_t av[8], yv[8];
                load_consecutive(keys + WS_A + (i * P::L + j) * N, av);
                load_consecutive(yhat + j * N, yv);
                DG_UNROLL
                for (int m = 0; m < 8; ++m) acc[m] += montmul(av[m], yv[m]);
            }
            reduce32_all(acc);
            warp_invntt_tomont(acc, sh.x, zt);
            caddq_all(acc);
            store_strided(own + WS_W + i * N, acc);
            DG_UNROLL
            for (int m = 0; m < 8; ++m) acc[m] = highbits<P::GAMMA2>(acc[m]);
            strided_to_consecutive(acc, sh.x);
            store_packed<P::W1_BITS>(sh.msg + CRH_BYTES + i * P::POLY_W1_BYTES, acc);
        }
        warp::sync();

        // c~ = H(mu || w1Encode(w1), lambda/4); c = SampleInBall(c~); c^ = NTT(c).
        {
            WarpShake256 h;
            h.init();
            h.absorb_message(sh.msg, CRH_BYTES + P::W1_PACKED_BYTES);
            h.write_block(sh.ctilde, P::CTILDE_BYTES);
        }
        warp::sync();
        warp_sample_in_ball<P::TAU>(sh.x, sh.block, sh.ctilde, P::CTILDE_BYTES);
        int32_t chat[8];
        DG_UNROLL
        for (int j = 0; j < 8; ++j) chat[j] = sh.x[l + 32 * j];
        warp_ntt(chat, sh.x, zt);

        // r0 = LowBits(w - c s2), ||r0|| < gamma2 - beta. Keep (HighBits(w), r0) for the hints.
        // Checked before z: it rejects more often (for ML-DSA-44 it passes with probability about
        // 0.43, z about 0.54) at the same cost per polynomial, so fewer inverse NTTs are spent on
        // iterations that fail. The accepted iteration, and so the signature, is the same.
        for (int i = 0; i < P::K; ++i) {
            int32_t t[8], s[8], w[8];
            load_consecutive(keys + WS_S2 + i * N, s);
            pointwise_montgomery(t, chat, s);
            warp_invntt_tomont(t, sh.x, zt);
            load_strided(own + WS_W + i * N, w);
            bool big = false;
            DG_UNROLL
            for (int m = 0; m < 8; ++m) {
                int32_t w0;
                const int32_t w1 = decompose<P::GAMMA2>(&w0, w[m]);
                const int32_t r0 = reduce32(w0 - t[m]);
                big |= abs32(r0) >= P::GAMMA2 - P::BETA;
                w[m] = pack_w(w1, r0);
            }
            if (warp::any(big)) return false;
            store_strided(own + WS_W + i * N, w);
        }

        // z = y + NTT^-1(c^ o s1^), ||z|| < gamma1 - beta; packed into sig as it goes.
        for (int j = 0; j < P::L; ++j) {
            int32_t t[8], s[8], yv[8];
            load_consecutive(keys + WS_S1 + j * N, s);
            pointwise_montgomery(t, chat, s);
            warp_invntt_tomont(t, sh.x, zt);
            load_strided(y + j * N, yv);
            DG_UNROLL
            for (int m = 0; m < 8; ++m) t[m] = reduce32(t[m] + yv[m]);
            if (warp_norm_exceeds(t, P::GAMMA1 - P::BETA)) return false;
            strided_to_consecutive(t, sh.x);
            DG_UNROLL
            for (int m = 0; m < 8; ++m) t[m] = P::GAMMA1 - t[m];
            store_packed<P::Z_BITS>(sig + P::SIG_Z + j * P::POLY_Z_BYTES, t);
        }

        // ||c t0|| < gamma2; h = MakeHint(-c t0, w - c s2 + c t0); at most omega ones.
        int ones = 0;
        for (int i = 0; i < P::K; ++i) {
            int32_t t[8], s[8], w[8];
            load_consecutive(keys + WS_T0 + i * N, s);
            pointwise_montgomery(t, chat, s);
            warp_invntt_tomont(t, sh.x, zt);
            reduce32_all(t);
            if (warp_norm_exceeds(t, P::GAMMA2)) return false;
            load_strided(own + WS_W + i * N, w);
            DG_UNROLL
            for (int m = 0; m < 8; ++m) {
                const uint32_t bits = warp::ballot(make_hint<P::GAMMA2>(w_r0(w[m]) + t[m], w_high(w[m])) != 0);
                ones += warp::popc(bits);
                if (l == 0) sh.hint[8 * i + m] = bits;
            }
        }
        if (ones > P::OMEGA) return false;

        // Accepted: c~ and the hint encoding (HintBitPack, FIPS 204 Algorithm 20).
        warp::sync();
        for (int i = l; i < P::CTILDE_BYTES; i += 32) sig[i] = sh.ctilde[i];
        uint8_t* hs = sig + P::SIG_H;
        int filled = 0;
        for (int i = 0; i < P::K; ++i) {
            DG_UNROLL
            for (int m = 0; m < 8; ++m) {
                const uint32_t bits = sh.hint[8 * i + m];
                if ((bits >> l) & 1u) hs[filled + warp::popc(bits & warp::lanes_below())] = (uint8_t)(l + 32 * m);
                filled += warp::popc(bits);
            }
            if (l == 0) hs[P::OMEGA + i] = (uint8_t)filled;
        }
        for (int p = filled + l; p < P::OMEGA; p += 32) hs[p] = 0;
        return true;
    }
};

/** Signing with idle warps helping (the sign_<set>_help entry points). */
template <class P>
using HelpingSignTask = SignTask<P, true>;

}  // namespace dg

#endif
