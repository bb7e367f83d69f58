package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;

/**
 * The Java mirror of {@code kernels-cuda/include/batch_abi.h}: entry-point names, the layout of
 * the launch-configuration globals, the scratch size and the status codes. A change to the header
 * is a change here; {@code BatchAbiTest} reads the header and pins both together.
 */
final class BatchAbi {

    /** {@code ABI_CFG_WORDS}: 32-bit words in each {@code <entry>_cfg} global. */
    static final int CFG_WORDS = 5;
    /** {@code ABI_CFG_THREADS}: blockDim.x. */
    static final int CFG_THREADS = 0;
    /** {@code ABI_CFG_TASKS}: tasks one block handles per pass. */
    static final int CFG_TASKS = 1;
    /** {@code ABI_CFG_SMEM}: dynamic shared memory bytes per block. */
    static final int CFG_SMEM = 2;
    /** {@code ABI_CFG_PERSISTENT}: 0, or k for at most k resident blocks per multiprocessor. */
    static final int CFG_PERSISTENT = 3;
    /** {@code ABI_CFG_WORKSPACE}: bytes of global workspace per worker (a warp running tasks in turn). */
    static final int CFG_WORKSPACE = 4;

    /**
     * {@code ABI_SCRATCH_WORDS}: 32-bit words zero at every launch's start; the host clears them
     * once, and after a failed launch, and every launch that ends leaves them zero.
     */
    static final int SCRATCH_WORDS = 8256;
    /** {@code ABI_SCRATCH_NEXT_TASK}: the scratch word workers take task indices from. */
    static final int SCRATCH_NEXT_TASK = 0;
    /** {@code ABI_SCRATCH_EXITED}: the scratch word that counts the workers that have finished. */
    static final int SCRATCH_EXITED = 1;
    /**
     * {@code ABI_SCRATCH_RECORDS}: the first word of {@code sign_keyed_}'s records, one 64-bit word
     * per worker, through which warps without a task help the tasks still signing.
     */
    static final int SCRATCH_RECORDS = 64;
    /** {@code ABI_HELP_RECORDS}: the records there are; workers past them sign alone. */
    static final int HELP_RECORDS = 4096;

    /** {@code ABI_STATUS_*}, identical to {@link TaskStatus}. */
    static final byte STATUS_OK = TaskStatus.OK;
    static final byte STATUS_REJECTED = TaskStatus.REJECTED;
    static final byte STATUS_INVALID_KEY = TaskStatus.INVALID_KEY;

    /** {@code ABI_SEED_BYTES} and {@code ABI_MU_BYTES}. */
    static final int SEED_BYTES = ParameterSet.SEED_BYTES;
    static final int MU_BYTES = ParameterSet.MU_BYTES;
    /** {@code ABI_MESSAGE_BYTES}: a message record of the keyed entry points. */
    static final int MESSAGE_BYTES = io.dilithiumgpu.backend.MessageRecord.BYTES;

    private BatchAbi() {}

    /** The tag in entry-point names: {@code dilithium2}, ..., {@code mldsa44}, .... */
    static String tag(ParameterSet p) {
        return switch (p) {
            case DILITHIUM2 -> "dilithium2";
            case DILITHIUM3 -> "dilithium3";
            case DILITHIUM5 -> "dilithium5";
            case ML_DSA_44 -> "mldsa44";
            case ML_DSA_65 -> "mldsa65";
            case ML_DSA_87 -> "mldsa87";
        };
    }

    /** The entry point of an operation: {@code keygen_<tag>}, {@code sign_<tag>}, {@code verify_<tag>}. */
    static String entryName(ParameterSet p, Operation op) {
        String verb = switch (op) {
            case KEYGEN -> "keygen";
            case SIGN -> "sign";
            case VERIFY -> "verify";
        };
        return verb + "_" + tag(p);
    }

    /**
     * The key cache's expansion entry point (CACHE_ABI): {@code expand_sk_<tag>} for private keys
     * ({@code secret}), {@code expand_pk_<tag>} for public keys.
     */
    static String expandName(ParameterSet p, boolean secret) {
        return (secret ? "expand_sk_" : "expand_pk_") + tag(p);
    }

    /** The entry point of a launch on cached keys: {@code sign_keyed_<tag>} or {@code verify_keyed_<tag>}. */
    static String keyedName(ParameterSet p, Operation op) {
        return switch (op) {
            case SIGN -> "sign_keyed_" + tag(p);
            case VERIFY -> "verify_keyed_" + tag(p);
            case KEYGEN -> throw new IllegalArgumentException("key generation reads no cached key");
        };
    }

    /**
     * The signing entry point on cached keys whose blocks' warps share each task's rejection loop:
     * {@code sign_keyed_wide_<tag>} ({@link SigningWidth}).
     */
    static String wideName(ParameterSet p) {
        return "sign_keyed_wide_" + tag(p);
    }

    /**
     * The signing entry point on cached keys whose warps, once no task is left to take, help the
     * tasks still signing: {@code sign_keyed_helped_<tag>}, for a launch that holds a whole
     * one-key call ({@code sign_help.cuh}).
     */
    static String helpedName(ParameterSet p) {
        return "sign_keyed_helped_" + tag(p);
    }

    /** The {@code __constant__ int32_t} holding one slot's bytes: {@code slot_bytes_sk_<tag>} or {@code slot_bytes_pk_<tag>}. */
    static String slotBytesName(ParameterSet p, boolean secret) {
        return (secret ? "slot_bytes_sk_" : "slot_bytes_pk_") + tag(p);
    }

    /** Whether an expansion may report {@code status}: OK, or (private keys only) INVALID_KEY. */
    static boolean expandStatusAllowed(boolean secret, byte status) {
        return status == STATUS_OK || secret && status == STATUS_INVALID_KEY;
    }

    /** Whether a kernel may report {@code status} for a task of {@code op}. */
    static boolean statusAllowed(Operation op, byte status) {
        return switch (op) {
            case KEYGEN -> status == STATUS_OK;
            case SIGN -> status == STATUS_OK || status == STATUS_INVALID_KEY;
            case VERIFY -> status == STATUS_OK || status == STATUS_REJECTED;
        };
    }
}
