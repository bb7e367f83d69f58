/*
 * Host tests of the kernel sources: every __host__ __device__ helper against the specification
 * formulas and Python's hashlib, the warp-level routines under the SIMT emulator against the
 * thread-level references, and whole keygen/sign/verify tasks (the kernels' own task code,
 * emulated) against the known-answer vectors and a plain reference implementation.
 *
 * Usage: host_tests <vectors.txt> [tasks per (op, set) for the emulated KAT pass, default 2]
 *                   [rounds of emulated signing launches per set, times 3 (default 1)]
 *                   [only: run the sections whose name contains this, e.g. "keyed"]
 * Exit status 0 only when every check passed. Built by test/build-host-tests.sh.
 */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "../include/key_cache.cuh"
#include "../include/keygen.cuh"
#include "../include/schedule.cuh"
#include "../include/sign.cuh"
#include "../include/sign_help.cuh"
#include "../include/sign_wide.cuh"
#include "../include/verify.cuh"
#include "ref_scheme.h"
#include "simt_host.h"
#include "vectors.h"

using namespace dg;
using dgtest::Bytes;
using dgtest::Record;

namespace {

int g_checks = 0, g_failures = 0;

#define CHECK(cond, ...)                                            \
    do {                                                            \
        ++g_checks;                                                 \
        if (!(cond)) {                                              \
            ++g_failures;                                           \
            if (g_failures <= 40) {                                 \
                std::fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
                std::fprintf(stderr, __VA_ARGS__);                  \
                std::fprintf(stderr, "\n");                         \
            }                                                       \
        }                                                           \
    } while (0)

std::mt19937_64 rng(20240813);

uint32_t rand32() { return (uint32_t)rng(); }

int32_t mod_q(int64_t a) {
    int64_t r = a % Q;
    return (int32_t)(r < 0 ? r + Q : r);
}

/** The block's zeta table as the kernels build it. */
const int32_t* zeta_table() {
    static int32_t zt[N];
    static bool filled = false;
    if (!filled) {
        fill_zeta_table(zt, 0, 1);
        filled = true;
    }
    return zt;
}

WarpShared& warp_shared() {
    static WarpShared* sh = new WarpShared();
    return *sh;
}

// ---------------------------------------------------------------- Keccak / SHAKE

void test_shake(const std::vector<Record>& vectors) {
    int n = 0;
    for (const Record& r : vectors) {
        if (r.op != "shake") continue;
        Bytes out(r.b.size());
        if (r.shake_bits == 128) {
            Shake128 h;
            h.init();
            h.absorb(r.a.data(), r.a.size());
            h.finalize();
            h.squeeze(out.data(), out.size());
        } else {
            shake256(out.data(), out.size(), r.a.data(), r.a.size());
            // The warp sponge: absorb, then blocks of output.
            Bytes wout(((r.b.size() + SHAKE256_RATE - 1) / SHAKE256_RATE) * SHAKE256_RATE);
            Bytes msg = r.a;
            dgtest::run_warp([&] {
                WarpShake256 w;
                w.init();
                w.absorb_message(msg.data(), (int)msg.size());
                for (size_t off = 0; off < wout.size(); off += SHAKE256_RATE) {
                    if (off) w.permute();
                    w.write_block(wout.data() + off, SHAKE256_RATE);
                }
            });
            CHECK(std::equal(r.b.begin(), r.b.end(), wout.begin()), "WarpShake256 len %zu", r.a.size());
        }
        CHECK(out == r.b, "SHAKE%d len %zu", r.shake_bits, r.a.size());
        ++n;
    }
    CHECK(n >= 100, "shake vectors present (%d)", n);
    std::printf("  shake: %d vectors (thread and warp sponges)\n", n);
}

// ---------------------------------------------------------------- reductions

void test_reduce() {
    // montgomery_reduce: r = a 2^-32 mod q and |r| <= q/2 + |a|/2^32 + 1 on random and extreme a, |a| < 2^31 q.
    const int64_t lim = (int64_t)Q << 31;
    std::vector<int64_t> as = {0, 1, -1, lim - 1, -lim + 1, (int64_t)Q * Q, -(int64_t)Q * Q};
    for (int i = 0; i < 200000; ++i) as.push_back((int64_t)(rng() % (uint64_t)(2 * lim - 1)) - lim + 1);
    bool ok = true;
    for (int64_t a : as) {
        const int32_t r = montgomery_reduce(a);
        const __int128 lhs = (__int128)r * ((__int128)1 << 32) - a;
        const int64_t bound = Q / 2 + (int64_t)((a < 0 ? -a : a) >> 32) + 1;
        ok &= (lhs % Q == 0) && (r <= bound) && (r >= -bound) && r > -Q && r < Q;
    }
    CHECK(ok, "montgomery_reduce contract");
    // reduce32 over its whole input range (every 3rd value, plus the ends), caddq, freeze.
    ok = true;
    for (int64_t a = INT32_MIN + (1 << 22); a <= INT32_MAX - (1 << 22) - 1; a += 3) {
        const int32_t r = reduce32((int32_t)a);
        ok &= r >= -6283009 && r <= 6283007 && mod_q(r) == mod_q(a);
    }
    for (int32_t a : {INT32_MAX - (1 << 22) - 1, INT32_MIN + (1 << 22)}) {
        const int32_t r = reduce32(a);
        ok &= r >= -6283009 && r <= 6283007 && mod_q(r) == mod_q(a);
    }
    CHECK(ok, "reduce32 range");
    ok = true;
    for (int32_t a = -Q + 1; a < Q; ++a) ok &= caddq(a) == mod_q(a);
    for (int i = 0; i < 1000000; ++i) {
        const int32_t a = (int32_t)(rand32() % ((1u << 31) - (1u << 23))) - (1 << 30);
        ok &= freeze(a) == mod_q(a);
    }
    CHECK(ok, "caddq and freeze");
    CHECK(montmul(MONT, 1) == 1 && ((uint32_t)QINV * (uint32_t)Q) == 1u && mod_q(MONT) == mod_q(((int64_t)1 << 32) % Q),
          "constants");
    std::printf("  reduce: montgomery_reduce, reduce32 (whole range), caddq, freeze\n");
}

// ---------------------------------------------------------------- matrix-vector products

void test_dot() {
    // The kernels sum a row of A^ times a vector in 64 bits and reduce once (dot_montgomery): the
    // sums at their bounds stay within montgomery_reduce's contract. A^ in [0, q); y^ and z^ under
    // gamma1 + 8q, s1^ under eta + 8q; verification's c^ t1^ under (8q + 1) 9q.
    const __int128 lim = (__int128)Q << 31;
    const int64_t a_max = Q - 1, y_max = (1 << 19) + 8 * (int64_t)Q;
    CHECK(7 * (__int128)a_max * y_max < lim, "signing's and key generation's sums under 2^31 q (L = 7)");
    CHECK((8 * (__int128)Q + 1) * (9 * (__int128)Q) + 7 * (__int128)a_max * y_max < lim,
          "verification's sum under 2^31 q (L = 7)");
    // The warp code at those bounds and on random inputs: each coefficient's sum of L products,
    // times 2^-32, mod q, under q.
    bool ok = true;
    for (int t = 0; t < 6; ++t) {
        std::vector<int32_t> a(7 * N), b(7 * N);
        for (int i = 0; i < 7 * N; ++i) {
            a[i] = t < 2 ? (int32_t)a_max : (int32_t)(rand32() % Q);
            const int32_t y = t < 2 ? (int32_t)(y_max - 1) : (int32_t)(rand32() % (2 * y_max - 1)) - (int32_t)(y_max - 1);
            b[i] = t == 1 ? -y : y;
        }
        int32_t out[N];
        dgtest::run_warp([&] {
            int32_t r[8];
            dot_montgomery<7>(r, a.data(), b.data());
            for (int j = 0; j < 8; ++j) out[8 * (int)warp::lane() + j] = r[j];
        });
        for (int i = 0; i < N; ++i) {
            __int128 sum = 0;
            for (int j = 0; j < 7; ++j) sum += (__int128)a[j * N + i] * b[j * N + i];
            const __int128 lhs = (__int128)out[i] * ((__int128)1 << 32) - sum;
            ok &= lhs % Q == 0 && out[i] > -Q && out[i] < Q;
        }
    }
    CHECK(ok, "dot_montgomery<7> at the bounds and on random inputs");
    std::printf("  dot: 64-bit sums of matrix rows within montgomery_reduce's range; dot_montgomery vs reference\n");
}

// ---------------------------------------------------------------- NTT

void random_poly(int32_t* a, int32_t bound) {
    for (int i = 0; i < N; ++i) a[i] = (int32_t)(rand32() % (2u * bound + 1)) - bound;
}

void test_ntt() {
    // Table: zetas[i] = 2^32 * 1753^brv(i) mod q.
    bool ok = true;
    for (int i = 0; i < N; ++i) {
        int br = 0;
        for (int b = 0; b < 8; ++b) br |= ((i >> b) & 1) << (7 - b);
        int64_t p = 1;
        for (int e = 0; e < br; ++e) p = p * 1753 % Q;
        ok &= mod_q(zeta(i)) == mod_q(p * (((int64_t)1 << 32) % Q)) && zeta(i) > -Q / 2 - 1 && zeta(i) <= Q / 2;
    }
    CHECK(ok, "zeta table");
    // NTT multiplication equals the negacyclic product.
    for (int t = 0; t < 20; ++t) {
        int32_t a[N], b[N], c[N];
        random_poly(a, Q - 1);
        random_poly(b, 1 << 19);
        int64_t school[N] = {0};
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j) {
                const int64_t p = (int64_t)a[i] * b[j] % Q;
                if (i + j < N) school[i + j] += p; else school[i + j - N] -= p;
            }
        ntt_ref(a);
        ntt_ref(b);
        for (int i = 0; i < N; ++i) c[i] = montmul(a[i], b[i]);
        invntt_tomont_ref(c);
        bool eq = true;
        for (int i = 0; i < N; ++i) eq &= mod_q(c[i]) == mod_q(school[i]) && c[i] > -Q && c[i] < Q;
        CHECK(eq, "NTT product %d", t);
    }
    // Warp transforms (emulated) are bit-identical to the thread-level ones.
    for (int t = 0; t < 8; ++t) {
        int32_t a[N], ahat[N], back[N];
        random_poly(a, t < 4 ? Q - 1 : (1 << 19));
        std::memcpy(ahat, a, sizeof a);
        ntt_ref(ahat);
        int32_t warp_hat[N], warp_back[N];
        dgtest::run_warp([&] {
            const int l = (int)warp::lane();
            int32_t r[8];
            for (int j = 0; j < 8; ++j) r[j] = a[l + 32 * j];
            warp_ntt(r, warp_shared().x, zeta_table());
            for (int j = 0; j < 8; ++j) warp_hat[8 * l + j] = r[j];
            for (int j = 0; j < 8; ++j) r[j] = reduce32(r[j]);
            warp_invntt_tomont(r, warp_shared().x, zeta_table());
            for (int j = 0; j < 8; ++j) warp_back[l + 32 * j] = r[j];
        });
        for (int i = 0; i < N; ++i) back[i] = reduce32(ahat[i]);
        invntt_tomont_ref(back);
        CHECK(std::memcmp(warp_hat, ahat, sizeof ahat) == 0, "warp_ntt == ntt_ref (%d)", t);
        CHECK(std::memcmp(warp_back, back, sizeof back) == 0, "warp_invntt == invntt_ref (%d)", t);
        bool round = true;
        for (int i = 0; i < N; ++i) round &= mod_q(warp_back[i]) == mod_q((int64_t)a[i] * (((int64_t)1 << 32) % Q));
        CHECK(round, "invntt(ntt(a)) = a * 2^32 (%d)", t);
    }
    std::printf("  ntt: table, products vs schoolbook, warp == thread level\n");
}

