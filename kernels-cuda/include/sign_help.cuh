/*
 * sign_keyed_helped_'s worker loop (batch_abi.h): once no started launch has a task left to take, a warp
 * helps the cached-key tasks still signing by trying further iterations of their rejection loops.
 *
 * Why: a launch ends with its slowest rejection loops. A warp's loop runs a geometric number of
 * iterations (about 1 / 0.235 for ML-DSA-44), and the last tasks start when others end, so the
 * last of some two thousand loops runs several times the mean while the GPU empties one warp at a
 * time. A helper's iteration is speculative (it counts only if no smaller kappa is accepted), so
 * warps help only where they would otherwise idle: never while a task is left to take, in this
 * launch or in any other started on the device (untaken_sign_tasks), whose blocks may be waiting
 * for these warps to exit.
 *
 * Worker w runs each of its tasks through record w in scratch, one 64-bit word (Claims): the task,
 * how many iterations kappa have been claimed (0, 1, 2, ... in turn), how many of those have ended,
 * and the smallest kappa accepted. A warp claims the next kappa, draws y for it (and for the
 * iterations after it in one pass, which it takes in turn while nobody claims in between: alone,
 * the blocks of SignTask::sign) and tries it; no kappa is claimed once one is accepted. When every
 * claimed kappa has ended, every kappa below the smallest accepted was tried and rejected: the
 * warp that accepted it publishes its signature, exactly the one SignTask's sequential loop gives.
 * Claiming kappa = ITERATIONS stands for the 1,000-iteration bound: it "accepts" with
 * ABI_STATUS_INVALID_KEY. A helper joins a task only while fewer than HELP_CAP of its iterations
 * are in flight, and only a cached key's (a packed key is expanded in its owner's workspace).
 *
 * Records are zero at a launch's start (scratch) and zero again at its end: the warp that
 * publishes a task closes its record.
 */
#ifndef DILITHIUMGPU_SIGN_HELP_CUH
#define DILITHIUMGPU_SIGN_HELP_CUH

#include <stdint.h>

#include "atomic.cuh"
#include "batch_abi.h"
#include "key_cache.cuh"
#include "schedule.cuh"
#include "sign.cuh"
#include "warp_shared.cuh"

/* Iterations of one task in flight at most once helpers join it (0: no helping; kernel_bench A/B). */
#ifndef DG_HELP_CAP
#define DG_HELP_CAP 8
#endif

namespace dg {

constexpr int HELP_CAP = DG_HELP_CAP;

/** A task's record: task + 1 (0: closed) | best kappa (NONE) | kappas claimed | kappas ended. */
struct Claims {
    static constexpr int BITS = 11;
    static constexpr uint64_t MASK = (1u << BITS) - 1;
    static constexpr int NONE = (int)MASK;
    static constexpr int ENDED = 0, CLAIMED = BITS, BEST = 2 * BITS, TASK = 3 * BITS;

    static DG_HD int ended(uint64_t v) { return (int)((v >> ENDED) & MASK); }
    static DG_HD int claimed(uint64_t v) { return (int)((v >> CLAIMED) & MASK); }
    static DG_HD int best(uint64_t v) { return (int)((v >> BEST) & MASK); }
    static DG_HD int task(uint64_t v) { return (int)(v >> TASK) - 1; }
    static DG_HD uint64_t opened(int task) { return ((uint64_t)(task + 1) << TASK) | ((uint64_t)NONE << BEST); }
};

static_assert(ABI_SCRATCH_WORDS == ABI_SCRATCH_RECORDS + 2 * ABI_HELP_RECORDS && ABI_SCRATCH_RECORDS % 2 == 0,
              "the records fill the end of scratch, 8-byte aligned");

#if defined(__CUDACC__)
/** Tasks of the started sign_keyed_helped_ launches that no warp has taken yet, over every stream. */
__device__ uint32_t dg_untaken_sign_tasks;
#endif

/**
 * The device's count of tasks that started sign_keyed_helped_ launches have not handed out yet (one per
 * process on the host, for the emulated launches). Helpers help only while it is zero: a task
 * left to take, in this launch or in one beside it, makes better use of a warp than a speculative
 * iteration does, and a launch's blocks still to start wait for the warps that helpers hold.
 */
DG_HD uint32_t* untaken_sign_tasks() {
#if DG_ON_DEVICE
    return &dg_untaken_sign_tasks;
#else
    static uint32_t untaken = 0;
    return &untaken;
#endif
}

/** HelpedSign::run's kappas, packed: five 12-bit fields of one word. */
struct KappaState {
    enum Field { LO = 0, HI = 12, FROM = 24, BASE = 36, BEND = 48 };
    uint64_t bits;
    DG_HD int get(Field f) const { return (int)((bits >> f) & 0xFFF); }
    DG_HD void set(Field f, int v) { bits = (bits & ~((uint64_t)0xFFF << f)) | ((uint64_t)v << f); }
};

template <class P>
struct HelpedSign {
    using Task = KeyedSignTask<P>;
    using Sign = SignTask<P>;
    static_assert(Sign::ITERATIONS < Claims::NONE, "kappa fits a record's field");

