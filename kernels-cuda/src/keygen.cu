/* Key-generation entry points, one per parameter set (batch_abi.h). */
#include "../include/keygen.cuh"
#include "../include/schedule.cuh"

#define DG_KEYGEN(tag, PARAMS)                                                                   \
    DG_DEFINE_CFG(keygen, tag, KeygenTask, PARAMS)                                               \
    DG_ENTRY keygen_##tag(const uint8_t* seeds, uint8_t* pks, uint8_t* sks, uint8_t* status,     \
                          int n, uint32_t* scratch, uint8_t* workspace) {                         \
        dg::run_persistent<dg::KeygenTask<dg::PARAMS>>({seeds, pks, sks}, status, n, scratch,    \
                                                       workspace);                                \
    }

DG_KEYGEN(dilithium2, Dilithium2)
DG_KEYGEN(dilithium3, Dilithium3)
DG_KEYGEN(dilithium5, Dilithium5)
DG_KEYGEN(mldsa44, MlDsa44)
DG_KEYGEN(mldsa65, MlDsa65)
DG_KEYGEN(mldsa87, MlDsa87)