// ---------------------------------------------------------------- rounding

int32_t mod_pm(int32_t a, int32_t m) {  // centered: (-m/2, m/2]
    int32_t r = a % m;
    if (r < 0) r += m;
    if (r > m / 2) r -= m;
    return r;
}

template <int GAMMA2>
void rounding_for() {
    bool ok_d = true, ok_u = true, ok_m = true;
    const int32_t m = (Q - 1) / (2 * GAMMA2);
    for (int32_t r = 0; r < Q; ++r) {
        // Decompose, FIPS 204 Algorithm 36.
        int32_t r0 = mod_pm(r, 2 * GAMMA2), r1;
        if (r - r0 == Q - 1) { r1 = 0; r0 -= 1; } else { r1 = (r - r0) / (2 * GAMMA2); }
        int32_t a0;
        const int32_t a1 = decompose<GAMMA2>(&a0, r);
        ok_d &= a1 == r1 && a0 == r0;
        // UseHint, FIPS 204 Algorithm 40.
        const int32_t up = r0 > 0 ? (r1 + 1) % m : (r1 - 1 + m) % m;
        ok_u &= use_hint<GAMMA2>(r, 0) == r1 && use_hint<GAMMA2>(r, 1) == up;
    }
    // MakeHint in the reference's form agrees with Algorithm 39 and UseHint recovers HighBits(r + z).
    for (int i = 0; i < 2000000; ++i) {
        const int32_t r = (int32_t)(rand32() % Q);
        const int32_t z = (int32_t)(rand32() % (2 * GAMMA2 + 1)) - GAMMA2;
        const int32_t rz = mod_q((int64_t)r + z);
        const int32_t h_spec = highbits<GAMMA2>(r) != highbits<GAMMA2>(rz);
        // The signer's form: a0 = LowBits(r + z) - z ... expressed through w - cs2 + ct0 = r + z... so
        // with v = r + z (as w - c s2 + c t0) and -z (as -c t0): hint = MakeHint(-z', v) where
        // HighBits(v) vs HighBits(v - z'). Check the reference identity on decompose(v - z').
        int32_t lo;
        const int32_t hi = decompose<GAMMA2>(&lo, r);
        (void)hi;
        ok_m &= use_hint<GAMMA2>(r, h_spec) == highbits<GAMMA2>(rz);
    }
    CHECK(ok_d, "decompose gamma2=%d", GAMMA2);
    CHECK(ok_u, "use_hint gamma2=%d", GAMMA2);
    CHECK(ok_m, "UseHint(MakeHint(z, r), r) = HighBits(r + z), gamma2=%d", GAMMA2);
}

void test_rounding() {
    bool ok = true;
    for (int32_t r = 0; r < Q; ++r) {
        const int32_t r0 = mod_pm(r, 1 << D);
        int32_t a0;
        const int32_t a1 = power2round(&a0, r);
        ok &= a0 == (r0 == (1 << (D - 1)) ? r0 : r0) && a1 == (r - r0) >> D && a0 > -(1 << (D - 1)) - 1;
    }
    CHECK(ok, "power2round");
    rounding_for<(Q - 1) / 88>();
    rounding_for<(Q - 1) / 32>();
    // The signer's MakeHint form (reference make_hint on the low part) equals Algorithm 39
    // on the inputs it sees: a0 = LowBits(w) - c s2 + c t0 with the checks passed.
    bool okh = true;
    for (int i = 0; i < 2000000; ++i) {
        const int32_t g2 = (i & 1) ? (Q - 1) / 32 : (Q - 1) / 88;
        const int32_t w = (int32_t)(rand32() % Q);
        const int32_t beta = (i & 1) ? 196 : 78;
        const int32_t cs2 = (int32_t)(rand32() % (2 * beta + 1)) - beta;
        const int32_t ct0 = (int32_t)(rand32() % (2 * g2 - 1)) - (g2 - 1);
        int32_t w0, w1;
        if (g2 == (Q - 1) / 32) w1 = decompose<(Q - 1) / 32>(&w0, w); else w1 = decompose<(Q - 1) / 88>(&w0, w);
        const int32_t r0 = w0 - cs2;
        if (r0 >= g2 - beta || r0 <= -(g2 - beta)) continue;  // signer rejects
        const int32_t v = mod_q((int64_t)w - cs2 + ct0);      // w - c s2 + c t0
        const int32_t vz = mod_q((int64_t)v - ct0);           // v + (-c t0)
        int32_t h_ref, h_spec;
        if (g2 == (Q - 1) / 32) {
            h_ref = make_hint<(Q - 1) / 32>(r0 + ct0, w1);
            h_spec = highbits<(Q - 1) / 32>(v) != highbits<(Q - 1) / 32>(vz);
        } else {
            h_ref = make_hint<(Q - 1) / 88>(r0 + ct0, w1);
            h_spec = highbits<(Q - 1) / 88>(v) != highbits<(Q - 1) / 88>(vz);
        }
        okh &= h_ref == h_spec;
    }
    CHECK(okh, "make_hint (reference form) == MakeHint (FIPS 204 Algorithm 39)");
    std::printf("  rounding: power2round, decompose, use_hint over [0, q); make_hint\n");
}

// ---------------------------------------------------------------- packing

template <int BITS>
void pack_for() {
    bool ok = true;
    for (int t = 0; t < 20000; ++t) {
        uint32_t v[8];
        for (int i = 0; i < 8; ++i) v[i] = rand32() & ((1u << BITS) - 1);
        uint8_t out[BITS];
        pack8<BITS>(v, out);
        // FIPS 204 SimpleBitPack: bit j of value i is bit i*BITS + j of the string, bytes little-endian.
        for (int bit = 0; bit < 8 * BITS; ++bit) {
            const int i = bit / BITS, j = bit % BITS;
            ok &= ((out[bit / 8] >> (bit % 8)) & 1) == ((v[i] >> j) & 1);
        }
        uint32_t back[8];
        unpack8<BITS>(out, back);
        for (int i = 0; i < 8; ++i) ok &= back[i] == v[i];
    }
    CHECK(ok, "pack8/unpack8 %d bits", BITS);
}

