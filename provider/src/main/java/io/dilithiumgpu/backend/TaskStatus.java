package io.dilithiumgpu.backend;

/**
 * Per-task outcome codes of a {@link Backend} batch. The same byte values are written by the CUDA
 * kernels ({@code kernels-cuda/include/batch_abi.h}).
 */
public final class TaskStatus {
    /** Keys generated, signature produced, or signature valid. */
    public static final byte OK = 0;
    /** Verification: the signature is not valid for this key and μ (any reason). */
    public static final byte REJECTED = 1;
    /** Signing: the private key does not decode (s1 or s2 coefficients out of [−η, η]). */
    public static final byte INVALID_KEY = 2;

    private TaskStatus() {}
}
