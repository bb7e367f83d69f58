/*
 * Sampling (FIPS 204 Algorithms 14, 15, 29-34; round-3.1 poly.c), at thread level: consumers
 * that turn one block of XOF output into coefficients, the output sink they feed, and
 * SampleInBall. SampleInBall also has a warp version over WarpShake256.
 *
 * Constant-time inventory: RejNTTPoly and RejBoundedPoly reject on public or secret-independent
 * positions only in the sense of the specification (their running time depends on the seed, as
 * the standard allows); ExpandMask is fixed-time; SampleInBall's loop length depends on c~,
 * which is public.
 */
#ifndef DILITHIUMGPU_SAMPLE_CUH
#define DILITHIUMGPU_SAMPLE_CUH

#include "keccak.cuh"
#include "params.cuh"

namespace dg {

/**
 * Collects the coefficients of one polynomial in order and writes them to global memory four
 * at a time (16-byte stores; out is 16-byte aligned). Offers after the N-th are ignored.
 */
struct PolySink {
    int32_t* out;
    int ctr;
    int32_t w0, w1, w2, w3;

    DG_HD void reset(int32_t* o) {
        out = o;
        ctr = 0;
        w0 = w1 = w2 = w3 = 0;
    }

    DG_HD bool full() const { return ctr >= N; }

    /** Takes v: for a sampler that keeps every candidate and offers exactly N of them. */
    DG_HD void push(int32_t v) {
        w0 = w1;
        w1 = w2;
        w2 = w3;
        w3 = v;
        ++ctr;
        if ((ctr & 3) == 0) store_last4();
    }

    DG_HD void offer(int32_t v, bool accept) {
        const bool take = accept && ctr < N;
        w0 = take ? w1 : w0;
        w1 = take ? w2 : w1;
        w2 = take ? w3 : w2;
        w3 = take ? v : w3;
        ctr += take ? 1 : 0;
        if (take && (ctr & 3) == 0) store_last4();
    }

    /** The last four coefficients taken, to their place. */
    DG_HD void store_last4() const {
#if DG_ON_DEVICE
        *reinterpret_cast<int4*>(out + ctr - 4) = make_int4(w0, w1, w2, w3);
#else
        out[ctr - 4] = w0;
        out[ctr - 3] = w1;
        out[ctr - 2] = w2;
        out[ctr - 1] = w3;
#endif
    }
};

/**
 * RejNTTPoly's inner step (FIPS 204 Algorithm 14 via CoeffFromThreeBytes): every 3 bytes of a
 * SHAKE128 block give a 23-bit candidate, kept when below q. words: the block as 42 words.
 */
DG_HD void sample_uniform_block(const uint32_t* words, PolySink& sink) {
    DG_NO_UNROLL
    for (int g = 0; g < SHAKE128_RATE / 12; ++g) {
        const uint32_t a = words[3 * g], b = words[3 * g + 1], c = words[3 * g + 2];
        const int32_t t0 = (int32_t)(a & 0x7FFFFF);
        const int32_t t1 = (int32_t)(((a >> 24) | (b << 8)) & 0x7FFFFF);
        const int32_t t2 = (int32_t)(((b >> 16) | (c << 16)) & 0x7FFFFF);
        const int32_t t3 = (int32_t)((c >> 8) & 0x7FFFFF);
        sink.offer(t0, t0 < Q);
        sink.offer(t1, t1 < Q);
        sink.offer(t2, t2 < Q);
        sink.offer(t3, t3 < Q);
    }
}

/**
 * RejBoundedPoly's inner step (FIPS 204 Algorithms 15 and 31): each half-byte of a SHAKE256
 * block, low half first, gives a candidate; eta = 2 keeps t < 15 as 2 - (t mod 5), eta = 4 keeps
 * t < 9 as 4 - t. words: the block as 34 words.
 */
template <int ETA>
DG_HD void sample_eta_block(const uint32_t* words, PolySink& sink) {
    static_assert(ETA == 2 || ETA == 4, "eta");
    DG_NO_UNROLL
    for (int w = 0; w < SHAKE256_RATE / 4; ++w) {
        const uint32_t x = words[w];
        DG_UNROLL
        for (int i = 0; i < 8; ++i) {
            const int32_t t = (int32_t)((x >> (4 * i)) & 15);
            if (ETA == 2) {
                sink.offer(2 - (t - ((205 * t) >> 10) * 5), t < 15);
            } else {
                sink.offer(4 - t, t < 9);
            }
        }
    }
}

/**
 * ExpandMask's unpacking (FIPS 204 Algorithm 34 with BitUnpack): the XOF stream is read as
 * consecutive little-endian Z_BITS-bit fields f, each giving gamma1 - f. The bit buffer carries
 * the fields that straddle block boundaries. Every field is a coefficient and the first N * Z_BITS
 * bits of the stream hold all N, so only those words are read (all of the first four blocks, the
 * head of the fifth) and each word completes one field or two (Z_BITS >= 16), with no test of the
 * sink's count.
 */
template <int GAMMA1, int Z_BITS>
struct MaskUnpacker {
    static_assert(Z_BITS >= 16 && Z_BITS < 32 && N * Z_BITS % 32 == 0, "a word completes one or two fields");
    /** The stream's words that hold the N fields. */
    static constexpr int STREAM_WORDS = N * Z_BITS / 32;

