package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction_attribute;
import jcuda.driver.CUmodule;
import jcuda.driver.JCudaDriver;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * One GPU: its primary context, the kernel module loaded into it, the eighteen entry points it
 * launches (three operations × six parameter sets) with their checked launch configurations, the
 * {@link UploadLane} its slots' input copies go through, and the {@link HostCopier} that fills and
 * drains its slots' pinned blocks (one per device, so that the shares of one call that run on
 * several devices at once do not wait for each other's copy threads).
 *
 * <p>Ownership: the context is retained on open and released on {@link #close()}; the module is
 * loaded and unloaded with it. Threads that use the device call {@link #bind(String)} first
 * (CUDA contexts are current per thread).
 */
final class DeviceContext implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DeviceContext.class.getName());

    private final int ordinal;
    private final CUdevice device;
    private final CUcontext context;
    private final String description;
    private final int multiprocessors;
    private CUmodule module;
    private UploadLane uploads;
    private HostCopier copier;
    private final Map<ParameterSet, Map<Operation, Kernel>> kernels = new EnumMap<>(ParameterSet.class);
    /** The key cache's entry points per set; a set the module has none for is absent (its keys go uncached). */
    private final Map<ParameterSet, KeyedKernels> keyedKernels = new EnumMap<>(ParameterSet.class);
    private DeviceKeyCache keyCache;
    /**
     * Device addresses of the host buffers registered with the device set, by their pointer
     * object: looked up once at registration, so that a chunk that reads or writes the caller's
     * records in place makes no driver call to find them.
     */
    private final Map<Pointer, CUdeviceptr> mappedHost = Collections.synchronizedMap(new IdentityHashMap<>());
    private boolean closed;

    private DeviceContext(int ordinal, CUdevice device, CUcontext context, String description, int multiprocessors) {
        this.ordinal = ordinal;
        this.device = device;
        this.context = context;
        this.description = description;
        this.multiprocessors = multiprocessors;
    }

    /**
     * Sets how device {@code ordinal}'s primary context waits ({@code sync}), retains the context,
     * loads {@code fatbin} into it, resolves every entry point and opens the {@link UploadLane}
     * its slots' copies go through and a {@link HostCopier} of {@code copyThreads} threads.
     *
     * @throws CudaLoader.Unavailable when the module or an entry point cannot be used on this device
     * @throws BackendException       on any other CUDA error
     */
    static DeviceContext open(int ordinal, byte[] fatbin, CudaConfig.Sync sync, int copyThreads)
            throws CudaLoader.Unavailable {
        CUdevice device = new CUdevice();
        CudaCall.check("cuDeviceGet(" + ordinal + ")", () -> JCudaDriver.cuDeviceGet(device, ordinal));
        int multiprocessors = attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                "multiprocessor count", ordinal);
        String description = "device " + ordinal + " (" + name(device) + ", compute capability "
                + CudaLoader.computeCapability(device) + ", " + multiprocessors + " multiprocessors)";
        CudaCall.check("cuDevicePrimaryCtxSetFlags(device " + ordinal + ", " + sync + ")",
                () -> JCudaDriver.cuDevicePrimaryCtxSetFlags(device, sync.flag));
        CUcontext context = new CUcontext();
        CudaCall.check("cuDevicePrimaryCtxRetain(device " + ordinal + ")",
                () -> JCudaDriver.cuDevicePrimaryCtxRetain(context, device));
        DeviceContext d = new DeviceContext(ordinal, device, context, description, multiprocessors);
        boolean done = false;
        try {
            d.bind("opening");
            d.module = CudaLoader.loadModule(fatbin, device);
            d.uploads = UploadLane.open("device " + ordinal);
            d.resolveKernels();
            d.copier = new HostCopier(copyThreads);
            done = true;
            return d;
        } finally {
            if (!done) {
                d.close();
            }
        }
    }

    /** Looks up every entry point. */
    private void resolveKernels() throws CudaLoader.Unavailable {
        int sharedOptIn = attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                "opt-in shared memory per block", ordinal);
        for (ParameterSet p : ParameterSet.values()) {
            Map<Operation, Kernel> byOp = new EnumMap<>(Operation.class);
            for (Operation op : Operation.values()) {
                byOp.put(op, resolve(BatchAbi.entryName(p, op), sharedOptIn));
            }
            kernels.put(p, byOp);
            try {
                keyedKernels.put(p, new KeyedKernels(resolve(BatchAbi.expandName(p, true), sharedOptIn),
                        resolve(BatchAbi.expandName(p, false), sharedOptIn),
                        resolve(BatchAbi.keyedName(p, Operation.SIGN), sharedOptIn),
                        resolve(BatchAbi.keyedName(p, Operation.VERIFY), sharedOptIn),
                        resolve(BatchAbi.wideName(p), sharedOptIn), resolve(BatchAbi.helpedName(p), sharedOptIn),
                        slotBytes(BatchAbi.slotBytesName(p, true)), slotBytes(BatchAbi.slotBytesName(p, false))));
            } catch (CudaLoader.Unavailable | IllegalArgumentException e) {
                LOG.log(System.Logger.Level.INFO, "no device key cache for " + p + " on " + description + ": "
                        + e.getMessage());
            }
        }
    }

    /** Reads one {@code __constant__ int32_t} slot size of the module. */
    private int slotBytes(String global) throws CudaLoader.Unavailable {
        CUdeviceptr address = new CUdeviceptr();
        long[] size = new long[1];
        int[] value = new int[1];
        try {
            JCudaDriver.cuModuleGetGlobal(address, size, module, global);
            if (size[0] != 4) {
                throw new CudaLoader.Unavailable(CudaLoader.Reason.MODULE_LOAD, "the fatbin's " + global + " holds "
                        + size[0] + " bytes, the ABI expects 4", null);
            }
            JCudaDriver.cuMemcpyDtoH(Pointer.to(value), address, 4);
        } catch (CudaException e) {
            throw new CudaLoader.Unavailable(CudaLoader.Reason.MODULE_LOAD, "the fatbin's " + global
                    + " cannot be read (" + e.getMessage() + ")", e);
        }
        return value[0];
    }

    private Kernel resolve(String name, int sharedOptIn) throws CudaLoader.Unavailable {
        CudaLoader.Entry entry = CudaLoader.entry(module, name, BatchAbi.CFG_WORDS);
        KernelConfig cfg;
        try {
            cfg = KernelConfig.fromWords(entry.cfg());
        } catch (IllegalArgumentException e) {
            throw new CudaLoader.Unavailable(CudaLoader.Reason.MODULE_LOAD,
                    name + "_cfg is not a valid launch configuration: " + e.getMessage(), e);
        }
        if (cfg.sharedBytes() > sharedOptIn) {
            throw new CudaLoader.Unavailable(CudaLoader.Reason.MODULE_LOAD, name + " needs " + cfg.sharedBytes()
                    + " bytes of shared memory per block; " + description + " offers " + sharedOptIn, null);
        }
        int[] maxThreads = new int[1];
        CudaCall.check("cuFuncGetAttribute(MAX_THREADS_PER_BLOCK, " + name + ")",
                () -> JCudaDriver.cuFuncGetAttribute(maxThreads, CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                        entry.function()));
        if (cfg.threads() > maxThreads[0]) {
            throw new CudaLoader.Unavailable(CudaLoader.Reason.MODULE_LOAD, name + " asks for " + cfg.threads()
                    + " threads per block; its compiled form allows " + maxThreads[0], null);
        }
        if (cfg.needsSharedOptIn()) {
            CudaCall.check("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " + name + ")",
                    () -> JCudaDriver.cuFuncSetAttribute(entry.function(),
                            CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, cfg.sharedBytes()));
        }
        int[] blocksPerSm = new int[1];
        CudaCall.check("cuOccupancyMaxActiveBlocksPerMultiprocessor(" + name + ")",
                () -> JCudaDriver.cuOccupancyMaxActiveBlocksPerMultiprocessor(blocksPerSm, entry.function(),
                        cfg.threads(), cfg.sharedBytes()));
        if (blocksPerSm[0] < 1) {
            throw new CudaLoader.Unavailable(CudaLoader.Reason.MODULE_LOAD, name + " cannot run on "
                    + description + " with " + cfg.threads() + " threads and " + cfg.sharedBytes()
                    + " bytes of shared memory per block", null);
        }
        int resident = cfg.persistent() > 0 ? Math.min(cfg.persistent(), blocksPerSm[0]) : blocksPerSm[0];
        long residentTasks = (long) resident * multiprocessors * cfg.tasksPerBlock();
        return new Kernel(name, entry.function(), cfg, (int) Math.min(residentTasks, Integer.MAX_VALUE));
    }

    private static int attribute(CUdevice device, int attribute, String what, int ordinal) {
        int[] value = new int[1];
        CudaCall.check("cuDeviceGetAttribute(" + what + ", device " + ordinal + ")",
                () -> JCudaDriver.cuDeviceGetAttribute(value, attribute, device));
        return value[0];
    }

    private static String name(CUdevice device) {
        byte[] raw = new byte[256];
        try {
            JCudaDriver.cuDeviceGetName(raw, raw.length, device);
        } catch (RuntimeException e) {
            return "unnamed GPU";
        }
        int end = 0;
        while (end < raw.length && raw[end] != 0) {
            end++;
        }
        return new String(raw, 0, end, StandardCharsets.US_ASCII);
    }

    /** Makes this device's context current on the calling thread. */
    void bind(String purpose) {
        CudaCall.check("cuCtxSetCurrent(device " + ordinal + ", " + purpose + ")",
                () -> JCudaDriver.cuCtxSetCurrent(context));
    }

    /**
     * Looks up and keeps this device's address of registered host memory {@code host}; when the
     * driver maps none, chunks on that memory copy their records instead.
     */
    void mapHost(Pointer host) {
        CUdeviceptr at = new CUdeviceptr();
        try {
            bind("cuMemHostGetDevicePointer");
            CudaCall.check("cuMemHostGetDevicePointer(device " + ordinal + ")",
                    () -> JCudaDriver.cuMemHostGetDevicePointer(at, host, 0));
            mappedHost.put(host, at);
        } catch (BackendException e) {
            LOG.log(System.Logger.Level.DEBUG, "registered host memory not mapped: " + e.getMessage());
        }
    }

    /** Forgets registered host memory {@code host} ({@link #mapHost}). */
    void unmapHost(Pointer host) {
        mappedHost.remove(host);
    }

    /** This device's address of registered host memory {@code host}, or null when it has none. */
    CUdeviceptr mappedHost(Pointer host) {
        return mappedHost.get(host);
    }

    int ordinal() { return ordinal; }
    int multiprocessors() { return multiprocessors; }
    /** For logs: ordinal, name, compute capability, multiprocessors. */
    String description() { return description; }

    /** The lane the slots' input copies go through. */
    UploadLane uploads() {
        return uploads;
    }

    /** The threads that fill and drain this device's slots' pinned blocks. */
    HostCopier copier() {
        return copier;
    }

    Kernel kernel(ParameterSet p, Operation op) {
        return kernels.get(p).get(op);
    }

    /** The key cache's entry points for {@code p}, or null when the module has none. */
    KeyedKernels keyedKernels(ParameterSet p) {
        return keyedKernels.get(p);
    }

    /** The device's key cache, or null when it has none (no keyed entry points, or a bound of 0). */
    DeviceKeyCache keyCache() {
        return keyCache;
    }

    /**
     * Opens the device's key cache of {@code boundBytes} per parameter set and form
     * ({@link CudaConfig#KEY_CACHE_AUTO}: the GPU's memory / {@value DeviceKeyCache#DEFAULT_FRACTION};
     * 0: none), counting into {@code stats}; {@code wideSigning}: {@link CudaConfig#wideSigning()}.
     * Nothing is allocated until a key is admitted.
     */
    void openKeyCache(long boundBytes, boolean wideSigning, CudaStats stats) {
        if (boundBytes == 0 || keyedKernels.isEmpty()) {
            return;
        }
        long bound = boundBytes;
        if (bound == CudaConfig.KEY_CACHE_AUTO) {
            long[] total = new long[1];
            CudaCall.check("cuDeviceTotalMem(device " + ordinal + ")",
                    () -> JCudaDriver.cuDeviceTotalMem(total, device));
            bound = total[0] / DeviceKeyCache.DEFAULT_FRACTION;
        }
        bind("opening the key cache");
        keyCache = DeviceKeyCache.open(this, bound, wideSigning, stats);
    }

    /**
     * How many stream slots of {@code slotTasks} tasks this device holds in at most half its memory
     * (each: a device block and a workspace), between 1 and {@code wanted}: slots are sized for the
     * largest GPUs, and a small one opens fewer rather than fail for want of memory.
     */
    int slotsThatFit(int wanted, int slotTasks) {
        long[] total = new long[1];
        CudaCall.check("cuDeviceTotalMem(device " + ordinal + ")", () -> JCudaDriver.cuDeviceTotalMem(total, device));
        long perSlot = BatchLayout.capacityBytes(slotTasks) + slotWorkspaceBytes(slotTasks);
        return (int) Math.max(1, Math.min(wanted, total[0] / 2 / perSlot));
    }

    /**
     * The workspace of a slot of {@code slotTasks} tasks: that of a launch of as many tasks, or of a
     * launch that holds a whole one-key signing call (more tasks than a slot, on the key cache's
     * signing kernels, whose persistent grid fills the device; {@code ChunkPlan}), whichever is larger.
     */
    long slotWorkspaceBytes(int slotTasks) {
        long bytes = workspaceBytes(slotTasks);
        for (KeyedKernels k : keyedKernels.values()) {
            for (Kernel kernel : new Kernel[] {k.signKeyed(), k.signHelped()}) {
                bytes = Math.max(bytes, kernel.config().workspaceBytes(Integer.MAX_VALUE, multiprocessors));
            }
        }
        return bytes;
    }

    /** The workspace a launch of up to {@code tasks} tasks of any kernel on this device touches. */
    long workspaceBytes(int tasks) {
        long max = 0;
        for (Map<Operation, Kernel> byOp : kernels.values()) {
            for (Kernel k : byOp.values()) {
                max = Math.max(max, k.config().workspaceBytes(tasks, multiprocessors));
            }
        }
        for (KeyedKernels k : keyedKernels.values()) {
            for (Kernel kernel : k.all()) {
                max = Math.max(max, kernel.config().workspaceBytes(tasks, multiprocessors));
            }
        }
        return max;
    }

    /**
     * Unloads the module and releases the primary context (the driver destroys it with the last
     * release, which also recovers from a sticky error). Errors are logged, not thrown: the device
     * may be the reason for closing. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (copier != null) {
            copier.close();
        }
        try {
            JCudaDriver.cuCtxSetCurrent(context);
            if (keyCache != null) {
                keyCache.close();
            }
            if (uploads != null) {
                uploads.close();
            }
            if (module != null) {
                JCudaDriver.cuModuleUnload(module);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "unloading the kernels from " + description + " failed: " + e.getMessage());
        } finally {
            try {
                JCudaDriver.cuDevicePrimaryCtxRelease(device);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "releasing the context of " + description + " failed: " + e.getMessage());
            }
        }
    }
}