    static DG_HD uint64_t* records(uint32_t* scratch) {
        return reinterpret_cast<uint64_t*>(scratch + ABI_SCRATCH_RECORDS);
    }

    /**
     * Claims the task's next `want` kappas (fewer at the bound): the first, the count through
     * *granted; -1 once the record holds another task (closed), a kappa has been accepted, or the
     * bound has been claimed; for a helper also while HELP_CAP iterations are in flight or tasks
     * are left to take.
     */
    static DG_HD int claim(uint64_t* rec, int task, bool helper, int want, int* granted) {
        constexpr uint64_t REFUSED = ~(uint64_t)0;
        const uint64_t got = warp::lane0([&]() -> uint64_t {
            if (helper && atomic::load(untaken_sign_tasks()) != 0) return REFUSED;
            uint64_t v = atomic::load(rec);
            for (;;) {
                const int c = Claims::claimed(v);
                if (Claims::task(v) != task || Claims::best(v) != Claims::NONE || c > Sign::ITERATIONS ||
                    (helper && c - Claims::ended(v) >= HELP_CAP)) {
                    return REFUSED;
                }
                const int n = Sign::ITERATIONS + 1 - c < want ? Sign::ITERATIONS + 1 - c : want;
                const uint64_t seen = v;
                v = atomic::cas(rec, seen, seen + ((uint64_t)n << Claims::CLAIMED));
                if (v == seen) return ((uint64_t)n << 32) | (uint32_t)c;
            }
        });
        if (got == REFUSED) return -1;
        *granted = (int)(got >> 32);
        return (int)(uint32_t)got;
    }

    /** Ends `count` claimed kappas; an accepted `kappa` among them also lowers best to it. */
    static DG_HD void end(uint64_t* rec, int count, int kappa, bool accepted) {
        warp::lane0([&] {
            if (!accepted) return (int)atomic::add(rec, (uint64_t)count << Claims::ENDED);
            uint64_t v = atomic::load(rec);
            for (;;) {
                const uint64_t seen = v;
                uint64_t next = seen + ((uint64_t)count << Claims::ENDED);
                if (kappa < Claims::best(seen)) {
                    next = (next & ~(Claims::MASK << Claims::BEST)) | ((uint64_t)kappa << Claims::BEST);
                }
                v = atomic::cas(rec, seen, next);
                if (v == seen) return 0;
            }
        });
    }

    /** Publishes the task's status (after its signature) and closes its record. */
    static DG_HD void finish(uint64_t* rec, uint8_t* status, int task, uint8_t st) {
        publish_status(status, task, st);
        warp::lane0([&] { atomic::store(rec, (uint64_t)0); return 0; });
    }

