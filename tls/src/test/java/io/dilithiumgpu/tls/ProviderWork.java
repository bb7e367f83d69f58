package io.dilithiumgpu.tls;

import io.dilithiumgpu.batch.BatcherMXBean;
import io.dilithiumgpu.batch.Engines;

/** The ML-DSA operations this provider's shared batcher has run: a snapshot, and the count since. */
final class ProviderWork {
    private final long operations;

    private ProviderWork(long operations) {
        this.operations = operations;
    }

    static ProviderWork now() {
        return new ProviderWork(metrics().getOperationCount());
    }

    /** Operations run since this snapshot. */
    long since() {
        return metrics().getOperationCount() - operations;
    }

    private static BatcherMXBean metrics() {
        return Engines.sharedBatcher().metrics();
    }
}