void test_pack() {
    pack_for<3>();
    pack_for<4>();
    pack_for<6>();
    pack_for<10>();
    pack_for<13>();
    pack_for<18>();
    pack_for<20>();
    // eta decoding flags out-of-range values.
    uint8_t b3[3] = {0xFF, 0xFF, 0xFF};
    int32_t c[8];
    CHECK((!unpack8_eta<2, 3>(b3, c)), "eta 2 rejects 7");
    uint8_t b3ok[3] = {0x24, 0x49, 0x92};  // all values 4 -> c = -2
    CHECK((unpack8_eta<2, 3>(b3ok, c) && c[0] == -2 && c[7] == -2), "eta 2 accepts 4");
    uint8_t b4[4] = {0x88, 0x88, 0x88, 0x89};
    CHECK((!unpack8_eta<4, 4>(b4, c)), "eta 4 rejects 9");
    std::printf("  pack: 3 4 6 10 13 18 20 bits vs SimpleBitPack; eta range checks\n");
}

// ---------------------------------------------------------------- lane streams, SampleInBall

template <class P>
void streams_for(const char* name) {
    uint8_t rho[32], rhop[64];
    for (auto& b : rho) b = (uint8_t)rng();
    for (auto& b : rhop) b = (uint8_t)rng();
    std::vector<int32_t> ws((P::K * P::L + P::K + P::L) * N + 32 * P::L * N);
    WarpShared& sh = warp_shared();
    std::memcpy(sh.seeds, rho, 32);
    std::memcpy(reinterpret_cast<uint8_t*>(sh.seeds) + 32, rhop, 64);
    int32_t* a_hat = ws.data();
    int32_t* s = a_hat + P::K * P::L * N;
    int32_t* y = s + (P::K + P::L) * N;
    dgtest::run_warp([&] { run_lane_streams<P>(KeygenStreams<P>{a_hat, s}, sh.seeds, sh.stage); });
    const int it0 = 3;
    dgtest::run_warp([&] {
        run_lane_streams<P>(SignStreams<P>{nullptr, y, it0, SignTask<P>::CANDIDATES, 1}, sh.seeds, sh.stage);
    });
    const auto ref_a = dgtest::RefScheme<P>::expand_a(rho);
    bool ok = true;
    for (int i = 0; i < P::K * P::L; ++i) ok &= std::memcmp(ref_a[i].c, a_hat + i * N, N * 4) == 0;
    CHECK(ok, "%s ExpandA lane streams", name);
    ok = true;
    for (int r = 0; r < P::K + P::L; ++r) {
        const auto p = dgtest::RefScheme<P>::expand_eta(rhop, r);
        ok &= std::memcmp(p.c, s + r * N, N * 4) == 0;
    }
    CHECK(ok, "%s ExpandS lane streams", name);
    ok = true;
    for (int v = 0; v < SignTask<P>::CANDIDATES * P::L; ++v) {
        const auto p = dgtest::RefScheme<P>::expand_mask(rhop, it0 * P::L + v);
        ok &= std::memcmp(p.c, y + v * N, N * 4) == 0;
    }
    CHECK(ok, "%s ExpandMask lane streams", name);
    // SampleInBall, warp vs thread.
    for (int t = 0; t < 20; ++t) {
        uint8_t ct[64];
        for (auto& b : ct) b = (uint8_t)rng();
        int32_t ref[N];
        sample_in_ball_ref<P::TAU>(ref, ct, P::CTILDE_BYTES);
        std::memcpy(sh.ctilde, ct, 64);
        dgtest::run_warp([&] { warp_sample_in_ball<P::TAU>(sh.x, sh.block, sh.ctilde, P::CTILDE_BYTES); });
        CHECK(std::memcmp(ref, sh.x, sizeof ref) == 0, "%s SampleInBall warp == thread", name);
        int weight = 0;
        for (int i = 0; i < N; ++i) weight += ref[i] != 0;
        CHECK(weight == P::TAU, "%s SampleInBall weight", name);
    }
}

void test_streams() {
    streams_for<Dilithium2>("Dilithium2");
    streams_for<MlDsa65>("ML-DSA-65");
    streams_for<MlDsa87>("ML-DSA-87");
    std::printf("  expand: ExpandA/ExpandS/ExpandMask lane streams and SampleInBall vs references\n");
}

// ---------------------------------------------------------------- signature copy-out

/** SignTask::copy_out to a record at every offset from a 16-byte boundary: every byte, and none beside. */
template <class P>
void copy_out_for(const char* name) {
    constexpr int STAGED = (P::SIG_BYTES + 15) / 16 * 16;
    alignas(16) uint8_t staged[STAGED];
    alignas(16) uint8_t out[P::SIG_BYTES + 64];
    bool ok = true;
    for (int offset = 0; offset < 32; ++offset) {
        for (uint8_t& b : staged) b = (uint8_t)rand32();
        std::memset(out, 0xA5, sizeof out);
        uint8_t* sig = out + 16 + offset;
        dgtest::run_warp([&] { SignTask<P>::copy_out(staged, sig); });
        ok &= std::memcmp(sig, staged, P::SIG_BYTES) == 0;
        for (uint8_t* b = out; b < sig; ++b) ok &= *b == 0xA5;
        for (uint8_t* b = sig + P::SIG_BYTES; b < out + sizeof out; ++b) ok &= *b == 0xA5;
    }
    CHECK(ok, "%s copy_out at offsets 0..31 from a 16-byte boundary", name);
}

void test_copy_out() {
    copy_out_for<Dilithium2>("Dilithium2");
    copy_out_for<Dilithium3>("Dilithium3");
    copy_out_for<Dilithium5>("Dilithium5");
    copy_out_for<MlDsa44>("ML-DSA-44");
    copy_out_for<MlDsa65>("ML-DSA-65");
    copy_out_for<MlDsa87>("ML-DSA-87");
    std::printf("  copy-out: every set's signature to records at offsets 0..31, nothing written beside\n");
}

// ---------------------------------------------------------------- whole tasks

template <class F>
bool with_set(const std::string& tag, F f) {
    if (tag == "dilithium2") f(Dilithium2{});
    else if (tag == "dilithium3") f(Dilithium3{});
    else if (tag == "dilithium5") f(Dilithium5{});
    else if (tag == "mldsa44") f(MlDsa44{});
    else if (tag == "mldsa65") f(MlDsa65{});
    else if (tag == "mldsa87") f(MlDsa87{});
    else return false;
    return true;
}

template <class Task>
uint8_t emulate(const typename Task::Args& args, int task = 0) {
    static std::vector<int32_t> ws;
    ws.assign(Task::WS_WORDS, 0x5A5A5A5A);
    uint8_t status = 0xEE;
    dgtest::run_warp([&] {
        const uint8_t s = Task::run(task, args, warp_shared(), ws.data(), zeta_table());
        if (warp::lane() == 0) status = s;
    });
    return status;
}

struct Tally {
    int run = 0, pass = 0;
};

/** The plain reference against every vector. */
void test_reference(const std::vector<Record>& vectors) {
    std::map<std::string, Tally> tally;
    for (const Record& r : vectors) {
        if (r.op == "shake") continue;
        with_set(r.set, [&](auto p) {
            using P = decltype(p);
            using Ref = dgtest::RefScheme<P>;
            Tally& t = tally[r.op + " " + r.set];
            ++t.run;
            bool ok = false;
            if (r.op == "keygen") {
                Bytes pk(P::PK_BYTES), sk(P::SK_BYTES);
                Ref::keygen(r.a.data(), pk.data(), sk.data());
                ok = pk == r.b && (r.c.empty() || sk == r.c);
            } else if (r.op == "sign") {
                Bytes sig(P::SIG_BYTES);
                const uint8_t st = Ref::sign(r.a.data(), r.b.data(), r.c.data(), sig.data());
                ok = st == r.status && (st != ABI_STATUS_OK || sig == r.d);
            } else {
                ok = Ref::verify(r.a.data(), r.b.data(), r.c.data()) == (r.status == 0);
            }
            t.pass += ok;
            CHECK(ok, "reference %s %s %s", r.op.c_str(), r.set.c_str(), r.source.c_str());
        });
    }
    for (auto& [k, t] : tally) std::printf("  reference %-18s %4d/%d\n", k.c_str(), t.pass, t.run);
}

/** The kernels' task code, emulated, against the first `per_group` vectors of each (op, set). */
void test_tasks(const std::vector<Record>& vectors, int per_group) {
    std::map<std::string, Tally> tally;
    for (const Record& r : vectors) {
        if (r.op == "shake") continue;
        Tally& t = tally[r.op + " " + r.set];
        if (t.run >= per_group) continue;
        with_set(r.set, [&](auto p) {
            using P = decltype(p);
            ++t.run;
            bool ok = false;
            if (r.op == "keygen") {
                Bytes pk(P::PK_BYTES, 0xCC), sk(P::SK_BYTES, 0xCC);
                const uint8_t st = emulate<KeygenTask<P>>({r.a.data(), pk.data(), sk.data()});
                ok = st == ABI_STATUS_OK && pk == r.b && (r.c.empty() || sk == r.c);
            } else if (r.op == "sign") {
                Bytes sig(P::SIG_BYTES, 0xCC);
                const uint8_t st = emulate<SignTask<P>>({r.a.data(), r.b.data(), r.c.data(), sig.data()});
                ok = st == r.status && (st != ABI_STATUS_OK || sig == r.d);
            } else {
                const uint8_t st = emulate<VerifyTask<P>>({r.a.data(), r.b.data(), r.c.data()});
                ok = st == r.status;
            }
            t.pass += ok;
            CHECK(ok, "emulated task %s %s %s", r.op.c_str(), r.set.c_str(), r.source.c_str());
        });
    }
    for (auto& [k, t] : tally) std::printf("  emulated %-18s %4d/%d\n", k.c_str(), t.pass, t.run);
}

