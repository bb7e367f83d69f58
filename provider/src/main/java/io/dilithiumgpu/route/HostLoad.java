package io.dilithiumgpu.route;

import java.util.function.LongSupplier;

/**
 * The host's cores as the router weighs them: whether the process keeps them busy, and the host
 * CPU one batched call costs this provider's own threads (the dispatcher, batch threads, a GPU's
 * stream workers). Where other work fills the cores (a TLS stack's handshakes, say), a core's
 * time spent on a signature is taken from that work, so the route that costs the host less
 * serves the application better, though its round trip is longer ({@link RouteChoice#forBusyHost}).
 *
 * <p>Sampled by the router's sampler, one caller at a time, over windows of
 * {@value #WINDOW_MILLIS} ms: the process's CPU time against the cores', and this provider's
 * threads' CPU time against the batched calls of the window, averaged over at least
 * {@value #MIN_CALLS} calls.
 */
final class HostLoad {
    static final long WINDOW_MILLIS = 100;
    private static final long WINDOW_NANOS = WINDOW_MILLIS * 1_000_000;
    /** The share of the cores the process must have used over a window to count as busy. */
    static final double BUSY = 0.9;
    /** The batched calls the host CPU per call is averaged over. */
    static final int MIN_CALLS = 32;

    private final LongSupplier processCpu;
    private final LongSupplier providerCpuSinceLastRead;
    private final int cores;
    private long windowStart;
    private long processCpuAtStart = -1;
    private long batchedAtStart = -1;
    private long providerCpu;
    private long batched;
    private volatile boolean busy;
    private volatile long batchNanos = RouteChoice.UNKNOWN;

    /**
     * @param processCpu               the process's CPU time in nanoseconds, or -1 where unknown
     * @param providerCpuSinceLastRead this provider's threads' CPU time since the last read, or -1
     * @param cores                    the cores the process may use
     */
    HostLoad(LongSupplier processCpu, LongSupplier providerCpuSinceLastRead, int cores) {
        this.processCpu = processCpu;
        this.providerCpuSinceLastRead = providerCpuSinceLastRead;
        this.cores = cores;
    }

    /** At the sampler's tick {@code now}, with {@code batchedCalls} routed to the batcher so far. */
    void sample(long now, long batchedCalls) {
        if (batchedAtStart >= 0 && now - windowStart < WINDOW_NANOS) {
            return;
        }
        long cpu = processCpu.getAsLong();
        long provider = providerCpuSinceLastRead.getAsLong();
        if (batchedAtStart >= 0) {
            long wall = now - windowStart;
            busy = cpu >= 0 && processCpuAtStart >= 0 && cpu - processCpuAtStart >= BUSY * cores * wall;
            if (provider >= 0) {
                providerCpu += provider;
                batched += batchedCalls - batchedAtStart;
                if (batched >= MIN_CALLS) {
                    batchNanos = Math.max(1, providerCpu / batched);
                    providerCpu = 0;
                    batched = 0;
                }
            }
        }
        windowStart = now;
        processCpuAtStart = cpu;
        batchedAtStart = batchedCalls;
    }

    /** Whether the process used at least {@value #BUSY} of its cores over the last window. */
    boolean busy() {
        return busy;
    }

    /** The host CPU this provider's threads spent per batched call, lately, or {@link RouteChoice#UNKNOWN}. */
    long batchNanos() {
        return batchNanos;
    }
}
