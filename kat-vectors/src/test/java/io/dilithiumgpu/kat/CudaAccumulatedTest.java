package io.dilithiumgpu.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.cuda.CudaBackend;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.HexFormat;

/**
 * C2SP CCTV's accumulated ML-DSA test, 10,000 iterations of each set, on the CUDA backend. Skipped
 * with the reason without a usable GPU, unless {@code cuda.required} is true (the GPU bundle's
 * runner), which makes that a failure.
 */
@Timeout(1200)
class CudaAccumulatedTest {
    @ParameterizedTest
    @EnumSource(value = ParameterSet.class, names = {"ML_DSA_44", "ML_DSA_65", "ML_DSA_87"})
    void tenThousandIterationsGiveThePublishedHash(ParameterSet p) throws Exception {
        CudaBackend gpu;
        try {
            gpu = CudaBackend.open();
        } catch (BackendException e) {
            if (Boolean.getBoolean("cuda.required")) {
                throw new AssertionError("cuda.required is set, but the CUDA backend did not open: "
                        + e.getMessage(), e);
            }
            Assumptions.abort("no usable CUDA device: " + e.getMessage());
            return;
        }
        try (gpu) {
            Accumulated run = Accumulated.start(p, 10_000);
            run.run(gpu, 2_500, done -> true);
            assertEquals(Accumulated.published(p, 10_000), HexFormat.of().formatHex(run.result()));
        }
    }
}
