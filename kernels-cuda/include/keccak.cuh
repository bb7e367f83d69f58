/*
 * Keccak-f[1600] and SHAKE (FIPS 202), at two levels:
 *
 *  - thread level: keccak_f1600 on a 25-word state in registers (the round body is unrolled, the
 *    24 rounds are a loop so the code stays in the instruction cache); Shake, a plain incremental
 *    sponge for host references; used on the GPU by the lane-per-stream expanders (expand.cuh);
 *  - warp level: WarpShake256, one sponge spread over lanes 0..24 of a warp (lane t holds state
 *    word t = x + 5y), for the single long sponges of the scheme: H(pk), H(K || rnd || mu),
 *    H(mu || w1), SampleInBall. Lanes 25..31 compute on dummy words and are ignored.
 *
 * Both are constant time (no data-dependent branches or addresses).
 */
#ifndef DILITHIUMGPU_KECCAK_CUH
#define DILITHIUMGPU_KECCAK_CUH

#include "platform.cuh"
#include "warp.cuh"

namespace dg {

/** SHAKE128 and SHAKE256 rates in bytes. */
constexpr int SHAKE128_RATE = 168;
constexpr int SHAKE256_RATE = 136;

namespace keccak_detail {
#define DG_KECCAK_RC_VALUES                                                                     \
    {0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull, \
     0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull, \
     0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull, \
     0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull, \
     0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull, \
     0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull}
#if defined(__CUDACC__)
static __constant__ uint64_t kRoundConstantsDevice[24] = DG_KECCAK_RC_VALUES;
#endif
static const uint64_t kRoundConstantsHost[24] = DG_KECCAK_RC_VALUES;
#undef DG_KECCAK_RC_VALUES

DG_HD uint64_t round_constant(int round) {
#if DG_ON_DEVICE
    return kRoundConstantsDevice[round];
#else
    return kRoundConstantsHost[round];
#endif
}

/*
 * rho rotation of state word x + 5y, by rows y = 0..4:
 *   0 1 62 28 27 | 36 44 6 55 20 | 3 10 43 25 39 | 41 45 15 21 8 | 18 2 61 56 14
 */
#define DG_KECCAK_RHO_VALUES {0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14}
#if defined(__CUDACC__)
static __constant__ uint8_t kRhoDevice[25] = DG_KECCAK_RHO_VALUES;
#endif
static const uint8_t kRhoHost[25] = DG_KECCAK_RHO_VALUES;

/** For compile-time i (unrolled loops): folds to a constant. */
DG_HD int rho_offset(int i) {
    constexpr uint8_t r[25] = DG_KECCAK_RHO_VALUES;
    return r[i];
}
#undef DG_KECCAK_RHO_VALUES

/** For a run-time i (one lane's word of the warp sponge): a table load. */
DG_HD int rho_offset_lookup(int i) {
#if DG_ON_DEVICE
    return kRhoDevice[i];
#else
    return kRhoHost[i];
#endif
}
}  // namespace keccak_detail

/** 64-bit left rotation, n in [0, 63]; two funnel shifts on the GPU. */
DG_HD uint64_t rotl64(uint64_t x, int n) {
#if DG_ON_DEVICE
    uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
    if (n & 32) {
        const uint32_t t = lo;
        lo = hi;
        hi = t;
    }
    const uint32_t nhi = __funnelshift_l(lo, hi, n);
    const uint32_t nlo = __funnelshift_l(hi, lo, n);
    return ((uint64_t)nhi << 32) | nlo;
#else
    return (x << (n & 63)) | (x >> ((64 - n) & 63));
#endif
}

/** One Keccak-f[1600] round (theta, rho, pi, chi, iota) on state words a[x + 5y]. */
DG_HD void keccak_round(uint64_t (&a)[25], uint64_t rc) {
    uint64_t c[5], d[5], b[25];
    DG_UNROLL
    for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    DG_UNROLL
    for (int x = 0; x < 5; ++x) d[x] = c[(x + 4) % 5] ^ rotl64(c[(x + 1) % 5], 1);
    // rho and pi: B[y, 2x + 3y] = rot(A[x, y] ^ D[x], r[x, y]).
    DG_UNROLL
    for (int i = 0; i < 25; ++i) {
        const int x = i % 5, y = i / 5;
        b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl64(a[i] ^ d[x], keccak_detail::rho_offset(i));
    }
    // chi and iota.
    DG_UNROLL
    for (int i = 0; i < 25; ++i) {
        const int x = i % 5, y5 = i - x;
        a[i] = b[i] ^ (~b[y5 + (x + 1) % 5] & b[y5 + (x + 2) % 5]);
    }
    a[0] ^= rc;
}

#if !DG_ON_DEVICE
/** Host-only counter of permutations, for the operation counts in docs/kernels.md. */
inline uint64_t& keccak_permutation_count() {
    static uint64_t count = 0;
    return count;
}
#endif

/** Keccak-f[1600] on a state held in registers (thread level). */
DG_HD void keccak_f1600(uint64_t (&a)[25]) {
#if !DG_ON_DEVICE
    ++keccak_permutation_count();
#endif
    DG_NO_UNROLL
    for (int round = 0; round < 24; ++round) keccak_round(a, keccak_detail::round_constant(round));
}

/**
 * A plain incremental SHAKE sponge (thread level): absorb any number of byte strings, then
 * squeeze any number of bytes. Rate in bytes: SHAKE128_RATE or SHAKE256_RATE.
 */
template <int RATE>
struct Shake {
    uint64_t s[25];
    int pos;
    bool squeezing;