/** Random differential: emulated tasks == reference on fresh keys, and sign -> verify round trips. */
template <class P>
void differential_for(const char* name, int rounds) {
    using Ref = dgtest::RefScheme<P>;
    int agree = 0;
    for (int t = 0; t < rounds; ++t) {
        Bytes seed(32), mu(64), rnd(P::RND_BYTES);
        for (auto& b : seed) b = (uint8_t)rng();
        for (auto& b : mu) b = (uint8_t)rng();
        for (auto& b : rnd) b = (uint8_t)rng();
        Bytes pk(P::PK_BYTES), sk(P::SK_BYTES), rpk(P::PK_BYTES), rsk(P::SK_BYTES);
        emulate<KeygenTask<P>>({seed.data(), pk.data(), sk.data()});
        Ref::keygen(seed.data(), rpk.data(), rsk.data());
        Bytes sig(P::SIG_BYTES), rsig(P::SIG_BYTES);
        const uint8_t st = emulate<SignTask<P>>({sk.data(), mu.data(), rnd.data(), sig.data()});
        Ref::sign(rsk.data(), mu.data(), rnd.data(), rsig.data());
        const uint8_t v = emulate<VerifyTask<P>>({pk.data(), mu.data(), sig.data()});
        Bytes bad = sig;
        bad[P::SIG_Z + (t * 37) % (P::SIG_H - P::SIG_Z)] ^= (uint8_t)(1u << (t & 7));
        const uint8_t vb = emulate<VerifyTask<P>>({pk.data(), mu.data(), bad.data()});
        const bool ok = pk == rpk && sk == rsk && st == ABI_STATUS_OK && sig == rsig && v == ABI_STATUS_OK &&
                        vb == ABI_STATUS_REJECTED;
        agree += ok;
        CHECK(ok, "differential %s round %d", name, t);
    }
    std::printf("  differential %-11s %d/%d (keygen, sign, verify, tampered verify)\n", name, agree, rounds);
}

/**
 * One launch of n tasks on `warps` emulated warps, interleaved at every warp primitive (in turn,
 * or in a random order drawn from a nonzero `shuffle`), through the kernels' worker loop: one
 * shared task counter, a workspace slice per warp. Checks that every task was taken once and
 * every workspace slice is zero afterwards. Returns the statuses.
 */
/** sign_keyed_helped_'s tasks: KeyedSignTask's, run through HelpedSign's loop (sign_help.cuh). */
template <class P>
struct HelpedSignTask : KeyedSignTask<P> {};

/** HelpedSignTask runs HelpedSign's loop, every other task type worker_loop. */
template <class T>
struct Helped {
    static constexpr bool value = false;
};
template <class P>
struct Helped<HelpedSignTask<P>> {
    static constexpr bool value = true;
    using Loop = HelpedSign<P>;
};

/** Iterations that warps claimed as helpers in the last emulated sign_keyed_helped launch. */
int g_helped_iterations = 0;

template <class T>
std::vector<uint8_t> emulate_launch(const typename T::Args& args, int n, int warps, uint64_t shuffle) {
    const int workers = std::min(warps, n);
    std::vector<WarpShared> shared(workers);
    std::vector<int32_t> ws((size_t)workers * T::WS_WORDS, 0x5A5A5A5A);
    std::vector<uint8_t> status(n, 0xEE);
    std::vector<uint32_t> scratch(ABI_SCRATCH_WORDS, 0);
    g_helped_iterations = 0;
    dgtest::run_warps(workers, [&](int w) {
        int32_t* slice = ws.data() + (size_t)w * T::WS_WORDS;
        if constexpr (Helped<T>::value) {
            const int helped = Helped<T>::Loop::worker_loop(args, status.data(), n, workers, w, scratch.data(),
                                                            shared[w], slice, zeta_table());
            if (warp::lane() == 0) g_helped_iterations += helped;
        } else {
            worker_loop<T>(args, status.data(), n, workers, scratch.data(), shared[w], slice, zeta_table());
        }
    }, shuffle);
    CHECK(std::none_of(status.begin(), status.end(), [](uint8_t v) { return v == 0xEE; }),
          "every task was taken: %d tasks, %d workers", n, workers);
    CHECK(std::all_of(scratch.begin(), scratch.end(), [](uint32_t v) { return v == 0; }),
          "the last worker left the scratch counters and records zero for the next launch: %u, %u (%d tasks, %d workers)",
          scratch[ABI_SCRATCH_NEXT_TASK], scratch[ABI_SCRATCH_EXITED], n, workers);
    CHECK(*untaken_sign_tasks() == 0, "sign_keyed_helped's untaken tasks are back to zero: %u", *untaken_sign_tasks());
    CHECK(std::all_of(ws.begin(), ws.end(), [](int32_t v) { return v == 0; }),
          "every workspace slice is zero after the launch");
    return status;
}

/**
 * Signing launches of several tasks on fewer or as many warps (2 tasks on 2 warps, 7 on 4, 16 on
 * 8), the warps in turn and in a random order: every signature equals the reference's, and a key
 * that never signs (s1 out of range) fails alone.
 */
template <class P>
void launch_for(const char* name, int rounds) {
    using Ref = dgtest::RefScheme<P>;
    int agree = 0;
    for (int t = 0; t < rounds; ++t) {
        const int n = t % 3 == 0 ? 2 : t % 3 == 1 ? 7 : 16;
        const int warps = t % 3 == 0 ? 2 : t % 3 == 1 ? 4 : 8;
        Bytes sks((size_t)n * P::SK_BYTES), mus((size_t)n * 64), rnds((size_t)n * P::RND_BYTES);
        Bytes expect((size_t)n * P::SIG_BYTES);
        std::vector<uint8_t> want(n);
        for (int i = 0; i < n; ++i) {
            Bytes seed(32), pk(P::PK_BYTES);
            for (auto& b : seed) b = (uint8_t)rng();
            Ref::keygen(seed.data(), pk.data(), sks.data() + (size_t)i * P::SK_BYTES);
            for (int j = 0; j < P::RND_BYTES; ++j) rnds[(size_t)i * P::RND_BYTES + j] = (uint8_t)rng();
            for (int j = 0; j < 64; ++j) mus[(size_t)i * 64 + j] = (uint8_t)rng();
        }
        if (n > 2) {
            // Task 1: s1's first coefficient packed as eta - 15 (out of range): INVALID_KEY.
            sks[(size_t)1 * P::SK_BYTES + P::SK_S1] |= (uint8_t)((1u << P::ETA_BITS) - 1);
        }
        for (int i = 0; i < n; ++i) {
            want[i] = Ref::sign(sks.data() + (size_t)i * P::SK_BYTES, mus.data() + (size_t)i * 64,
                                rnds.data() + (size_t)i * P::RND_BYTES, expect.data() + (size_t)i * P::SIG_BYTES);
        }
        bool ok = n <= 2 || want[1] == ABI_STATUS_INVALID_KEY;
        for (const bool shuffled : {false, true}) {
            Bytes sigs((size_t)n * P::SIG_BYTES, 0xCC);
            const uint64_t shuffle = shuffled ? 0x9E3779B97F4A7C15ull * (uint64_t)(t + 1) : 0;
            const std::vector<uint8_t> got =
                emulate_launch<SignTask<P>>({sks.data(), mus.data(), rnds.data(), sigs.data()}, n, warps, shuffle);
            for (int i = 0; i < n; ++i) {
                bool same = got[i] == want[i];
                if (same && want[i] == ABI_STATUS_OK) {
                    same = std::memcmp(sigs.data() + (size_t)i * P::SIG_BYTES,
                                       expect.data() + (size_t)i * P::SIG_BYTES, P::SIG_BYTES) == 0;
                }
                CHECK(same, "launch %s round %d%s: task %d status %d (reference %d)%s", name, t,
                      shuffled ? ", shuffled" : "", i, got[i], want[i], same ? "" : ", or its signature differs");
                ok &= same;
            }
        }
        agree += ok;
        CHECK(ok, "launch %s round %d (%d tasks, %d warps)", name, t, n, warps);
    }
    std::printf("  launch %-11s %d/%d (2, 7 or 16 signing tasks on 2, 4 or 8 warps, in turn or shuffled; "
                "signatures == reference)\n", name, agree, rounds);
}

// ---------------------------------------------------------------- device key cache

using Words = std::vector<int32_t>;

/** Packed polynomials decoded and transformed by the thread-level reference: the slots' contents. */
template <class P>
void append_ntt(Words& out, const dgtest::Poly& p) {
    dgtest::Poly t = p;
    ntt_ref(t.c);
    out.insert(out.end(), t.c, t.c + N);
}

