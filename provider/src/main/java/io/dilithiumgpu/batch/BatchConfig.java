package io.dilithiumgpu.batch;

import java.util.Objects;
import java.util.Properties;

/**
 * The knobs of the batcher, immutable. Build one with {@link #builder()}, or read them from system
 * properties with {@link #fromSystemProperties()} (which {@link Engines#shared()} does):
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>property</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #BACKEND_PROPERTY}</td><td>{@code auto}</td>
 *       <td>{@code auto}, {@code cuda} or {@code cpu}: see {@link BackendPolicy}</td></tr>
 *   <tr><td>{@value #MAX_SIZE_PROPERTY}</td><td>0</td>
 *       <td>largest batch; 0 means the backend's preferred size for each operation and set</td></tr>
 *   <tr><td>{@value #MAX_DELAY_PROPERTY}</td><td>{@value #DEFAULT_MAX_DELAY_MICROS}</td>
 *       <td>longest a request waits for its batch to fill while the backend is busy, in µs</td></tr>
 *   <tr><td>{@value #QUEUE_CAPACITY_PROPERTY}</td><td>{@value #DEFAULT_QUEUE_CAPACITY}</td>
 *       <td>requests queued (not yet handed to the backend) over all operations and sets;
 *           callers block while it is reached</td></tr>
 *   <tr><td>{@value #MAX_IN_FLIGHT_PROPERTY}</td><td>{@value #DEFAULT_MAX_IN_FLIGHT}</td>
 *       <td>batches the backend runs at once (the next ones form meanwhile); 0 means the
 *           backend's preference ({@code Backend#preferredBatchesInFlight}: the CUDA backend's
 *           streams over all GPUs, 4 on the CPU)</td></tr>
 * </table>
 *
 * <p>The builder also sets what no property does (the benchmarks and tests compare with and
 * without them): {@link Builder#hostBuffers}, {@link Builder#earlyDelivery},
 * {@link Builder#virtualCompletion} (each on by default) and {@link Builder#jmxName}. The README's
 * configuration table lists the properties; docs/batching.md explains how the knobs trade latency
 * for throughput.
 */
public final class BatchConfig {
    public static final String BACKEND_PROPERTY = "dilithiumgpu.backend";
    public static final String MAX_SIZE_PROPERTY = "dilithiumgpu.batch.maxSize";
    public static final String MAX_DELAY_PROPERTY = "dilithiumgpu.batch.maxDelayMicros";
    public static final String QUEUE_CAPACITY_PROPERTY = "dilithiumgpu.batch.queueCapacity";
    public static final String MAX_IN_FLIGHT_PROPERTY = "dilithiumgpu.batch.maxInFlight";

    public static final long DEFAULT_MAX_DELAY_MICROS = 250;
    public static final int DEFAULT_QUEUE_CAPACITY = 8192;
    public static final int DEFAULT_MAX_IN_FLIGHT = 0;

    private final BackendPolicy backend;
    private final int maxSize;
    private final long maxDelayMicros;
    private final int queueCapacity;
    private final int maxInFlight;
    private final boolean hostBuffers;
    private final boolean earlyDelivery;
    private final boolean virtualCompletion;
    private final String jmxName;

