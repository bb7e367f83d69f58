/*
 * The negacyclic number-theoretic transform of R_q (FIPS 204 Algorithms 41 and 42; the same
 * transform as the round-3.1 reference): a thread-level version over a plain array (host
 * references and tests) and the warp version used by the kernels.
 *
 * Domains and ranges (both versions, identical arithmetic):
 *   ntt:             input |a| < 2^31 - 8q (in practice < q or < 2^20), output in "NTT domain",
 *                    bit-reversed order, |a^| < |a|max + 8q. No reduction on the way.
 *   invntt_tomont:   input |a^| < q, output (normal domain) times 2^32 (Montgomery form), |a| < q:
 *                    the inverse of a Montgomery pointwise product is therefore the plain product.
 *
 * Warp layouts of one polynomial, eight 32-bit coefficients per lane in registers:
 *   strided      r[j] = a[lane + 32 j]     normal-domain polynomials
 *   consecutive  r[j] = a[8 lane + j]      NTT-domain polynomials
 * The forward transform takes strided and returns consecutive; the inverse the other way.
 * Each does levels 1-3 / 4-6 / 7-8 in registers with two exchanges through a 288-word
 * shared-memory buffer whose padding makes every exchange free of bank conflicts.
 *
 * warp_ntt and warp_invntt_tomont run one called copy of the transform (operand and result in
 * registers): inlined at each of its call sites, the transform made the signing kernels' code
 * larger than the instruction caches, and their warps waited on instruction fetches
 * (docs/performance.md). Verification, whose kernels issue an instruction nearly every cycle and
 * have few call sites, inlines them (warp_ntt_inline, warp_invntt_inline).
 */
#ifndef DILITHIUMGPU_NTT_CUH
#define DILITHIUMGPU_NTT_CUH

#include "reduce.cuh"
#include "warp.cuh"

namespace dg {

/** Words of the shared-memory exchange buffer of the warp transforms. */
constexpr int NTT_EXCHANGE_WORDS = 288;
/** mont^2 / 256 mod q: the final scaling of invntt_tomont. */
constexpr int32_t INVNTT_F = 41978;

namespace ntt_detail {
/** zetas[i] = 2^32 * 1753^brv8(i) mod q, centered (Montgomery form of the powers of the 512th root 1753). */
#define DG_ZETAS_VALUES {                                                     \
    -4186625, 25847, -2608894, -518909, 237124, -777960, -876248, 466468, \
    1826347, 2353451, -359251, -2091905, 3119733, -2884855, 3111497, 2680103, \
    2725464, 1024112, -1079900, 3585928, -549488, -1119584, 2619752, -2108549, \
    -2118186, -3859737, -1399561, -3277672, 1757237, -19422, 4010497, 280005, \
    2706023, 95776, 3077325, 3530437, -1661693, -3592148, -2537516, 3915439, \
    -3861115, -3043716, 3574422, -2867647, 3539968, -300467, 2348700, -539299, \
    -1699267, -1643818, 3505694, -3821735, 3507263, -2140649, -1600420, 3699596, \
    811944, 531354, 954230, 3881043, 3900724, -2556880, 2071892, -2797779, \
    -3930395, -1528703, -3677745, -3041255, -1452451, 3475950, 2176455, -1585221, \
    -1257611, 1939314, -4083598, -1000202, -3190144, -3157330, -3632928, 126922, \
    3412210, -983419, 2147896, 2715295, -2967645, -3693493, -411027, -2477047, \
    -671102, -1228525, -22981, -1308169, -381987, 1349076, 1852771, -1430430, \
    -3343383, 264944, 508951, 3097992, 44288, -1100098, 904516, 3958618, \
    -3724342, -8578, 1653064, -3249728, 2389356, -210977, 759969, -1316856, \
    189548, -3553272, 3159746, -1851402, -2409325, -177440, 1315589, 1341330, \
    1285669, -1584928, -812732, -1439742, -3019102, -3881060, -3628969, 3839961, \
    2091667, 3407706, 2316500, 3817976, -3342478, 2244091, -2446433, -3562462, \
    266997, 2434439, -1235728, 3513181, -3520352, -3759364, -1197226, -3193378, \
    900702, 1859098, 909542, 819034, 495491, -1613174, -43260, -522500, \
    -655327, -3122442, 2031748, 3207046, -3556995, -525098, -768622, -3595838, \
    342297, 286988, -2437823, 4108315, 3437287, -3342277, 1735879, 203044, \
    2842341, 2691481, -2590150, 1265009, 4055324, 1247620, 2486353, 1595974, \
    -3767016, 1250494, 2635921, -3548272, -2994039, 1869119, 1903435, -1050970, \
    -1333058, 1237275, -3318210, -1430225, -451100, 1312455, 3306115, -1962642, \
    -1279661, 1917081, -2546312, -1374803, 1500165, 777191, 2235880, 3406031, \
    -542412, -2831860, -1671176, -1846953, -2584293, -3724270, 594136, -3776993, \
    -2013608, 2432395, 2454455, -164721, 1957272, 3369112, 185531, -1207385, \
    -3183426, 162844, 1616392, 3014001, 810149, 1652634, -3694233, -1799107, \
    -3038916, 3523897, 3866901, 269760, 2213111, -975884, 1717735, 472078, \
    -426683, 1723600, -1803090, 1910376, -1667432, -1104333, -260646, -3833893, \
    -2939036, -2235985, -420899, -2286327, 183443, -976891, 1612842, -3545687, \
    -554416, 3919660, -48306, -1362209, 3937738, 1400424, -846154, 1976782, \
}
#if defined(__CUDACC__)
static __constant__ int32_t kZetasDevice[N] = DG_ZETAS_VALUES;
#endif
static const int32_t kZetasHost[N] = DG_ZETAS_VALUES;
#undef DG_ZETAS_VALUES
}  // namespace ntt_detail