/** An sk slot as the layout says: A^, s1^, s2^, t0^ (NTT of the decoded sk), K, tr, zeros to 256 bytes. */
template <class P>
Words expected_sk_slot(const uint8_t* sk) {
    Words w;
    for (const auto& a : dgtest::RefScheme<P>::expand_a(sk + P::SK_RHO)) w.insert(w.end(), a.c, a.c + N);
    for (int r = 0; r < P::L + P::K; ++r) {
        dgtest::Poly p;
        for (int g = 0; g < N / 8; ++g) {
            uint8_t b[P::ETA_BITS];
            std::memcpy(b, sk + P::SK_S1 + r * P::POLY_ETA_BYTES + P::ETA_BITS * g, P::ETA_BITS);
            int32_t c[8];
            unpack8_eta<P::ETA, P::ETA_BITS>(b, c);
            std::copy(c, c + 8, p.c + 8 * g);
        }
        append_ntt<P>(w, p);
    }
    for (int i = 0; i < P::K; ++i) {
        dgtest::Poly p;
        for (int g = 0; g < N / 8; ++g) {
            uint8_t b[D];
            std::memcpy(b, sk + P::SK_T0 + i * POLY_T0_BYTES + D * g, D);
            int32_t c[8];
            unpack8_signed<D>(b, 1 << (D - 1), c);
            std::copy(c, c + 8, p.c + 8 * g);
        }
        append_ntt<P>(w, p);
    }
    Words tail(64, 0);
    std::memcpy(tail.data(), sk + P::SK_KEY, SEED_BYTES);
    std::memcpy(reinterpret_cast<uint8_t*>(tail.data()) + SEED_BYTES, sk + P::SK_TR, P::TR_BYTES);
    w.insert(w.end(), tail.begin(), tail.end());
    return w;
}

/** A pk slot: A^, then NTT(t1 2^d), then tr = H(pk) and zeros to 256 bytes. */
template <class P>
Words expected_pk_slot(const uint8_t* pk) {
    Words w;
    for (const auto& a : dgtest::RefScheme<P>::expand_a(pk)) w.insert(w.end(), a.c, a.c + N);
    for (int i = 0; i < P::K; ++i) {
        dgtest::Poly t1;
        dgtest::RefScheme<P>::template unpack_unsigned<10>(t1, pk + P::PK_T1 + i * POLY_T1_BYTES);
        for (int n = 0; n < N; ++n) t1.c[n] <<= D;
        append_ntt<P>(w, t1);
    }
    Words tail(64, 0);
    shake256(reinterpret_cast<uint8_t*>(tail.data()), P::TR_BYTES, pk, P::PK_BYTES);
    w.insert(w.end(), tail.begin(), tail.end());
    return w;
}

/** Slot s of a slot array, as words. */
Words slot_words(const Bytes& slots, int s, int slot_bytes) {
    Words w(slot_bytes / 4);
    std::memcpy(w.data(), slots.data() + (size_t)s * slot_bytes, slot_bytes);
    return w;
}

/** A message record (ABI_MESSAGE_BYTES) of M' = `len` bytes from `from`, or of mu itself (len < 0). */
void put_message(uint8_t* rec, const uint8_t* from, int len) {
    std::memset(rec, 0x5C, ABI_MESSAGE_BYTES);  // bytes past M' are not read
    std::memcpy(rec, from, len < 0 ? 64 : (size_t)len);
    rec[ABI_MESSAGE_BYTES - 1] = (uint8_t)(len < 0 ? 0 : len + 1);
}

/**
 * sign_keyed and verify_keyed on message records, the mixed keys of keyed_for: each task's M' of
 * another length (0 to 71 bytes: one block with tr at most), or mu itself; against the same
 * launches on mu = H(tr || M', 64) computed here, whose signatures keyed_for checked against the
 * reference. A cached and an uncached key of one verification hash tr themselves alike.
 */
template <class P>
bool message_records(const char* name, const char* how, uint64_t shuffle, const std::vector<Bytes>& sk,
                     const std::vector<Bytes>& pk, const Bytes& packed, const std::vector<int32_t>& key_of,
                     const int* signer, const Bytes& sk_slots, const Bytes& rnds, const Bytes& vpacked,
                     const Bytes& pk_slots) {
    const int n = (int)key_of.size();
    const int lens[12] = {0, 71, 34, -1, 1, 70, 5, 64, 33, 17, -1, 2};
    Bytes msgs((size_t)n * ABI_MESSAGE_BYTES), mus((size_t)n * 64);
    for (int i = 0; i < n; ++i) {
        const uint8_t* tr = signer[i] < 0 ? sk[0].data() + P::SK_TR : sk[signer[i]].data() + P::SK_TR;
        uint8_t m[ABI_MESSAGE_BYTES];
        for (auto& b : m) b = (uint8_t)rng();
        if (lens[i] < 0) {
            std::memcpy(&mus[(size_t)i * 64], m, 64);
        } else {
            Bytes in(tr, tr + P::TR_BYTES);
            in.insert(in.end(), m, m + lens[i]);
            shake256(&mus[(size_t)i * 64], 64, in.data(), in.size());
        }
        put_message(&msgs[(size_t)i * ABI_MESSAGE_BYTES], lens[i] < 0 ? &mus[(size_t)i * 64] : m, lens[i]);
    }
    Bytes sigs((size_t)n * P::SIG_BYTES, 0xCC), mu_sigs((size_t)n * P::SIG_BYTES, 0xCC);
    const std::vector<uint8_t> st = emulate_launch<KeyedSignTask<P>>(
        {packed.data(), key_of.data(), sk_slots.data(), nullptr, msgs.data(), rnds.data(), sigs.data()}, n, 3, shuffle);
    const std::vector<uint8_t> mu_st = emulate_launch<KeyedSignTask<P>>(
        {packed.data(), key_of.data(), sk_slots.data(), mus.data(), nullptr, rnds.data(), mu_sigs.data()}, n, 3,
        shuffle);
    bool ok = st == mu_st && std::memcmp(sigs.data(), mu_sigs.data(), sigs.size()) == 0;
    CHECK(ok, "sign_keyed %s (%s): message records sign as their mu", name, how);

    // Every signature of a valid key, verified on its message record with its key cached and
    // uncached; then each on the next task's record (another message or key): rejected.
    std::vector<int32_t> vkey_of;
    Bytes vmsgs, vsigs;
    std::vector<bool> expect;
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < n; ++i) {
            if (signer[i] != 0 && signer[i] != 1) continue;  // pk slots: k0 in 1, k1 in 0; packed: k2, k0
            for (int cached = 0; cached < 2; ++cached) {
                if (!cached && signer[i] != 0) continue;
                vkey_of.push_back(cached ? (signer[i] == 0 ? 1 : 0) : -2);
                const int rec = pass == 0 ? i : (i + 1) % n;
                vmsgs.insert(vmsgs.end(), &msgs[(size_t)rec * ABI_MESSAGE_BYTES],
                             &msgs[(size_t)(rec + 1) * ABI_MESSAGE_BYTES]);
                vsigs.insert(vsigs.end(), &sigs[(size_t)i * P::SIG_BYTES], &sigs[(size_t)(i + 1) * P::SIG_BYTES]);
                expect.push_back(pass == 0);
            }
        }
    }
    const int m = (int)vkey_of.size();
    const std::vector<uint8_t> vst = emulate_launch<KeyedVerifyTask<P>>(
        {vpacked.data(), vkey_of.data(), pk_slots.data(), nullptr, vmsgs.data(), vsigs.data()}, m, 3, shuffle);
    bool vok = true;
    for (int j = 0; j < m; ++j) vok &= vst[j] == (expect[j] ? ABI_STATUS_OK : ABI_STATUS_REJECTED);
    CHECK(vok, "verify_keyed %s (%s): %d message records, cached and uncached keys, accepted and rejected", name, how,
          m);
    (void)pk;
    return ok && vok;
}

/**
 * The key cache's tasks on one set, each launch on 3 warps, in turn (even rounds) or shuffled (odd):
 * expand_sk of three keys and of two with s1 or s2 out of range into a slot array with a slot
 * left unused; sign_keyed of a mixed batch (one key on five tasks, three cached keys interleaved,
 * uncached keys, the same key and inputs cached and uncached, an uncached invalid key) against
 * sign_ on the same keys and the reference; expand_pk and verify_keyed of valid, tampered,
 * wrong-mu, wrong-key and malformed signatures against verify_ and the reference.
 */