    private BatchConfig(Builder b) {
        this.backend = b.backend;
        this.maxSize = b.maxSize;
        this.maxDelayMicros = b.maxDelayMicros;
        this.queueCapacity = b.queueCapacity;
        this.maxInFlight = b.maxInFlight;
        this.hostBuffers = b.hostBuffers;
        this.earlyDelivery = b.earlyDelivery;
        this.virtualCompletion = b.virtualCompletion;
        this.jmxName = b.jmxName;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The configuration given by the system properties, defaults where one is unset. */
    public static BatchConfig fromSystemProperties() {
        return fromProperties(System.getProperties());
    }

    /**
     * The configuration given by {@code props}, defaults where one is unset.
     *
     * @throws IllegalArgumentException when a value does not parse or is out of range, naming the
     *                                  property
     */
    public static BatchConfig fromProperties(Properties props) {
        return builder(props).build();
    }

    /**
     * A builder holding the values of {@code props}, defaults where one is unset, for callers that
     * change a few (as {@link Engines#shared()} adds its MBean name).
     *
     * @throws IllegalArgumentException when a value does not parse or is out of range, naming the
     *                                  property
     */
    public static Builder builder(Properties props) {
        Builder b = builder();
        String backend = props.getProperty(BACKEND_PROPERTY);
        if (backend != null) {
            b.backend(BackendPolicy.parse(backend));
        }
        String maxSize = props.getProperty(MAX_SIZE_PROPERTY);
        if (maxSize != null) {
            b.maxSize((int) parse(MAX_SIZE_PROPERTY, maxSize));
        }
        String maxDelay = props.getProperty(MAX_DELAY_PROPERTY);
        if (maxDelay != null) {
            b.maxDelayMicros(parse(MAX_DELAY_PROPERTY, maxDelay));
        }
        String capacity = props.getProperty(QUEUE_CAPACITY_PROPERTY);
        if (capacity != null) {
            b.queueCapacity((int) parse(QUEUE_CAPACITY_PROPERTY, capacity));
        }
        String inFlight = props.getProperty(MAX_IN_FLIGHT_PROPERTY);
        if (inFlight != null) {
            b.maxInFlight((int) parse(MAX_IN_FLIGHT_PROPERTY, inFlight));
        }
        return b;
    }

    private static long parse(String property, String value) {
        try {
            long v = Long.parseLong(value.strip());
            if (v < 0 || v > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(property + " out of range: " + value);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " is not a number: '" + value + "'", e);
        }
    }

    public BackendPolicy backend() { return backend; }

    /** Largest batch, or 0 for the backend's preferred size per operation and set. */
    public int maxSize() { return maxSize; }

    public long maxDelayMicros() { return maxDelayMicros; }

    public int queueCapacity() { return queueCapacity; }

    public int maxInFlight() { return maxInFlight; }

    /** Whether pooled batches live in the backend's host buffers when it prefers them. */
    public boolean hostBuffers() { return hostBuffers; }

    /** Whether callers get their results as the backend reports their tasks ended, before their batch ends. */
    public boolean earlyDelivery() { return earlyDelivery; }

    /** Whether a finished batch's futures complete on a virtual thread (where the JDK has them). */
    public boolean virtualCompletion() { return virtualCompletion; }

    /** The JMX object name the batcher registers its MBean under, or null for none. */
    public String jmxName() { return jmxName; }

    @Override
    public String toString() {
        return BACKEND_PROPERTY + "=" + backend
                + ", " + MAX_SIZE_PROPERTY + "=" + maxSize
                + ", " + MAX_DELAY_PROPERTY + "=" + maxDelayMicros
                + ", " + QUEUE_CAPACITY_PROPERTY + "=" + queueCapacity
                + ", " + MAX_IN_FLIGHT_PROPERTY + "=" + maxInFlight
                + ", hostBuffers=" + hostBuffers
                + ", earlyDelivery=" + earlyDelivery
                + ", virtualCompletion=" + virtualCompletion;
    }

    /** Starts from the defaults of the table above, with no MBean. */
    public static final class Builder {
        private BackendPolicy backend = BackendPolicy.AUTO;
        private int maxSize;
        private long maxDelayMicros = DEFAULT_MAX_DELAY_MICROS;
        private int queueCapacity = DEFAULT_QUEUE_CAPACITY;
        private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
        private boolean hostBuffers = true;
        private boolean earlyDelivery = true;
        private boolean virtualCompletion = true;
        private String jmxName;

        private Builder() {}

        public Builder backend(BackendPolicy policy) {
            this.backend = Objects.requireNonNull(policy);
            return this;
        }

        /** @param maxSize ≥ 1, or 0 for the backend's preferred size */
        public Builder maxSize(int maxSize) {
            if (maxSize < 0) {
                throw new IllegalArgumentException(MAX_SIZE_PROPERTY + " must be ≥ 0: " + maxSize);
            }
            this.maxSize = maxSize;
            return this;
        }

        /** @param micros ≥ 0; 0 hands every request to the backend as soon as a slot is free */
        public Builder maxDelayMicros(long micros) {
            if (micros < 0 || micros > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(MAX_DELAY_PROPERTY + " out of range: " + micros);
            }
            this.maxDelayMicros = micros;
            return this;
        }

        /** @param capacity ≥ 1 */
        public Builder queueCapacity(int capacity) {
            if (capacity < 1) {
                throw new IllegalArgumentException(QUEUE_CAPACITY_PROPERTY + " must be ≥ 1: " + capacity);
            }
            this.queueCapacity = capacity;
            return this;
        }

        /** @param batches ≥ 1, or 0 for the backend's preference */
        public Builder maxInFlight(int batches) {
            if (batches < 0) {
                throw new IllegalArgumentException(MAX_IN_FLIGHT_PROPERTY + " must be ≥ 0: " + batches);
            }
            this.maxInFlight = batches;
            return this;
        }

        /** Whether pooled batches live in the backend's host buffers when it prefers them (default true). */
        public Builder hostBuffers(boolean use) {
            this.hostBuffers = use;
            return this;
        }

        /** Whether callers get their results as the backend reports their tasks ended (default true). */
        public Builder earlyDelivery(boolean early) {
            this.earlyDelivery = early;
            return this;
        }

        /** Whether a finished batch's futures complete on a virtual thread, where the JDK has them (default true). */
        public Builder virtualCompletion(boolean virtual) {
            this.virtualCompletion = virtual;
            return this;
        }

        /** Registers the MBean under this name when the batcher opens; null for none. */
        public Builder jmxName(String objectName) {
            this.jmxName = objectName;
            return this;
        }

        public BatchConfig build() {
            return new BatchConfig(this);
        }
    }
}
