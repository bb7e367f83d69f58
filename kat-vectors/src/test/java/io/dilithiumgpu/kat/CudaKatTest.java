package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.cuda.CudaBackend;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;

/**
 * Every known-answer suite against the CUDA backend. Without a usable GPU the suites are skipped
 * with the reason CUDA did not open, unless the system property {@code cuda.required} is true
 * (the GPU bundle's runner sets it), which turns that into a failure.
 */
class CudaKatTest extends BackendKatTest {
    private String unavailable;

    /** The CUDA backend, or null (with the reason kept for {@link #requireGpu()}) when it does not open. */
    @Override
    protected Backend createBackend() {
        try {
            return CudaBackend.open();
        } catch (BackendException e) {
            if (Boolean.getBoolean("cuda.required")) {
                throw new AssertionError("cuda.required is set, but the CUDA backend did not open: "
                        + e.getMessage(), e);
            }
            unavailable = "no usable CUDA device: " + e.getMessage();
            return null;
        }
    }

    @BeforeEach
    void requireGpu() {
        Assumptions.assumeTrue(unavailable == null, unavailable);
    }
}