    DG_HD void init() {
        for (int i = 0; i < 25; ++i) s[i] = 0;
        pos = 0;
        squeezing = false;
    }

    DG_HD void xor_byte(int i, uint8_t v) { s[i >> 3] ^= (uint64_t)v << (8 * (i & 7)); }
    DG_HD uint8_t byte(int i) const { return (uint8_t)(s[i >> 3] >> (8 * (i & 7))); }

    DG_HD void absorb(const uint8_t* in, size_t len) {
        for (size_t i = 0; i < len; ++i) {
            xor_byte(pos++, in[i]);
            if (pos == RATE) {
                keccak_f1600(s);
                pos = 0;
            }
        }
    }

    /** Pads (SHAKE domain bits 1111, then pad10*1) and switches to squeezing. */
    DG_HD void finalize() {
        xor_byte(pos, 0x1F);
        xor_byte(RATE - 1, 0x80);
        keccak_f1600(s);
        pos = 0;
        squeezing = true;
    }

    DG_HD void squeeze(uint8_t* out, size_t len) {
        for (size_t i = 0; i < len; ++i) {
            if (pos == RATE) {
                keccak_f1600(s);
                pos = 0;
            }
            out[i] = byte(pos++);
        }
    }
};

using Shake128 = Shake<SHAKE128_RATE>;
using Shake256 = Shake<SHAKE256_RATE>;

/** SHAKE256(in, inlen) -> out, outlen (thread level). */
DG_HD void shake256(uint8_t* out, size_t outlen, const uint8_t* in, size_t inlen) {
    Shake256 h;
    h.init();
    h.absorb(in, inlen);
    h.finalize();
    h.squeeze(out, outlen);
}

/**
 * One SHAKE256 sponge shared by a warp: lane t < 25 holds state word t. A round costs nine
 * 64-bit shuffles in three dependent levels (theta's column parity 4, theta's neighbours 2, then
 * pi and chi's 3 together) and about twenty 32-bit ALU operations per lane. The sponge's
 * permutations are a chain of rounds with nothing to overlap, so a round's time is its levels'
 * latency: fewer levels, not fewer shuffles, make it faster (docs/performance.md).
 */
struct WarpShake256 {
    static constexpr int RATE = SHAKE256_RATE;
    static constexpr int RATE_WORDS = RATE / 8;

    uint64_t a;      // state word lane()
    int t;           // this lane's word index (lanes >= 25 alias word 24 and are ignored)
    int theta5, theta10, theta15, theta20, dm1, dp1, pi_src, chi1, chi2, rho;

