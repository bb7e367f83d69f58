package io.dilithiumgpu.batch;

/**
 * The batcher's counters, registered by {@link Engines#shared()} as
 * {@code io.dilithiumgpu:type=Batcher}. Counters start at zero when the batcher opens and only
 * grow.
 */
public interface BatcherMXBean {

    /** The backend that runs batches: {@code cuda} or {@code cpu}. */
    String getBackend();

    /** Tasks run in batches (a task rerun on the CPU after a GPU failure counts once). */
    long getOperationCount();

    /** Batches run. */
    long getBatchCount();

    /** {@link #getOperationCount()} / {@link #getBatchCount()}; 0 before the first batch. */
    double getMeanBatchSize();

    /** The largest batch run so far. */
    int getMaxObservedBatchSize();

    /*
     * Where a request's time goes, as running sums in nanoseconds (a monitor divides the growth of
     * one by the growth of getOperationCount or getBatchCount over the same interval). With
     * batches in flight at once, the per-batch sums add up to more than wall time.
     */

    /** Summed over tasks: from a task's arrival in the queue until the dispatcher formed its batch. */
    long getQueueWaitNanos();

    /** Summed over batches: from a batch's formation until a batch thread started on it. */
    long getHandOffNanos();

    /** Summed over batches: copying the tasks' inputs into the batch's arrays. */
    long getLoadNanos();

    /** Summed over batches: the backend call (a CPU rerun after a GPU failure included). */
    long getBackendNanos();

    /**
     * Summed over batches: staging the outcomes, wiping and pooling the arrays, and completing the
     * callers' futures (with any dependent stages attached without an executor).
     */
    long getCompleteNanos();

    /**
     * Summed over requests whose futures a batch completed (cancelled ones excepted): from the
     * formation of the request's batch until its future was completed. Unlike the per-batch sums
     * above, this is the batch time as each request sees it: a large batch, which takes longer,
     * counts once per request in it, and a request completed late in its batch counts late.
     */
    long getBatchedNanos();

    /**
     * Requests counted in {@link #getBatchedNanos()}. A batch's counters are added in one step
     * just after its last future completes, this count last: a caller that has just seen its
     * result may read the previous values for a moment; once this count includes its request,
     * every per-batch sum includes its batch.
     */
    long getDeliveredCount();

    /**
     * Summed over a sample of the requests that a blocking call awaited (JCA {@code sign},
     * {@code verify} and key generation; see {@link #getCallerWakeCount()}): from the batch thread
     * completing the request's future until the
     * waiting thread ran again. With thousands of virtual-thread callers this is the scheduler's
     * share of the round trip.
     */
    long getCallerWakeNanos();

    /**
     * Requests counted in {@link #getCallerWakeNanos()}: the first 1,024 awaited, then one in 16
     * drawn at random; the sum over the count is the mean wake-up.
     */
    long getCallerWakeCount();

    /** Requests queued now, not yet in a batch. */
    int getQueueDepth();

    /** Batches running now. */
    int getBatchesInFlight();

    /** Tasks rerun on the CPU backend because the GPU backend failed their batch. */
    long getFallbackCount();

    /**
     * Requests that completed exceptionally: invalid private keys, and tasks no backend could
     * run. Rejected signatures are not failures; cancelled requests are not counted.
     */
    long getFailedOperations();

    /** The configured {@code dilithiumgpu.batch.maxDelayMicros}. */
    long getMaxDelayMicros();

    /** The configured {@code dilithiumgpu.batch.queueCapacity}. */
    int getQueueCapacity();

    /** Batches run at once at most: {@code dilithiumgpu.batch.maxInFlight}, or the backend's preference when 0. */
    int getMaxInFlight();
}