/** zetas[i] from the device or host copy of the table. */
DG_HD int32_t zeta(int i) {
#if DG_ON_DEVICE
    return ntt_detail::kZetasDevice[i];
#else
    return ntt_detail::kZetasHost[i];
#endif
}

/**
 * Where zetas[i] sits in the lane-friendly shared-memory table the warp transforms read:
 * entries 64..127 (two per lane at level 7) and 128..255 (four per lane at level 8) are stored
 * lane-minor so that 32 lanes read 32 different banks.
 */
DG_HD int zeta_slot(int i) {
    if (i < 64) return i;
    if (i < 128) return 64 + ((i - 64) & 1) * 32 + ((i - 64) >> 1);
    return 128 + ((i - 128) & 3) * 32 + ((i - 128) >> 2);
}

/** Cooley-Tukey butterfly: (a, b) <- (a + zeta b, a - zeta b), zeta in Montgomery form. */
DG_HD void ct_butterfly(int32_t& a, int32_t& b, int32_t zeta_mont) {
    const int32_t t = montmul(zeta_mont, b);
    b = a - t;
    a = a + t;
}

/** Gentleman-Sande butterfly: (a, b) <- (a + b, zeta (a - b)); zeta_mont already negated. */
DG_HD void gs_butterfly(int32_t& a, int32_t& b, int32_t zeta_mont) {
    const int32_t t = a;
    a = t + b;
    b = montmul(zeta_mont, t - b);
}

/** Thread-level forward NTT, in place (the reference's loop order). Ranges: see file comment. */
DG_HD void ntt_ref(int32_t a[N]) {
    int k = 0;
    for (int len = 128; len > 0; len >>= 1) {
        for (int start = 0; start < N; start += 2 * len) {
            const int32_t z = zeta(++k);
            for (int j = start; j < start + len; ++j) ct_butterfly(a[j], a[j + len], z);
        }
    }
}

/** Thread-level inverse NTT times 2^32, in place. Ranges: see file comment. */
DG_HD void invntt_tomont_ref(int32_t a[N]) {
    int k = 256;
    for (int len = 1; len < N; len <<= 1) {
        for (int start = 0; start < N; start += 2 * len) {
            const int32_t z = -zeta(--k);
            for (int j = start; j < start + len; ++j) gs_butterfly(a[j], a[j + len], z);
        }
    }
    for (int j = 0; j < N; ++j) a[j] = montmul(INVNTT_F, a[j]);
}

/** Padded buffer addresses: 4 words after every 32, or 1 word after every 8. */
DG_HD int pad32(int i) { return i + ((i >> 5) << 2); }
DG_HD int pad8(int i) { return i + (i >> 3); }

