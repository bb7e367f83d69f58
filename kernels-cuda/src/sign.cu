/* Signing entry points, one per parameter set (batch_abi.h). */
#include "../include/schedule.cuh"
#include "../include/sign.cuh"

/*
 * sign_<set>, and sign_<set>_help: the same signing with idle warps helping other tasks' rejection
 * loops behind the help gate (the host launches these only with helping on; sign.cuh).
 */
#define DG_SIGN_VARIANT(name, TASK, PARAMS)                                                         \
    DG_DEFINE_CFG_SHAPED(sign, name, TASK, PARAMS, dg::SIGN_BLOCK_THREADS, DG_SIGN_BLOCKS_PER_SM)   \
    DG_SIGN_ENTRY sign_##name(const uint8_t* sks, const uint8_t* mus, const uint8_t* rnds, uint8_t* sigs, \
                         uint8_t* status, int n, uint32_t* scratch, uint8_t* workspace) {          \
        dg::run_persistent<dg::TASK<dg::PARAMS>>({sks, mus, rnds, sigs}, status, n, scratch, workspace); \
    }

#define DG_SIGN(tag, PARAMS)                   \
    DG_SIGN_VARIANT(tag, SignTask, PARAMS)     \
    DG_SIGN_VARIANT(tag##_help, HelpingSignTask, PARAMS)

DG_SIGN(dilithium2, Dilithium2)
DG_SIGN(dilithium3, Dilithium3)
DG_SIGN(dilithium5, Dilithium5)
DG_SIGN(mldsa44, MlDsa44)
DG_SIGN(mldsa65, MlDsa65)
DG_SIGN(mldsa87, MlDsa87)
