package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.cpu.CpuBackend;

/** Every known-answer suite against the multi-core pure-Java backend. */
class CpuKatTest extends BackendKatTest {
    @Override
    protected Backend createBackend() {
        return new CpuBackend();
    }
}
