/*
 * Kernel-only throughput of every entry point, device to device: the numbers that separate the
 * kernels' cost from the Java host path's (packing, pinned copies, PCIe). Built on the GPU host
 * from the same sources as the fatbin (test/run-kernel-bench.sh); uses the runtime API because
 * it is a measuring tool, not the product (the provider loads the fatbin through the driver API).
 *
 * For each set: keygen from random seeds, sign random mu with random rnd using those keys,
 * verify those signatures; every status byte must be OK (a run with a wrong status reports
 * no number). Each launch is timed with events, warm-up first, median of the runs.
 *
 * Usage: kernel_bench [tasks (default 10000)] [runs (default 10)] [filter: substring of
 *        "<op>_<set>", default all] [streams (default 1): launches of tasks/streams in parallel]
 * Prints one line per entry point: median ms, ops/s, and the launch configuration.
 * DG_H2H=up|ud|sp|sd|mp|md adds a host-to-host line after each signing line (bench_sign_h2h).
 * DG_HOSTMEM=register keeps the host-to-host records in registered rather than cudaHostAlloc memory.
 * DG_DIRTY=1 has the host write the signature records before each host-to-host run.
 * DG_WIPE=1 adds the provider's wipes of the previous batch to each host-to-host run.
 * DG_GATE=1 holds every launch of a run until all are issued (time_runs).
 * DG_WIDE_TAIL=m adds, after each keyed signing line, one whose streams holding the last m tasks
 * launch sign_keyed_wide_ (the host's tail of a large call); sign_keyed_wide_ on all tasks always runs.
 *
 * The key cache (a filter naming it, "keyed" or e.g. "keyed_mldsa44"; not part of "all"): per set,
 * for one key, 64 keys, and 64 keys of which every other one is uncached, expand_sk_ / expand_pk_ into slots, then sign_ against
 * sign_keyed_ and sign_keyed_wide_, and verify_ against verify_keyed_ on the same keys and inputs, alternated in
 * min(3, runs) rounds (one line per run); every status must be OK and the keyed signatures
 * identical to the plain ones.
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "../src/module.cu"

#define CHECK_CUDA(call)                                                                         \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            std::exit(1);                                                                        \
        }                                                                                        \
    } while (0)

namespace {

int g_sms = 0;
int g_runs = 10;
int g_streams = 1;
int g_grid_share = 1;  // DG_GRID_SHARE, read once in main
std::string g_filter;
std::mt19937_64 g_rng(7);

struct Cfg {
    int threads, tasks, smem, persistent, workspace;
};

/** The launch configuration an entry point publishes in its <entry>_cfg constant (batch_abi.h). */
Cfg read_cfg(const int32_t (&symbol)[ABI_CFG_WORDS]) {
    int32_t w[ABI_CFG_WORDS];
    CHECK_CUDA(cudaMemcpyFromSymbol(w, symbol, sizeof(w)));
    return Cfg{w[ABI_CFG_THREADS], w[ABI_CFG_TASKS], w[ABI_CFG_SMEM], w[ABI_CFG_PERSISTENT], w[ABI_CFG_WORKSPACE]};
}

/*
 * Blocks for n tasks: one per c.tasks tasks, capped for persistent kernels at the resident blocks
 * divided by DG_GRID_SHARE (default 1) when that is set: the share of the GPU one of several
 * concurrent launches takes, so that its warps pull several tasks each.
 */
int grid_for(const Cfg& c, int n) {
    long blocks = (n + c.tasks - 1) / c.tasks;
    if (c.persistent > 0) blocks = std::min<long>(blocks, std::max<long>(1, (long)c.persistent * g_sms / g_grid_share));
    return (int)blocks;
}

uint8_t* device_random(size_t bytes) {
    std::vector<uint8_t> h(bytes);
    for (auto& b : h) b = (uint8_t)g_rng();
    uint8_t* d;
    CHECK_CUDA(cudaMalloc(&d, bytes));
    CHECK_CUDA(cudaMemcpy(d, h.data(), bytes, cudaMemcpyHostToDevice));
    return d;
}

uint8_t* device_alloc(size_t bytes) {
    uint8_t* d;
    CHECK_CUDA(cudaMalloc(&d, bytes));
    CHECK_CUDA(cudaMemset(d, 0xA5, bytes));  // poisoned: every output must be written
    return d;
}

/** Per stream: scratch counters and workspace for one launch of `n` tasks. */
struct Slot {
    cudaStream_t stream;
    uint32_t* scratch;
    uint8_t* workspace;
};