    /**
     * Runs task `task` through its record: begins it (its key's K, mu and rho'' into sh; a packed
     * key decoded and expanded into the workspace), then claims and tries its iterations until it
     * has none to claim. The warp that accepts the smallest kappa waits for every claimed kappa to
     * end, then publishes the task (signature and status) and closes the record. Only a cached
     * key's task has helpers (they read its slot; a packed key's expansion is its owner's).
     * Returns the iterations this warp claimed.
     */
    static DG_HD int run(const typename Task::Args& a, uint64_t* rec, int task, bool helper, uint8_t* status,
                         WarpShared& sh, int32_t* ws, const int32_t* zt) {
        const int32_t k = a.key_of[task];
        const bool packed = k < 0;
        const uint8_t* key =
            packed ? a.sks + uncached_record(k) * P::SK_BYTES : a.slots + (size_t)k * ExpandSkTask<P>::SLOT_BYTES;
        const uint8_t* mu = a.msgs == nullptr
                ? a.mus + (size_t)task * CRH_BYTES
                : message_mu<P>(a.msgs + (size_t)task * ABI_MESSAGE_BYTES,
                                packed ? key + P::SK_TR : key + Sign::SLOT_TR_BYTE, sh);
        Sign::begin(packed ? KeySource::PACKED : KeySource::SLOT, key, mu, a.rnds + (size_t)task * P::RND_BYTES, sh);
        if (packed && !Sign::decode_keys(key, ws, sh, zt)) {
            finish(rec, status, task, ABI_STATUS_INVALID_KEY);
            return 0;
        }
        const int32_t* keys = packed ? ws : reinterpret_cast<const int32_t*>(key);
        // The loop's kappas in one word, 12 bits each (kappa <= ITERATIONS < 4096): the y block
        // drawn [base, bend), the claim [from, hi) and the next to try lo. Warp-uniform values
        // that live across attempt(), whose transforms use every register the block allows.
        volatile uint64_t state = 0;  // in local memory: read and written between attempts only
        int tried = 0;
        DG_NO_UNROLL
        for (;;) {
            KappaState st{state};
            if (st.get(KappaState::LO) == st.get(KappaState::HI)) {
                // One claim a block of y while tasks are left to take (nobody helps then), one a
                // kappa once helpers may join.
                const int rejected = st.get(KappaState::LO) - st.get(KappaState::FROM);
                if (rejected > 0) end(rec, rejected, 0, false);
                const bool alone = !helper && warp::lane0([&] { return atomic::load(untaken_sign_tasks()); }) != 0;
                int granted = 0;
                const int lo = claim(rec, task, helper,
                                     alone ? (packed && st.get(KappaState::LO) == 0 ? Sign::FIRST : Sign::CANDIDATES) : 1, &granted);
                if (lo < 0) return tried;
                st.set(KappaState::LO, lo);
                st.set(KappaState::FROM, lo);
                st.set(KappaState::HI, lo + granted);
            }
            int kappa = st.get(KappaState::LO);
            st.set(KappaState::LO, kappa + 1);
#if !DG_ON_DEVICE
            ++tried;  // the host tests count helpers' iterations
#endif
            bool accepted = kappa == Sign::ITERATIONS;
            if (!accepted) {
                if (kappa < st.get(KappaState::BASE) || kappa >= st.get(KappaState::BEND)) {
                    // The blocks of SignTask::sign: a packed key's first draws A^ too and holds FIRST.
                    const int most = packed && kappa == 0 ? Sign::FIRST : Sign::CANDIDATES;
                    const int size = Sign::ITERATIONS - kappa < most ? Sign::ITERATIONS - kappa : most;
                    st.set(KappaState::BASE, kappa);
                    st.set(KappaState::BEND, kappa + size);
                    state = st.bits;
                    Sign::draw(kappa, size, 1, packed && kappa == 0, sh, ws);
                }
                state = st.bits;
                accepted = Sign::attempt(ws + Sign::WS_Y + (kappa - st.get(KappaState::BASE)) * P::L * N, Sign::staged(ws), sh,
                                         keys, ws, zt);
                st.bits = state;
                kappa = st.get(KappaState::LO) - 1;
            }
            if (!accepted) continue;
            end(rec, st.get(KappaState::HI) - st.get(KappaState::FROM), kappa, true);  // the block's untried kappas end untried
            // Every kappa claimed before this one ends in at most one iteration's time.
            for (;;) {
                const uint64_t v = warp::lane0([&] { return atomic::load(rec); });
                if (Claims::best(v) < kappa) return tried;
                if (Claims::ended(v) == Claims::claimed(v)) break;
                atomic::backoff();
            }
            if (kappa < Sign::ITERATIONS) Sign::copy_out(Sign::staged(ws), a.sigs + (size_t)task * P::SIG_BYTES);
            finish(rec, status, task, kappa < Sign::ITERATIONS ? ABI_STATUS_OK : ABI_STATUS_INVALID_KEY);
            return tried;
        }
    }