    /**
     * The lane whose rho output pi moves to lane u: B[X, Y] = rot(A[x', X], r) where
     * Y = 2x' + 3X (mod 5), i.e. x' = 3(Y - 3X) (mod 5).
     */
    DG_HD static int pi_source(int u) {
        const int x = u % 5, y = u / 5;
        return ((3 * (y - 3 * x)) % 5 + 5) % 5 + 5 * x;
    }

    DG_HD void init() {
        a = 0;
        t = (int)warp::lane();
        if (t > 24) t = 24;
        const int x = t % 5, y = t / 5;
        theta5 = (t + 5) % 25;
        theta10 = (t + 10) % 25;
        theta15 = (t + 15) % 25;
        theta20 = (t + 20) % 25;
        dm1 = (x + 4) % 5;
        dp1 = (x + 1) % 5;
        pi_src = pi_source(t);
        // chi reads B[x + 1, y] and B[x + 2, y]: pi's sources for those lanes, so that chi's
        // shuffles read the rho output beside pi's instead of waiting for B.
        chi1 = pi_source(5 * y + (x + 1) % 5);
        chi2 = pi_source(5 * y + (x + 2) % 5);
        rho = keccak_detail::rho_offset_lookup(t);
    }

    /** Keccak-f[1600] on the shared state. */
    DG_HD void permute() {
#if !DG_ON_DEVICE
        if (warp::lane() == 0) ++keccak_permutation_count();
#endif
        DG_NO_UNROLL
        for (int round = 0; round < 24; ++round) {
            // Column parity C[x]: the other four rows of the column, read at once.
            const uint64_t c = a ^ warp::shfl(a, theta5) ^ warp::shfl(a, theta10) ^ warp::shfl(a, theta15) ^
                               warp::shfl(a, theta20);
            const uint64_t d = warp::shfl(c, dm1) ^ rotl64(warp::shfl(c, dp1), 1);
            const uint64_t r = rotl64(a ^ d, rho);
            const uint64_t b = warp::shfl(r, pi_src);
            const uint64_t b1 = warp::shfl(r, chi1);
            const uint64_t b2 = warp::shfl(r, chi2);
            a = b ^ (~b1 & b2);
            if (t == 0 && warp::lane() == 0) a ^= keccak_detail::round_constant(round);
        }
    }

    /** Reads the 8 message bytes of word t of a block starting at p (n of them valid, n <= 8). */
    DG_HD static uint64_t load_word(const uint8_t* p, int n) {
        uint64_t w = 0;
        for (int i = 0; i < 8; ++i)
            if (i < n) w |= (uint64_t)p[i] << (8 * i);
        return w;
    }

    /**
     * Absorbs a whole message and pads it; the state is then ready to squeeze. msg may be in
     * shared or global memory, at any alignment; every lane may read it (it is read-only here).
     */
    DG_HD void absorb_message(const uint8_t* msg, int len) {
        const bool active = warp::lane() < RATE_WORDS;
        int off = 0;
        DG_NO_UNROLL
        for (; off + RATE <= len; off += RATE) {
            if (active) a ^= load_word(msg + off + 8 * t, 8);
            permute();
        }
        const int rest = len - off;  // 0..RATE-1 bytes left
        if (active) {
            const int first = 8 * t;
            const int n = rest - first;
            a ^= load_word(msg + off + first, n < 0 ? 0 : (n > 8 ? 8 : n));
            // Domain separation 1111 and pad10*1.
            if (rest >= first && rest < first + 8) a ^= (uint64_t)0x1F << (8 * (rest - first));
            if (t == RATE_WORDS - 1) a ^= 0x8000000000000000ull;
        }
        permute();
    }

    /**
     * Writes the first n bytes of the current output block to out (n <= RATE), without
     * permuting. Callers then sync() before other lanes read out.
     */
    DG_HD void write_block(uint8_t* out, int n) const {
        if (warp::lane() < RATE_WORDS) {
            for (int i = 0; i < 8; ++i)
                if (8 * t + i < n) out[8 * t + i] = (uint8_t)(a >> (8 * i));
        }
    }
};

}  // namespace dg

#endif
