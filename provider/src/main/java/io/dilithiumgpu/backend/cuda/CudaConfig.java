package io.dilithiumgpu.backend.cuda;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

import jcuda.driver.CUctx_flags;

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
 * @param sync             how a slot's thread waits for its stream ({@link Sync})
 * @param help             whether a signing warp without a task of its own helps the rejection
 *                         loops still running in its launch once the device has no task left to
 *                         start (kernels' help.cuh: each launch is counted in mapped host memory
 *                         that the kernels read, and signing launches the {@code sign_<set>_help}
 *                         kernels). Off by default: on an H100 a lone launch of 512 tasks at
 *                         levels 3 and 5 finished 10 to 40 % sooner, level 2 even, but batches
 *                         spread over several launches lost 25 %; and the plain signing kernels,
 *                         without the helping code, run 1.3 to 3.6 % faster
 * @param publish          whether signing on registered host memory ({@code HostBuffer}s) writes
 *                         its signatures and statuses from the kernels straight into that memory,
 *                         as each task ends, instead of downloading them after the launch: a
 *                         batch's last chunk then ends with its last task, not with a copy. Calls
 *                         with a {@code TaskListener} always publish
 * @param orderedUploads   whether the input copies of a call of several chunks go through one
 *                         upload stream per device, a chunk's after another's, each launch
 *                         waiting for its own copies only ({@link UploadLane}); otherwise each
 *                         slot copies on its own stream, and the chunks of a batch share the link,
 *                         so that its first launch waits for nearly all of the batch's inputs. A
 *                         lone chunk (each of the batcher's) always copies on its slot's stream
 */
public record CudaConfig(int streamsPerDevice, int slotTasks, int minChunkTasks, int copyThreads,
                         Duration retryAfter, Sync sync, boolean help, boolean publish, boolean orderedUploads) {

    /**
     * How the host threads that wait for a stream wait: the scheduling flag of each device's
     * primary context ({@code cuDevicePrimaryCtxSetFlags}), set when the backend opens it.
     */
    public enum Sync {
        /** The driver's choice: spin while the process has fewer contexts than cores. */
        AUTO(CUctx_flags.CU_CTX_SCHED_AUTO),
        /** Spin: the lowest wake-up latency, one core per waiting slot. */
        SPIN(CUctx_flags.CU_CTX_SCHED_SPIN),
        /** Spin, yielding the core between polls. */
        YIELD(CUctx_flags.CU_CTX_SCHED_YIELD),
        /** Sleep on a driver primitive: no core while waiting, some microseconds to wake. */
        BLOCKING(CUctx_flags.CU_CTX_SCHED_BLOCKING_SYNC),
        /**
         * Sleep through the first half of the time the slot's recent chunks of the same kernel
         * took on the GPU, then spin ({@link GpuTimeModel}): the core is free for most of the
         * wait, and the wake-up is as prompt as spinning.
         */
        NAP(CUctx_flags.CU_CTX_SCHED_SPIN),
        /**
         * Chosen per call: a bulk call (several chunks) waits as {@link #AUTO} does, and so does a
         * call of one chunk while no other chunk is in flight (a lone caller keeps the spinning
         * wait's latency); a call of one chunk while others are in flight (the batcher's batches
         * under concurrent single calls) sleeps on a blocking-sync event, leaving the core to the
         * callers (on the H100 host JCA signing at
         * 4,096 callers ran 21 to 47 % faster with sleeping waits than with {@link #AUTO}, and one
         * caller's calls kept their latency only while idle devices spin; the batch table lost about
         * 7 % with {@link #BLOCKING} everywhere).
         */
        ADAPTIVE(CUctx_flags.CU_CTX_SCHED_AUTO);

        final int flag;

        Sync(int flag) {
            this.flag = flag;
        }

        /** Whether a slot sleeps after a launch before it waits ({@link #NAP}). */
        boolean naps() {
            return this == NAP;
        }

        /** Whether a call of one chunk sleeps while it waits for the GPU ({@link #ADAPTIVE}). */
        boolean sleepsForLoneChunks() {
            return this == ADAPTIVE;
        }
    }

    /** A configuration with the default waiting ({@link Sync#ADAPTIVE}) and no helping. */
    public CudaConfig(int streamsPerDevice, int slotTasks, int minChunkTasks, int copyThreads, Duration retryAfter) {
        this(streamsPerDevice, slotTasks, minChunkTasks, copyThreads, retryAfter, Sync.ADAPTIVE);
    }

    /** A configuration without helping. */
    public CudaConfig(int streamsPerDevice, int slotTasks, int minChunkTasks, int copyThreads, Duration retryAfter,
                      Sync sync) {
        this(streamsPerDevice, slotTasks, minChunkTasks, copyThreads, retryAfter, sync, false);
    }

    /** A configuration that publishes signatures ({@link #publish}). */
    public CudaConfig(int streamsPerDevice, int slotTasks, int minChunkTasks, int copyThreads, Duration retryAfter,
                      Sync sync, boolean help) {
        this(streamsPerDevice, slotTasks, minChunkTasks, copyThreads, retryAfter, sync, help, true);
    }

    /** A configuration whose uploads are ordered ({@link #orderedUploads}). */
    public CudaConfig(int streamsPerDevice, int slotTasks, int minChunkTasks, int copyThreads, Duration retryAfter,
                      Sync sync, boolean help, boolean publish) {
        this(streamsPerDevice, slotTasks, minChunkTasks, copyThreads, retryAfter, sync, help, publish, true);
    }

    /** This configuration with {@code streams} slots per device. */
    public CudaConfig withStreamsPerDevice(int streams) {
        return new CudaConfig(streams, slotTasks, minChunkTasks, copyThreads, retryAfter, sync, help, publish,
                orderedUploads);
    }

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
        Objects.requireNonNull(sync, "sync");
    }

    /**
     * 32 streams per GPU (fewer where half the GPU's memory cannot hold them), 2048 tasks per slot,
     * chunks of at least 1024, copies on up to 8 threads, retry after 30 s, {@link Sync#ADAPTIVE}
     * waits. A batch of 10,000 goes out as about nine chunks whose copies and kernels overlap
     * (8 streams rather than 4 had raised ML-DSA-44 keygen from 5.80 to 6.58 M ops/s host to
     * host); the batcher's signing batches, whose callers leave as their own tasks end, keep up to
     * 32 launches on the GPU, so that a launch's last rejection loops no longer hold up the next
     * batch (JCA signing at 4,096 callers +20 to +35 % on an H100 over 8 streams;
     * docs/performance.md). With 32 streams the driver is asked for 32 hardware work queues.
     */
    public static CudaConfig defaults() {
        int cores = Runtime.getRuntime().availableProcessors();
        return new CudaConfig(32, 2048, 1024, Math.max(1, Math.min(8, cores)), Duration.ofSeconds(30));
    }

    /**
     * The defaults, overridden by the system properties {@code dilithiumgpu.cuda.streams},
     * {@code .slotTasks}, {@code .minChunkTasks}, {@code .copyThreads}, {@code .retryMillis},
     * {@code .sync} ({@code adaptive}, {@code auto}, {@code spin}, {@code yield}, {@code blocking} or
     * {@code nap}), {@code .help}, {@code .publish} and {@code .orderedUploads} ({@code true} or
     * {@code false}).
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
                Duration.ofMillis(intProperty("retryMillis", (int) d.retryAfter().toMillis())),
                syncProperty(d.sync()),
                booleanProperty("help", d.help()),
                booleanProperty("publish", d.publish()),
                booleanProperty("orderedUploads", d.orderedUploads()));
    }

    private static boolean booleanProperty(String name, boolean fallback) {
        String value = System.getProperty(PREFIX + name);
        if (value == null) {
            return fallback;
        }
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw new IllegalArgumentException(PREFIX + name + " must be true or false, not " + value);
        }
    }

    private static Sync syncProperty(Sync fallback) {
        String value = System.getProperty(PREFIX + "sync");
        if (value == null) {
            return fallback;
        }
        try {
            return Sync.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PREFIX + "sync must be adaptive, auto, spin, yield, blocking or nap, not " + value, e);
        }
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
