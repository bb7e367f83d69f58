package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;

import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * A backend that computes nothing: after a fixed time per batch, whatever its size (as a GPU batch
 * roughly takes), it answers every task OK and leaves the outputs zero. Measures the batcher and
 * the layers above it on their own.
 */
public final class StandInBackend implements Backend {
    private final int preferredBatch;
    private final int batchesInFlight;
    private final long batchNanos;

    /**
     * @param preferredBatch  its preferred batch size, for every operation and set
     * @param batchesInFlight its preferred batches in flight
     * @param batchNanos      the time each batch takes (0: none)
     */
    public StandInBackend(int preferredBatch, int batchesInFlight, long batchNanos) {
        this.preferredBatch = preferredBatch;
        this.batchesInFlight = batchesInFlight;
        this.batchNanos = batchNanos;
    }

    @Override
    public String name() {
        return "stand-in";
    }

    @Override
    public int preferredBatchSize(ParameterSet params, Operation op) {
        return preferredBatch;
    }

    @Override
    public int preferredBatchesInFlight() {
        return batchesInFlight;
    }

    @Override
    public void run(BatchRecords records) {
        answer(records.count(), records.status());
    }

    private void answer(int n, byte[] status) {
        long end = System.nanoTime() + batchNanos;
        for (long left = batchNanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        Arrays.fill(status, 0, n, TaskStatus.OK);
    }

    @Override
    public void close() {
        // Nothing held.
    }
}
