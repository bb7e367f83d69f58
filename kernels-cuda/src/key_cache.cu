/* Device key cache entry points and slot sizes, one set per parameter set (batch_abi.h). */
#include "../include/key_cache.cuh"
#include "../include/schedule.cuh"
#include "../include/sign_help.cuh"
#include "../include/sign_wide.cuh"

#define DG_KEY_CACHE(tag, PARAMS)                                                                    \
    extern "C" {                                                                                     \
    __constant__ int32_t slot_bytes_sk_##tag = dg::ExpandSkTask<dg::PARAMS>::SLOT_BYTES;             \
    __constant__ int32_t slot_bytes_pk_##tag = dg::ExpandPkTask<dg::PARAMS>::SLOT_BYTES;             \
    }                                                                                                \
    DG_DEFINE_CFG(expand_sk, tag, ExpandSkTask, PARAMS)                                              \
    DG_ENTRY expand_sk_##tag(const uint8_t* sks, const int32_t* slotOf, uint8_t* slots, uint8_t* status, \
                             int n, uint32_t* scratch, uint8_t* workspace) {                         \
        dg::run_persistent<dg::ExpandSkTask<dg::PARAMS>>({sks, slotOf, slots}, status, n, scratch, workspace); \
    }                                                                                                \
    DG_DEFINE_CFG(expand_pk, tag, ExpandPkTask, PARAMS)                                              \
    DG_ENTRY expand_pk_##tag(const uint8_t* pks, const int32_t* slotOf, uint8_t* slots, uint8_t* status, \
                             int n, uint32_t* scratch, uint8_t* workspace) {                         \
        dg::run_persistent<dg::ExpandPkTask<dg::PARAMS>>({pks, slotOf, slots}, status, n, scratch, workspace); \
    }                                                                                                \
    DG_DEFINE_CFG_SHAPED(sign_keyed, tag, KeyedSignTask, PARAMS, dg::SIGN_BLOCK_THREADS, DG_SIGN_BLOCKS_PER_SM) \
    DG_SIGN_ENTRY sign_keyed_##tag(const uint8_t* sks, const int32_t* keyOf, const uint8_t* slots,  \
                                   const uint8_t* mus, const uint8_t* msgs, const uint8_t* rnds, uint8_t* sigs, \
                                   uint8_t* status, int n, uint32_t* scratch, uint8_t* workspace) {  \
        dg::run_persistent<dg::KeyedSignTask<dg::PARAMS>>({sks, keyOf, slots, mus, msgs, rnds, sigs}, status, n, \
                                                          scratch, workspace);                       \
    }                                                                                                \
    DG_DEFINE_CFG_SHAPED(sign_keyed_helped, tag, KeyedSignTask, PARAMS, dg::SIGN_BLOCK_THREADS, DG_SIGN_BLOCKS_PER_SM) \
    DG_SIGN_ENTRY sign_keyed_helped_##tag(const uint8_t* sks, const int32_t* keyOf, const uint8_t* slots, \
                                          const uint8_t* mus, const uint8_t* msgs, const uint8_t* rnds,   \
                                          uint8_t* sigs, uint8_t* status, int n, uint32_t* scratch,       \
                                          uint8_t* workspace) {                                           \
        dg::run_helped<dg::PARAMS>({sks, keyOf, slots, mus, msgs, rnds, sigs}, status, n, scratch, workspace); \
    }                                                                                                \
    DG_DEFINE_WIDE_CFG(tag, PARAMS)                                                                  \
    DG_WIDE_ENTRY sign_keyed_wide_##tag(const uint8_t* sks, const int32_t* keyOf, const uint8_t* slots, \
                                        const uint8_t* mus, const uint8_t* msgs, const uint8_t* rnds,   \
                                        uint8_t* sigs, uint8_t* status, int n, uint32_t* scratch,       \
                                        uint8_t* workspace) {                                           \
        dg::run_wide<dg::PARAMS>({sks, keyOf, slots, mus, msgs, rnds, sigs}, status, n, scratch, workspace); \
    }                                                                                                \
    DG_DEFINE_CFG(verify_keyed, tag, KeyedVerifyTask, PARAMS)                                        \
    DG_ENTRY verify_keyed_##tag(const uint8_t* pks, const int32_t* keyOf, const uint8_t* slots,     \
                                const uint8_t* mus, const uint8_t* msgs, const uint8_t* sigs, uint8_t* status, \
                                int n, uint32_t* scratch, uint8_t* workspace) {                      \
        dg::run_persistent<dg::KeyedVerifyTask<dg::PARAMS>>({pks, keyOf, slots, mus, msgs, sigs}, status, n, scratch, \
                                                            workspace);                              \
    }

DG_KEY_CACHE(dilithium2, Dilithium2)
DG_KEY_CACHE(dilithium3, Dilithium3)
DG_KEY_CACHE(dilithium5, Dilithium5)
DG_KEY_CACHE(mldsa44, MlDsa44)
DG_KEY_CACHE(mldsa65, MlDsa65)
DG_KEY_CACHE(mldsa87, MlDsa87)