/**
 * Warp forward NTT. r: strided layout in, consecutive layout out. x: the warp's exchange buffer
 * (NTT_EXCHANGE_WORDS words of shared memory); zt: the block's zeta table (zeta_slot layout).
 */
DG_HD void warp_ntt_inline(int32_t (&r)[8], int32_t* x, const int32_t* zt) {
    const int l = (int)warp::lane();
    const int b = l >> 2, o = l & 3;
    // Levels len = 128, 64, 32: partners are in the same lane.
    {
        const int32_t z = zt[1];
        ct_butterfly(r[0], r[4], z); ct_butterfly(r[1], r[5], z);
        ct_butterfly(r[2], r[6], z); ct_butterfly(r[3], r[7], z);
    }
    ct_butterfly(r[0], r[2], zt[2]); ct_butterfly(r[1], r[3], zt[2]);
    ct_butterfly(r[4], r[6], zt[3]); ct_butterfly(r[5], r[7], zt[3]);
    ct_butterfly(r[0], r[1], zt[4]); ct_butterfly(r[2], r[3], zt[5]);
    ct_butterfly(r[4], r[5], zt[6]); ct_butterfly(r[6], r[7], zt[7]);
    // Exchange to the block layout r[j] = a[32 b + o + 4 j].
    warp::sync();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) x[pad32(l + 32 * j)] = r[j];
    warp::sync();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) r[j] = x[pad32(32 * b + o + 4 * j)];
    // Levels len = 16, 8, 4.
    {
        const int32_t z = zt[8 + b];
        ct_butterfly(r[0], r[4], z); ct_butterfly(r[1], r[5], z);
        ct_butterfly(r[2], r[6], z); ct_butterfly(r[3], r[7], z);
    }
    {
        const int32_t z0 = zt[16 + 2 * b], z1 = zt[17 + 2 * b];
        ct_butterfly(r[0], r[2], z0); ct_butterfly(r[1], r[3], z0);
        ct_butterfly(r[4], r[6], z1); ct_butterfly(r[5], r[7], z1);
    }
    ct_butterfly(r[0], r[1], zt[32 + 4 * b]); ct_butterfly(r[2], r[3], zt[33 + 4 * b]);
    ct_butterfly(r[4], r[5], zt[34 + 4 * b]); ct_butterfly(r[6], r[7], zt[35 + 4 * b]);
    // Exchange to the consecutive layout r[j] = a[8 lane + j].
    warp::sync();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) x[pad8(32 * b + o + 4 * j)] = r[j];
    warp::sync();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) r[j] = x[pad8(8 * l + j)];
    // Levels len = 2, 1.
    {
        const int32_t z0 = zt[64 + l], z1 = zt[96 + l];
        ct_butterfly(r[0], r[2], z0); ct_butterfly(r[1], r[3], z0);
        ct_butterfly(r[4], r[6], z1); ct_butterfly(r[5], r[7], z1);
    }
    ct_butterfly(r[0], r[1], zt[128 + l]); ct_butterfly(r[2], r[3], zt[160 + l]);
    ct_butterfly(r[4], r[5], zt[192 + l]); ct_butterfly(r[6], r[7], zt[224 + l]);
}