std::vector<Slot> make_slots(const Cfg& c, int per_stream) {
    std::vector<Slot> slots(g_streams);
    for (auto& s : slots) {
        CHECK_CUDA(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
        CHECK_CUDA(cudaMalloc(&s.scratch, ABI_SCRATCH_WORDS * 4));
        const long workers = std::min<long>(per_stream, (long)grid_for(c, per_stream) * c.tasks);
        CHECK_CUDA(cudaMalloc(&s.workspace, std::max<long>(1, workers * c.workspace)));
    }
    return slots;
}

void free_slots(std::vector<Slot>& slots) {
    for (auto& s : slots) {
        CHECK_CUDA(cudaFree(s.scratch));
        CHECK_CUDA(cudaFree(s.workspace));
        CHECK_CUDA(cudaStreamDestroy(s.stream));
    }
}

/** DG_GATE=1: every stream's launch waits for one gate, opened once all are issued (time_runs). */
bool g_gate = false;

__global__ void hold_gate(long long nanos) {
    const long long start = clock64();
    const long long cycles = nanos * 2;  // ample at any clock below 2 GHz; only a delay
    while (clock64() - start < cycles) __nanosleep(1000);
}

/**
 * Times `launch(slot, first, count)` over the batch split across the streams; returns the median
 * milliseconds of g_runs runs after 2 warm-ups, each after `prepare()` (untimed). With DG_GATE=1 the launches are held until all
 * are issued and then become runnable at one moment, from which the time is taken.
 */
template <class Launch, class Prepare = void (*)()>
double time_runs(const Cfg& c, int n, Launch launch, Prepare prepare = [] {}) {
    const int per = (n + g_streams - 1) / g_streams;
    std::vector<Slot> slots = make_slots(c, per);
    cudaEvent_t t0, t1;
    CHECK_CUDA(cudaEventCreate(&t0));
    CHECK_CUDA(cudaEventCreate(&t1));
    cudaStream_t gate;
    cudaEvent_t open;
    CHECK_CUDA(cudaStreamCreateWithFlags(&gate, cudaStreamNonBlocking));
    CHECK_CUDA(cudaEventCreateWithFlags(&open, cudaEventDisableTiming));
    std::vector<float> ms;
    for (int r = 0; r < g_runs + 2; ++r) {
        CHECK_CUDA(cudaDeviceSynchronize());
        prepare();
        if (g_gate) {
            hold_gate<<<1, 1, 0, gate>>>(1000000);
            CHECK_CUDA(cudaEventRecord(t0, gate));
            CHECK_CUDA(cudaEventRecord(open, gate));
        } else {
            CHECK_CUDA(cudaEventRecord(t0));
        }
        for (int s = 0; s < g_streams; ++s) {
            const int first = s * per, count = std::min(per, n - first);
            if (count <= 0) continue;
            if (g_gate) CHECK_CUDA(cudaStreamWaitEvent(slots[s].stream, open, 0));
            CHECK_CUDA(cudaMemsetAsync(slots[s].scratch, 0, ABI_SCRATCH_WORDS * 4, slots[s].stream));
            launch(slots[s], first, count);
            CHECK_CUDA(cudaGetLastError());
        }
        for (int s = 0; s < g_streams; ++s) CHECK_CUDA(cudaStreamSynchronize(slots[s].stream));
        CHECK_CUDA(cudaEventRecord(t1));
        CHECK_CUDA(cudaEventSynchronize(t1));
        float m;
        CHECK_CUDA(cudaEventElapsedTime(&m, t0, t1));
        if (r >= 2) ms.push_back(m);
    }
    free_slots(slots);
    CHECK_CUDA(cudaEventDestroy(open));
    CHECK_CUDA(cudaStreamDestroy(gate));
    CHECK_CUDA(cudaEventDestroy(t0));
    CHECK_CUDA(cudaEventDestroy(t1));
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

int count_ok(const uint8_t* d_status, int n) {
    std::vector<uint8_t> h(n);
    CHECK_CUDA(cudaMemcpy(h.data(), d_status, n, cudaMemcpyDeviceToHost));
    return (int)std::count(h.begin(), h.end(), (uint8_t)ABI_STATUS_OK);
}

void report(const char* entry, const Cfg& c, int n, double ms, int ok) {
    if (ok != n) {
        std::printf("%-18s FAILED: %d of %d tasks OK (no number reported)\n", entry, ok, n);
        return;
    }
    std::printf("%-18s %9.3f ms  %12.0f ops/s   block %d x %d warps, %d B smem, %d blocks/SM, %d B workspace/warp\n",
                entry, ms, n / (ms / 1e3), c.threads, c.tasks, c.smem, c.persistent, c.workspace);
}

bool selected(const std::string& entry) {
    return g_filter.empty() || entry.find(g_filter) != std::string::npos;
}

typedef void (*KeygenFn)(const uint8_t*, uint8_t*, uint8_t*, uint8_t*, int, uint32_t*, uint8_t*);
typedef void (*SignFn)(const uint8_t*, const uint8_t*, const uint8_t*, uint8_t*, uint8_t*, int, uint32_t*, uint8_t*);
typedef void (*VerifyFn)(const uint8_t*, const uint8_t*, const uint8_t*, uint8_t*, int, uint32_t*, uint8_t*);

/*
 * Signing host to host (DG_H2H=<inputs><outputs>, e.g. "up"), the provider's bulk path without
 * Java: the keys, mus and rnds start in page-locked host memory; inputs 'u' are uploaded per
 * stream before its launch (as StreamSlot.uploadDirect does), 's' likewise but every stream's
 * copies go through one upload stream in launch order, each launch waiting for its own copies'
 * event, 'm' are read by the kernels through their mapped addresses; outputs 'p' are written by the kernels straight into mapped page-locked
 * memory (published, the provider's default), 'd' into device memory and downloaded after the
 * launch. The time is the events' around the copies and launches of every stream, so that it
 * compares with the device-to-device line above it and with the throughput CLI's figure.
 */
const char* g_h2h = nullptr;

template <class P>
void bench_sign_h2h(const char* entry, SignFn sg, const Cfg& cs, int n, uint8_t* sks, const uint8_t* mus,
                    const uint8_t* rnds) {
    const bool mapped_in = g_h2h[0] == 'm', serial = g_h2h[0] == 's', publish = g_h2h[1] == 'p';
    cudaStream_t upload;
    CHECK_CUDA(cudaStreamCreateWithFlags(&upload, cudaStreamNonBlocking));
    std::vector<cudaEvent_t> uploaded(g_streams);
    for (auto& e : uploaded) CHECK_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    int launch_index = 0;
    // DG_WIPE=1: as each run starts, a stream of its own clears as many bytes as the provider's
    // wipes of the previous batch do (every launch's workspace and keys), into a buffer of its own.
    const bool wipe = std::getenv("DG_WIPE") != nullptr && std::atoi(std::getenv("DG_WIPE")) != 0;
    const bool dirty = std::getenv("DG_DIRTY") != nullptr && std::atoi(std::getenv("DG_DIRTY")) != 0;
    const int per = (n + g_streams - 1) / g_streams;
    const size_t wipe_b = wipe ? (size_t)g_streams * std::min<long>(per, (long)grid_for(cs, per) * cs.tasks) * cs.workspace + (size_t)n * P::SK_BYTES : 0;
    uint8_t* wipe_buf = nullptr;
    cudaStream_t wiper;
    CHECK_CUDA(cudaStreamCreateWithFlags(&wiper, cudaStreamNonBlocking));
    if (wipe) CHECK_CUDA(cudaMalloc(&wipe_buf, wipe_b));
    const size_t sk_b = (size_t)n * P::SK_BYTES, mu_b = (size_t)n * dg::CRH_BYTES, rnd_b = (size_t)n * P::RND_BYTES;
    const size_t sig_b = (size_t)n * P::SIG_BYTES;
    uint8_t *h_sk, *h_mu, *h_rnd, *h_sig, *h_status;
    // DG_HOSTMEM=register: the records in ordinary page-aligned memory page-locked with
    // cudaHostRegister, as the provider's HostBuffers are (JVM-owned memory, cuMemHostRegister).
    const bool registered = std::getenv("DG_HOSTMEM") != nullptr && std::string(std::getenv("DG_HOSTMEM")) == "register";
    auto host_alloc = [&](uint8_t** p, size_t bytes) {
        if (registered) {
            const size_t rounded = (bytes + 4095) / 4096 * 4096;
            *p = static_cast<uint8_t*>(std::aligned_alloc(4096, rounded));
            std::memset(*p, 0, rounded);
            CHECK_CUDA(cudaHostRegister(*p, rounded, cudaHostRegisterPortable | cudaHostRegisterMapped));
        } else {
            CHECK_CUDA(cudaHostAlloc(reinterpret_cast<void**>(p), bytes, cudaHostAllocMapped));
        }
    };
    host_alloc(&h_sk, sk_b);
    host_alloc(&h_mu, mu_b);
    host_alloc(&h_rnd, rnd_b);
    host_alloc(&h_sig, sig_b);
    host_alloc(&h_status, n);
    CHECK_CUDA(cudaMemcpy(h_sk, sks, sk_b, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_mu, mus, mu_b, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_rnd, rnds, rnd_b, cudaMemcpyDeviceToHost));
    uint8_t *m_sk, *m_mu, *m_rnd, *m_sig, *m_status;
    CHECK_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&m_sk), h_sk, 0));
    CHECK_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&m_mu), h_mu, 0));
    CHECK_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&m_rnd), h_rnd, 0));
    CHECK_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&m_sig), h_sig, 0));
    CHECK_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&m_status), h_status, 0));
    uint8_t *d_mu, *d_rnd, *d_sig = device_alloc(sig_b), *d_status = device_alloc(n);
    CHECK_CUDA(cudaMalloc(&d_mu, mu_b));
    CHECK_CUDA(cudaMalloc(&d_rnd, rnd_b));
    uint8_t* d_sk = sks;  // re-uploaded from its host copy: the same bytes
    const double ms = time_runs(cs, n, [&](Slot& s, int first, int count) {
        std::memset(h_status + first, 0xFF, count);  // so that every status counted was written by this run
        if (wipe && first == 0) CHECK_CUDA(cudaMemsetAsync(wipe_buf, 0, wipe_b, wiper));
        const uint8_t *sk = m_sk, *mu = m_mu, *rnd = m_rnd;
        if (!mapped_in) {
            cudaStream_t copies = serial ? upload : s.stream;
            CHECK_CUDA(cudaMemcpyAsync(d_sk + (size_t)first * P::SK_BYTES, h_sk + (size_t)first * P::SK_BYTES,
                                       (size_t)count * P::SK_BYTES, cudaMemcpyHostToDevice, copies));
            CHECK_CUDA(cudaMemcpyAsync(d_mu + (size_t)first * dg::CRH_BYTES, h_mu + (size_t)first * dg::CRH_BYTES,
                                       (size_t)count * dg::CRH_BYTES, cudaMemcpyHostToDevice, copies));
            CHECK_CUDA(cudaMemcpyAsync(d_rnd + (size_t)first * P::RND_BYTES, h_rnd + (size_t)first * P::RND_BYTES,
                                       (size_t)count * P::RND_BYTES, cudaMemcpyHostToDevice, copies));
            if (serial) {
                cudaEvent_t e = uploaded[launch_index++ % g_streams];
                CHECK_CUDA(cudaEventRecord(e, upload));
                CHECK_CUDA(cudaStreamWaitEvent(s.stream, e, 0));
            }
            sk = d_sk;
            mu = d_mu;
            rnd = d_rnd;
        }
        uint8_t* sig = publish ? m_sig : d_sig;
        uint8_t* st = publish ? m_status : d_status;
        sg<<<grid_for(cs, count), cs.threads, cs.smem, s.stream>>>(
            sk + (size_t)first * P::SK_BYTES, mu + (size_t)first * dg::CRH_BYTES, rnd + (size_t)first * P::RND_BYTES,
            sig + (size_t)first * P::SIG_BYTES, st + first, count, s.scratch, s.workspace);
        if (!publish) {
            CHECK_CUDA(cudaMemcpyAsync(h_sig + (size_t)first * P::SIG_BYTES, d_sig + (size_t)first * P::SIG_BYTES,
                                       (size_t)count * P::SIG_BYTES, cudaMemcpyDeviceToHost, s.stream));
            CHECK_CUDA(cudaMemcpyAsync(h_status + first, d_status + first, count, cudaMemcpyDeviceToHost, s.stream));
        }
    }, [&] {
        // DG_DIRTY=1: the host writes every signature record before each run, as the throughput
        // CLI's check did (its lines then sit dirty in the host's caches when the GPU writes them).
        if (dirty) std::memset(h_sig, 0, sig_b);
    });
    const int ok = (int)std::count(h_status, h_status + n, (uint8_t)ABI_STATUS_OK);
    report((std::string(entry) + " h2h " + g_h2h + (wipe ? " wipe" : "") + (registered ? " reg" : "") + (dirty ? " dirty" : "")).c_str(), cs, n,
           ms, ok);
    if (wipe) CHECK_CUDA(cudaFree(wipe_buf));
    CHECK_CUDA(cudaStreamDestroy(wiper));
    for (uint8_t* p : {h_sk, h_mu, h_rnd, h_sig, h_status}) {
        if (registered) {
            CHECK_CUDA(cudaHostUnregister(p));
            std::free(p);
        } else {
            CHECK_CUDA(cudaFreeHost(p));
        }
    }
    for (uint8_t* p : {d_mu, d_rnd, d_sig, d_status}) CHECK_CUDA(cudaFree(p));
    for (auto& e : uploaded) CHECK_CUDA(cudaEventDestroy(e));
    CHECK_CUDA(cudaStreamDestroy(upload));
}

