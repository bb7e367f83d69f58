/*
 * The contract between the kernels and the Java CUDA backend (io.dilithiumgpu.backend.cuda.BatchAbi
 * mirrors it). Plain C so that host code and the nvcc host-test build include it too.
 *
 * Parameter-set tags, used in every entry-point name:
 *   dilithium2 dilithium3 dilithium5   CRYSTALS-Dilithium round 3.1
 *   mldsa44    mldsa65    mldsa87      ML-DSA, FIPS 204
 *
 * Batches are arrays of fixed-size records, tightly packed: task i's field starts at byte
 * i * size, with the sizes of ParameterSet (pk, sk, sig), 32 (seed), 64 (mu), and rndBytes
 * (32 for ML-DSA: FIPS 204 rnd; 64 for round 3.1: rho' itself).
 *
 * Entry points, one per operation and set, all extern "C" __global__:
 *
 *   keygen_<set>(const uint8_t *seeds, uint8_t *pks, uint8_t *sks,
 *                uint8_t *status, int n, uint32_t *scratch, uint8_t *workspace)
 *   sign_<set>  (const uint8_t *sks, const uint8_t *mus, const uint8_t *rnds, uint8_t *sigs,
 *                uint8_t *status, int n, uint32_t *scratch, uint8_t *workspace)
 *   verify_<set>(const uint8_t *pks, const uint8_t *mus, const uint8_t *sigs,
 *                uint8_t *status, int n, uint32_t *scratch, uint8_t *workspace)
 *
 * Launch configuration: each entry point <entry> has a companion
 *   __constant__ int32_t <entry>_cfg[ABI_CFG_WORDS];
 * that the host reads once with cuModuleGetGlobal:
 *   [ABI_CFG_THREADS]      blockDim.x
 *   [ABI_CFG_TASKS]        tasks one block handles per pass
 *   [ABI_CFG_SMEM]         dynamic shared memory bytes per block
 *   [ABI_CFG_PERSISTENT]   0: grid = ceil(n / tasks). k > 0: persistent workers;
 *                          grid = min(ceil(n / tasks), k * multiprocessors), and blocks pull
 *                          work from the atomic counters in scratch
 *   [ABI_CFG_WORKSPACE]    bytes of global workspace per worker (see below); a workspace of
 *                          n * that always suffices
 * scratch is ABI_SCRATCH_WORDS zeroed 32-bit words (the host clears them before each launch);
 * scratch[ABI_SCRATCH_NEXT_TASK] is the counter the workers take task indices from.
 *
 * Workers and workspace: every warp of the grid is one worker (TASKS = warps per block) that
 * runs tasks one after another. Worker w owns workspace bytes [w * WORKSPACE, (w+1) * WORKSPACE);
 * workers with w >= n exit at once. A host may therefore allocate only
 *   min(n, grid * TASKS) * WORKSPACE
 * bytes instead of n * WORKSPACE (both are correct). Before a worker exits it zeroes its
 * workspace slice and its shared memory: nothing secret-derived is left on the device except
 * the caller's own input and output arrays.
 *
 * Alignment: every array argument must start at a 16-byte aligned device address (cuMemAlloc
 * gives 256); records inside them may have any size (signatures of odd length included).
 *
 * Status bytes (io.dilithiumgpu.backend.TaskStatus): written for every task. sign_* writes
 * ABI_STATUS_INVALID_KEY for an sk whose s1 or s2 decodes outside [-eta, eta], and also for an
 * sk that has not produced a signature after 1000 iterations of the rejection loop (probability
 * below 2^-300 for a well-formed key; only a crafted key gets there), so that no key can hold
 * the GPU forever. A signature record is meaningful only where the status is ABI_STATUS_OK
 * (elsewhere it may be partly written).
 */
#ifndef DILITHIUMGPU_BATCH_ABI_H
#define DILITHIUMGPU_BATCH_ABI_H

#define ABI_CFG_WORDS      5
#define ABI_CFG_THREADS    0
#define ABI_CFG_TASKS      1
#define ABI_CFG_SMEM       2
#define ABI_CFG_PERSISTENT 3
#define ABI_CFG_WORKSPACE  4

#define ABI_SCRATCH_WORDS  64
#define ABI_SCRATCH_NEXT_TASK 0

#define ABI_STATUS_OK          0  /* keys made, signature made, or signature valid */
#define ABI_STATUS_REJECTED    1  /* verify: not a valid signature */
#define ABI_STATUS_INVALID_KEY 2  /* sign: s1 or s2 out of [-eta, eta] */

#define ABI_SEED_BYTES 32
#define ABI_MU_BYTES   64

#endif
