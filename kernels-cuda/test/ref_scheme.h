/*
 * A plain single-thread implementation of both families (keygen, sign of mu, verify of mu),
 * written straight from FIPS 204 and the round-3.1 reference with the thread-level helpers.
 * It is the host tests' second oracle: checked against the published vectors itself, then
 * compared with the warp-level kernels (emulated here, real on the device) on random inputs.
 */
#ifndef DILITHIUMGPU_TEST_REF_SCHEME_H
#define DILITHIUMGPU_TEST_REF_SCHEME_H

#include <cstring>
#include <vector>

#include "../include/batch_abi.h"
#include "../include/keccak.cuh"
#include "../include/ntt.cuh"
#include "../include/pack.cuh"
#include "../include/params.cuh"
#include "../include/reduce.cuh"
#include "../include/rounding.cuh"
#include "../include/sample.cuh"

namespace dgtest {

using dg::N;
using dg::Q;

struct Poly {
    int32_t c[N];
};

template <class P>
struct RefScheme {
    using PolyVecL = std::vector<Poly>;

    /** RejNTTPoly(rho || j || i) for every (i, j). */
    static std::vector<Poly> expand_a(const uint8_t* rho) {
        std::vector<Poly> a(P::K * P::L);
        for (int i = 0; i < P::K; ++i) {
            for (int j = 0; j < P::L; ++j) {
                uint8_t in[34];
                std::memcpy(in, rho, 32);
                in[32] = (uint8_t)j;
                in[33] = (uint8_t)i;
                dg::Shake128 h;
                h.init();
                h.absorb(in, 34);
                h.finalize();
                int ctr = 0;
                while (ctr < N) {
                    uint8_t b[3];
                    h.squeeze(b, 3);
                    const int32_t t = (b[0] | (b[1] << 8) | (b[2] << 16)) & 0x7FFFFF;
                    if (t < Q) a[i * P::L + j].c[ctr++] = t;
                }
            }
        }
        return a;
    }

    /** RejBoundedPoly(rho' || nonce). */
    static Poly expand_eta(const uint8_t* rhoprime, int nonce) {
        uint8_t in[66];
        std::memcpy(in, rhoprime, 64);
        in[64] = (uint8_t)nonce;
        in[65] = (uint8_t)(nonce >> 8);
        dg::Shake256 h;
        h.init();
        h.absorb(in, 66);
        h.finalize();
        Poly p;
        int ctr = 0;
        while (ctr < N) {
            uint8_t b;
            h.squeeze(&b, 1);
            const int z[2] = {b & 15, b >> 4};
            for (int k = 0; k < 2 && ctr < N; ++k) {
                if (P::ETA == 2 && z[k] < 15) p.c[ctr++] = 2 - z[k] % 5;
                if (P::ETA == 4 && z[k] < 9) p.c[ctr++] = 4 - z[k];
            }
        }
        return p;
    }

    /** ExpandMask's polynomial for nonce kappa + r: BitUnpack of H(rho'' || nonce). */
    static Poly expand_mask(const uint8_t* rhopp, int nonce) {
        uint8_t in[66];
        std::memcpy(in, rhopp, 64);
        in[64] = (uint8_t)nonce;
        in[65] = (uint8_t)(nonce >> 8);
        std::vector<uint8_t> buf(P::POLY_Z_BYTES);
        dg::shake256(buf.data(), buf.size(), in, 66);
        Poly p;
        for (int g = 0; g < N / 8; ++g) {
            uint8_t bytes[P::Z_BITS];
            std::memcpy(bytes, &buf[g * P::Z_BITS], P::Z_BITS);
            int32_t c[8];
            dg::unpack8_signed<P::Z_BITS>(bytes, P::GAMMA1, c);
            for (int m = 0; m < 8; ++m) p.c[8 * g + m] = c[m];
        }
        return p;
    }

    template <int BITS>
    static void pack_unsigned(uint8_t* out, const Poly& p) {
        for (int g = 0; g < N / 8; ++g) {
            int32_t c[8];
            for (int m = 0; m < 8; ++m) c[m] = p.c[8 * g + m];
            uint8_t b[BITS];
            dg::pack8_unsigned<BITS>(c, b);
            std::memcpy(out + BITS * g, b, BITS);
        }
    }

