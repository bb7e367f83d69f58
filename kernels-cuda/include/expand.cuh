/*
 * The wide XOF phases of the scheme - ExpandA (FIPS 204 Algorithm 32), ExpandS (Algorithm 33)
 * and ExpandMask (Algorithm 34) - as independent SHAKE streams, one stream per lane with its
 * Keccak state in registers (keccak.cuh, thread level).
 *
 * A job lists its streams (count, and per stream: kind, nonce, output polynomial). Lanes take
 * streams 0..31 first; a lane whose polynomial is complete takes the next unassigned stream
 * (ballot + popcount hand out indices), so short ExpandS streams and long ExpandA streams share
 * the warp without idling whole passes. After each permutation a lane stages its output block
 * in its own row of shared memory and runs the stream's sampler over it (sample.cuh); the
 * samplers write coefficients to global memory in natural order, 16 bytes at a time.
 *
 * Output polynomials of kind UNIFORM are A-hat entries in [0, q) (NTT domain); ETA gives
 * [-eta, eta]; MASK gives (-gamma1, gamma1].
 */
#ifndef DILITHIUMGPU_EXPAND_CUH
#define DILITHIUMGPU_EXPAND_CUH

#include "keccak.cuh"
#include "sample.cuh"
#include "warp.cuh"