    uint64_t acc;
    int nbits;  // < Z_BITS between words
    int taken;  // stream words read so far

    DG_HD void reset() {
        acc = 0;
        nbits = 0;
        taken = 0;
    }

    DG_HD void block(const uint32_t* words, PolySink& sink) {
        const int rest = STREAM_WORDS - taken;
        const int count = rest < SHAKE256_RATE / 4 ? rest : SHAKE256_RATE / 4;
        taken += count;
        DG_NO_UNROLL
        for (int w = 0; w < count; ++w) {
            acc |= (uint64_t)words[w] << nbits;
            nbits += 32 - Z_BITS;
            sink.push(GAMMA1 - (int32_t)((uint32_t)acc & ((1u << Z_BITS) - 1u)));
            acc >>= Z_BITS;
            if (nbits >= Z_BITS) {
                sink.push(GAMMA1 - (int32_t)((uint32_t)acc & ((1u << Z_BITS) - 1u)));
                acc >>= Z_BITS;
                nbits -= Z_BITS;
            }
        }
    }
};

/**
 * SampleInBall (FIPS 204 Algorithm 29), thread level: c has TAU coefficients +-1, the rest 0.
 * Absorbs all of c~ (32 bytes in round 3.1, lambda/4 in FIPS 204).
 */
template <int TAU>
DG_HD void sample_in_ball_ref(int32_t c[N], const uint8_t* ctilde, int ctilde_bytes) {
    Shake256 h;
    h.init();
    h.absorb(ctilde, (size_t)ctilde_bytes);
    h.finalize();
    uint8_t s[8];
    h.squeeze(s, 8);
    uint64_t signs = 0;
    for (int i = 0; i < 8; ++i) signs |= (uint64_t)s[i] << (8 * i);
    for (int i = 0; i < N; ++i) c[i] = 0;
    for (int i = N - TAU; i < N; ++i) {
        uint8_t b;
        do {
            h.squeeze(&b, 1);
        } while (b > i);
        c[i] = c[b];
        c[b] = 1 - 2 * (int32_t)(signs & 1);
        signs >>= 1;
    }
}

/**
 * SampleInBall, warp level. block: SHAKE256_RATE bytes of shared memory for the squeezed
 * output; c: N words of shared memory, written in natural order. Every lane walks the same
 * bytes (uniform control flow); lane 0 alone writes c. Ends with a warp sync.
 */
template <int TAU>
DG_HD void warp_sample_in_ball(int32_t* c, uint8_t* block, const uint8_t* ctilde, int ctilde_bytes) {
    WarpShake256 h;
    h.init();
    h.absorb_message(ctilde, ctilde_bytes);
    const int l = (int)warp::lane();
    warp::sync();  // previous readers of block and c are done
    DG_UNROLL
    for (int j = 0; j < 8; ++j) c[l + 32 * j] = 0;
    h.write_block(block, SHAKE256_RATE);
    warp::sync();
    uint64_t signs = 0;
    DG_UNROLL
    for (int i = 0; i < 8; ++i) signs |= (uint64_t)block[i] << (8 * i);
    int pos = 8;
    DG_NO_UNROLL
    for (int i = N - TAU; i < N;) {
        if (pos == SHAKE256_RATE) {
            h.permute();
            warp::sync();
            h.write_block(block, SHAKE256_RATE);
            warp::sync();
            pos = 0;
        }
        const int b = block[pos++];
        if (b <= i) {
            if (l == 0) {
                c[i] = c[b];
                c[b] = 1 - 2 * (int32_t)(signs & 1);
            }
            signs >>= 1;
            ++i;
        }
    }
    warp::sync();
}

}  // namespace dg

#endif
