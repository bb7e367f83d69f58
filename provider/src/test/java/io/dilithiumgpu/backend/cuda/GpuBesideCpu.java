package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.cpu.CpuBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * A test class's CUDA backend, opened once for the class with {@link #config()}, beside a CPU
 * backend to compare it with; every test is skipped, with the reason, without a usable GPU.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class GpuBesideCpu {
    private GpuTests.Gpu opened;
    /** The backend under test: null without a usable GPU (the tests are then skipped). */
    protected CudaBackend gpu;
    protected CpuBackend cpu;

    /** The configuration the class's backend is opened with. */
    protected abstract CudaConfig config();

    @BeforeAll
    void open() {
        opened = GpuTests.open(config());
        gpu = opened.backend();
        cpu = new CpuBackend();
    }

    @BeforeEach
    void requireGpu() {
        opened.assumeOpen();
    }

    @AfterAll
    void close() {
        opened.close();
        if (cpu != null) {
            cpu.close();
        }
    }
}
