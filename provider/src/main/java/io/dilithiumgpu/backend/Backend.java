package io.dilithiumgpu.backend;

import io.dilithiumgpu.core.ParameterSet;

/**
 * A batch engine for one of the six parameter sets: the seam between the batcher and the
 * hardware. The CPU implementation spreads a batch over all cores; the CUDA implementation runs
 * it as kernel launches.
 *
 * <p>A call is one {@link BatchRecords}: flat arrays (or {@link HostBuffer}s) of fixed-size
 * records, task {@code i}'s at bytes {@code [i·size, (i+1)·size)} of each. Each task reports its
 * own outcome in {@code status[i]} (a {@link TaskStatus} code), so one bad task fails alone and
 * never its batch.
 *
 * <p>Ownership: a backend reads the input records and writes the output records only for the
 * duration of the call and keeps no reference to any of them. Secret inputs it copies (into
 * pinned or device memory, say) are wiped before the call returns.
 *
 * <p>A method throws {@link BackendException} only when the backend itself failed (a CUDA error,
 * a lost device); the caller then reruns the whole batch elsewhere. Implementations are safe for
 * concurrent use by several threads.
 */
public interface Backend extends AutoCloseable {

    /** Short name shown in JMX and logs: {@code cpu} or {@code cuda}. */
    String name();

    /** The batch size at which this backend reaches most of its throughput for an operation. */
    int preferredBatchSize(ParameterSet params, Operation op);

    /**
     * Batches this backend runs well at once: the batcher's in-flight limit unless one is
     * configured. Each batch in flight has its own batch thread that loads its tasks, runs the
     * backend and completes the callers, so a backend with many independent lanes (the CUDA
     * backend's streams) wants as many batches in flight as it has lanes.
     */
    default int preferredBatchesInFlight() {
        return 4;
    }

    /**
     * Runs every task of {@code records} and writes its outputs and status, telling the records'
     * listener, if any, of tasks as they end when the backend can ({@link TaskListener}).
     * {@link BatchRecords} says what each operation reads and writes.
     *
     * @throws BackendException when the backend itself failed (a CUDA error, a lost device)
     */
    void run(BatchRecords records);

    /**
     * Whether this backend hashes μ itself for one-key records of {@code op} on {@code params}
     * that carry {@link MessageRecord}s ({@link BatchRecords#withMessages}), so that callers may
     * hand over short messages instead of μ. Only such a backend is given those records. False by
     * default: the host's own hash is as fast as any.
     */
    default boolean hashesMessages(ParameterSet params, Operation op) {
        return false;
    }

    /**
     * Whether batches whose records are in this backend's {@link #allocateHost} buffers run faster
     * than heap arrays: true for the CUDA backend, whose copies then go straight to the device.
     * The batcher then keeps its pooled batches in such buffers.
     */
    default boolean prefersHostBuffers() {
        return false;
    }

    /**
     * Host memory for {@link BatchRecords} in host buffers: page-locked by the CUDA backend, so
     * that its copies go straight between this memory and the device; plain native memory by
     * default.
     *
     * @param bytes 0 to {@link HostBuffer#MAX_BYTES}
     */
    default HostBuffer allocateHost(long bytes) {
        return HostBuffer.allocate(bytes);
    }

    /** Releases threads, pools and device memory. Idempotent. */
    @Override
    void close();
}