/** Warp inverse NTT times 2^32. r: consecutive layout in, strided layout out. */
DG_HD void warp_invntt_inline(int32_t (&r)[8], int32_t* x, const int32_t* zt) {
    const int l = (int)warp::lane();
    const int b = l >> 2, o = l & 3;
    const int m = 31 - l;
    // Levels len = 1, 2: zetas[255 - (4 l + i)] and zetas[127 - (2 l + h)].
    gs_butterfly(r[0], r[1], -zt[224 + m]); gs_butterfly(r[2], r[3], -zt[192 + m]);
    gs_butterfly(r[4], r[5], -zt[160 + m]); gs_butterfly(r[6], r[7], -zt[128 + m]);
    {
        const int32_t z0 = -zt[96 + m], z1 = -zt[64 + m];
        gs_butterfly(r[0], r[2], z0); gs_butterfly(r[1], r[3], z0);
        gs_butterfly(r[4], r[6], z1); gs_butterfly(r[5], r[7], z1);
    }
    // Exchange to the block layout.
    warp::sync();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) x[pad8(8 * l + j)] = r[j];
    warp::sync();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) r[j] = x[pad8(32 * b + o + 4 * j)];
    // Levels len = 4, 8, 16.
    gs_butterfly(r[0], r[1], -zt[63 - 4 * b]); gs_butterfly(r[2], r[3], -zt[62 - 4 * b]);
    gs_butterfly(r[4], r[5], -zt[61 - 4 * b]); gs_butterfly(r[6], r[7], -zt[60 - 4 * b]);
    {
        const int32_t z0 = -zt[31 - 2 * b], z1 = -zt[30 - 2 * b];
        gs_butterfly(r[0], r[2], z0); gs_butterfly(r[1], r[3], z0);
        gs_butterfly(r[4], r[6], z1); gs_butterfly(r[5], r[7], z1);
    }
    {
        const int32_t z = -zt[15 - b];
        gs_butterfly(r[0], r[4], z); gs_butterfly(r[1], r[5], z);
        gs_butterfly(r[2], r[6], z); gs_butterfly(r[3], r[7], z);
    }
    // Exchange to the strided layout.
    warp::sync();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) x[pad32(32 * b + o + 4 * j)] = r[j];
    warp::sync();
    DG_UNROLL
    for (int j = 0; j < 8; ++j) r[j] = x[pad32(l + 32 * j)];
    // Levels len = 32, 64, 128.
    gs_butterfly(r[0], r[1], -zt[7]); gs_butterfly(r[2], r[3], -zt[6]);
    gs_butterfly(r[4], r[5], -zt[5]); gs_butterfly(r[6], r[7], -zt[4]);
    gs_butterfly(r[0], r[2], -zt[3]); gs_butterfly(r[1], r[3], -zt[3]);
    gs_butterfly(r[4], r[6], -zt[2]); gs_butterfly(r[5], r[7], -zt[2]);
    {
        const int32_t z = -zt[1];
        gs_butterfly(r[0], r[4], z); gs_butterfly(r[1], r[5], z);
        gs_butterfly(r[2], r[6], z); gs_butterfly(r[3], r[7], z);
    }
    DG_UNROLL
    for (int j = 0; j < 8; ++j) r[j] = montmul(INVNTT_F, r[j]);
}

/** Eight coefficients by value: the operand and result of the called transforms. */
struct Coeffs8 {
    int32_t v[8];
};

/** warp_ntt_inline as one called copy: its operand and result travel in registers. */
DG_HD_CALLED Coeffs8 warp_ntt_called(Coeffs8 c, int32_t* x, const int32_t* zt) {
    warp_ntt_inline(c.v, x, zt);
    return c;
}

/** warp_invntt_inline as one called copy. */
DG_HD_CALLED Coeffs8 warp_invntt_called(Coeffs8 c, int32_t* x, const int32_t* zt) {
    warp_invntt_inline(c.v, x, zt);
    return c;
}

/** r through the called transform F: copies into and out of its by-value operand (register moves). */
template <Coeffs8 (*F)(Coeffs8, int32_t*, const int32_t*)>
DG_HD void through_call(int32_t (&r)[8], int32_t* x, const int32_t* zt) {
    Coeffs8 c;
    DG_UNROLL
    for (int j = 0; j < 8; ++j) c.v[j] = r[j];
    c = F(c, x, zt);
    DG_UNROLL
    for (int j = 0; j < 8; ++j) r[j] = c.v[j];
}

/** Warp forward NTT (warp_ntt_inline) through its one called copy. */
DG_HD void warp_ntt(int32_t (&r)[8], int32_t* x, const int32_t* zt) { through_call<warp_ntt_called>(r, x, zt); }

/** Warp inverse NTT times 2^32 (warp_invntt_inline) through its one called copy. */
DG_HD void warp_invntt_tomont(int32_t (&r)[8], int32_t* x, const int32_t* zt) {
    through_call<warp_invntt_called>(r, x, zt);
}

/**
 * Fills a zeta table in the zeta_slot layout (N words). Called once per block by all its
 * threads (thread_index, thread_count), followed by a block barrier.
 */
DG_HD void fill_zeta_table(int32_t* zt, int thread_index, int thread_count) {
    for (int i = thread_index; i < N; i += thread_count) zt[zeta_slot(i)] = zeta(i);
}

}  // namespace dg

#endif
