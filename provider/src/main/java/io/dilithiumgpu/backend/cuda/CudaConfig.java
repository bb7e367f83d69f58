package io.dilithiumgpu.backend.cuda;

import java.time.Duration;

/**
 * Sizing and recovery settings of the CUDA backend.
 *
 * @param streamsPerDevice slots (each a stream, its pinned host block, its device block and a
 *                         worker thread) per GPU, at least 1; two or more let the upload, compute
 *                         and download of consecutive chunks overlap
 * @param slotTasks        tasks one slot holds: the largest launch, at least 1; a slot's pinned
 *                         block is {@code BatchLayout.capacityBytes(slotTasks)} bytes
 * @param minChunkTasks    a batch is split over more slots only while each piece keeps at least
 *                         this many tasks, at least 1
 * @param copyThreads      threads that fill and drain pinned memory for one chunk, at least 1
 * @param retryAfter       how long the backend refuses work after a CUDA error before it
 *                         reopens the devices; doubled after each failed reopen, up to 16 times
 */
public record CudaConfig(int streamsPerDevice, int slotTasks, int minChunkTasks, int copyThreads,
                         Duration retryAfter) {

    /** System property prefix: {@code dilithiumgpu.cuda.streams}, {@code .slotTasks}, .... */
    public static final String PREFIX = "dilithiumgpu.cuda.";

    /** Pinned blocks are addressed through one {@code ByteBuffer}, so they stay below 2 GiB. */
    private static final long MAX_BLOCK_BYTES = Integer.MAX_VALUE;

    public CudaConfig {
        if (streamsPerDevice < 1 || slotTasks < 1 || minChunkTasks < 1 || copyThreads < 1) {
            throw new IllegalArgumentException("CUDA streams, slot tasks, chunk tasks and copy threads must be positive");
        }
        if (BatchLayout.capacityBytes(slotTasks) > MAX_BLOCK_BYTES) {
            throw new IllegalArgumentException("slotTasks " + slotTasks + " makes a pinned block over 2 GiB");
        }
        if (retryAfter.isNegative()) {
            throw new IllegalArgumentException("negative retry delay");
        }
    }

    /**
     * 8 streams per GPU, 8192 tasks per slot, chunks of at least 1024, copies on up to 8 threads,
     * retry after 30 s. Eight streams, not four: a batch of 10,000 then goes out as eight chunks
     * whose copies and kernels overlap; on an H100 this raised ML-DSA-44 keygen from 5.80 to
     * 6.58 M ops/s host to host (docs/performance.md).
     */
    public static CudaConfig defaults() {
        int cores = Runtime.getRuntime().availableProcessors();
        return new CudaConfig(8, 8192, 1024, Math.max(1, Math.min(8, cores)), Duration.ofSeconds(30));
    }

    /**
     * The defaults, overridden by the system properties {@code dilithiumgpu.cuda.streams},
     * {@code .slotTasks}, {@code .minChunkTasks}, {@code .copyThreads} and {@code .retryMillis}.
     *
     * @throws IllegalArgumentException when a property is not a number or out of range
     */
    public static CudaConfig fromSystemProperties() {
        CudaConfig d = defaults();
        return new CudaConfig(
                intProperty("streams", d.streamsPerDevice()),
                intProperty("slotTasks", d.slotTasks()),
                intProperty("minChunkTasks", d.minChunkTasks()),
                intProperty("copyThreads", d.copyThreads()),
                Duration.ofMillis(intProperty("retryMillis", (int) d.retryAfter().toMillis())));
    }

    private static int intProperty(String name, int fallback) {
        String value = System.getProperty(PREFIX + name);
        if (value == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PREFIX + name + " is not an integer: " + value, e);
        }
    }
}
