package io.dilithiumgpu.backend.cuda;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;

import jcuda.driver.CUctx_flags;

/**
 * Sizing, waiting and recovery settings of the CUDA backend, immutable. Build one with
 * {@link #builder()}; {@link #fromSystemProperties()} reads the public knobs,
 * {@value #STREAMS_PROPERTY} and {@value #KEY_CACHE_PROPERTY} (README, Configuration). The other
 * settings are for benchmarks and tests, which set them through the builder.
 */
public final class CudaConfig {
    /** Streams (slots) per GPU, read from a system property. */
    public static final String STREAMS_PROPERTY = "dilithiumgpu.cuda.streams";

    /**
     * Device memory for cached keys ({@link DeviceKeyCache}), per GPU, parameter set and form
     * (private or public keys): {@code auto} (the default: the GPU's memory / 64), a byte count
     * with an optional {@code k}, {@code m} or {@code g} suffix (KiB, MiB, GiB), or 0 for no cache.
     */
    public static final String KEY_CACHE_PROPERTY = "dilithiumgpu.cuda.keyCacheBytes";
    /** {@link #keyCacheBytes()} when the bound follows the GPU's memory. */
    public static final long KEY_CACHE_AUTO = -1;

    /** Pinned blocks are addressed through one {@code ByteBuffer}, so they stay below 2 GiB. */
    private static final long MAX_BLOCK_BYTES = Integer.MAX_VALUE;

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
         * Chosen per call: a bulk call (several chunks) waits as {@link #AUTO} does, and so does a
         * call of one chunk while no other chunk is in flight (a lone caller keeps the spinning
         * wait's latency); a call of one chunk while others are in flight (the batcher's batches
         * under concurrent single calls) sleeps on a blocking-sync event, leaving the cores to
         * the callers.
         */
        ADAPTIVE(CUctx_flags.CU_CTX_SCHED_AUTO);

        final int flag;

        Sync(int flag) {
            this.flag = flag;
        }

        /** Whether a call of one chunk sleeps while it waits for the GPU ({@link #ADAPTIVE}). */
        boolean sleepsForLoneChunks() {
            return this == ADAPTIVE;
        }
    }

    private final int streamsPerDevice;
    private final int slotTasks;
    private final int minChunkTasks;
    private final int copyThreads;
    private final Duration retryAfter;
    private final Sync sync;
    private final List<Integer> devices;
    private final long keyCacheBytes;
    private final boolean wideSigning;

    private CudaConfig(Builder b) {
        this.streamsPerDevice = b.streamsPerDevice;
        this.slotTasks = b.slotTasks;
        this.minChunkTasks = b.minChunkTasks;
        this.copyThreads = b.copyThreads;
        this.retryAfter = b.retryAfter;
        this.sync = b.sync;
        this.devices = b.devices;
        this.keyCacheBytes = b.keyCacheBytes;
        this.wideSigning = b.wideSigning;
    }

    /** A builder that starts from the {@link #defaults()}. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * 32 streams per GPU (fewer where half the GPU's memory cannot hold them), 2048 tasks per
     * slot, chunks of at least 1024, copies on up to 8 threads, retry after 30 s,
     * {@link Sync#ADAPTIVE} waits. A batch of 10,000 goes out as about nine chunks whose copies
     * and kernels overlap; the batcher's signing batches, whose callers leave as their own tasks
     * end, keep up to 32 launches on the GPU, so that a launch's last rejection loops do not hold
     * up the next batch (docs/performance.md). With 32 streams the driver is asked for 32
     * hardware work queues.
     */
    public static CudaConfig defaults() {
        return builder().build();
    }

    /**
     * The defaults with {@value #STREAMS_PROPERTY} from the system properties.
     *
     * @throws IllegalArgumentException when it is not a positive integer, naming the property
     */
    public static CudaConfig fromSystemProperties() {
        return builder(System.getProperties()).build();
    }