template <class P>
void bench_set(const char* tag, KeygenFn kg, const Cfg& ck, SignFn sg, const Cfg& cs, VerifyFn vf, const Cfg& cv,
               int n) {
    const std::string t(tag);
    const bool any = selected("keygen_" + t) || selected("sign_" + t) || selected("verify_" + t);
    if (!any) return;
    uint8_t* seeds = device_random((size_t)n * dg::SEED_BYTES);
    uint8_t* mus = device_random((size_t)n * dg::CRH_BYTES);
    uint8_t* rnds = device_random((size_t)n * P::RND_BYTES);
    uint8_t* pks = device_alloc((size_t)n * P::PK_BYTES);
    uint8_t* sks = device_alloc((size_t)n * P::SK_BYTES);
    uint8_t* sigs = device_alloc((size_t)n * P::SIG_BYTES);
    uint8_t* status = device_alloc(n);

    for (const void* f : {(const void*)kg, (const void*)sg, (const void*)vf}) {
        CHECK_CUDA(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        std::max({ck.smem, cs.smem, cv.smem})));
        if (std::getenv("DG_CARVEOUT")) {
            CHECK_CUDA(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout,
                                            std::atoi(std::getenv("DG_CARVEOUT"))));
        }
    }

    // Keys are always made (sign and verify need them); reported when selected.
    double ms = time_runs(ck, n, [&](Slot& s, int first, int count) {
        kg<<<grid_for(ck, count), ck.threads, ck.smem, s.stream>>>(
            seeds + (size_t)first * dg::SEED_BYTES, pks + (size_t)first * P::PK_BYTES, sks + (size_t)first * P::SK_BYTES,
            status + first, count, s.scratch, s.workspace);
    });
    if (selected("keygen_" + t)) report(("keygen_" + t).c_str(), ck, n, ms, count_ok(status, n));

    if (selected("sign_" + t) || selected("verify_" + t)) {
        ms = time_runs(cs, n, [&](Slot& s, int first, int count) {
            sg<<<grid_for(cs, count), cs.threads, cs.smem, s.stream>>>(
                sks + (size_t)first * P::SK_BYTES, mus + (size_t)first * dg::CRH_BYTES, rnds + (size_t)first * P::RND_BYTES,
                sigs + (size_t)first * P::SIG_BYTES, status + first, count, s.scratch, s.workspace);
        });
        if (selected("sign_" + t)) report(("sign_" + t).c_str(), cs, n, ms, count_ok(status, n));
        if (selected("sign_" + t) && g_h2h != nullptr) bench_sign_h2h<P>(("sign_" + t).c_str(), sg, cs, n, sks, mus, rnds);
    }
    if (selected("verify_" + t)) {
        ms = time_runs(cv, n, [&](Slot& s, int first, int count) {
            vf<<<grid_for(cv, count), cv.threads, cv.smem, s.stream>>>(
                pks + (size_t)first * P::PK_BYTES, mus + (size_t)first * dg::CRH_BYTES, sigs + (size_t)first * P::SIG_BYTES,
                status + first, count, s.scratch, s.workspace);
        });
        report(("verify_" + t).c_str(), cv, n, ms, count_ok(status, n));
    }
    for (uint8_t* p : {seeds, mus, rnds, pks, sks, sigs, status}) CHECK_CUDA(cudaFree(p));
}

