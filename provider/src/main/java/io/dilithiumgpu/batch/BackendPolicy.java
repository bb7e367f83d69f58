package io.dilithiumgpu.batch;

import java.util.Locale;

/**
 * Which backend runs the batches: the value of {@code dilithiumgpu.backend}. {@link BackendSelector}
 * applies it.
 */
public enum BackendPolicy {
    /** CUDA when a usable device is found, otherwise the CPU backend. The default. */
    AUTO,
    /**
     * CUDA is wanted. When it cannot be opened the CPU backend runs instead, and the reason is
     * logged at WARNING (once, when the batcher starts).
     */
    CUDA,
    /** The CPU backend only; CUDA is never probed. */
    CPU,
    /**
     * CUDA or nothing (strict mode, {@code cuda-required}): when CUDA cannot be opened the batcher
     * does not open, and every operation fails with a {@link java.security.ProviderException}
     * naming the reason; a batch the GPU fails is not rerun on the CPU but fails the same way.
     */
    CUDA_REQUIRED;

    /**
     * Parses {@code auto}, {@code cuda}, {@code cuda-required} or {@code cpu}, ignoring case and
     * surrounding blanks.
     *
     * @throws IllegalArgumentException for any other value
     */
    public static BackendPolicy parse(String value) {
        switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "auto":
                return AUTO;
            case "cuda":
                return CUDA;
            case "cpu":
                return CPU;
            case "cuda-required":
                return CUDA_REQUIRED;
            default:
                throw new IllegalArgumentException(BatchConfig.BACKEND_PROPERTY
                        + " must be auto, cuda, cuda-required or cpu, not '" + value + "'");
        }
    }

    /** The property value: {@code auto}, {@code cuda}, {@code cuda-required} or {@code cpu}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
