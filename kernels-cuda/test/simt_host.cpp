/*
 * Host SIMT emulator: 32 ucontext fibers per warp, round-robin barriers at each warp primitive.
 * With several warps, a warp runs until it has completed a primitive, then the next unfinished
 * warp runs: deterministic interleavings in which every warp keeps making progress (a warp that
 * polls another's progress calls a primitive on each poll).
 */
#include "simt_host.h"

#include <ucontext.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kLanes = 32;
constexpr size_t kStackBytes = 1 << 20;

struct Warp {
    ucontext_t lane_ctx[kLanes];
    std::vector<char> stacks[kLanes];
    uint64_t slot[kLanes];
    unsigned long long calls[kLanes];
    int current = 0;
    int finished = 0;
};

struct Emulator {
    ucontext_t main_ctx;
    std::vector<Warp> warps;
    int warp = 0;
    /** 0: warps take turns in order; else the state of the generator that picks the next warp. */
    uint64_t schedule = 0;
    int live = 0;
    const std::function<void(int)>* body = nullptr;
    unsigned long long primitives = 0;
};

Emulator* g = nullptr;

Warp& here() { return g->warps[g->warp]; }

/** The next warp that has not finished after warp w (in turn, or from a random start), or -1. */
int next_live(int w) {
    const int n = (int)g->warps.size();
    int first = 1;
    if (g->schedule != 0) {
        // xorshift64: any warp, this one included, may run next.
        g->schedule ^= g->schedule << 13;
        g->schedule ^= g->schedule >> 7;
        g->schedule ^= g->schedule << 17;
        first = (int)(g->schedule % (uint64_t)n);
    }
    for (int k = 0; k < n; ++k) {
        const int c = (w + first + k) % n;
        if (g->warps[c].finished < kLanes) return c;
    }
    return -1;
}

/**
 * Hands control to the next lane of this warp; when every lane has called it once, lane 0
 * resumes, or, at the end of a primitive (switch_warp), lane 0 of the next warp.
 */
void pass(bool switch_warp) {
    Warp& w = here();
    const int me = w.current;
    const int next = (me + 1) % kLanes;
    w.current = next;
    if (next == 0 && switch_warp && g->warps.size() > 1) {
        const int from = g->warp;
        g->warp = next_live(from);
        swapcontext(&w.lane_ctx[me], &g->warps[g->warp].lane_ctx[g->warps[g->warp].current]);
        return;
    }
    swapcontext(&w.lane_ctx[me], &w.lane_ctx[next]);
}

/** All lanes deposit, meet, read, meet again. */
template <class Read>
auto exchange(uint64_t value, Read read) {
    Warp& w = here();
    const int me = w.current;
    w.slot[me] = value;
    ++w.calls[me];
    pass(false);
    for (int i = 1; i < kLanes; ++i) {
        if (w.calls[i] != w.calls[0]) {
            std::fprintf(stderr, "simt_host: lanes diverged at a warp primitive (lane %d: %llu calls, lane 0: %llu)\n",
                         i, w.calls[i], w.calls[0]);
            std::abort();
        }
    }
    auto result = read(w);
    if (me == 0) ++g->primitives;
    pass(true);
    return result;
}

void lane_entry(int warp, int lane) {
    (*g->body)(warp);
    Warp& w = g->warps[warp];
    ++w.finished;
    if (lane + 1 < kLanes) {
        w.current = lane + 1;
        setcontext(&w.lane_ctx[lane + 1]);
    } else {
        const int next = next_live(warp);
        if (next < 0) setcontext(&g->main_ctx);
        g->warp = next;
        Warp& n = g->warps[next];
        setcontext(&n.lane_ctx[n.current]);
    }
}

}  // namespace

unsigned dg_simt_lane() { return (unsigned)here().current; }

uint64_t dg_simt_shfl(uint64_t value, int src_lane) {
    return exchange(value, [&](Warp& w) { return w.slot[src_lane & 31]; });
}

uint32_t dg_simt_ballot(int predicate) {
    return exchange((uint64_t)(predicate != 0), [](Warp& w) {
        uint32_t bits = 0;
        for (int i = 0; i < kLanes; ++i) bits |= (uint32_t)(w.slot[i] & 1) << i;
        return bits;
    });
}

void dg_simt_sync() {
    exchange(0, [](Warp&) { return 0; });
}

namespace dgtest {

void run_warps(int warps, const std::function<void(int)>& body, uint64_t shuffle) {
    static Emulator emulator;
    g = &emulator;
    g->schedule = shuffle;
    g->body = &body;
    g->warp = 0;
    g->primitives = 0;
    g->warps.resize(warps);
    for (int w = 0; w < warps; ++w) {
        Warp& wp = g->warps[w];
        wp.current = 0;
        wp.finished = 0;
        for (int i = 0; i < kLanes; ++i) {
            wp.calls[i] = 0;
            wp.stacks[i].resize(kStackBytes);
            getcontext(&wp.lane_ctx[i]);
            wp.lane_ctx[i].uc_stack.ss_sp = wp.stacks[i].data();
            wp.lane_ctx[i].uc_stack.ss_size = kStackBytes;
            wp.lane_ctx[i].uc_link = nullptr;
            makecontext(&wp.lane_ctx[i], (void (*)())lane_entry, 2, w, i);
        }
    }
    swapcontext(&g->main_ctx, &g->warps[0].lane_ctx[0]);
    for (const Warp& wp : g->warps) {
        for (int i = 1; i < kLanes; ++i) {
            if (wp.calls[i] != wp.calls[0]) {
                std::fprintf(stderr, "simt_host: lanes ended after different numbers of warp primitives\n");
                std::abort();
            }
        }
    }
}

void run_warp(const std::function<void()>& body) {
    run_warps(1, [&](int) { body(); });
}

unsigned long long warp_primitive_count() { return g ? g->primitives : 0; }

}  // namespace dgtest
