package io.dilithiumgpu.tls;

import io.dilithiumgpu.route.Router;

/**
 * The ML-DSA signatures and verifications this provider's JCA calls have run, over every route
 * (the router's counts): a snapshot, and the count since.
 */
final class ProviderWork {
    private final long operations;

    private ProviderWork(long operations) {
        this.operations = operations;
    }

    static ProviderWork now() {
        return new ProviderWork(operations());
    }

    /** Operations run since this snapshot. */
    long since() {
        return operations() - operations;
    }

    private static long operations() {
        Router r = Router.shared();
        return r.getDirectCount() + r.getBatchCount() + r.getJdkCount();
    }
}
