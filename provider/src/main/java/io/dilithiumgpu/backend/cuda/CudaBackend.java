package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBatches;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.MessageRecord;
import io.dilithiumgpu.backend.OneKeyRecords;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import jcuda.Pointer;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The {@link Backend} that runs batches as CUDA kernel launches on every GPU of the host, through
 * JCuda's driver API.
 *
 * <p>{@link #open()} opens all devices at once and throws a {@link BackendException} that says
 * why when CUDA cannot be used (no natives, no driver, no device, no fatbin, a module that does
 * not load); its cause is then a {@link CudaLoader.Unavailable} with the {@link CudaLoader.Reason}.
 *
 * <p>Failure policy (see {@link Health}): any CUDA error fails the call in progress with a
 * {@code BackendException} naming the CUresult and the operation, tears all devices down and
 * marks the backend unhealthy. Until the retry delay has passed ({@link CudaConfig#retryAfter()},
 * doubling with each failure in a row), calls are refused at once; the first call after it
 * reopens the devices. The batcher reruns refused and failed batches on the CPU.
 *
 * <p>Ownership: the caller's arrays are read and written only during a call, which returns after
 * every chunk is finished; secrets copied into pinned and device memory are wiped after each
 * launch (see {@link StreamSlot}). Thread safety: any number of threads may call at once; their
 * chunks share the slots.
 */
public final class CudaBackend implements Backend {
    private static final System.Logger LOG = System.getLogger(CudaBackend.class.getName());
    /** The JMX domain and type of every open backend's {@link CudaBackendMXBean}; {@code id} tells them apart. */
    public static final String MBEAN_PATTERN = "io.dilithiumgpu:type=CudaBackend,*";
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final CudaConfig config;
    private final Health health;
    private final CudaStats stats = new CudaStats(this::description);
    private ObjectName mbeanName;
    private final Map<ParameterSet, Map<Operation, Integer>> preferred = new EnumMap<>(ParameterSet.class);
    private DeviceSet devices;
    /** {@link #devices} once its key caches are open, for reads without the lock; null while none are. */
    private volatile DeviceSet opened;
    private String description = "not open";
    private boolean closed;

    CudaBackend(CudaConfig config, LongSupplier nanoClock) {
        this.config = config;
        this.health = new Health(config.retryAfter(), nanoClock);
        stats.keyBytesFrom(this::keyCacheBytes);
    }

    /**
     * Opens every GPU with the configuration of {@link CudaConfig#fromSystemProperties()}.
     *
     * @throws BackendException when CUDA is unavailable or a device fails to open, saying why
     */
    public static CudaBackend open() {
        return open(CudaConfig.fromSystemProperties());
    }

    /**
     * Opens every GPU with {@code config}.
     *
     * @throws BackendException when CUDA is unavailable or a device fails to open, saying why
     */
    public static CudaBackend open(CudaConfig config) {
        CudaBackend backend = new CudaBackend(config, System::nanoTime);
        backend.devices();
        backend.register();
        return backend;
    }

    /** Where this backend's time goes, chunk by chunk (also published over JMX while open). */
    public CudaBackendMXBean metrics() {
        return stats;
    }

    private void register() {
        try {
            ObjectName name = new ObjectName("io.dilithiumgpu:type=CudaBackend,id=" + INSTANCES.incrementAndGet());
            ManagementFactory.getPlatformMBeanServer().registerMBean(stats, name);
            synchronized (this) {
                mbeanName = name;
            }
        } catch (JMException e) {
            LOG.log(System.Logger.Level.DEBUG, "CUDA backend MBean not registered: " + e);
        }
    }

    @Override
    public String name() {
        return "cuda";
    }

    /** The devices in use and their slots, or why there are none, for logs. */
    public synchronized String description() {
        return description;
    }

    /** One description per GPU in use (name, compute capability, memory); empty while none is open. */
    public synchronized List<String> deviceDescriptions() {
        return devices == null ? List.of() : devices.deviceDescriptions();
    }

    /** The devices now open, or null: for inspection by tests. */
    synchronized DeviceSet openDevices() {
        return devices;
    }

    /** Whether the backend runs batches now (false while it waits to retry after a failure). */
    public boolean healthy() {
        return health.healthy();
    }

    @Override
    public synchronized int preferredBatchSize(ParameterSet params, Operation op) {
        return preferred.get(params).get(op);
    }

    /** One batch in flight per stream slot of every GPU, so each stream has a batch to run. */
    @Override
    public synchronized int preferredBatchesInFlight() {
        return devices != null ? devices.slots().size() : config.streamsPerDevice();
    }

    /**
     * Runs the records as kernel launches. Records in this backend's {@link PinnedBuffer}s are
     * copied straight between them and the device, and signing on them has the kernels write the
     * signatures and statuses into host memory, each status after its signature, so that the
     * records' listener is told of each task as its status appears (a slot polls while the launch
     * runs). Records in other host buffers go through heap copies ({@link HostBatches}); heap
     * records through the slots' own pinned blocks.
     *
     * <p>Key caches ({@link BatchRecords#withCaches}) name each task's key object: signing and
     * verification chunks then use each GPU's device key cache ({@code DeviceKeyCache}): a key seen
     * before (or held twice by one chunk) is expanded once into device memory, and later tasks of
     * it upload only μ, rnd or the signature; signing on them in this backend's pinned buffers is
     * published and tells the listener of each task as it ends, as without caches. Records without
     * caches run as before.
     */
    @Override
    public void run(BatchRecords records) {
        if (records.count() == 0) {
            return;
        }
        // One task of one-key records is a task with its own key record: its chunk cannot tell them apart.
        boolean keyed = records.count() > 1 && keyedEverywhere(records);
        if (records.messages() && !keyed) {
            MessageRecord.runOnMu(this, records);  // only the keyed entry points hash messages
            return;
        }
        if (records.oneKey() && !keyed) {
            OneKeyRecords.runExpanded(this, records);
            return;
        }
        if (records.inHost()) {
            if (!runPinned(records)) {
                HostBatches.run(this, records);
            }
            return;
        }
        byte[][] arrays = new byte[records.fields() + 1][];
        for (int f = 0; f < records.fields(); f++) {
            arrays[f] = records.array(f);
        }
        arrays[records.fields()] = records.status();
        DeviceSet set = devices();
        try {
            set.run(records.params(), records.op(), records.count(), arrays, null, null, null, keys(records),
                    records.keySources(), records.messages());
        } catch (BackendException e) {
            failed(set, e);
            throw e;
        }
    }

    /**
     * Host memory page-locked for this backend's devices: calls on such buffers copy the records
     * straight between them and the device, skipping the slots' own pinned staging (two copies
     * through host memory fewer per record). Buffers stay valid across a reopen after a failure;
     * the next call registers them again.
     */
    @Override
    public boolean prefersHostBuffers() {
        return true;
    }

    @Override
    public HostBuffer allocateHost(long bytes) {
        PinnedBuffer buffer = new PinnedBuffer(this, bytes);
        try {
            buffer.pointerIn(devices());
        } catch (BackendException e) {
            LOG.log(System.Logger.Level.DEBUG, "host buffer not page-locked yet (its first call tries again): "
                    + e.getMessage());
        }
        return buffer;
    }

    /**
     * Runs records whose buffers are all this backend's {@link PinnedBuffer}s straight from them.
     *
     * @return false, having run nothing, when a buffer is not this backend's or cannot be
     *         registered with the open devices: the caller then copies through arrays
     */
    private boolean runPinned(BatchRecords records) {
        int fields = records.fields();
        // A one-key batch's key (field 0) is its handle's record on the heap.
        int from = records.oneKey() ? 1 : 0;
        for (int f = from; f < fields; f++) {
            if (!(records.host(f) instanceof PinnedBuffer pinned && pinned.ownedBy(this))) {
                return false;
            }
        }
        DeviceSet set = devices();
        Pointer[] pointers = new Pointer[fields + 1];
        ByteBuffer[] views = new ByteBuffer[fields + 1];
        try {
            for (int f = from; f < fields; f++) {
                pointers[f] = ((PinnedBuffer) records.host(f)).pointerIn(set);
                views[f] = records.host(f).buffer();
            }
        } catch (BackendException e) {
            LOG.log(System.Logger.Level.WARNING, "host buffers not page-locked, copying through arrays: "
                    + e.getMessage());
            return false;
        }
        byte[][] arrays = new byte[fields + 1][];
        arrays[fields] = records.status();
        arrays[0] = records.oneKey() ? records.array(0) : null;
        try {
            set.run(records.params(), records.op(), records.count(), arrays, pointers, views, records.listener(),
                    keys(records), records.keySources(), records.messages());
        } catch (BackendException e) {
            failed(set, e);
            throw e;
        }
        return true;
    }

    /**
     * True for signing and verification of a set whose keyed entry points every open device has:
     * one-key records of it run there, and their kernels hash message records themselves. Reads
     * the devices as last opened, without opening them (callers ask on every call).
     */
    @Override
    public boolean hashesMessages(ParameterSet params, Operation op) {
        DeviceSet set = opened;
        return set != null && op != Operation.KEYGEN && set.keyedEverywhere(params);
    }

    /**
     * Whether every open device has a key cache with the keyed entry points of the records' set,
     * which one-key records need (their tasks carry no key record of their own).
     */
    private boolean keyedEverywhere(BatchRecords records) {
        return devices().keyedEverywhere(records.params());
    }

    /** The records' key objects, one per task (one for all in one-key records), or null. */
    private static Object[] keys(BatchRecords records) {
        return switch (records.op()) {
            case SIGN -> records.privateKeyCaches();
            case VERIFY -> records.publicKeyCaches();
            case KEYGEN -> null;
        };
    }

    /** Bytes the open devices' key caches hold. */
    private long keyCacheBytes() {
        DeviceSet set = openDevices();
        if (set == null) {
            return 0;
        }
        return set.slots().stream().map(StreamSlot::device).distinct().map(DeviceContext::keyCache)
                .filter(java.util.Objects::nonNull).mapToLong(DeviceKeyCache::bytesHeld).sum();
    }

    /** The open devices; opens them if none are and the retry delay allows. */
    private synchronized DeviceSet devices() {
        if (closed) {
            throw new BackendException("CUDA backend closed");
        }
        if (devices != null) {
            return devices;
        }
        health.checkMayOpen();
        try {
            devices = DeviceSet.open(config, stats);
            openKeyCaches(devices);
        } catch (CudaLoader.Unavailable e) {
            BackendException failure = new BackendException("CUDA unavailable (" + e.reason() + "): "
                    + e.getMessage(), e);
            health.markFailed(failure);
            description = failure.getMessage();
            throw failure;
        } catch (BackendException e) {
            health.markFailed(e);
            description = "failed to open: " + e.getMessage();
            throw e;
        }
        health.markHealthy();
        opened = devices;
        description = devices.description();
        for (ParameterSet p : ParameterSet.values()) {
            Map<Operation, Integer> byOp = new EnumMap<>(Operation.class);
            for (Operation op : Operation.values()) {
                byOp.put(op, devices.preferredBatchSize(p, op));
            }
            preferred.put(p, byOp);
        }
        LOG.log(System.Logger.Level.INFO, "CUDA backend open: " + description);
        return devices;
    }

    /** Opens each device's key cache; on failure closes {@code set} and throws. */
    private void openKeyCaches(DeviceSet set) {
        try {
            for (DeviceContext device : set.slots().stream().map(StreamSlot::device).distinct().toList()) {
                device.openKeyCache(config.keyCacheBytes(), config.wideSigning(), stats);
            }
            set.keyCachesOpened();
        } catch (RuntimeException e) {
            set.close();
            throw e instanceof BackendException b ? b : new BackendException("key cache: " + e, e);
        }
    }

    /** Marks the backend unhealthy and tears {@code set} down, unless another failure already did. */
    private void failed(DeviceSet set, BackendException cause) {
        synchronized (this) {
            if (devices != set) {
                return;
            }
            devices = null;
            opened = null;
            health.markFailed(cause);
            description = "unhealthy after: " + cause.getMessage();
        }
        LOG.log(System.Logger.Level.WARNING, "CUDA backend failed and closes its devices: " + cause.getMessage());
        set.close(new BackendException("CUDA backend closed after a failure: " + cause.getMessage(), cause));
    }

    /** Frees all devices; later calls throw {@link BackendException}. Idempotent. */
    @Override
    public void close() {
        DeviceSet set;
        ObjectName name;
        synchronized (this) {
            closed = true;
            set = devices;
            devices = null;
            opened = null;
            description = "closed";
            name = mbeanName;
            mbeanName = null;
        }
        if (name != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
            } catch (JMException e) {
                LOG.log(System.Logger.Level.DEBUG, "CUDA backend MBean " + name + " already gone: " + e);
            }
        }
        if (set != null) {
            set.close();
        }
    }
}