namespace dg {

enum StreamKind : int { STREAM_UNIFORM = 0, STREAM_ETA = 1, STREAM_MASK = 2 };

/** 32-bit words of one lane's staging row (a SHAKE128 block is 42 words; one pad word). */
constexpr int STAGE_ROW_WORDS = 43;
constexpr int STAGE_WORDS = 32 * STAGE_ROW_WORDS;

struct StreamSpec {
    int kind;
    uint32_t nonce;   // the two bytes absorbed after the seed, little-endian
    int32_t* out;     // N coefficients, 16-byte aligned
};

/**
 * Seed words in shared memory: [0, 4) rho, [4, 12) rho' (or rho''), [12, 16) K.
 * UNIFORM streams absorb rho || nonce into SHAKE128; ETA and MASK absorb rho' || nonce into
 * SHAKE256. Both inputs fit one block, so the state is built directly with its padding.
 */
DG_HD void seed_stream(uint64_t (&st)[25], const uint64_t* seeds, const StreamSpec& s) {
    const bool shake128 = s.kind == STREAM_UNIFORM;
    const uint64_t* key = shake128 ? seeds : seeds + 4;
    const int key_words = shake128 ? 4 : 8;
    const uint64_t tail = (uint64_t)(s.nonce & 0xFFFF) | ((uint64_t)0x1F << 16);
    DG_UNROLL
    for (int i = 0; i < 25; ++i) st[i] = 0;
    DG_UNROLL
    for (int i = 0; i < 9; ++i) st[i] = i < key_words ? key[i] : (i == key_words ? tail : 0);
    st[(SHAKE256_RATE / 8) - 1] ^= shake128 ? 0 : 0x8000000000000000ull;
    st[(SHAKE128_RATE / 8) - 1] ^= shake128 ? 0x8000000000000000ull : 0;
}

/**
 * Runs every stream of a job on the warp. Job: count(), spec(i), and constexpr flags
 * HAS_UNIFORM / HAS_ETA / HAS_MASK naming the kinds it may return. stage: STAGE_WORDS words of
 * the warp's shared memory. Ends with a warp sync (the outputs are visible to all lanes).
 */
template <class P, class Job>
DG_HD void run_lane_streams(const Job& job, const uint64_t* seeds, uint32_t* stage) {
    const int l = (int)warp::lane();
    uint32_t* row = stage + l * STAGE_ROW_WORDS;
    const int count = job.count();
    uint64_t st[25];
    PolySink sink;
    MaskUnpacker<P::GAMMA1, P::Z_BITS> mask;
    int kind = STREAM_UNIFORM;
    int s = l < count ? l : -1;
    int next = 32;

    auto start = [&](int i) {
        const StreamSpec spec = job.spec(i);
        kind = spec.kind;
        seed_stream(st, seeds, spec);
        sink.reset(spec.out);
        mask.reset();
    };
    if (s >= 0) {
        start(s);
    } else {
        DG_UNROLL
        for (int i = 0; i < 25; ++i) st[i] = 0;
        sink.reset(nullptr);
        mask.reset();
    }

    DG_NO_UNROLL
    while (warp::any(s >= 0)) {
        keccak_f1600(st);
        if (s >= 0) {
            DG_UNROLL
            for (int w = 0; w < SHAKE128_RATE / 8; ++w) {
                row[2 * w] = (uint32_t)st[w];
                row[2 * w + 1] = (uint32_t)(st[w] >> 32);
            }
            if (Job::HAS_UNIFORM && kind == STREAM_UNIFORM) {
                sample_uniform_block(row, sink);
            } else if (Job::HAS_ETA && kind == STREAM_ETA) {
                sample_eta_block<P::ETA>(row, sink);
            } else if (Job::HAS_MASK && kind == STREAM_MASK) {
                mask.block(row, sink);
            }
        }
        const bool done = s >= 0 && sink.full();
        int finished;
        const int rank = warp::prefix_count(done, &finished);
        if (done) {
            s = next + rank < count ? next + rank : -1;
            if (s >= 0) start(s);
        }
        next += finished;
    }
    warp::sync();
}

/** ExpandA: A-hat[i][j] = RejNTTPoly(rho || j || i), K * L streams, row-major output. */
template <class P>
struct MatrixStreams {
    static constexpr bool HAS_UNIFORM = true, HAS_ETA = false, HAS_MASK = false;
    int32_t* a_hat;
    DG_HD int count() const { return P::K * P::L; }
    DG_HD StreamSpec spec(int s) const {
        const int i = s / P::L, j = s % P::L;
        return StreamSpec{STREAM_UNIFORM, (uint32_t)((i << 8) | j), a_hat + s * N};
    }
};

/**
 * Key generation: ExpandA and ExpandS together. Streams [0, K L) are A-hat (row-major),
 * then s1[0..L) with nonces 0..L-1 and s2[0..K) with nonces L..L+K-1 into s[0..L+K).
 */
template <class P>
struct KeygenStreams {
    static constexpr bool HAS_UNIFORM = true, HAS_ETA = true, HAS_MASK = false;
    int32_t* a_hat;
    int32_t* s;
    DG_HD int count() const { return P::K * P::L + P::L + P::K; }
    DG_HD StreamSpec spec(int i) const {
        if (i < P::K * P::L) return MatrixStreams<P>{a_hat}.spec(i);
        const int r = i - P::K * P::L;
        return StreamSpec{STREAM_ETA, (uint32_t)r, s + r * N};
    }
};

/**
 * Signing: optionally ExpandA (first batch), then ExpandMask for `candidates` iterations it0,
 * it0 + stride, ...: y[c][r] = ExpandMask(rho'', (it0 + c stride) L + r), written to y + (c L + r) N.
 */
template <class P>
struct SignStreams {
    static constexpr bool HAS_UNIFORM = true, HAS_ETA = false, HAS_MASK = true;
    int32_t* a_hat;   // nullptr: no ExpandA in this batch
    int32_t* y;
    int it0;
    int candidates;
    int stride;  // 1, or a group's warp count (sign_wide.cuh)
    DG_HD int matrix_streams() const { return a_hat ? P::K * P::L : 0; }
    DG_HD int count() const { return matrix_streams() + candidates * P::L; }
    DG_HD StreamSpec spec(int i) const {
        const int m = matrix_streams();
        if (i < m) return MatrixStreams<P>{a_hat}.spec(i);
        const int v = i - m;
        return StreamSpec{STREAM_MASK, (uint32_t)((it0 + v / P::L * stride) * P::L + v % P::L), y + v * N};
    }
};

}  // namespace dg

#endif
