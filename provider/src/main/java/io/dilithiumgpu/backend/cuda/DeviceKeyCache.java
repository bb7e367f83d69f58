package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.core.DestroyedKeys;
import io.dilithiumgpu.core.KeyIdentity;
import io.dilithiumgpu.core.ParameterSet;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One GPU's cache of expanded keys (CACHE_ABI): per parameter set and form (private keys for
 * signing, public keys for verification) a {@link Region}, one {@code cuMemAlloc}'ed array of
 * slots that {@code expand_sk_*} / {@code expand_pk_*} fill and {@code sign_keyed_*} /
 * {@code verify_keyed_*} read, with its {@link KeySlots} policy. {@link KeyedRun} uses it for the
 * launches of one chunk.
 *
 * <p>Keys are identified by {@link KeyIdentity} (SHA-256 of the whole packed key, computed once
 * per key object), never by the tr inside a private key; the policy remembers them by digest
 * alone ({@link KeyDigest}), holding no copy of any key. A region's memory is allocated when its
 * first key is admitted, so a workload that never repeats a key allocates nothing.
 *
 * <p>Wipes (to zero, {@code cuMemsetD8Async}): an evicted slot on the stream of the launch that
 * reuses it, before that launch's expansion; a destroyed key's slot (this cache listens to
 * {@link DestroyedKeys} while open), an invalid key's slot and every region at {@link #close()}
 * on the cache's own stream, waited for before the slot is free again.
 *
 * <p>Thread-safe: the slots' threads share it; a key's {@code destroy()} calls in from any thread.
 */
