/*
 * The contract between the kernels and the Java CUDA backend (io.dilithiumgpu.backend.cuda.BatchAbi
 * mirrors it). Plain C so that host code and the nvcc host-test build include it too.
 *
 * Parameter-set tags, used in every entry-point and slot-size name:
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
 * The device key cache: a key expanded once on the device into a slot, then read in place (through
 * L2) by every task that signs or verifies with it, instead of each task expanding A^ and
 * transforming s1, s2, t0 or t1 again:
 *
 *   expand_sk_<set>(const uint8_t *sks, const int32_t *slotOf, uint8_t *slots,
 *                   uint8_t *status, int n, uint32_t *scratch, uint8_t *workspace)
 *   expand_pk_<set>(const uint8_t *pks, const int32_t *slotOf, uint8_t *slots,
 *                   uint8_t *status, int n, uint32_t *scratch, uint8_t *workspace)
 *   sign_keyed_<set>  (const uint8_t *sks, const int32_t *keyOf, const uint8_t *slots,
 *                      const uint8_t *mus, const uint8_t *msgs, const uint8_t *rnds, uint8_t *sigs,
 *                      uint8_t *status, int n, uint32_t *scratch, uint8_t *workspace)
 *   verify_keyed_<set>(const uint8_t *pks, const int32_t *keyOf, const uint8_t *slots,
 *                      const uint8_t *mus, const uint8_t *msgs, const uint8_t *sigs,
 *                      uint8_t *status, int n, uint32_t *scratch, uint8_t *workspace)
 *   sign_keyed_wide_<set>(the arguments of sign_keyed_)
 *   sign_keyed_helped_<set>(the arguments of sign_keyed_)
 *
 *   __constant__ int32_t slot_bytes_sk_<set>;   bytes of one sk slot, a multiple of 256
 *   __constant__ int32_t slot_bytes_pk_<set>;   bytes of one pk slot, a multiple of 256
 *
 * `slots` is one allocation per (device, set, form); slot s is bytes [s * SLOT, (s + 1) * SLOT).
 *
 * expand_*: task i expands packed record i of sks / pks into slot slotOf[i]. expand_sk's status is
 * ABI_STATUS_INVALID_KEY for an s1 or s2 coefficient outside [-eta, eta] (the slot is then partly
 * written: never sign with it, wipe it), else ABI_STATUS_OK; expand_pk's is always ABI_STATUS_OK.
 * An sk slot holds A^, s1^, s2^, t0^ (NTT domain), K and tr; a pk slot holds A^, NTT(t1 2^d) and
 * tr = H(pk), so that a cached verification transforms no key polynomial and a task may hash its
 * own mu. The layouts are the kernels' business (sign.cuh, verify.cuh), the sizes the host's.
 *
 * sign_keyed / verify_keyed: keyOf[i] >= 0 takes task i's key from slot keyOf[i];
 * keyOf[i] < 0 from packed record -keyOf[i] - 1 of sks / pks, which hold the uncached keys alone,
 * densely, so that only they are uploaded (sks / pks may be null when every task is cached, slots
 * when none is). mus, rnds, sigs and status are task i's records as for sign_ / verify_, and the
 * outputs and statuses are bit-exact with theirs on the same key and inputs. Give the tasks of one
 * key adjacent indices (sort by key), so that the slot they read stays in L2.
 *
 * sign_keyed_wide: sign_keyed with each block's warps sharing one task's rejection loop
 * (sign_wide.cuh), bit-exact with it: fewer tasks at once, each ending sooner. Its cfg names one
 * task per block and a block's workspace (a slice per warp) as the worker's.
 *
 * sign_keyed_helped: sign_keyed whose warps, once no task of a started sign_keyed_helped launch is
 * left to take, help the cached-key tasks still signing (sign_help.cuh), bit-exact with it: for a
 * launch that holds a whole one-key call, whose last rejection loops would otherwise end one warp
 * at a time. Its cfg is sign_keyed's.
 *
 * msgs, when not null, replaces mus: task i's mu comes from message record i, ABI_MESSAGE_BYTES
 * each. Its last byte is a tag: 0, and bytes [0, 64) are mu itself; t in [1, 72], and bytes
 * [0, t - 1) are M' (FIPS 204 Algorithms 2/3: 0 || |ctx| || ctx || M; round 3.1: M), of which the
 * task computes mu = H(tr || M', 64) with its key's tr (one Keccak-f block, tr || M' < 136 bytes).
 * A short message then costs the host no hash at all.
 *
 * A slot holds secret-derived values: the host wipes it (to zero) when it evicts it, on close, and
 * when the key is destroyed; the kernels never leave key material anywhere else (below).
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
 *                          n * that always suffices. 0 for expand_* (they write the slots
 *                          directly); sign_keyed_ and verify_keyed_ need as much as sign_ and
 *                          verify_ (an uncached task expands its key there)
 * scratch is ABI_SCRATCH_WORDS 32-bit words, zero when a launch starts: the host clears them once,
 * and every launch that runs to its end leaves them zero (its last worker resets them), so that
 * launches in stream order may share them; after a failed launch the host clears them again.
 * scratch[ABI_SCRATCH_NEXT_TASK] is the counter the workers take task indices from,
 * scratch[ABI_SCRATCH_EXITED] counts the workers that have finished. From word
 * ABI_SCRATCH_RECORDS on, sign_keyed_helped_ keeps a 64-bit record per worker (at most ABI_HELP_RECORDS),
 * through which warps without a task help the tasks still signing (sign_help.cuh).
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
 * Status bytes (io.dilithiumgpu.backend.TaskStatus): written for every task. sign_* (keyed too)
 * writes ABI_STATUS_INVALID_KEY for an sk whose s1 or s2 decodes outside [-eta, eta], and also
 * for a key that has not produced a signature after 1000 iterations of the rejection loop
 * (probability below 2^-300 for a well-formed key; only a crafted key gets there), so that no key
 * can hold the GPU forever. A signature record is meaningful only where the status is
 * ABI_STATUS_OK (elsewhere it may be partly written).
 */
#ifndef DILITHIUMGPU_BATCH_ABI_H
#define DILITHIUMGPU_BATCH_ABI_H

#define ABI_CFG_WORDS      5
#define ABI_CFG_THREADS    0
#define ABI_CFG_TASKS      1
#define ABI_CFG_SMEM       2
#define ABI_CFG_PERSISTENT 3
#define ABI_CFG_WORKSPACE  4

#define ABI_SCRATCH_NEXT_TASK 0
#define ABI_SCRATCH_EXITED    1
#define ABI_SCRATCH_RECORDS   64    /* sign_keyed_helped_'s records (sign_help.cuh), two words each */
#define ABI_HELP_RECORDS      4096
#define ABI_SCRATCH_WORDS     8256  /* ABI_SCRATCH_RECORDS + 2 * ABI_HELP_RECORDS */

#define ABI_STATUS_OK          0  /* keys made, signature made, or signature valid */
#define ABI_STATUS_REJECTED    1  /* verify: not a valid signature */
#define ABI_STATUS_INVALID_KEY 2  /* sign, expand_sk: s1 or s2 out of [-eta, eta] */

#define ABI_SEED_BYTES 32
#define ABI_MU_BYTES   64
#define ABI_MESSAGE_BYTES 72  /* a message record: M' (at most 71 bytes) or mu, then the tag */

#endif