template <class P>
void keyed_for(const char* name, int round) {
    using Ref = dgtest::RefScheme<P>;
    constexpr int SK_SLOT = ExpandSkTask<P>::SLOT_BYTES, PK_SLOT = ExpandPkTask<P>::SLOT_BYTES;
    static_assert(SK_SLOT % 256 == 0 && PK_SLOT % 256 == 0, "slots are whole 256-byte units");
    static_assert(SK_SLOT == 4 * N * (P::K * P::L + P::L + 2 * P::K) + 256, "sk slot: A^ s1^ s2^ t0^, K");
    static_assert(PK_SLOT == 4 * N * (P::K * P::L + P::K) + 256, "pk slot: A^, NTT(t1 2^d), tr");
    static_assert(KeyedSignTask<P>::WS_WORDS <= SignTask<P>::WS_WORDS, "sign_keyed needs no more workspace");
    static_assert(KeyedVerifyTask<P>::WS_WORDS <= VerifyTask<P>::WS_WORDS, "verify_keyed needs no more workspace");
    const uint8_t POISON = 0xA7;
    bool ok = true;

    // Three keys, and two sks with s1 / s2 out of range (the first coefficient packed as 2^bits - 1).
    std::vector<Bytes> pk(3, Bytes(P::PK_BYTES)), sk(3, Bytes(P::SK_BYTES));
    for (int k = 0; k < 3; ++k) {
        Bytes seed(32);
        for (auto& b : seed) b = (uint8_t)rng();
        Ref::keygen(seed.data(), pk[k].data(), sk[k].data());
    }
    Bytes bad_s1 = sk[0], bad_s2 = sk[1];
    bad_s1[P::SK_S1] |= (uint8_t)((1u << P::ETA_BITS) - 1);
    bad_s2[P::SK_S2] |= (uint8_t)((1u << P::ETA_BITS) - 1);

    {
        const bool shuffled = round % 2 == 1;
        const uint64_t shuffle = shuffled ? 0xD1B54A32D192ED03ull * (uint64_t)(round + 1) : 0;
        const char* how = shuffled ? "shuffled" : "in turn";

        // expand_sk: key k0 -> slot 3, k1 -> 1, k2 -> 4; invalid keys -> 0 and 5; slot 2 unused.
        const std::vector<const Bytes*> ex_sks = {&sk[0], &bad_s1, &sk[1], &bad_s2, &sk[2]};
        const std::vector<int32_t> ex_slot_of = {3, 0, 1, 5, 4};
        Bytes ex_in;
        for (const Bytes* b : ex_sks) ex_in.insert(ex_in.end(), b->begin(), b->end());
        Bytes sk_slots((size_t)7 * SK_SLOT, POISON);  // slot 6: a guard after the last
        const std::vector<uint8_t> ex_st =
            emulate_launch<ExpandSkTask<P>>({ex_in.data(), ex_slot_of.data(), sk_slots.data()}, 5, 3, shuffle);
        const std::vector<uint8_t> ex_want = {ABI_STATUS_OK, ABI_STATUS_INVALID_KEY, ABI_STATUS_OK,
                                              ABI_STATUS_INVALID_KEY, ABI_STATUS_OK};
        CHECK(ex_st == ex_want, "expand_sk %s (%s): statuses %d %d %d %d %d", name, how, ex_st[0], ex_st[1], ex_st[2],
              ex_st[3], ex_st[4]);
        const int sk_slot_of_key[3] = {3, 1, 4};
        for (int k = 0; k < 3; ++k) {
            const bool same = slot_words(sk_slots, sk_slot_of_key[k], SK_SLOT) == expected_sk_slot<P>(sk[k].data());
            CHECK(same, "expand_sk %s (%s): slot of key %d == A^, s1^, s2^, t0^, K of the reference", name, how, k);
            ok &= same;
        }
        const bool untouched = std::all_of(sk_slots.begin() + 2 * SK_SLOT, sk_slots.begin() + 3 * SK_SLOT,
                                           [&](uint8_t b) { return b == POISON; }) &&
                               std::all_of(sk_slots.begin() + 6 * SK_SLOT, sk_slots.end(),
                                           [&](uint8_t b) { return b == POISON; });
        CHECK(untouched, "expand_sk %s (%s): writes only its tasks' slots", name, how);
        ok &= ex_st == ex_want && untouched;

        // sign_keyed on a mixed batch; uncached records: k2, bad_s1, k1.
        const std::vector<int32_t> key_of = {3, 3, 1, -1, 3, 4, -2, 3, 1, -3, 3, 4};
        const int signer[12] = {0, 0, 1, 2, 0, 2, -1, 0, 1, 1, 0, 2};  // -1: bad_s1
        const int n = (int)key_of.size();
        std::vector<const Bytes*> key_sk(n);
        for (int i = 0; i < n; ++i) key_sk[i] = signer[i] < 0 ? &bad_s1 : &sk[signer[i]];
        Bytes packed, plain_sks, mus((size_t)n * 64), rnds((size_t)n * P::RND_BYTES);
        for (const Bytes* b : {&sk[2], &bad_s1, &sk[1]}) packed.insert(packed.end(), b->begin(), b->end());
        for (int i = 0; i < n; ++i) plain_sks.insert(plain_sks.end(), key_sk[i]->begin(), key_sk[i]->end());
        for (auto& b : mus) b = (uint8_t)rng();
        for (auto& b : rnds) b = (uint8_t)rng();
        // Task 5 (k2 cached) repeats task 3 (k2 uncached): the same signature from either source.
        std::memcpy(&mus[5 * 64], &mus[3 * 64], 64);
        std::memcpy(&rnds[(size_t)5 * P::RND_BYTES], &rnds[(size_t)3 * P::RND_BYTES], P::RND_BYTES);
        Bytes sigs((size_t)n * P::SIG_BYTES, 0xCC), plain_sigs((size_t)n * P::SIG_BYTES, 0xCC),
            ref_sigs((size_t)n * P::SIG_BYTES);
        const std::vector<uint8_t> st = emulate_launch<KeyedSignTask<P>>(
            {packed.data(), key_of.data(), sk_slots.data(), mus.data(), nullptr, rnds.data(), sigs.data()}, n, 3,
            shuffle);
        const std::vector<uint8_t> plain_st = emulate_launch<SignTask<P>>(
            {plain_sks.data(), mus.data(), rnds.data(), plain_sigs.data()}, n, 3, shuffle);
        for (int i = 0; i < n; ++i) {
            const size_t at = (size_t)i * P::SIG_BYTES;
            const uint8_t want = Ref::sign(key_sk[i]->data(), &mus[(size_t)i * 64], &rnds[(size_t)i * P::RND_BYTES],
                                           &ref_sigs[at]);
            bool same = st[i] == want && plain_st[i] == want && want == (i == 6 ? ABI_STATUS_INVALID_KEY : ABI_STATUS_OK);
            if (same && want == ABI_STATUS_OK) {
                same = std::memcmp(&sigs[at], &ref_sigs[at], P::SIG_BYTES) == 0 &&
                       std::memcmp(&plain_sigs[at], &ref_sigs[at], P::SIG_BYTES) == 0;
            }
            CHECK(same, "sign_keyed %s (%s): task %d (key_of %d) status %d, sign_ %d, reference %d%s", name, how, i,
                  key_of[i], st[i], plain_st[i], want, same ? "" : ", or the signatures differ");
            ok &= same;
        }
        CHECK(std::memcmp(&sigs[3 * (size_t)P::SIG_BYTES], &sigs[5 * (size_t)P::SIG_BYTES], P::SIG_BYTES) == 0,
              "sign_keyed %s (%s): one key and inputs, cached and uncached: one signature", name, how);

        // expand_pk: k0 -> slot 1, k1 -> slot 0; slot 2 a guard.
        Bytes pk_in = pk[0];
        pk_in.insert(pk_in.end(), pk[1].begin(), pk[1].end());
        const std::vector<int32_t> pk_slot_of = {1, 0};
        Bytes pk_slots((size_t)3 * PK_SLOT, POISON);
        const std::vector<uint8_t> pex =
            emulate_launch<ExpandPkTask<P>>({pk_in.data(), pk_slot_of.data(), pk_slots.data()}, 2, 3, shuffle);
        const bool pk_ok = pex[0] == ABI_STATUS_OK && pex[1] == ABI_STATUS_OK &&
                           slot_words(pk_slots, 1, PK_SLOT) == expected_pk_slot<P>(pk[0].data()) &&
                           slot_words(pk_slots, 0, PK_SLOT) == expected_pk_slot<P>(pk[1].data()) &&
                           std::all_of(pk_slots.begin() + 2 * PK_SLOT, pk_slots.end(),
                                       [&](uint8_t b) { return b == POISON; });
        CHECK(pk_ok, "expand_pk %s (%s): statuses, slots == A^ and NTT(t1 2^d) of the reference, guard untouched",
              name, how);
        ok &= pk_ok;

        // verify_keyed; uncached records: k2, k0. A task verifies the signature of signing task
        // sig_task on the mu of mu_task with key `key` (cached or not), damaged or not.
        struct V {
            int32_t key_of;
            int key, sig_task, mu_task, damage;  // damage: 0 none, 1 a z bit, 2 a hint count > omega, 3 a c~ bit
        };
        const std::vector<V> vt = {{1, 0, 0, 0, 0}, {1, 0, 1, 1, 1},  {0, 1, 2, 2, 0},  {-1, 2, 3, 3, 0},
                                   {1, 0, 4, 0, 0}, {-2, 0, 7, 7, 0}, {0, 1, 0, 0, 0},  {1, 0, 10, 10, 2},
                                   {1, 0, 7, 7, 0}, {-1, 2, 11, 11, 3}, {-2, 0, 10, 10, 1}, {0, 1, 8, 8, 0}};
        const int m = (int)vt.size();
        Bytes vpacked = pk[2], vmus((size_t)m * 64), vsigs((size_t)m * P::SIG_BYTES), plain_pks;
        vpacked.insert(vpacked.end(), pk[0].begin(), pk[0].end());
        std::vector<int32_t> vkey_of(m);
        for (int i = 0; i < m; ++i) {
            const V& v = vt[i];
            vkey_of[i] = v.key_of;
            plain_pks.insert(plain_pks.end(), pk[v.key].begin(), pk[v.key].end());
            std::memcpy(&vmus[(size_t)i * 64], &mus[(size_t)v.mu_task * 64], 64);
            uint8_t* sg = &vsigs[(size_t)i * P::SIG_BYTES];
            std::memcpy(sg, &ref_sigs[(size_t)v.sig_task * P::SIG_BYTES], P::SIG_BYTES);
            if (v.damage == 1) sg[P::SIG_Z + 5 * i] ^= 0x10;
            if (v.damage == 2) sg[P::SIG_H + P::OMEGA] = (uint8_t)(P::OMEGA + 1);
            if (v.damage == 3) sg[i % P::CTILDE_BYTES] ^= 0x01;
        }
        const std::vector<uint8_t> vst = emulate_launch<KeyedVerifyTask<P>>(
            {vpacked.data(), vkey_of.data(), pk_slots.data(), vmus.data(), nullptr, vsigs.data()}, m, 3, shuffle);
        const std::vector<uint8_t> vplain =
            emulate_launch<VerifyTask<P>>({plain_pks.data(), vmus.data(), vsigs.data()}, m, 3, shuffle);
        int rejected = 0;
        for (int i = 0; i < m; ++i) {
            const V& v = vt[i];
            const bool valid = Ref::verify(pk[v.key].data(), &vmus[(size_t)i * 64], &vsigs[(size_t)i * P::SIG_BYTES]);
            const uint8_t want = valid ? ABI_STATUS_OK : ABI_STATUS_REJECTED;
            const bool expect_valid = v.damage == 0 && v.key == signer[v.sig_task] && v.mu_task == v.sig_task;
            const bool same = vst[i] == want && vplain[i] == want && valid == expect_valid;
            rejected += !valid;
            CHECK(same, "verify_keyed %s (%s): task %d (key_of %d) status %d, verify_ %d, reference %d (expected %s)",
                  name, how, i, v.key_of, vst[i], vplain[i], want, expect_valid ? "valid" : "rejected");
            ok &= same;
        }
        CHECK(rejected == 6, "verify_keyed %s: 6 of the batch are rejected (%d)", name, rejected);

        ok &= message_records<P>(name, how, shuffle, sk, pk, packed, key_of, signer, sk_slots, rnds, vpacked, pk_slots);
    }
    CHECK(ok, "key cache %s", name);
    std::printf("  key cache %-11s %s (sk slot %d B, pk slot %d B; expand_sk, sign_keyed, expand_pk, verify_keyed == "
                "sign_, verify_, reference; message records == their mu)\n", name, ok ? "pass" : "FAIL", SK_SLOT,
                PK_SLOT);
}

