package io.dilithiumgpu.kat;

/** Every known-answer suite through JCA calls sent to the batcher (here on the CPU backend). */
class BatchRouteKatTest extends RouteKatTest {
    @Override
    String setting() {
        return "batch";
    }
}
