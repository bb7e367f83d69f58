package io.dilithiumgpu.kat;

/** Every known-answer suite through JCA calls computed on their callers' threads. */
class DirectRouteKatTest extends RouteKatTest {
    @Override
    String setting() {
        return "direct";
    }
}
