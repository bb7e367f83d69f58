module example.dilithiumgpu {
    requires io.dilithiumgpu;
}