    /**
     * A builder holding the defaults and {@value #STREAMS_PROPERTY} and {@value #KEY_CACHE_PROPERTY}
     * of {@code props}, for callers that change more (the benchmarks).
     *
     * @throws IllegalArgumentException when a property's value is not valid, naming it
     */
    public static Builder builder(Properties props) {
        Builder b = builder();
        String streams = props.getProperty(STREAMS_PROPERTY);
        if (streams != null) {
            try {
                b.streamsPerDevice(Integer.parseInt(streams.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(STREAMS_PROPERTY + " is not an integer: '" + streams + "'", e);
            }
        }
        String keyCache = props.getProperty(KEY_CACHE_PROPERTY);
        if (keyCache != null) {
            b.keyCacheBytes(parseBytes(keyCache));
        }
        return b;
    }

    /** {@value #KEY_CACHE_PROPERTY}'s value: {@code auto}, or bytes with an optional k, m or g suffix. */
    static long parseBytes(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (v.equals("auto")) {
            return KEY_CACHE_AUTO;
        }
        long unit = 1;
        if (!v.isEmpty() && "kmg".indexOf(v.charAt(v.length() - 1)) >= 0) {
            unit = 1L << (10 * ("kmg".indexOf(v.charAt(v.length() - 1)) + 1));
            v = v.substring(0, v.length() - 1).strip();
        }
        try {
            long n = Long.parseLong(v);
            if (n < 0) {
                throw new IllegalArgumentException(KEY_CACHE_PROPERTY + " is negative: '" + value + "'");
            }
            return Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(KEY_CACHE_PROPERTY + " is not auto or a byte count (k, m, g "
                    + "suffixes allowed): '" + value + "'", e);
        }
    }

    /**
     * Slots (each a stream, its pinned host block, its device block and a worker thread) per
     * GPU; two or more let the upload, compute and download of consecutive chunks overlap.
     */
    public int streamsPerDevice() { return streamsPerDevice; }

    /**
     * Tasks one slot holds: the largest launch; a slot's pinned block is
     * {@code BatchLayout.capacityBytes(slotTasks)} bytes.
     */
    public int slotTasks() { return slotTasks; }

    /** A batch is split over more slots only while each piece keeps at least this many tasks. */
    public int minChunkTasks() { return minChunkTasks; }

    /** Threads that fill and drain pinned memory for one chunk. */
    public int copyThreads() { return copyThreads; }

    /**
     * How long the backend refuses work after a CUDA error before it reopens the devices; doubled
     * after each failed reopen, up to 16 times.
     */
    public Duration retryAfter() { return retryAfter; }

    /** How a slot's thread waits for its stream. */
    public Sync sync() { return sync; }

    /**
     * The GPUs the backend opens, by the driver's ordinals (numbered as the process sees them,
     * after {@code CUDA_VISIBLE_DEVICES}), in this order; empty: every GPU the driver reports.
     */
    public List<Integer> devices() { return devices; }

    /**
     * Device memory for cached keys per GPU, parameter set and form: {@link #KEY_CACHE_AUTO} (the
     * GPU's memory / 64), or bytes (0: no cache).
     */
    public long keyCacheBytes() { return keyCacheBytes; }

    /**
     * Whether signing chunks on cached keys may give each task a group of warps where the GPU's
     * signing warps would otherwise idle, and a launch that holds a whole one-key call warps that
     * help its last tasks ({@link SigningWidth}; the default), or always one warp a task.
     */
    public boolean wideSigning() { return wideSigning; }

    /** A builder holding this configuration. */
    public Builder toBuilder() {
        return builder().streamsPerDevice(streamsPerDevice).slotTasks(slotTasks).minChunkTasks(minChunkTasks)
                .copyThreads(copyThreads).retryAfter(retryAfter).sync(sync).devices(devices)
                .keyCacheBytes(keyCacheBytes).wideSigning(wideSigning);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CudaConfig c && streamsPerDevice == c.streamsPerDevice && slotTasks == c.slotTasks
                && minChunkTasks == c.minChunkTasks && copyThreads == c.copyThreads
                && retryAfter.equals(c.retryAfter) && sync == c.sync && devices.equals(c.devices)
                && keyCacheBytes == c.keyCacheBytes && wideSigning == c.wideSigning;
    }

    @Override
    public int hashCode() {
        return Objects.hash(streamsPerDevice, slotTasks, minChunkTasks, copyThreads, retryAfter, sync, devices,
                keyCacheBytes, wideSigning);
    }

    @Override
    public String toString() {
        return "streams " + streamsPerDevice + ", slot tasks " + slotTasks + ", min chunk tasks " + minChunkTasks
                + ", copy threads " + copyThreads + ", retry after " + retryAfter.toMillis() + " ms, "
                + sync.name().toLowerCase(Locale.ROOT) + " waits" + (devices.isEmpty() ? "" : ", devices " + devices)
                + ", key cache " + (keyCacheBytes == KEY_CACHE_AUTO ? "auto" : keyCacheBytes + " bytes")
                + (wideSigning ? "" : ", one warp per signature");
    }

    /** Starts from the {@link #defaults()}; each setter checks its argument. */
    public static final class Builder {
        private int streamsPerDevice = 32;
        private int slotTasks = 2048;
        private int minChunkTasks = 1024;
        private int copyThreads = Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors()));
        private Duration retryAfter = Duration.ofSeconds(30);
        private Sync sync = Sync.ADAPTIVE;
        private List<Integer> devices = List.of();
        private long keyCacheBytes = KEY_CACHE_AUTO;
        private boolean wideSigning = true;

        private Builder() {}

        /** Whether cached-key signing may take a group of warps per task ({@link CudaConfig#wideSigning()}). */
        public Builder wideSigning(boolean wide) {
            this.wideSigning = wide;
            return this;
        }

        /** @param bytes per GPU, set and form: ≥ 0 (0: no key cache), or {@link #KEY_CACHE_AUTO} */
        public Builder keyCacheBytes(long bytes) {
            if (bytes < 0 && bytes != KEY_CACHE_AUTO) {
                throw new IllegalArgumentException(KEY_CACHE_PROPERTY + " must be ≥ 0 or auto: " + bytes);
            }
            this.keyCacheBytes = bytes;
            return this;
        }

        /** @param streams ≥ 1 */
        public Builder streamsPerDevice(int streams) {
            if (streams < 1) {
                throw new IllegalArgumentException(STREAMS_PROPERTY + " must be ≥ 1: " + streams);
            }
            this.streamsPerDevice = streams;
            return this;
        }

        /** @param tasks ≥ 1, with a pinned block below 2 GiB */
        public Builder slotTasks(int tasks) {
            if (tasks < 1) {
                throw new IllegalArgumentException("slot tasks must be ≥ 1: " + tasks);
            }
            if (BatchLayout.capacityBytes(tasks) > MAX_BLOCK_BYTES) {
                throw new IllegalArgumentException("slot tasks " + tasks + " make a pinned block over 2 GiB");
            }
            this.slotTasks = tasks;
            return this;
        }

        /** @param tasks ≥ 1 */
        public Builder minChunkTasks(int tasks) {
            if (tasks < 1) {
                throw new IllegalArgumentException("chunk tasks must be ≥ 1: " + tasks);
            }
            this.minChunkTasks = tasks;
            return this;
        }

        /** @param threads ≥ 1 */
        public Builder copyThreads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("copy threads must be ≥ 1: " + threads);
            }
            this.copyThreads = threads;
            return this;
        }

        /** @param delay ≥ 0 */
        public Builder retryAfter(Duration delay) {
            if (delay.isNegative()) {
                throw new IllegalArgumentException("negative retry delay: " + delay);
            }
            this.retryAfter = delay;
            return this;
        }

        public Builder sync(Sync sync) {
            this.sync = Objects.requireNonNull(sync, "sync");
            return this;
        }

        /**
         * @param ordinals distinct device ordinals, each ≥ 0, in the order the backend numbers
         *                 them; empty for every GPU (the default)
         */
        public Builder devices(List<Integer> ordinals) {
            List<Integer> copy = List.copyOf(ordinals);
            for (int ordinal : copy) {
                if (ordinal < 0) {
                    throw new IllegalArgumentException("negative device ordinal: " + ordinal);
                }
            }
            if (new HashSet<>(copy).size() != copy.size()) {
                throw new IllegalArgumentException("a device named twice: " + copy);
            }
            this.devices = copy;
            return this;
        }

        public CudaConfig build() {
            return new CudaConfig(this);
        }
    }
}
