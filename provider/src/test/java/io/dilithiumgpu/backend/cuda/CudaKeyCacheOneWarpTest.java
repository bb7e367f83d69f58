package io.dilithiumgpu.backend.cuda;

/**
 * {@link CudaKeyCacheTest} with one warp per signature ({@link CudaConfig#wideSigning()} off): the
 * cached-key signing route that large chunks take, bit-exact with the CPU in every case the key
 * cache's tests cover, as the groups of warps are there.
 */
class CudaKeyCacheOneWarpTest extends CudaKeyCacheTest {
    @Override
    protected CudaConfig config() {
        return super.config().toBuilder().wideSigning(false).build();
    }
}
