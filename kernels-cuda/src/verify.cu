/* Verification entry points, one per parameter set (batch_abi.h). */
#include "../include/schedule.cuh"
#include "../include/verify.cuh"

#define DG_VERIFY(tag, PARAMS)                                                                   \
    DG_DEFINE_CFG(verify, tag, VerifyTask, PARAMS)                                               \
    DG_ENTRY verify_##tag(const uint8_t* pks, const uint8_t* mus, const uint8_t* sigs,            \
                          uint8_t* status, int n, uint32_t* scratch, uint8_t* workspace) {         \
        dg::run_persistent<dg::VerifyTask<dg::PARAMS>>({pks, mus, sigs}, status, n, scratch,     \
                                                       workspace);                                \
    }

DG_VERIFY(dilithium2, Dilithium2)
DG_VERIFY(dilithium3, Dilithium3)
DG_VERIFY(dilithium5, Dilithium5)
DG_VERIFY(mldsa44, MlDsa44)
DG_VERIFY(mldsa65, MlDsa65)
DG_VERIFY(mldsa87, MlDsa87)
