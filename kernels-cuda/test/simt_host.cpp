/* Host SIMT emulator: 32 ucontext fibers, round-robin barriers at each warp primitive. */
#include "simt_host.h"

#include <ucontext.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kLanes = 32;
constexpr size_t kStackBytes = 1 << 20;

struct Emulator {
    ucontext_t main_ctx;
    ucontext_t lane_ctx[kLanes];
    std::vector<char> stacks[kLanes];
    int current = 0;
    uint64_t slot[kLanes];
    unsigned long long calls[kLanes];
    const std::function<void()>* body = nullptr;
    unsigned long long primitives = 0;
};

Emulator* g = nullptr;

/** Hands control to the next lane; when every lane has called it once, lane 0 resumes. */
void pass() {
    const int me = g->current;
    const int next = (me + 1) % kLanes;
    g->current = next;
    swapcontext(&g->lane_ctx[me], &g->lane_ctx[next]);
}

/** All lanes deposit, meet, read, meet again. */
template <class Read>
auto exchange(uint64_t value, Read read) {
    const int me = g->current;
    g->slot[me] = value;
    ++g->calls[me];
    pass();
    for (int i = 1; i < kLanes; ++i) {
        if (g->calls[i] != g->calls[0]) {
            std::fprintf(stderr, "simt_host: lanes diverged at a warp primitive (lane %d: %llu calls, lane 0: %llu)\n",
                         i, g->calls[i], g->calls[0]);
            std::abort();
        }
    }
    auto result = read();
    if (me == 0) ++g->primitives;
    pass();
    return result;
}

void lane_entry(int lane) {
    (*g->body)();
    if (lane + 1 < kLanes) {
        g->current = lane + 1;
        setcontext(&g->lane_ctx[lane + 1]);
    } else {
        setcontext(&g->main_ctx);
    }
}

}  // namespace

unsigned dg_simt_lane() { return (unsigned)g->current; }

uint64_t dg_simt_shfl(uint64_t value, int src_lane) {
    return exchange(value, [&] { return g->slot[src_lane & 31]; });
}

uint32_t dg_simt_ballot(int predicate) {
    return exchange((uint64_t)(predicate != 0), [&] {
        uint32_t bits = 0;
        for (int i = 0; i < kLanes; ++i) bits |= (uint32_t)(g->slot[i] & 1) << i;
        return bits;
    });
}

void dg_simt_sync() {
    exchange(0, [] { return 0; });
}

namespace dgtest {

void run_warp(const std::function<void()>& body) {
    static Emulator emulator;
    g = &emulator;
    g->body = &body;
    g->current = 0;
    g->primitives = 0;
    for (int i = 0; i < kLanes; ++i) {
        g->calls[i] = 0;
        g->stacks[i].resize(kStackBytes);
        getcontext(&g->lane_ctx[i]);
        g->lane_ctx[i].uc_stack.ss_sp = g->stacks[i].data();
        g->lane_ctx[i].uc_stack.ss_size = kStackBytes;
        g->lane_ctx[i].uc_link = nullptr;
        makecontext(&g->lane_ctx[i], (void (*)())lane_entry, 1, i);
    }
    swapcontext(&g->main_ctx, &g->lane_ctx[0]);
    for (int i = 1; i < kLanes; ++i) {
        if (g->calls[i] != g->calls[0]) {
            std::fprintf(stderr, "simt_host: lanes ended after different numbers of warp primitives\n");
            std::abort();
        }
    }
}

unsigned long long warp_primitive_count() { return g ? g->primitives : 0; }

}  // namespace dgtest
