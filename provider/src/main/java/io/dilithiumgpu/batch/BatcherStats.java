package io.dilithiumgpu.batch;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * The counters behind {@link BatcherMXBean}; updated once per batch, and for a sample of the
 * requests that a blocking call awaited (their wake-ups).
 */
final class BatcherStats implements BatcherMXBean {
    private final String backend;
    private final BatchConfig config;
    private final int maxInFlight;
    private final IntSupplier queueDepth;
    private final IntSupplier inFlight;
    private final LongAdder operations = new LongAdder();
    private final LongAdder batches = new LongAdder();
    private final AtomicInteger maxBatch = new AtomicInteger();
    private final LongAdder fallbacks = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder queueWaitNanos = new LongAdder();
    private final LongAdder handOffNanos = new LongAdder();
    private final LongAdder loadNanos = new LongAdder();
    private final LongAdder backendNanos = new LongAdder();
    private final LongAdder completeNanos = new LongAdder();
    private final LongAdder batchedNanos = new LongAdder();
    private final LongAdder deliveries = new LongAdder();
    /** Wake-ups that all count, before they are sampled. */
    static final int EVERY_WAKE = 1024;
    /** One wake-up in this many counts after the first {@link #EVERY_WAKE}: a power of two. */
    static final int WAKE_SAMPLE = 16;
    private final LongAdder wakeNanos = new LongAdder();
    private final LongAdder wakes = new LongAdder();
    private int wakesSeen;

    BatcherStats(String backend, BatchConfig config, int maxInFlight, IntSupplier queueDepth, IntSupplier inFlight) {
        this.backend = backend;
        this.config = config;
        this.maxInFlight = maxInFlight;
        this.queueDepth = queueDepth;
        this.inFlight = inFlight;
    }

    void batchRan(int size) {
        operations.add(size);
        batches.increment();
        maxBatch.accumulateAndGet(size, Math::max);
    }

    /**
     * A finished batch: its stage times in nanoseconds ({@code queueWait} summed over its tasks),
     * and {@code delivered} futures completed {@code batched} nanoseconds after the batch formed,
     * summed. The delivered count is added last, so a reader that sees it sees the rest.
     */
    void batchFinished(long queueWait, long handOff, long load, long backend, long complete, int delivered,
            long batched) {
        queueWaitNanos.add(queueWait);
        handOffNanos.add(handOff);
        loadNanos.add(load);
        backendNanos.add(backend);
        completeNanos.add(complete);
        batchedNanos.add(batched);
        deliveries.add(delivered);
    }

    /**
     * A blocked caller ran again {@code nanos} after its future completed. The first
     * {@value #EVERY_WAKE} wake-ups count, then one in {@value #WAKE_SAMPLE}, drawn at random: the
     * same mean for a sixteenth of the adds, each a cache line fetched from another core when
     * thousands of callers wake across the carriers.
     */
    void callerWoke(long nanos) {
        if (wakesSeen < EVERY_WAKE) {
            wakesSeen++;  // racy, and written no more once past the bound
        } else if ((ThreadLocalRandom.current().nextInt() & (WAKE_SAMPLE - 1)) != 0) {
            return;
        }
        wakeNanos.add(nanos);
        wakes.increment();
    }

    void fellBack(int size) {
        fallbacks.add(size);
    }

    void failed(int count) {
        failures.add(count);
    }

    @Override
    public String getBackend() {
        return backend;
    }

    @Override
    public long getOperationCount() {
        return operations.sum();
    }

    @Override
    public long getBatchCount() {
        return batches.sum();
    }

    @Override
    public double getMeanBatchSize() {
        long b = batches.sum();
        return b == 0 ? 0 : (double) operations.sum() / b;
    }

    @Override
    public int getMaxObservedBatchSize() {
        return maxBatch.get();
    }

    @Override
    public int getQueueDepth() {
        return queueDepth.getAsInt();
    }

    @Override
    public int getBatchesInFlight() {
        return inFlight.getAsInt();
    }

    @Override
    public long getFallbackCount() {
        return fallbacks.sum();
    }

    @Override
    public long getFailedOperations() {
        return failures.sum();
    }

    @Override
    public long getQueueWaitNanos() {
        return queueWaitNanos.sum();
    }

    @Override
    public long getHandOffNanos() {
        return handOffNanos.sum();
    }

    @Override
    public long getLoadNanos() {
        return loadNanos.sum();
    }

    @Override
    public long getBackendNanos() {
        return backendNanos.sum();
    }

    @Override
    public long getCompleteNanos() {
        return completeNanos.sum();
    }

    @Override
    public long getBatchedNanos() {
        return batchedNanos.sum();
    }

    @Override
    public long getDeliveredCount() {
        return deliveries.sum();
    }

    @Override
    public long getCallerWakeNanos() {
        return wakeNanos.sum();
    }

    @Override
    public long getCallerWakeCount() {
        return wakes.sum();
    }

    @Override
    public long getMaxDelayMicros() {
        return config.maxDelayMicros();
    }

    @Override
    public int getQueueCapacity() {
        return config.queueCapacity();
    }

    @Override
    public int getMaxInFlight() {
        return maxInFlight;
    }
}