typedef void (*ExpandFn)(const uint8_t*, const int32_t*, uint8_t*, uint8_t*, int, uint32_t*, uint8_t*);
/* sks/pks, keyOf, slots, mus, msgs (nullptr here: every task's mu is given), ... */
typedef void (*SignKeyedFn)(const uint8_t*, const int32_t*, const uint8_t*, const uint8_t*, const uint8_t*,
                            const uint8_t*, uint8_t*, uint8_t*, int, uint32_t*, uint8_t*);
typedef void (*VerifyKeyedFn)(const uint8_t*, const int32_t*, const uint8_t*, const uint8_t*, const uint8_t*,
                              const uint8_t*, uint8_t*, int, uint32_t*, uint8_t*);

/** The key-cache entry points of one set and their configurations. */
struct KeyedSet {
    ExpandFn expand_sk, expand_pk;
    SignKeyedFn sign_keyed;
    VerifyKeyedFn verify_keyed;
    Cfg c_expand_sk, c_expand_pk, c_sign_keyed, c_verify_keyed;
    int slot_sk, slot_pk;
    SignKeyedFn sign_wide;
    Cfg c_sign_wide;
};

/** DG_WIDE_TAIL=m: the keyed signing line is followed by one whose last m tasks' streams launch sign_keyed_wide_. */
int g_wide_tail = 0;