void test_key_cache() {
    keyed_for<Dilithium2>("Dilithium2", 0);
    keyed_for<Dilithium3>("Dilithium3", 1);
    keyed_for<Dilithium5>("Dilithium5", 2);
    keyed_for<MlDsa44>("ML-DSA-44", 3);
    keyed_for<MlDsa65>("ML-DSA-65", 4);
    keyed_for<MlDsa87>("ML-DSA-87", 5);
}

/**
 * A sign_keyed_wide launch of n tasks on `groups` emulated groups of G warps each, interleaved at
 * every warp primitive (in turn, or shuffled): every task taken once, every workspace slice and
 * the scratch counters zero afterwards. Returns the statuses.
 */
template <class P>
std::vector<uint8_t> emulate_wide(const typename KeyedSignTask<P>::Args& args, int n, int groups, int G,
                                  uint64_t shuffle) {
    groups = std::min(groups, n);
    const int warps = groups * G;
    std::vector<WarpShared> shared(warps);
    std::vector<WideGroup> grp(groups, WideGroup{});
    std::vector<int32_t> ws((size_t)warps * SignTask<P>::WS_WORDS, 0x5A5A5A5A);
    std::vector<uint8_t> status(n, 0xEE);
    std::vector<uint32_t> scratch(ABI_SCRATCH_WORDS, 0);
    dgtest::run_warps(warps, [&](int w) {
        WideSign<P>::worker_loop(args, status.data(), n, warps, w % G, G, scratch.data(), grp[w / G], shared[w],
                                 ws.data() + (size_t)w * SignTask<P>::WS_WORDS, zeta_table());
    }, shuffle);
    CHECK(std::none_of(status.begin(), status.end(), [](uint8_t v) { return v == 0xEE; }),
          "wide: every task was taken: %d tasks, %d groups of %d", n, groups, G);
    CHECK(std::all_of(scratch.begin(), scratch.end(), [](uint32_t v) { return v == 0; }),
          "wide: the last warp left the scratch counters zero (%d tasks, %d groups of %d)", n, groups, G);
    CHECK(std::all_of(ws.begin(), ws.end(), [](int32_t v) { return v == 0; }),
          "wide: every workspace slice is zero after the launch");
    return status;
}

/**
 * sign_keyed_wide against sign_keyed and the reference, on `variants` launches of two groups of 2, 3
 * or WIDE_WARPS warps, in turn or shuffled, on mu or message records: three cached keys and an
 * uncached one (warp 0's own loop) interleaved, an uncached invalid key; every status and
 * signature identical.
 */
template <class P>
void wide_for(const char* name, int round, int variants) {
    using Ref = dgtest::RefScheme<P>;
    constexpr int SK_SLOT = ExpandSkTask<P>::SLOT_BYTES;
    bool ok = true;
    std::vector<Bytes> sk(4, Bytes(P::SK_BYTES));
    for (int k = 0; k < 4; ++k) {
        Bytes seed(32), pk(P::PK_BYTES);
        for (auto& b : seed) b = (uint8_t)rng();
        Ref::keygen(seed.data(), pk.data(), sk[k].data());
    }
    Bytes bad = sk[3];
    bad[P::SK_S2] |= (uint8_t)((1u << P::ETA_BITS) - 1);
    Bytes ex_in;
    for (int k = 0; k < 3; ++k) ex_in.insert(ex_in.end(), sk[k].begin(), sk[k].end());
    const std::vector<int32_t> slot_of = {2, 0, 1};
    Bytes slots((size_t)3 * SK_SLOT);
    const std::vector<uint8_t> ex = emulate_launch<ExpandSkTask<P>>({ex_in.data(), slot_of.data(), slots.data()}, 3, 2, 0);
    ok &= std::all_of(ex.begin(), ex.end(), [](uint8_t v) { return v == ABI_STATUS_OK; });

    // Tasks: key k0 in slot 2, k1 in 0, k2 in 1; packed records: k3, bad.
    const std::vector<int32_t> key_of = {2, 0, -1, 1, -2, 2, 0};
    const int signer[7] = {0, 1, 3, 2, -1, 0, 1};
    const int n = (int)key_of.size();
    Bytes packed = sk[3];
    packed.insert(packed.end(), bad.begin(), bad.end());
    Bytes mus((size_t)n * 64), rnds((size_t)n * P::RND_BYTES), msgs((size_t)n * ABI_MESSAGE_BYTES);
    for (auto& b : rnds) b = (uint8_t)rng();
    for (int i = 0; i < n; ++i) {
        const Bytes& key = signer[i] < 0 ? bad : sk[signer[i]];
        uint8_t m[20];
        for (auto& b : m) b = (uint8_t)rng();
        Bytes in(key.begin() + P::SK_TR, key.begin() + P::SK_TR + P::TR_BYTES);
        in.insert(in.end(), m, m + i);
        shake256(&mus[(size_t)i * 64], 64, in.data(), in.size());
        put_message(&msgs[(size_t)i * ABI_MESSAGE_BYTES], m, i);
    }
    Bytes seq((size_t)n * P::SIG_BYTES, 0xCC), ref((size_t)n * P::SIG_BYTES);
    const std::vector<uint8_t> seq_st = emulate_launch<KeyedSignTask<P>>(
        {packed.data(), key_of.data(), slots.data(), mus.data(), nullptr, rnds.data(), seq.data()}, n, 3, 0);
    for (int i = 0; i < n; ++i) {
        const Bytes& key = signer[i] < 0 ? bad : sk[signer[i]];
        const uint8_t want = Ref::sign(key.data(), &mus[(size_t)i * 64], &rnds[(size_t)i * P::RND_BYTES],
                                       &ref[(size_t)i * P::SIG_BYTES]);
        const bool same = seq_st[i] == want && want == (i == 4 ? ABI_STATUS_INVALID_KEY : ABI_STATUS_OK) &&
                          (want != ABI_STATUS_OK ||
                           std::memcmp(&seq[(size_t)i * P::SIG_BYTES], &ref[(size_t)i * P::SIG_BYTES], P::SIG_BYTES) == 0);
        CHECK(same, "wide %s: sign_keyed task %d against the reference", name, i);
        ok &= same;
    }
    const int widths[3] = {2, 3, WIDE_WARPS};
    for (int v = 0; v < variants; ++v) {
        const int G = widths[(v + round) % 3];
        const bool shuffled = (v + round) % 2 == 1, records = v % 2 == 1;
        const uint64_t shuffle = shuffled ? 0x2545F4914F6CDD1Dull * (uint64_t)(round * 8 + v + 1) : 0;
        Bytes sigs((size_t)n * P::SIG_BYTES, 0xCC);
        const std::vector<uint8_t> st = emulate_wide<P>(
            {packed.data(), key_of.data(), slots.data(), records ? nullptr : mus.data(), records ? msgs.data() : nullptr,
             rnds.data(), sigs.data()}, n, 2, G, shuffle);
        for (int i = 0; i < n; ++i) {
            const bool same = st[i] == seq_st[i] &&
                              (st[i] != ABI_STATUS_OK ||
                               std::memcmp(&sigs[(size_t)i * P::SIG_BYTES], &seq[(size_t)i * P::SIG_BYTES], P::SIG_BYTES) == 0);
            CHECK(same, "wide %s: groups of %d%s%s: task %d (key_of %d) status %d, sign_keyed %d%s", name, G,
                  shuffled ? ", shuffled" : "", records ? ", message records" : "", i, key_of[i], st[i], seq_st[i],
                  same ? "" : ", or the signatures differ");
            ok &= same;
        }
    }
    CHECK(ok, "wide %s", name);
    std::printf("  wide %-11s %s (%d launches: groups of 2, 3 or %d warps, in turn or shuffled, mu or message "
                "records; sign_keyed_wide == sign_keyed == reference)\n", name, ok ? "pass" : "FAIL", variants, WIDE_WARPS);
}