    template <int BITS>
    static void unpack_unsigned(Poly& p, const uint8_t* in) {
        for (int g = 0; g < N / 8; ++g) {
            uint8_t b[BITS];
            std::memcpy(b, in + BITS * g, BITS);
            int32_t c[8];
            dg::unpack8_unsigned<BITS>(b, c);
            for (int m = 0; m < 8; ++m) p.c[8 * g + m] = c[m];
        }
    }

    /** A^ o v^ for one row, accumulated as the reference does (then reduce32). */
    static Poly row_times(const std::vector<Poly>& a, int i, const std::vector<Poly>& vhat) {
        Poly r;
        for (int n = 0; n < N; ++n) {
            int32_t acc = 0;
            for (int j = 0; j < P::L; ++j) acc += dg::montmul(a[i * P::L + j].c[n], vhat[j].c[n]);
            r.c[n] = dg::reduce32(acc);
        }
        return r;
    }

    static void keygen(const uint8_t* seed, uint8_t* pk, uint8_t* sk) {
        uint8_t in[34];
        std::memcpy(in, seed, 32);
        in[32] = (uint8_t)P::K;
        in[33] = (uint8_t)P::L;
        uint8_t seeds[128];
        dg::shake256(seeds, 128, in, P::FIPS204 ? 34 : 32);
        const uint8_t* rho = seeds;
        const uint8_t* rhoprime = seeds + 32;
        const uint8_t* key = seeds + 96;
        const std::vector<Poly> a = expand_a(rho);
        std::vector<Poly> s(P::L + P::K);
        for (int r = 0; r < P::L + P::K; ++r) s[r] = expand_eta(rhoprime, r);
        std::vector<Poly> s1hat(s.begin(), s.begin() + P::L);
        for (auto& p : s1hat) dg::ntt_ref(p.c);
        std::memcpy(pk, rho, 32);
        std::memcpy(sk + P::SK_RHO, rho, 32);
        std::memcpy(sk + P::SK_KEY, key, 32);
        for (int r = 0; r < P::L + P::K; ++r) {
            Poly v;
            for (int n = 0; n < N; ++n) v.c[n] = P::ETA - s[r].c[n];
            pack_unsigned<P::ETA_BITS>(sk + P::SK_S1 + r * P::POLY_ETA_BYTES, v);
        }
        for (int i = 0; i < P::K; ++i) {
            Poly t = row_times(a, i, s1hat);
            dg::invntt_tomont_ref(t.c);
            Poly t1, t0;
            for (int n = 0; n < N; ++n) {
                int32_t lo;
                t1.c[n] = dg::power2round(&lo, dg::caddq(t.c[n] + s[P::L + i].c[n]));
                t0.c[n] = (1 << 12) - lo;
            }
            pack_unsigned<10>(pk + P::PK_T1 + i * dg::POLY_T1_BYTES, t1);
            pack_unsigned<13>(sk + P::SK_T0 + i * dg::POLY_T0_BYTES, t0);
        }
        dg::shake256(sk + P::SK_TR, P::TR_BYTES, pk, P::PK_BYTES);
    }

    static int32_t abs_max(const Poly& p) {
        int32_t m = 0;
        for (int n = 0; n < N; ++n) m = std::max(m, dg::abs32(p.c[n]));
        return m;
    }