template <class T>
T* device_copy(const std::vector<T>& h) {
    T* d;
    CHECK_CUDA(cudaMalloc(&d, std::max<size_t>(1, h.size() * sizeof(T))));
    CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

std::vector<uint8_t> host_copy(const uint8_t* d, size_t bytes) {
    std::vector<uint8_t> h(bytes);
    CHECK_CUDA(cudaMemcpy(h.data(), d, bytes, cudaMemcpyDeviceToHost));
    return h;
}

/** Rounds of alternated plain and keyed runs per key distribution: 3, or fewer runs (sanitizers). */
int keyed_rounds() { return std::min(3, g_runs); }

/**
 * sign_ / verify_ against sign_keyed_ / verify_keyed_ on n tasks over `keys` keys (task i uses key
 * i * keys / n: the tasks of a key adjacent, as the host sorts them); with `half_cached`, keys of
 * odd index are uncached (packed records, densely). Expansion lines time expand_sk_ / expand_pk_
 * of the cached keys.
 */
template <class P>
void bench_keyed_keys(const std::string& t, KeygenFn kg, const Cfg& ck, SignFn sg, const Cfg& cs, VerifyFn vf,
                      const Cfg& cv, const KeyedSet& ks, int n, int keys, bool half_cached) {
    keys = std::min(keys, n);
    const std::string what = std::to_string(keys) + (keys == 1 ? " key" : " keys") + (half_cached ? ", half cached" : "");
    // Keys.
    uint8_t* seeds = device_random((size_t)keys * dg::SEED_BYTES);
    uint8_t* kpk = device_alloc((size_t)keys * P::PK_BYTES);
    uint8_t* ksk = device_alloc((size_t)keys * P::SK_BYTES);
    uint8_t* status = device_alloc(n);
    time_runs(ck, keys, [&](Slot& s, int first, int count) {
        kg<<<grid_for(ck, count), ck.threads, ck.smem, s.stream>>>(
            seeds + (size_t)first * dg::SEED_BYTES, kpk + (size_t)first * P::PK_BYTES, ksk + (size_t)first * P::SK_BYTES,
            status + first, count, s.scratch, s.workspace);
    });
    const std::vector<uint8_t> hpk = host_copy(kpk, (size_t)keys * P::PK_BYTES);
    const std::vector<uint8_t> hsk = host_copy(ksk, (size_t)keys * P::SK_BYTES);

    // Cached keys take slots 0, 1, ... in key order; uncached ones records 0, 1, ....
    std::vector<int32_t> index_of_key(keys);
    std::vector<int32_t> slot_of;
    std::vector<uint8_t> cached_sk, cached_pk, packed_sk, packed_pk;
    for (int k = 0; k < keys; ++k) {
        const bool cached = !half_cached || k % 2 == 0;
        std::vector<uint8_t>& to_sk = cached ? cached_sk : packed_sk;
        std::vector<uint8_t>& to_pk = cached ? cached_pk : packed_pk;
        const int index = (int)(to_sk.size() / P::SK_BYTES);
        to_sk.insert(to_sk.end(), hsk.begin() + (size_t)k * P::SK_BYTES, hsk.begin() + (size_t)(k + 1) * P::SK_BYTES);
        to_pk.insert(to_pk.end(), hpk.begin() + (size_t)k * P::PK_BYTES, hpk.begin() + (size_t)(k + 1) * P::PK_BYTES);
        index_of_key[k] = cached ? index : -index - 1;
        if (cached) slot_of.push_back(index);
    }
    const int cached = (int)slot_of.size();
    std::vector<int32_t> key_of(n);
    std::vector<uint8_t> plain_sk((size_t)n * P::SK_BYTES), plain_pk((size_t)n * P::PK_BYTES);
    for (int i = 0; i < n; ++i) {
        const int k = (int)((long)i * keys / n);
        key_of[i] = index_of_key[k];
        std::memcpy(&plain_sk[(size_t)i * P::SK_BYTES], &hsk[(size_t)k * P::SK_BYTES], P::SK_BYTES);
        std::memcpy(&plain_pk[(size_t)i * P::PK_BYTES], &hpk[(size_t)k * P::PK_BYTES], P::PK_BYTES);
    }
    uint8_t *d_plain_sk = device_copy(plain_sk), *d_plain_pk = device_copy(plain_pk);
    uint8_t *d_cached_sk = device_copy(cached_sk), *d_cached_pk = device_copy(cached_pk);
    uint8_t *d_packed_sk = device_copy(packed_sk), *d_packed_pk = device_copy(packed_pk);
    int32_t *d_slot_of = device_copy(slot_of), *d_key_of = device_copy(key_of);
    uint8_t* sk_slots = device_alloc((size_t)cached * ks.slot_sk);
    uint8_t* pk_slots = device_alloc((size_t)cached * ks.slot_pk);

    double ms = time_runs(ks.c_expand_sk, cached, [&](Slot& s, int first, int count) {
        ks.expand_sk<<<grid_for(ks.c_expand_sk, count), ks.c_expand_sk.threads, ks.c_expand_sk.smem, s.stream>>>(
            d_cached_sk + (size_t)first * P::SK_BYTES, d_slot_of + first, sk_slots, status + first, count, s.scratch,
            s.workspace);
    });
    report(("expand_sk_" + t + " " + what).c_str(), ks.c_expand_sk, cached, ms, count_ok(status, cached));
    ms = time_runs(ks.c_expand_pk, cached, [&](Slot& s, int first, int count) {
        ks.expand_pk<<<grid_for(ks.c_expand_pk, count), ks.c_expand_pk.threads, ks.c_expand_pk.smem, s.stream>>>(
            d_cached_pk + (size_t)first * P::PK_BYTES, d_slot_of + first, pk_slots, status + first, count, s.scratch,
            s.workspace);
    });
    report(("expand_pk_" + t + " " + what).c_str(), ks.c_expand_pk, cached, ms, count_ok(status, cached));

    uint8_t* mus = device_random((size_t)n * dg::CRH_BYTES);
    uint8_t* rnds = device_random((size_t)n * P::RND_BYTES);
    uint8_t* sigs = device_alloc((size_t)n * P::SIG_BYTES);
    uint8_t* keyed_sigs = device_alloc((size_t)n * P::SIG_BYTES);
    const bool do_sign = selected("sign_keyed_" + t), do_verify = selected("verify_keyed_" + t);
    for (int round = 0; round < keyed_rounds(); ++round) {
        // Plain signing always runs: verification checks its signatures.
        ms = time_runs(cs, n, [&](Slot& s, int first, int count) {
            sg<<<grid_for(cs, count), cs.threads, cs.smem, s.stream>>>(
                d_plain_sk + (size_t)first * P::SK_BYTES, mus + (size_t)first * dg::CRH_BYTES,
                rnds + (size_t)first * P::RND_BYTES, sigs + (size_t)first * P::SIG_BYTES, status + first, count,
                s.scratch, s.workspace);
        });
        if (do_sign) report(("sign_" + t + " " + what).c_str(), cs, n, ms, count_ok(status, n));
        if (do_sign) {
            ms = time_runs(ks.c_sign_keyed, n, [&](Slot& s, int first, int count) {
                ks.sign_keyed<<<grid_for(ks.c_sign_keyed, count), ks.c_sign_keyed.threads, ks.c_sign_keyed.smem,
                                s.stream>>>(d_packed_sk, d_key_of + first, sk_slots, mus + (size_t)first * dg::CRH_BYTES, nullptr,
                                            rnds + (size_t)first * P::RND_BYTES, keyed_sigs + (size_t)first * P::SIG_BYTES,
                                            status + first, count, s.scratch, s.workspace);
            });
            const int ok = count_ok(status, n);
            const bool same = host_copy(sigs, (size_t)n * P::SIG_BYTES) == host_copy(keyed_sigs, (size_t)n * P::SIG_BYTES);
            report(("sign_keyed_" + t + " " + what).c_str(), ks.c_sign_keyed, n, ms, same ? ok : -1);
            if (!same) std::printf("sign_keyed_%s %s: signatures differ from sign_%s's\n", t.c_str(), what.c_str(), t.c_str());
            // sign_keyed_wide_: every task, then (DG_WIDE_TAIL) only the streams of the last m tasks.
            // Slots are sized for the wide launch's workspace, which is the larger.
            Cfg alloc = ks.c_sign_wide;
            alloc.persistent = ks.c_sign_keyed.persistent;
            for (const int tail : {n, g_wide_tail}) {
                if (tail <= 0 || tail > n) continue;
                CHECK_CUDA(cudaMemset(keyed_sigs, 0xA5, (size_t)n * P::SIG_BYTES));
                const int from = n - tail;
                ms = time_runs(alloc, n, [&](Slot& s, int first, int count) {
                    const bool wide = first >= from;
                    const Cfg& c = wide ? ks.c_sign_wide : ks.c_sign_keyed;
                    (wide ? ks.sign_wide : ks.sign_keyed)<<<grid_for(c, count), c.threads, c.smem, s.stream>>>(
                        d_packed_sk, d_key_of + first, sk_slots, mus + (size_t)first * dg::CRH_BYTES, nullptr,
                        rnds + (size_t)first * P::RND_BYTES, keyed_sigs + (size_t)first * P::SIG_BYTES, status + first,
                        count, s.scratch, s.workspace);
                });
                const int wok = count_ok(status, n);
                const bool wsame = host_copy(sigs, (size_t)n * P::SIG_BYTES) == host_copy(keyed_sigs, (size_t)n * P::SIG_BYTES);
                const std::string label = tail == n ? "sign_keyed_wide_" + t + " " + what
                                                    : "sign_keyed_" + t + "+wide tail " + std::to_string(tail) + " " + what;
                report(label.c_str(), ks.c_sign_wide, n, ms, wsame ? wok : -1);
                if (!wsame) std::printf("%s: signatures differ from sign_%s's\n", label.c_str(), t.c_str());
            }
        }
        if (do_verify) {
            ms = time_runs(cv, n, [&](Slot& s, int first, int count) {
                vf<<<grid_for(cv, count), cv.threads, cv.smem, s.stream>>>(
                    d_plain_pk + (size_t)first * P::PK_BYTES, mus + (size_t)first * dg::CRH_BYTES,
                    sigs + (size_t)first * P::SIG_BYTES, status + first, count, s.scratch, s.workspace);
            });
            report(("verify_" + t + " " + what).c_str(), cv, n, ms, count_ok(status, n));
            ms = time_runs(ks.c_verify_keyed, n, [&](Slot& s, int first, int count) {
                ks.verify_keyed<<<grid_for(ks.c_verify_keyed, count), ks.c_verify_keyed.threads, ks.c_verify_keyed.smem,
                                  s.stream>>>(d_packed_pk, d_key_of + first, pk_slots, mus + (size_t)first * dg::CRH_BYTES, nullptr,
                                              sigs + (size_t)first * P::SIG_BYTES, status + first, count, s.scratch,
                                              s.workspace);
            });
            report(("verify_keyed_" + t + " " + what).c_str(), ks.c_verify_keyed, n, ms, count_ok(status, n));
        }
    }
    // The slots hold secrets: wiped as the host does.
    CHECK_CUDA(cudaMemset(sk_slots, 0, std::max<size_t>(1, (size_t)cached * ks.slot_sk)));
    for (uint8_t* p : {seeds, kpk, ksk, status, d_plain_sk, d_plain_pk, d_cached_sk, d_cached_pk, d_packed_sk,
                       d_packed_pk, sk_slots, pk_slots, mus, rnds, sigs, keyed_sigs}) {
        CHECK_CUDA(cudaFree(p));
    }
    CHECK_CUDA(cudaFree(d_slot_of));
    CHECK_CUDA(cudaFree(d_key_of));
}

template <class P>
void bench_keyed(const char* tag, KeygenFn kg, const Cfg& ck, SignFn sg, const Cfg& cs, VerifyFn vf, const Cfg& cv,
                 const KeyedSet& ks, int n) {
    const std::string t(tag);
    if (g_filter.empty() || (!selected("sign_keyed_" + t) && !selected("verify_keyed_" + t))) return;
    // The plain entry points too: a "keyed" filter skips bench_set, which sets theirs.
    const int smem = std::max({ck.smem, cs.smem, cv.smem, ks.c_expand_sk.smem, ks.c_expand_pk.smem,
                               ks.c_sign_keyed.smem, ks.c_verify_keyed.smem, ks.c_sign_wide.smem});
    for (const void* f : {(const void*)kg, (const void*)sg, (const void*)vf, (const void*)ks.expand_sk,
                          (const void*)ks.expand_pk, (const void*)ks.sign_keyed, (const void*)ks.verify_keyed,
                          (const void*)ks.sign_wide}) {
        CHECK_CUDA(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    }
    bench_keyed_keys<P>(t, kg, ck, sg, cs, vf, cv, ks, n, 1, false);
    bench_keyed_keys<P>(t, kg, ck, sg, cs, vf, cv, ks, n, 64, false);
    bench_keyed_keys<P>(t, kg, ck, sg, cs, vf, cv, ks, n, 64, true);
}

int read_int(const int32_t& symbol) {
    int32_t v;
    CHECK_CUDA(cudaMemcpyFromSymbol(&v, symbol, sizeof(v)));
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 10000;
    g_runs = argc > 2 ? std::atoi(argv[2]) : 10;
    g_filter = argc > 3 ? argv[3] : "";
    g_streams = argc > 4 ? std::max(1, std::atoi(argv[4])) : 1;
    if (const char* share = std::getenv("DG_GRID_SHARE")) g_grid_share = std::max(1, std::atoi(share));
    if (const char* tail = std::getenv("DG_WIDE_TAIL")) g_wide_tail = std::max(0, std::atoi(tail));
    if (g_filter == "all") g_filter.clear();
    g_h2h = std::getenv("DG_H2H");
    g_gate = std::getenv("DG_GATE") != nullptr && std::atoi(std::getenv("DG_GATE")) != 0;
    if (g_h2h != nullptr && (std::strlen(g_h2h) != 2 || std::strchr("usm", g_h2h[0]) == nullptr
                             || std::strchr("pd", g_h2h[1]) == nullptr)) {
        std::fprintf(stderr, "DG_H2H must be one of up, ud, sp, sd, mp, md\n");
        return 2;
    }
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    g_sms = prop.multiProcessorCount;
    std::printf("kernel_bench: %s, %d SMs; %d tasks, %d streams, median of %d runs (device to device)\n", prop.name,
                g_sms, n, g_streams, g_runs);
#define DG_BENCH(tag, PARAMS)                                                                               \
    bench_set<dg::PARAMS>(#tag, keygen_##tag, read_cfg(keygen_##tag##_cfg), sign_##tag, read_cfg(sign_##tag##_cfg), \
                          verify_##tag, read_cfg(verify_##tag##_cfg), n);                                    \
    bench_keyed<dg::PARAMS>(#tag, keygen_##tag, read_cfg(keygen_##tag##_cfg), sign_##tag, read_cfg(sign_##tag##_cfg), \
                            verify_##tag, read_cfg(verify_##tag##_cfg),                                      \
                            KeyedSet{expand_sk_##tag, expand_pk_##tag, sign_keyed_##tag, verify_keyed_##tag,   \
                                     read_cfg(expand_sk_##tag##_cfg), read_cfg(expand_pk_##tag##_cfg),         \
                                     read_cfg(sign_keyed_##tag##_cfg), read_cfg(verify_keyed_##tag##_cfg),     \
                                     read_int(slot_bytes_sk_##tag), read_int(slot_bytes_pk_##tag),            \
                                     sign_keyed_wide_##tag, read_cfg(sign_keyed_wide_##tag##_cfg)}, n)
    DG_BENCH(dilithium2, Dilithium2);
    DG_BENCH(dilithium3, Dilithium3);
    DG_BENCH(dilithium5, Dilithium5);
    DG_BENCH(mldsa44, MlDsa44);
    DG_BENCH(mldsa65, MlDsa65);
    DG_BENCH(mldsa87, MlDsa87);
    CHECK_CUDA(cudaDeviceSynchronize());
    return 0;
}