void test_wide() {
    wide_for<MlDsa44>("ML-DSA-44", 0, 4);
    wide_for<Dilithium3>("Dilithium3", 1, 2);
    wide_for<MlDsa87>("ML-DSA-87", 2, 2);
}

}  // namespace

/**
 * sign_keyed_helped's helpers (sign_help.cuh): launches in which warps run out of tasks while others still
 * sign (n tasks on n warps, and on fewer), in turn and shuffled, on mu or message records, with a
 * packed key among the cached ones; every status and signature the reference's. With `bound`, one
 * cached slot whose s1^ is garbage never signs: its task ends ABI_STATUS_INVALID_KEY after
 * ITERATIONS iterations, claimed by every warp in turn. Helpers must have claimed iterations.
 */
template <class P>
void help_for(const char* name, int round, bool bound) {
    using Ref = dgtest::RefScheme<P>;
    constexpr int SK_SLOT = ExpandSkTask<P>::SLOT_BYTES;
    bool ok = true;
    std::vector<Bytes> sk(3, Bytes(P::SK_BYTES));
    for (auto& key : sk) {
        Bytes seed(32), pk(P::PK_BYTES);
        for (auto& b : seed) b = (uint8_t)rng();
        Ref::keygen(seed.data(), pk.data(), key.data());
    }
    Bytes ex_in = sk[0];
    ex_in.insert(ex_in.end(), sk[1].begin(), sk[1].end());
    const std::vector<int32_t> slot_of = {1, 0};
    Bytes slots((size_t)3 * SK_SLOT);
    const std::vector<uint8_t> ex = emulate_launch<ExpandSkTask<P>>({ex_in.data(), slot_of.data(), slots.data()}, 2, 2, 0);
    ok &= ex[0] == ABI_STATUS_OK && ex[1] == ABI_STATUS_OK;
    // Slot 2: key 0's slot with s1^ garbage, so that z never passes.
    std::memcpy(&slots[(size_t)2 * SK_SLOT], &slots[(size_t)1 * SK_SLOT], SK_SLOT);
    int32_t* garbage = reinterpret_cast<int32_t*>(&slots[(size_t)2 * SK_SLOT]) + SignTask<P>::WS_S1;
    for (int i = 0; i < P::L * N; ++i) garbage[i] = (int32_t)(rng() % Q);

    // Tasks: key 0 in slot 1, key 1 in slot 0, key 2 packed (record 0); the garbage slot with bound.
    std::vector<int32_t> key_of = {1, 0, 1, -1, 0, 1, 1, 0, -1, 0};
    std::vector<int> signer = {0, 1, 0, 2, 1, 0, 0, 1, 2, 1};
    if (bound) {
        key_of.resize(6);
        signer.resize(6);
        key_of[4] = 2;
        signer[4] = -1;
    }
    const int n = (int)key_of.size();
    Bytes mus((size_t)n * 64), rnds((size_t)n * P::RND_BYTES), msgs((size_t)n * ABI_MESSAGE_BYTES);
    for (auto& b : rnds) b = (uint8_t)rng();
    for (int i = 0; i < n; ++i) {
        const Bytes& key = sk[signer[i] < 0 ? 0 : signer[i]];
        uint8_t m[24];
        for (auto& b : m) b = (uint8_t)rng();
        Bytes in(key.begin() + P::SK_TR, key.begin() + P::SK_TR + P::TR_BYTES);
        in.insert(in.end(), m, m + i);
        shake256(&mus[(size_t)i * 64], 64, in.data(), in.size());
        put_message(&msgs[(size_t)i * ABI_MESSAGE_BYTES], m, i);
    }
    Bytes ref((size_t)n * P::SIG_BYTES);
    std::vector<uint8_t> want(n);
    for (int i = 0; i < n; ++i) {
        want[i] = signer[i] < 0 ? (uint8_t)ABI_STATUS_INVALID_KEY
                                : Ref::sign(sk[signer[i]].data(), &mus[(size_t)i * 64], &rnds[(size_t)i * P::RND_BYTES],
                                            &ref[(size_t)i * P::SIG_BYTES]);
    }
    int helped = 0;
    const int variants = bound ? 1 : round == 0 ? 4 : 2;
    for (int v = 0; v < variants; ++v) {
        const int warps = v % 2 == 0 ? n : 4;
        const bool shuffled = (v + round) % 2 == 1, records = (v + round) % 4 >= 2;
        const uint64_t shuffle = shuffled ? 0x9E3779B97F4A7C15ull * (uint64_t)(round * 8 + v + 1) : 0;
        Bytes sigs((size_t)n * P::SIG_BYTES, 0xCC);
        const std::vector<uint8_t> st = emulate_launch<HelpedSignTask<P>>(
            {sk[2].data(), key_of.data(), slots.data(), records ? nullptr : mus.data(), records ? msgs.data() : nullptr,
             rnds.data(), sigs.data()}, n, warps, shuffle);
        helped += g_helped_iterations;
        for (int i = 0; i < n; ++i) {
            const bool same = st[i] == want[i] &&
                              (want[i] != ABI_STATUS_OK ||
                               std::memcmp(&sigs[(size_t)i * P::SIG_BYTES], &ref[(size_t)i * P::SIG_BYTES], P::SIG_BYTES) == 0);
            CHECK(same, "helped %s: %d tasks on %d warps%s%s: task %d (key_of %d) status %d, reference %d%s", name, n,
                  warps, shuffled ? ", shuffled" : "", records ? ", message records" : "", i, key_of[i], st[i], want[i],
                  same ? "" : ", or the signatures differ");
            ok &= same;
        }
    }
    CHECK(helped > 0, "helped %s: helpers claimed iterations (%d)", name, helped);
    ok &= helped > 0;
    std::printf("  helped %-11s %s (%d launches%s: tasks on as many warps and on 4, in turn or shuffled, mu or message "
                "records; %d iterations claimed by helpers; == reference)\n", name, ok ? "pass" : "FAIL", variants,
                bound ? ", a slot that never signs" : "", helped);
}

void test_help() {
    help_for<MlDsa44>("ML-DSA-44", 0, false);
    help_for<MlDsa87>("ML-DSA-87", 2, false);
    help_for<MlDsa44>("ML-DSA-44", 3, true);
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s <vectors.txt> [emulated tasks per group] [launch rounds / 3] [only]\n", argv[0]);
        return 2;
    }
    const int per_group = argc > 2 ? std::atoi(argv[2]) : 2;
    const int launches = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1;
    const std::string only = argc > 4 ? argv[4] : "";
    auto run = [&](const char* section) { return only.empty() || std::string(section).find(only) != std::string::npos; };
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<Record> vectors = dgtest::read_vectors(argv[1]);
    std::printf("host tests (%zu vector records)\n", vectors.size());
    if (run("shake")) test_shake(vectors);
    if (run("reduce")) test_reduce();
    if (run("dot")) test_dot();
    if (run("ntt")) test_ntt();
    if (run("rounding")) test_rounding();
    if (run("pack")) test_pack();
    if (run("copy")) test_copy_out();
    if (run("streams")) test_streams();
    if (run("reference")) test_reference(vectors);
    if (run("tasks")) test_tasks(vectors, per_group);
    if (run("differential")) {
        differential_for<Dilithium2>("Dilithium2", 2);
        differential_for<Dilithium3>("Dilithium3", 1);
        differential_for<MlDsa44>("ML-DSA-44", 2);
        differential_for<MlDsa87>("ML-DSA-87", 1);
    }
    if (run("launch")) {
        launch_for<MlDsa44>("ML-DSA-44", 3 * launches);
        launch_for<Dilithium3>("Dilithium3", 3 * launches);
        launch_for<MlDsa87>("ML-DSA-87", 3 * launches);
    }
    if (run("keyed")) test_key_cache();
    if (run("wide")) test_wide();
    if (run("helped")) test_help();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%d checks, %d failures (%.1f s)\n", g_checks, g_failures, secs);
    return g_failures == 0 ? 0 : 1;
}
