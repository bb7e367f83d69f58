/* Signing entry points, one per parameter set (batch_abi.h). */
#include "../include/schedule.cuh"
#include "../include/sign.cuh"

#define DG_SIGN(tag, PARAMS)                                                                        \
    DG_DEFINE_CFG_SHAPED(sign, tag, SignTask, PARAMS, dg::SIGN_BLOCK_THREADS, DG_SIGN_BLOCKS_PER_SM) \
    DG_SIGN_ENTRY sign_##tag(const uint8_t* sks, const uint8_t* mus, const uint8_t* rnds, uint8_t* sigs, \
                             uint8_t* status, int n, uint32_t* scratch, uint8_t* workspace) {       \
        dg::run_persistent<dg::SignTask<dg::PARAMS>>({sks, mus, rnds, sigs}, status, n, scratch,    \
                                                     workspace);                                    \
    }

DG_SIGN(dilithium2, Dilithium2)
DG_SIGN(dilithium3, Dilithium3)
DG_SIGN(dilithium5, Dilithium5)
DG_SIGN(mldsa44, MlDsa44)
DG_SIGN(mldsa65, MlDsa65)
DG_SIGN(mldsa87, MlDsa87)