    /** Returns the status byte; writes sig on ABI_STATUS_OK. iterations: kappa / L of the result. */
    static uint8_t sign(const uint8_t* sk, const uint8_t* mu, const uint8_t* rnd, uint8_t* sig,
                        int* iterations = nullptr) {
        const uint8_t* rho = sk + P::SK_RHO;
        const uint8_t* key = sk + P::SK_KEY;
        uint8_t rhopp[64];
        if (P::FIPS204) {
            uint8_t in[128];
            std::memcpy(in, key, 32);
            std::memcpy(in + 32, rnd, 32);
            std::memcpy(in + 64, mu, 64);
            dg::shake256(rhopp, 64, in, 128);
        } else {
            std::memcpy(rhopp, rnd, 64);
        }
        std::vector<Poly> s(P::L + P::K), t0(P::K);
        for (int r = 0; r < P::L + P::K; ++r) {
            for (int g = 0; g < N / 8; ++g) {
                uint8_t b[P::ETA_BITS];
                std::memcpy(b, sk + P::SK_S1 + r * P::POLY_ETA_BYTES + P::ETA_BITS * g, P::ETA_BITS);
                int32_t c[8];
                if (!dg::unpack8_eta<P::ETA, P::ETA_BITS>(b, c)) return ABI_STATUS_INVALID_KEY;
                for (int m = 0; m < 8; ++m) s[r].c[8 * g + m] = c[m];
            }
            dg::ntt_ref(s[r].c);
        }
        for (int i = 0; i < P::K; ++i) {
            for (int g = 0; g < N / 8; ++g) {
                uint8_t b[13];
                std::memcpy(b, sk + P::SK_T0 + i * dg::POLY_T0_BYTES + 13 * g, 13);
                int32_t c[8];
                dg::unpack8_signed<13>(b, 1 << 12, c);
                for (int m = 0; m < 8; ++m) t0[i].c[8 * g + m] = c[m];
            }
            dg::ntt_ref(t0[i].c);
        }
        const std::vector<Poly> a = expand_a(rho);
        std::vector<uint8_t> msg(64 + P::W1_PACKED_BYTES);
        std::memcpy(msg.data(), mu, 64);
        for (int it = 0; it < 1000; ++it) {
            std::vector<Poly> y(P::L), yhat(P::L);
            for (int j = 0; j < P::L; ++j) {
                y[j] = expand_mask(rhopp, it * P::L + j);
                yhat[j] = y[j];
                dg::ntt_ref(yhat[j].c);
            }
            std::vector<Poly> w(P::K), w1(P::K), w0(P::K);
            for (int i = 0; i < P::K; ++i) {
                w[i] = row_times(a, i, yhat);
                dg::invntt_tomont_ref(w[i].c);
                for (int n = 0; n < N; ++n) {
                    w1[i].c[n] = dg::decompose<P::GAMMA2>(&w0[i].c[n], dg::caddq(w[i].c[n]));
                }
                pack_unsigned<P::W1_BITS>(msg.data() + 64 + i * P::POLY_W1_BYTES, w1[i]);
            }
            uint8_t ctilde[64];
            dg::shake256(ctilde, P::CTILDE_BYTES, msg.data(), msg.size());
            Poly c;
            dg::sample_in_ball_ref<P::TAU>(c.c, ctilde, P::CTILDE_BYTES);
            dg::ntt_ref(c.c);
            std::vector<Poly> z(P::L);
            bool reject = false;
            for (int j = 0; j < P::L && !reject; ++j) {
                for (int n = 0; n < N; ++n) z[j].c[n] = dg::montmul(c.c[n], s[j].c[n]);
                dg::invntt_tomont_ref(z[j].c);
                for (int n = 0; n < N; ++n) z[j].c[n] = dg::reduce32(z[j].c[n] + y[j].c[n]);
                reject = abs_max(z[j]) >= P::GAMMA1 - P::BETA;
            }
            if (reject) continue;
            for (int i = 0; i < P::K && !reject; ++i) {
                Poly cs2;
                for (int n = 0; n < N; ++n) cs2.c[n] = dg::montmul(c.c[n], s[P::L + i].c[n]);
                dg::invntt_tomont_ref(cs2.c);
                for (int n = 0; n < N; ++n) w0[i].c[n] = dg::reduce32(w0[i].c[n] - cs2.c[n]);
                reject = abs_max(w0[i]) >= P::GAMMA2 - P::BETA;
            }
            if (reject) continue;
            std::vector<Poly> h(P::K);
            int ones = 0;
            for (int i = 0; i < P::K && !reject; ++i) {
                Poly ct0;
                for (int n = 0; n < N; ++n) ct0.c[n] = dg::montmul(c.c[n], t0[i].c[n]);
                dg::invntt_tomont_ref(ct0.c);
                for (int n = 0; n < N; ++n) ct0.c[n] = dg::reduce32(ct0.c[n]);
                reject = abs_max(ct0) >= P::GAMMA2;
                for (int n = 0; n < N; ++n) {
                    h[i].c[n] = dg::make_hint<P::GAMMA2>(w0[i].c[n] + ct0.c[n], w1[i].c[n]);
                    ones += h[i].c[n];
                }
            }
            if (reject || ones > P::OMEGA) continue;
            std::memcpy(sig, ctilde, P::CTILDE_BYTES);
            for (int j = 0; j < P::L; ++j) {
                Poly v;
                for (int n = 0; n < N; ++n) v.c[n] = P::GAMMA1 - z[j].c[n];
                pack_unsigned<P::Z_BITS>(sig + P::SIG_Z + j * P::POLY_Z_BYTES, v);
            }
            uint8_t* hs = sig + P::SIG_H;
            std::memset(hs, 0, P::OMEGA + P::K);
            int k = 0;
            for (int i = 0; i < P::K; ++i) {
                for (int n = 0; n < N; ++n)
                    if (h[i].c[n]) hs[k++] = (uint8_t)n;
                hs[P::OMEGA + i] = (uint8_t)k;
            }
            if (iterations) *iterations = it + 1;
            return ABI_STATUS_OK;
        }
        return ABI_STATUS_INVALID_KEY;
    }