final class DeviceKeyCache implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DeviceKeyCache.class.getName());
    /** The default bound per set and form: the GPU's memory divided by this. */
    static final int DEFAULT_FRACTION = 64;

    private final DeviceContext device;
    private final long boundBytes;
    private final CudaStats stats;
    /** The stream of the wipes that no launch orders: destroyed and invalid keys, close. */
    private final CUstream wipeStream = new CUstream();
    private final Map<ParameterSet, Region[]> regions = new EnumMap<>(ParameterSet.class);
    /** The device's signing chunks on cached keys: a warp or a group of warps per task. */
    final SigningWidth width;
    private final Consumer<KeyIdentity> onDestroy = this::forget;
    private boolean closed;

    /** One set and form: the slots' device memory and their policy. */
    final class Region {
        final ParameterSet params;
        final boolean secret;
        final KeySlots<KeyDigest> slots;
        final KeyedKernels kernels;
        private final CUdeviceptr base = new CUdeviceptr();
        private boolean allocated;

        Region(ParameterSet params, boolean secret, KeyedKernels kernels) {
            this.params = params;
            this.secret = secret;
            this.kernels = kernels;
            this.slots = new KeySlots<>(kernels.slotBytes(secret), boundBytes);
        }

        /** The slot array (null until allocated). */
        CUdeviceptr base() {
            return base;
        }

        /** Slot s's first byte. */
        CUdeviceptr slot(int s) {
            return base.withByteOffset((long) s * slots.slotBytes());
        }

        DeviceKeyCache cache() {
            return DeviceKeyCache.this;
        }

        /**
         * Allocates and zeroes the slot array at the first admission; the calling thread has the
         * device's context current. When the driver refuses the memory (out of memory, say) the
         * region closes: its keys run uncached from then on.
         *
         * @return whether the slot array is there
         * @throws BackendException when zeroing it fails (the device is in error)
         */
        synchronized boolean allocate(String where) {
            if (allocated) {
                return true;
            }
            long bytes = (long) slots.capacity() * slots.slotBytes();
            try {
                CudaCall.check("cuMemAlloc(key cache " + params + (secret ? " private" : " public") + " keys, "
                        + bytes + " bytes, " + where + ")", () -> JCudaDriver.cuMemAlloc(base, bytes));
            } catch (BackendException e) {
                LOG.log(System.Logger.Level.WARNING, "no device key cache for " + params + (secret ? " private"
                        : " public") + " keys: " + e.getMessage());
                slots.close();
                return false;
            }
            allocated = true;
            CudaCall.check("cuMemsetD8Async(clear key cache, " + where + ")",
                    () -> JCudaDriver.cuMemsetD8Async(base, (byte) 0, bytes, wipeStream));
            CudaCall.check("cuStreamSynchronize(key cache, " + where + ")",
                    () -> JCudaDriver.cuStreamSynchronize(wipeStream));
            return true;
        }

        synchronized boolean allocated() {
            return allocated;
        }

        /** Wipes and frees the slot array; the context is current. */
        synchronized void free(String where) {
            if (!allocated) {
                return;
            }
            allocated = false;
            long bytes = (long) slots.capacity() * slots.slotBytes();
            try {
                CudaCall.check("cuMemsetD8Async(wipe key cache, " + where + ")",
                        () -> JCudaDriver.cuMemsetD8Async(base, (byte) 0, bytes, wipeStream));
                CudaCall.check("cuStreamSynchronize(key cache, " + where + ")",
                        () -> JCudaDriver.cuStreamSynchronize(wipeStream));
            } finally {
                CudaCall.check("cuMemFree(key cache, " + where + ")", () -> JCudaDriver.cuMemFree(base));
            }
        }
    }

    private DeviceKeyCache(DeviceContext device, long boundBytes, boolean wideSigning, CudaStats stats) {
        this.device = device;
        this.boundBytes = boundBytes;
        this.width = new SigningWidth(wideSigning);
        this.stats = stats;
    }

    /**
     * A key cache on {@code device} (whose context is current) of at most {@code boundBytes} per
     * set and form, whose signing chunks may take a group of warps per task ({@code wideSigning}).
     *
     * @throws BackendException when its stream cannot be created
     */
    static DeviceKeyCache open(DeviceContext device, long boundBytes, boolean wideSigning, CudaStats stats) {
        DeviceKeyCache cache = new DeviceKeyCache(device, boundBytes, wideSigning, stats);
        CudaCall.check("cuStreamCreate(key cache, device " + device.ordinal() + ")",
                () -> JCudaDriver.cuStreamCreate(cache.wipeStream, CUstream_flags.CU_STREAM_NON_BLOCKING));
        DestroyedKeys.listen(cache.onDestroy);
        return cache;
    }

    /** The counters every region adds to. */
    CudaStats stats() {
        return stats;
    }

    /**
     * The region of {@code params}' private keys ({@code secret}) or public keys; null when the
     * module has no keyed entry points for the set or the cache is closed.
     */
    synchronized Region region(ParameterSet params, boolean secret) {
        if (closed) {
            return null;
        }
        KeyedKernels kernels = device.keyedKernels(params);
        if (kernels == null) {
            return null;
        }
        Region[] pair = regions.computeIfAbsent(params, p -> new Region[2]);
        int i = secret ? 1 : 0;
        if (pair[i] == null) {
            pair[i] = new Region(params, secret, kernels);
        }
        return pair[i];
    }

    /** Bytes of all regions' slots that hold a key or are being filled. */
    synchronized long bytesHeld() {
        long sum = 0;
        for (Region[] pair : regions.values()) {
            for (Region r : pair) {
                sum += r == null ? 0 : r.slots.bytesHeld();
            }
        }
        return sum;
    }

    /** A private key was destroyed: its slots leave, wiped now or at their last release. */
    private void forget(KeyIdentity id) {
        List<Region> secretRegions = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                return;
            }
            for (Region[] pair : regions.values()) {
                if (pair[1] != null) {
                    secretRegions.add(pair[1]);
                }
            }
        }
        for (Region r : secretRegions) {
            int slot = r.slots.forget(KeyDigest.of(id));
            if (slot >= 0) {
                wipe(r, slot, "destroyed key");
            }
        }
    }

    /**
     * Wipes slot {@code slot} of {@code r} on the cache's stream, waits, and frees it. A failure is
     * logged and the slot stays out of use (never handed out unwiped); the device's next launch
     * then fails and falls back.
     */
    void wipe(Region r, int slot, String why) {
        String where = "key cache, " + why + ", device " + device.ordinal();
        if (!r.allocated()) {
            r.slots.wiped(slot);
            return;
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            try {
                device.bind(where);
                CudaCall.check("cuMemsetD8Async(wipe key slot, " + where + ")",
                        () -> JCudaDriver.cuMemsetD8Async(r.slot(slot), (byte) 0, r.slots.slotBytes(), wipeStream));
                CudaCall.check("cuStreamSynchronize(" + where + ")", () -> JCudaDriver.cuStreamSynchronize(wipeStream));
            } catch (BackendException e) {
                LOG.log(System.Logger.Level.WARNING, "a key slot could not be wiped and stays out of use: "
                        + e.getMessage());
                return;
            }
        }
        r.slots.wiped(slot);
    }

    /**
     * Stops listening for destroyed keys, wipes and frees every region and the stream. Called by
     * the device when it closes, after its slots (no launch is in flight); errors are logged.
     * Idempotent.
     */
    @Override
    public void close() {
        DestroyedKeys.unlisten(onDestroy);
        List<Region> all = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            for (Region[] pair : regions.values()) {
                for (Region r : pair) {
                    if (r != null) {
                        all.add(r);
                    }
                }
            }
        }
        String where = "closing the key cache, device " + device.ordinal();
        for (Region r : all) {
            r.slots.close();
            try {
                r.free(where);
            } catch (BackendException e) {
                LOG.log(System.Logger.Level.WARNING, e.getMessage());
            }
        }
        try {
            CudaCall.check("cuStreamDestroy(" + where + ")", () -> JCudaDriver.cuStreamDestroy(wipeStream));
        } catch (BackendException e) {
            LOG.log(System.Logger.Level.WARNING, e.getMessage());
        }
    }

    /**
     * Copies {@code length} bytes of slot {@code slot} of {@code params}' region out of device
     * memory: the inspection the wipe tests make. Null when the region has no memory.
     */
    byte[] read(ParameterSet params, boolean secret, int slot, int length) {
        Region r = region(params, secret);
        if (r == null || !r.allocated()) {
            return null;
        }
        byte[] out = new byte[length];
        synchronized (this) {
            device.bind("inspecting the key cache");
            CudaCall.check("cuStreamSynchronize(key cache)", () -> JCudaDriver.cuStreamSynchronize(wipeStream));
            CudaCall.check("cuMemcpyDtoH(key cache)",
                    () -> JCudaDriver.cuMemcpyDtoH(jcuda.Pointer.to(out), r.slot(slot), length));
        }
        return out;
    }
}