    /**
     * A record that a helper may join, from a pass over the records after `worker`'s: its index,
     * or -1 when tasks are left to take or a whole pass finds none (every record closed, decided,
     * at HELP_CAP, or a packed key's).
     */
    static DG_HD int open_record(const typename Task::Args& a, const uint64_t* recs, int nrecs, int worker) {
        if (warp::lane0([&] { return atomic::load(untaken_sign_tasks()); }) != 0) return -1;
        DG_NO_UNROLL
        for (int pass = 0; pass * 32 < nrecs; ++pass) {
            const int r = (worker + 1 + pass * 32 + (int)warp::lane()) % nrecs;
            const uint64_t v = atomic::load(&recs[r]);
            const int c = Claims::claimed(v);
            const bool open = Claims::task(v) >= 0 && Claims::best(v) == Claims::NONE && c <= Sign::ITERATIONS &&
                              c - Claims::ended(v) < HELP_CAP;
            const uint32_t bits = warp::ballot(open && a.key_of[Claims::task(v)] >= 0);
            if (bits != 0) return warp::shfl(r, warp::lowest(bits));
        }
        return -1;
    }

    /** Takes the launch's next task index, keeping the count of untaken tasks. */
    static DG_HD int take(uint32_t* next_task, int n) {
        return warp::lane0([&] {
            const int t = (int)atomic::add(next_task, 1u);
            if (t == 0) {
                atomic::add(untaken_sign_tasks(), (uint32_t)(n - 1));
            } else if (t < n) {
                atomic::add(untaken_sign_tasks(), UINT32_MAX);  // a take before the first's add wraps: helpers wait
            }
            return t;
        });
    }

    /**
     * Worker `worker` of `workers` (at most ABI_HELP_RECORDS): takes tasks through its record until
     * the launch has none left; then helps the tasks whose records are open, until none is left to
     * join; then exits as every worker does (worker_exit). Returns the iterations it claimed as a
     * helper (the host tests count them).
     */
    static DG_HD int worker_loop(const typename Task::Args& a, uint8_t* status, int n, int workers, int worker,
                                 uint32_t* scratch, WarpShared& sh, int32_t* ws, const int32_t* zt) {
        uint64_t* recs = records(scratch);
        bool drained = false;
        int helped = 0;
        DG_NO_UNROLL
        for (;;) {
            int task = n, r = worker;
            if (!drained) {
                task = take(&scratch[ABI_SCRATCH_NEXT_TASK], n);
                drained = task >= n;
                if (!drained) {
                    // Closed by the warp that published this worker's last task (a helper only once
                    // no task is left to take: at once in practice).
                    while (warp::lane0([&] { return atomic::load(&recs[r]); }) != 0) atomic::backoff();
                    warp::lane0([&] { atomic::store(&recs[r], Claims::opened(task)); return 0; });
                }
            }
            if (drained) {
                if (HELP_CAP == 0 || (r = open_record(a, recs, workers, worker)) < 0) break;
                task = Claims::task(warp::lane0([&] { return atomic::load(&recs[r]); }));
                if (task < 0) continue;  // closed since the pass
            }
            const int tried = run(a, &recs[r], task, drained, status, sh, ws, zt);
            if (drained) helped += tried;
        }
        worker_exit(ws, Sign::WS_WORDS, sh, scratch, workers);
        return helped;
    }
};

#if defined(__CUDACC__)

/** sign_keyed_helped_: one worker per warp of one-warp blocks, as run_persistent, each with its record (at most ABI_HELP_RECORDS). */
template <class P>
__device__ __forceinline__ void run_helped(const typename KeyedSignTask<P>::Args& args, uint8_t* status, int n,
                                           uint32_t* scratch, uint8_t* workspace) {
    extern __shared__ __align__(16) uint8_t dg_dynamic_shared[];
    int32_t* zt = reinterpret_cast<int32_t*>(dg_dynamic_shared);
    fill_zeta_table(zt, (int)threadIdx.x, (int)blockDim.x);
    __syncthreads();
    const int warps = (int)(blockDim.x >> 5);
    const int warp_in_block = (int)(threadIdx.x >> 5);
    WarpShared& sh = reinterpret_cast<WarpShared*>(dg_dynamic_shared + ZETA_TABLE_BYTES)[warp_in_block];
    const long long worker = (long long)blockIdx.x * warps + warp_in_block;
    if (worker >= n || worker >= ABI_HELP_RECORDS) return;
    int32_t* ws = reinterpret_cast<int32_t*>(workspace + worker * (long long)SignTask<P>::WS_WORDS * 4);
    long long workers = (long long)gridDim.x * warps;
    if (workers > n) workers = n;
    if (workers > ABI_HELP_RECORDS) workers = ABI_HELP_RECORDS;
    HelpedSign<P>::worker_loop(args, status, n, (int)workers, (int)worker, scratch, sh, ws, zt);
}

#endif

}  // namespace dg

#endif