    static bool verify(const uint8_t* pk, const uint8_t* mu, const uint8_t* sig) {
        const uint8_t* hs = sig + P::SIG_H;
        std::vector<Poly> h(P::K);
        for (auto& p : h) std::memset(p.c, 0, sizeof p.c);
        int k = 0;
        for (int i = 0; i < P::K; ++i) {
            const int end = hs[P::OMEGA + i];
            if (end < k || end > P::OMEGA) return false;
            for (int j = k; j < end; ++j) {
                if (j > k && hs[j] <= hs[j - 1]) return false;
                h[i].c[hs[j]] = 1;
            }
            k = end;
        }
        for (int j = k; j < P::OMEGA; ++j)
            if (hs[j]) return false;
        std::vector<Poly> z(P::L);
        for (int j = 0; j < P::L; ++j) {
            unpack_unsigned<P::Z_BITS>(z[j], sig + P::SIG_Z + j * P::POLY_Z_BYTES);
            for (int n = 0; n < N; ++n) z[j].c[n] = P::GAMMA1 - z[j].c[n];
            if (abs_max(z[j]) >= P::GAMMA1 - P::BETA) return false;
            dg::ntt_ref(z[j].c);
        }
        const std::vector<Poly> a = expand_a(pk);
        Poly c;
        dg::sample_in_ball_ref<P::TAU>(c.c, sig, P::CTILDE_BYTES);
        dg::ntt_ref(c.c);
        std::vector<uint8_t> msg(64 + P::W1_PACKED_BYTES);
        std::memcpy(msg.data(), mu, 64);
        for (int i = 0; i < P::K; ++i) {
            Poly t1;
            unpack_unsigned<10>(t1, pk + P::PK_T1 + i * dg::POLY_T1_BYTES);
            for (int n = 0; n < N; ++n) t1.c[n] <<= dg::D;
            dg::ntt_ref(t1.c);
            Poly w;
            for (int n = 0; n < N; ++n) {
                int32_t acc = 0;
                for (int j = 0; j < P::L; ++j) acc += dg::montmul(a[i * P::L + j].c[n], z[j].c[n]);
                acc -= dg::montmul(c.c[n], t1.c[n]);
                w.c[n] = dg::reduce32(acc);
            }
            dg::invntt_tomont_ref(w.c);
            for (int n = 0; n < N; ++n) w.c[n] = dg::use_hint<P::GAMMA2>(dg::caddq(w.c[n]), h[i].c[n]);
            pack_unsigned<P::W1_BITS>(msg.data() + 64 + i * P::POLY_W1_BYTES, w);
        }
        uint8_t ctilde[64];
        dg::shake256(ctilde, P::CTILDE_BYTES, msg.data(), msg.size());
        return std::memcmp(ctilde, sig, P::CTILDE_BYTES) == 0;
    }
};

}  // namespace dgtest

#endif
