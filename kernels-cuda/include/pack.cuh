/*
 * Bit packing of polynomial coefficients (thread level), FIPS 204 Algorithms 16-19 and 22-27
 * (SimpleBitPack/BitPack and the pk, sk, sig encodings); the round-3.1 packing.c formats are
 * identical. Every format stores 8 consecutive coefficients in BITS bytes, little-endian bit
 * order, so one lane of the consecutive warp layout packs its 8 coefficients into BITS bytes
 * at byte offset BITS * lane. The mapping of a coefficient c to its unsigned field value:
 *
 *   format  bits   field value        coefficient range
 *   eta     3, 4   eta - c            [-eta, eta]   (unpack flags values above 2 eta)
 *   t1      10     c                  [0, 2^10)
 *   t0      13     2^12 - c           (-2^12, 2^12]
 *   z       18, 20 gamma1 - c         (-gamma1, gamma1]
 *   w1      6, 4   c                  [0, 44) or [0, 16)
 */
#ifndef DILITHIUMGPU_PACK_CUH
#define DILITHIUMGPU_PACK_CUH

#include "params.cuh"

namespace dg {

/** Packs 8 values of BITS bits each (already < 2^BITS) into BITS bytes. */
template <int BITS>
DG_HD void pack8(const uint32_t (&v)[8], uint8_t (&out)[BITS]) {
    DG_UNROLL
    for (int byte = 0; byte < BITS; ++byte) {
        uint32_t acc = 0;
        DG_UNROLL
        for (int i = 0; i < 8; ++i) {
            const int lo = i * BITS - 8 * byte;  // position of value i's bit 0 relative to this byte
            if (lo < 8 && lo + BITS > 0) acc |= lo >= 0 ? v[i] << lo : v[i] >> -lo;
        }
        out[byte] = (uint8_t)acc;
    }
}

/** Unpacks 8 values of BITS bits each from BITS bytes. */
template <int BITS>
DG_HD void unpack8(const uint8_t (&in)[BITS], uint32_t (&v)[8]) {
    DG_UNROLL
    for (int i = 0; i < 8; ++i) {
        uint32_t acc = 0;
        DG_UNROLL
        for (int byte = 0; byte < BITS; ++byte) {
            const int lo = 8 * byte - i * BITS;  // position of this byte's bit 0 within value i
            if (lo < BITS && lo + 8 > 0) acc |= lo >= 0 ? (uint32_t)in[byte] << lo : (uint32_t)in[byte] >> -lo;
        }
        v[i] = acc & ((1u << BITS) - 1u);
    }
}

/** Coefficients -> field values of a signed format: value = offset - c. */
DG_HD void offset_minus(const int32_t (&c)[8], int32_t offset, uint32_t (&v)[8]) {
    DG_UNROLL
    for (int i = 0; i < 8; ++i) v[i] = (uint32_t)(offset - c[i]);
}

DG_HD void offset_minus_inverse(const uint32_t (&v)[8], int32_t offset, int32_t (&c)[8]) {
    DG_UNROLL
    for (int i = 0; i < 8; ++i) c[i] = offset - (int32_t)v[i];
}

template <int BITS>
DG_HD void pack8_signed(const int32_t (&c)[8], int32_t offset, uint8_t (&out)[BITS]) {
    uint32_t v[8];
    offset_minus(c, offset, v);
    pack8<BITS>(v, out);
}

template <int BITS>
DG_HD void pack8_unsigned(const int32_t (&c)[8], uint8_t (&out)[BITS]) {
    uint32_t v[8];
    DG_UNROLL
    for (int i = 0; i < 8; ++i) v[i] = (uint32_t)c[i];
    pack8<BITS>(v, out);
}

/**
 * Unpacks 8 eta-format coefficients; returns false when a field value exceeds 2 eta, i.e. the
 * coefficient is outside [-eta, eta] (a malformed private key).
 */
template <int ETA, int BITS>
DG_HD bool unpack8_eta(const uint8_t (&in)[BITS], int32_t (&c)[8]) {
    uint32_t v[8];
    unpack8<BITS>(in, v);
    bool ok = true;
    DG_UNROLL
    for (int i = 0; i < 8; ++i) ok &= v[i] <= 2u * ETA;
    offset_minus_inverse(v, ETA, c);
    return ok;
}

template <int BITS>
DG_HD void unpack8_signed(const uint8_t (&in)[BITS], int32_t offset, int32_t (&c)[8]) {
    uint32_t v[8];
    unpack8<BITS>(in, v);
    offset_minus_inverse(v, offset, c);
}

template <int BITS>
DG_HD void unpack8_unsigned(const uint8_t (&in)[BITS], int32_t (&c)[8]) {
    uint32_t v[8];
    unpack8<BITS>(in, v);
    DG_UNROLL
    for (int i = 0; i < 8; ++i) c[i] = (int32_t)v[i];
}

/** Byte copies between a packed group and memory of any alignment. */
template <int BYTES>
DG_HD void load_bytes(const uint8_t* src, uint8_t (&out)[BYTES]) {
    DG_UNROLL
    for (int i = 0; i < BYTES; ++i) out[i] = src[i];
}

template <int BYTES>
DG_HD void store_bytes(uint8_t* dst, const uint8_t (&in)[BYTES]) {
    DG_UNROLL
    for (int i = 0; i < BYTES; ++i) dst[i] = in[i];
}

}  // namespace dg

#endif
