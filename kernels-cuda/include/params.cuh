/*
 * The six parameter sets as compile-time types: CRYSTALS-Dilithium round 3.1 (specification
 * v3.1, Table 2) and ML-DSA (FIPS 204, Table 1 and Table 2). Every kernel template takes one of
 * these; every byte length is derived here and pinned below to the published sizes (the Java
 * twin is io.dilithiumgpu.core.ParameterSet).
 *
 * The families differ in four places only: tr is 32 bytes (r3.1) or 64 (FIPS 204); c~ is 32 bytes
 * (r3.1) or lambda/4 (FIPS 204); key generation expands H(zeta) (r3.1) or H(xi || k || l)
 * (FIPS 204 Algorithm 6); signing takes rho' itself (r3.1, 64 bytes) or derives
 * rho'' = H(K || rnd || mu) from a 32-byte rnd (FIPS 204 Algorithm 7, step 7).
 */
#ifndef DILITHIUMGPU_PARAMS_CUH
#define DILITHIUMGPU_PARAMS_CUH

#include "platform.cuh"

namespace dg {

/** Degree n of R_q = Z_q[X]/(X^n + 1). */
constexpr int N = 256;
/** The modulus q = 2^23 - 2^13 + 1. */
constexpr int32_t Q = 8380417;
/** Dropped bits d of t (Power2Round). */
constexpr int D = 13;
/** Bytes of rho, K, zeta and xi. */
constexpr int SEED_BYTES = 32;
/** Bytes of mu, rho' and rho''. */
constexpr int CRH_BYTES = 64;
/** Bytes of one packed t1 polynomial (10 bits a coefficient). */
constexpr int POLY_T1_BYTES = N * 10 / 8;
/** Bytes of one packed t0 polynomial (13 bits a coefficient). */
constexpr int POLY_T0_BYTES = N * D / 8;

template <bool kFips204, int kK, int kL, int kEta, int kTau, int kGamma1, int kGamma2, int kOmega,
          int kCtildeBytes>
struct ParamSet {
    static constexpr bool FIPS204 = kFips204;
    static constexpr int K = kK;
    static constexpr int L = kL;
    static constexpr int ETA = kEta;
    static constexpr int TAU = kTau;
    static constexpr int BETA = kTau * kEta;
    static constexpr int GAMMA1 = kGamma1;
    static constexpr int GAMMA2 = kGamma2;
    static constexpr int OMEGA = kOmega;
    static constexpr int CTILDE_BYTES = kCtildeBytes;
    static constexpr int TR_BYTES = kFips204 ? 64 : 32;
    /** Signing randomness a task carries: FIPS 204 rnd (32) or round-3.1 rho' itself (64). */
    static constexpr int RND_BYTES = kFips204 ? 32 : 64;

    static constexpr int ETA_BITS = kEta == 2 ? 3 : 4;
    static constexpr int Z_BITS = kGamma1 == (1 << 17) ? 18 : 20;
    static constexpr int W1_BITS = kGamma2 == (Q - 1) / 88 ? 6 : 4;

    static constexpr int POLY_ETA_BYTES = N * ETA_BITS / 8;
    static constexpr int POLY_Z_BYTES = N * Z_BITS / 8;
    static constexpr int POLY_W1_BYTES = N * W1_BITS / 8;
    static constexpr int W1_PACKED_BYTES = kK * POLY_W1_BYTES;

    /** pk = rho || t1. */
    static constexpr int PK_BYTES = SEED_BYTES + kK * POLY_T1_BYTES;
    static constexpr int PK_T1 = SEED_BYTES;

    /** sk = rho || K || tr || s1 || s2 || t0. */
    static constexpr int SK_RHO = 0;
    static constexpr int SK_KEY = SEED_BYTES;
    static constexpr int SK_TR = 2 * SEED_BYTES;
    static constexpr int SK_S1 = SK_TR + TR_BYTES;
    static constexpr int SK_S2 = SK_S1 + kL * POLY_ETA_BYTES;
    static constexpr int SK_T0 = SK_S2 + kK * POLY_ETA_BYTES;
    static constexpr int SK_BYTES = SK_T0 + kK * POLY_T0_BYTES;

    /** sigma = c~ || z || h (h: OMEGA position bytes, then K running counts). */
    static constexpr int SIG_Z = kCtildeBytes;
    static constexpr int SIG_H = SIG_Z + kL * POLY_Z_BYTES;
    static constexpr int SIG_BYTES = SIG_H + kOmega + kK;
};

using Dilithium2 = ParamSet<false, 4, 4, 2, 39, 1 << 17, (Q - 1) / 88, 80, 32>;
using Dilithium3 = ParamSet<false, 6, 5, 4, 49, 1 << 19, (Q - 1) / 32, 55, 32>;
using Dilithium5 = ParamSet<false, 8, 7, 2, 60, 1 << 19, (Q - 1) / 32, 75, 32>;
using MlDsa44 = ParamSet<true, 4, 4, 2, 39, 1 << 17, (Q - 1) / 88, 80, 32>;
using MlDsa65 = ParamSet<true, 6, 5, 4, 49, 1 << 19, (Q - 1) / 32, 55, 48>;
using MlDsa87 = ParamSet<true, 8, 7, 2, 60, 1 << 19, (Q - 1) / 32, 75, 64>;

// The published byte counts (round 3.1 specification Table 2; FIPS 204 Table 2).
static_assert(Dilithium2::PK_BYTES == 1312 && Dilithium2::SK_BYTES == 2528 && Dilithium2::SIG_BYTES == 2420, "Dilithium2 sizes");
static_assert(Dilithium3::PK_BYTES == 1952 && Dilithium3::SK_BYTES == 4000 && Dilithium3::SIG_BYTES == 3293, "Dilithium3 sizes");
static_assert(Dilithium5::PK_BYTES == 2592 && Dilithium5::SK_BYTES == 4864 && Dilithium5::SIG_BYTES == 4595, "Dilithium5 sizes");
static_assert(MlDsa44::PK_BYTES == 1312 && MlDsa44::SK_BYTES == 2560 && MlDsa44::SIG_BYTES == 2420, "ML-DSA-44 sizes");
static_assert(MlDsa65::PK_BYTES == 1952 && MlDsa65::SK_BYTES == 4032 && MlDsa65::SIG_BYTES == 3309, "ML-DSA-65 sizes");
static_assert(MlDsa87::PK_BYTES == 2592 && MlDsa87::SK_BYTES == 4896 && MlDsa87::SIG_BYTES == 4627, "ML-DSA-87 sizes");

}  // namespace dg

#endif
