package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import jcuda.CudaException;
import jcuda.NativePointerObject;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;

import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One stream of one GPU with the memory it owns (the paper's memory pool, §4.4): a pinned host
 * block and a device block of {@code BatchLayout.capacityBytes(slotTasks)} bytes each, the
 * scratch words and a workspace sized from the kernels' configurations (one slice per worker
 * that a launch of {@code slotTasks} tasks can have). All are allocated once
 * and reused by every launch; the slot's worker thread is its only user.
 *
 * <p>A launch: the caller's records are packed straight into the pinned block, uploaded with one
 * copy (through the device's {@link UploadLane} when the call has several chunks), the status
 * bytes set to 0xFF and the scratch words to 0, the kernel launched, the outputs downloaded with
 * one copy, the stream synchronised, every status checked and the outputs unpacked. Secrets (see
 * {@link BatchLayout}) are wiped from the pinned block and the device block in {@code finally},
 * whatever happened. The kernels wipe the workspace themselves: each worker zeroes its slice and
 * its shared memory before it exits (kernels-cuda schedule.cuh), so the slot clears the workspace
 * only after a failure, when a launch may not have run to its end.
 *
 * <p>Pinned secrets are wiped where the host would touch them anyway, off the slot's critical
 * path: secret inputs (private keys, rnd, seeds) as soon as their upload has completed, while the
 * kernel runs; secret outputs (generated private keys) part by part as they are copied out, while
 * those cache lines are hot. The {@code finally} then wipes only device memory, unless the chunk
 * failed (then the pinned block's secrets are wiped again, whole).
 *
 * <p>The device wipes are queued on the slot's stream behind the chunk's work and not waited
 * for: the slot's next work on that stream runs after them, and its next upload (on the device's
 * {@link UploadLane}, another stream) waits for their event ({@link #wiped}). So neither the caller
 * nor the slot's next chunk waits for a wipe. A wipe that faults leaves the context in error, and
 * the slot's next call fails and falls back. After a failure the wipes are waited for.
 *
 * <p>A signing chunk on registered memory runs <em>published</em> ({@link Chunk#publish}): the
 * kernel writes each signature straight into the caller's mapped host memory and then, after a
 * system-scope fence, its status into the slot's mapped pinned block; nothing is downloaded. With
 * a {@link Chunk#early} listener the slot polls those status bytes while the launch runs and tells
 * the listener of each task as it ends, so that a caller gets its signature after its own
 * rejection loop, not after the launch's longest one.
 */
final class StreamSlot implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(StreamSlot.class.getName());
    private static final byte[] ZEROS = new byte[1 << 16];
    /** Status the host writes before a launch; no kernel writes it, so it marks a skipped task. */
    private static final byte UNWRITTEN = (byte) 0xFF;
    /**
     * Between two scans of a published chunk's status bytes: an eighth of the time since the
     * launch, within these bounds. Each scan wakes the slot's thread, which on a host busy with
     * thousands of callers costs more than the few tens of µs a task's caller may wait for it
     * (a launch of the batcher's lasts milliseconds).
     */
    private static final long MIN_POLL_NANOS = 20_000;
    private static final long MAX_POLL_NANOS = 200_000;
    /** Between two queries of whether a published chunk's launch has ended (each a driver call). */
    private static final long QUERY_NANOS = 2_000_000;
    private static final String NOT_READY = CUresult.stringFor(CUresult.CUDA_ERROR_NOT_READY);

    private final DeviceContext device;
    private final int index;
    private final HostCopier copier;
    private final long blockBytes;
    private final long workspaceBytes;
    private final CUstream stream = new CUstream();
    /** Held while a chunk runs and its memories are wiped; {@link #read} waits for it. */
    private final ReentrantLock busy = new ReentrantLock();
    private final Pointer hostBlock = new Pointer();
    /** {@link #hostBlock} in the device's address space: published chunks' statuses go there. */
    private final CUdeviceptr hostBlockMapped = new CUdeviceptr();
    /** Recorded after a published chunk's launch: whether the launch has ended. */
    private final CUevent launchEnded = new CUevent();
    /** Which tasks of a published chunk have been reported. */
    private final boolean[] reported;
    private final CUdeviceptr deviceBlock = new CUdeviceptr();
    private final CUdeviceptr scratch = new CUdeviceptr();
    private final CUdeviceptr workspace = new CUdeviceptr();
    /** Recorded after each upload: secret inputs can leave the pinned block once it completes. */
    private final CUevent uploaded = new CUevent();
    /** {@link #uploaded} and the end of a chunk's work for chunks that sleep while they wait: blocking-sync events. */
    private final CUevent uploadedSleeping = new CUevent();
    private final CUevent finishedSleeping = new CUevent();
    /** Recorded after a chunk's device wipes: the slot's next upload waits for it ({@link #wipePending}). */
    private final CUevent wiped = new CUevent();
    /** Whether wipes were queued after {@link #wiped} was last waited for by an upload on another stream. */
    private boolean wipePending;
    private final boolean sleeper;
    private boolean eventCreated;
    private boolean sleepEventsCreated;
    private boolean streamCreated;
    private boolean hostAllocated;
    private boolean deviceAllocated;
    private boolean scratchAllocated;
    private boolean workspaceAllocated;
    private ByteBuffer host;
    private boolean closed;

    private StreamSlot(DeviceContext device, int index, HostCopier copier, CudaConfig.Sync sync, int slotTasks,
                       long blockBytes, long workspaceBytes) {
        this.device = device;
        this.index = index;
        this.reported = new boolean[slotTasks];
        this.copier = copier;
        this.sleeper = sync.sleepsForLoneChunks();
        this.blockBytes = blockBytes;
        this.workspaceBytes = workspaceBytes;
    }

    /**
     * Creates the stream and allocates the slot's memory on {@code device}.
     *
     * @param slotTasks the most tasks one launch holds
     * @param sync      how the worker waits: it sleeps through chunks marked {@link Chunk#sleep}
     *                  under {@link CudaConfig.Sync#ADAPTIVE}
     * @throws BackendException when a CUDA call fails (typically CUDA_ERROR_OUT_OF_MEMORY)
     */
    static StreamSlot open(DeviceContext device, int index, int slotTasks, HostCopier copier, CudaConfig.Sync sync) {
        long blockBytes = BatchLayout.capacityBytes(slotTasks);
        long workspaceBytes = Math.max(BatchLayout.ALIGNMENT, device.workspaceBytes(slotTasks));
        StreamSlot s = new StreamSlot(device, index, copier, sync, slotTasks, blockBytes, workspaceBytes);
        boolean done = false;
        try {
            s.allocate();
            done = true;
            return s;
        } finally {
            if (!done) {
                s.close();
            }
        }
    }

    private void allocate() {
        String where = where("allocating");
        device.bind(where);
        CudaCall.check("cuStreamCreate (" + where + ")",
                () -> JCudaDriver.cuStreamCreate(stream, CUstream_flags.CU_STREAM_NON_BLOCKING));
        streamCreated = true;
        CudaCall.check("cuMemHostAlloc(" + blockBytes + " bytes, " + where + ")",
                () -> JCudaDriver.cuMemHostAlloc(hostBlock, blockBytes, JCudaDriver.CU_MEMHOSTALLOC_DEVICEMAP));
        hostAllocated = true;
        host = hostBlock.getByteBuffer(0, blockBytes);
        CudaCall.check("cuMemHostGetDevicePointer(" + where + ")",
                () -> JCudaDriver.cuMemHostGetDevicePointer(hostBlockMapped, hostBlock, 0));
        CudaCall.check("cuMemAlloc(" + blockBytes + " bytes, " + where + ")",
                () -> JCudaDriver.cuMemAlloc(deviceBlock, blockBytes));
        deviceAllocated = true;
        CudaCall.check("cuMemAlloc(scratch, " + where + ")",
                () -> JCudaDriver.cuMemAlloc(scratch, 4L * BatchAbi.SCRATCH_WORDS));
        scratchAllocated = true;
        CudaCall.check("cuMemAlloc(workspace " + workspaceBytes + " bytes, " + where + ")",
                () -> JCudaDriver.cuMemAlloc(workspace, workspaceBytes));
        workspaceAllocated = true;
        CudaCall.check("cuEventCreate(" + where + ")",
                () -> JCudaDriver.cuEventCreate(uploaded, CUevent_flags.CU_EVENT_DISABLE_TIMING));
        CudaCall.check("cuEventCreate(" + where + ")",
                () -> JCudaDriver.cuEventCreate(launchEnded, CUevent_flags.CU_EVENT_DISABLE_TIMING));
        CudaCall.check("cuEventCreate(" + where + ")",
                () -> JCudaDriver.cuEventCreate(wiped, CUevent_flags.CU_EVENT_DISABLE_TIMING));
        eventCreated = true;
        if (sleeper) {
            int flags = CUevent_flags.CU_EVENT_DISABLE_TIMING | CUevent_flags.CU_EVENT_BLOCKING_SYNC;
            CudaCall.check("cuEventCreate(blocking, " + where + ")",
                    () -> JCudaDriver.cuEventCreate(uploadedSleeping, flags));
            CudaCall.check("cuEventCreate(blocking, " + where + ")",
                    () -> JCudaDriver.cuEventCreate(finishedSleeping, flags));
            sleepEventsCreated = true;
        }
        zero(host, 0, blockBytes);
        CudaCall.check("cuMemsetD8Async(clear block, " + where + ")",
                () -> JCudaDriver.cuMemsetD8Async(deviceBlock, (byte) 0, blockBytes, stream));
        CudaCall.check("cuMemsetD8Async(clear workspace, " + where + ")",
                () -> JCudaDriver.cuMemsetD8Async(workspace, (byte) 0, workspaceBytes, stream));
        CudaCall.check("cuStreamSynchronize(" + where + ")", () -> JCudaDriver.cuStreamSynchronize(stream));
    }

    /** The memories of a slot, for {@link #read}. */
    enum Memory { HOST_BLOCK, DEVICE_BLOCK, WORKSPACE }

    /**
     * Copies {@code length} bytes at {@code offset} out of one of the slot's memories: the
     * inspection the wipe tests make. Waits until the slot is idle and, for device memory, until
     * its stream has run the wipes queued on it: a chunk's caller has its outputs before then.
     */
    byte[] read(Memory memory, long offset, int length) {
        busy.lock();
        try {
            return readIdle(memory, offset, length);
        } finally {
            busy.unlock();
        }
    }

    private byte[] readIdle(Memory memory, long offset, int length) {
        byte[] out = new byte[length];
        if (memory == Memory.HOST_BLOCK) {
            host.duplicate().get(Math.toIntExact(offset), out, 0, length);
            return out;
        }
        CUdeviceptr base = memory == Memory.DEVICE_BLOCK ? deviceBlock : workspace;
        String where = where("inspecting");
        device.bind(where);
        CudaCall.check("cuStreamSynchronize(" + where + ")", () -> JCudaDriver.cuStreamSynchronize(stream));
        CudaCall.check("cuMemcpyDtoH(" + where + ")",
                () -> JCudaDriver.cuMemcpyDtoH(Pointer.to(out), base.withByteOffset(offset), length));
        return out;
    }

    DeviceContext device() {
        return device;
    }

    /**
     * Claims the slot for the calling thread if nobody uses it, for a caller that runs a chunk
     * itself ({@link #launch} and {@link #finish} from the same thread); {@link #unclaim} gives it
     * back. The slot's worker, should it take a chunk meanwhile, waits.
     */
    boolean tryClaim() {
        return busy.tryLock();
    }

    void unclaim() {
        busy.unlock();
    }

    /**
     * Runs one chunk as one launch on this slot's stream and writes its outputs into the caller's
     * arrays. Must be called from one thread at a time (the slot's worker).
     *
     * <p>{@code outputsReady} runs as soon as the outputs are in the caller's arrays, before the
     * slot's device wipes are queued (they run after this method returns, see the class comment).
     * An exception after {@code outputsReady} comes from queueing them: the outputs stand, but the
     * device is in error (its next call fails and falls back).
     *
     * @throws BackendException on a CUDA error, or when the kernel leaves a task without a status
     *                          its operation allows; the outputs are then unspecified
     */
    void execute(Chunk c, CudaStats stats, Runnable outputsReady) {
        busy.lock();
        try {
            finish(launch(c), stats, outputsReady);
        } finally {
            busy.unlock();
        }
    }

    /**
     * A chunk launched on this slot and not yet finished: what {@link #finish} needs of it.
     * Belongs to the thread that holds the slot.
     */
    final class Launch {
        final Chunk c;
        final Kernel kernel;
        final BatchLayout layout;
        final String where;
        final boolean direct;
        final CUevent uploadDone;
        final long started;
        /** When the chunk's inputs were in the pinned block (the launch's start, for records in registered memory). */
        long packed;
        /** Where a published chunk's kernel writes its outputs; null when they are downloaded. */
        CUdeviceptr[] published;
        /** When the chunk's uploads, launch and download had been submitted. */
        long submitted;

        private Launch(Chunk c, long started) {
            this.c = c;
            this.started = started;
            this.packed = started;
            this.kernel = device.kernel(c.params, c.op);
            this.layout = BatchLayout.of(c.params, c.op, c.count);
            this.where = where(kernel.name() + ", tasks " + c.first + ".." + (c.first + c.count - 1));
            this.direct = c.pinned != null;
            this.uploadDone = c.sleep ? uploadedSleeping : uploaded;
        }
    }

    /**
     * The first half of {@link #execute}, for a caller that holds the slot ({@link #tryClaim}) and
     * launches several chunks before it waits for any: uploads chunk {@code c}'s inputs, launches
     * its kernel and, unless it is published, queues the download of its outputs. On failure the
     * slot's secrets are wiped before the exception leaves.
     *
     * @throws BackendException on a CUDA error
     */
    Launch launch(Chunk c) {
        Launch l = new Launch(c, System.nanoTime());
        try {
            device.bind(l.where);
            l.published = l.direct && c.publish ? mapOutputs(c, l.layout, l.where) : null;
            if (l.direct) {
                uploadDirect(c, l.layout, l.uploadDone, l.where, l.published == null);
            } else {
                pack(c, l.layout);
                l.packed = System.nanoTime();
                upload(c, l.layout, l.uploadDone, l.where);
            }
            if (l.published != null) {
                fill(host, l.layout.status().offset(), c.count, UNWRITTEN);
            }
            launch(l.kernel, l.layout, l.published, l.where);
            if (l.published == null) {
                if (l.direct) {
                    downloadDirect(c, l.layout, l.where);
                } else {
                    download(l.layout, l.where);
                }
            }
            l.submitted = System.nanoTime();
            return l;
        } catch (RuntimeException | Error e) {
            if (l.layout.hasSecrets()) {
                wipe(l.layout, l.kernel, l.where, e, c.sleep);
            }
            throw e;
        }
    }

    /**
     * The second half of {@link #execute}, on the thread that launched {@code l} and still holds
     * the slot: waits for the stream (telling an early listener of each task as it ends), checks
     * every status, delivers the outputs, runs {@code outputsReady}, and wipes the slot's secrets
     * whatever happened.
     *
     * @throws BackendException as {@link #execute} does
     */
    void finish(Launch l, CudaStats stats, Runnable outputsReady) {
        Chunk c = l.c;
        BatchLayout layout = l.layout;
        String where = l.where;
        Throwable failure = null;
        long computed = l.packed;
        long unpacked = l.packed;
        try {
            device.bind(where);
            if (l.published != null && c.early != null) {
                CudaCall.check("cuEventRecord(launch ended, " + where + ")",
                        () -> JCudaDriver.cuEventRecord(launchEnded, stream));
                stats.toldEarly(reportAsTasksEnd(c, layout, where));
            }
            if (layout.hasSecretInputs() && !l.direct) {
                CudaCall.check("cuEventSynchronize(upload, " + where + ")",
                        () -> JCudaDriver.cuEventSynchronize(l.uploadDone));
                zeroHostRegions(layout, true);
            }
            awaitStream(c.sleep, where);
            computed = System.nanoTime();
            checkStatus(c, layout, l.kernel);
            if (l.direct) {
                unpackDirect(c, layout);
            } else {
                unpack(c, layout);
            }
            unpacked = System.nanoTime();
            outputsReady.run();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            long wipeStart = System.nanoTime();
            if (layout.hasSecrets()) {
                wipe(layout, l.kernel, where, failure, c.sleep);
            }
            if (failure == null) {
                stats.chunkRan(c.count, l.started - c.queuedNanos, l.packed - l.started, computed - l.packed,
                        l.submitted - l.packed, unpacked - computed, System.nanoTime() - wipeStart, c.sleep);
            }
        }
    }

    private void pack(Chunk c, BatchLayout layout) {
        List<BatchLayout.Region> regions = layout.regions();
        copier.forEachPart(c.count, layout.inputBytes() / c.count, (from, to) -> {
            ByteBuffer h = host.duplicate();
            for (int r = 0; r < regions.size(); r++) {
                BatchLayout.Region region = regions.get(r);
                if (region.input()) {
                    int size = region.recordBytes();
                    h.put(Math.toIntExact(region.offset() + (long) from * size), c.arrays[r],
                            (c.first + from) * size, (to - from) * size);
                }
            }
        });
    }

    /**
     * Waits for all work queued on the stream: spinning or not as the context's scheduling says,
     * or, for a chunk that sleeps, on a blocking-sync event recorded now.
     */
    private void awaitStream(boolean sleep, String where) {
        if (sleep) {
            CudaCall.check("cuEventRecord(finished, " + where + ")",
                    () -> JCudaDriver.cuEventRecord(finishedSleeping, stream));
            CudaCall.check("cuEventSynchronize(finished, " + where + ")",
                    () -> JCudaDriver.cuEventSynchronize(finishedSleeping));
        } else {
            CudaCall.check("cuStreamSynchronize (" + where + ")", () -> JCudaDriver.cuStreamSynchronize(stream));
        }
    }

    private void upload(Chunk c, BatchLayout layout, CUevent done, String where) {
        submitCopies(on -> CudaCall.check("cuMemcpyHtoDAsync(" + layout.inputBytes() + " bytes, " + where + ")",
                () -> JCudaDriver.cuMemcpyHtoDAsync(deviceBlock, hostBlock, layout.inputBytes(), on)), c.ordered,
                done, where);
        resetStatusAndScratch(layout, where, true);
    }

    /**
     * Uploads each input region of a chunk on {@link PinnedBuffer}s straight from the caller's
     * memory; {@code statusOnDevice}: whether the kernel writes the status bytes into the device
     * block (not when the chunk is published: they go to the slot's mapped pinned block).
     */
    private void uploadDirect(Chunk c, BatchLayout layout, CUevent done, String where, boolean statusOnDevice) {
        List<BatchLayout.Region> regions = layout.regions();
        submitCopies(on -> {
            for (int r = 0; r < regions.size(); r++) {
                BatchLayout.Region region = regions.get(r);
                if (region.input()) {
                    long bytes = region.bytes(c.count);
                    Pointer from = c.pinned[r].withByteOffset((long) c.first * region.recordBytes());
                    CudaCall.check("cuMemcpyHtoDAsync(" + region.name() + ", " + bytes + " bytes, " + where + ")",
                            () -> JCudaDriver.cuMemcpyHtoDAsync(deviceBlock.withByteOffset(region.offset()), from,
                                    bytes, on));
                }
            }
        }, c.ordered, done, where);
        resetStatusAndScratch(layout, where, statusOnDevice);
    }

    /**
     * Submits a chunk's input copies through the device's {@link UploadLane} when the chunk is
     * {@code ordered}, after this slot's last wipes and with this slot's stream waiting for them,
     * or else (or where the device has no lane) on that stream, after its wipes in stream order;
     * {@code done} is recorded after them either way.
     */
    private void submitCopies(UploadLane.Copies copies, boolean ordered, CUevent done, String where) {
        if (ordered) {
            UploadLane lane = device.uploads();
            lane.upload(wipePending ? wiped : null, copies, done, stream, where);
            wipePending = false;
        } else {
            copies.submit(stream);
            CudaCall.check("cuEventRecord(upload, " + where + ")", () -> JCudaDriver.cuEventRecord(done, stream));
        }
    }

    /**
     * Marks the chunk's status bytes in the device block unwritten (when it has them there) and
     * zeroes the scratch words.
     */
    private void resetStatusAndScratch(BatchLayout layout, String where, boolean statusOnDevice) {
        if (statusOnDevice) {
            BatchLayout.Region status = layout.status();
            CudaCall.check("cuMemsetD8Async(status, " + where + ")",
                    () -> JCudaDriver.cuMemsetD8Async(deviceBlock.withByteOffset(status.offset()), UNWRITTEN,
                            layout.tasks(), stream));
        }
        CudaCall.check("cuMemsetD32Async(scratch, " + where + ")",
                () -> JCudaDriver.cuMemsetD32Async(scratch, 0, BatchAbi.SCRATCH_WORDS, stream));
    }

    /**
     * The device addresses a published chunk's kernel writes its outputs to: the caller's
     * registered records, mapped, and the status bytes in the slot's mapped pinned block. Null
     * when the driver maps no address for the caller's memory: the chunk then runs unpublished.
     */
    private CUdeviceptr[] mapOutputs(Chunk c, BatchLayout layout, String where) {
        List<BatchLayout.Region> regions = layout.regions();
        CUdeviceptr[] mapped = new CUdeviceptr[regions.size()];
        int statusIndex = regions.size() - 1;
        try {
            for (int r = 0; r < statusIndex; r++) {
                BatchLayout.Region region = regions.get(r);
                if (!region.input()) {
                    CUdeviceptr at = new CUdeviceptr();
                    Pointer from = c.pinned[r].withByteOffset((long) c.first * region.recordBytes());
                    CudaCall.check("cuMemHostGetDevicePointer(" + region.name() + ", " + where + ")",
                            () -> JCudaDriver.cuMemHostGetDevicePointer(at, from, 0));
                    mapped[r] = at;
                }
            }
        } catch (BackendException e) {
            LOG.log(System.Logger.Level.DEBUG, "chunk runs unpublished: " + e.getMessage());
            return null;
        }
        mapped[statusIndex] = hostBlockMapped.withByteOffset(layout.status().offset());
        return mapped;
    }

    /**
     * Polls a published chunk's status bytes until every task has one or the launch has ended,
     * telling {@link Chunk#early} of each task with a status its operation allows as the status
     * appears (the kernel fenced the task's outputs before it). A status the operation does not
     * allow is left to {@link #checkStatus}, which fails the chunk.
     *
     * @return the tasks told
     */
    private int reportAsTasksEnd(Chunk c, BatchLayout layout, String where) {
        int n = c.count;
        int base = Math.toIntExact(layout.status().offset());
        Arrays.fill(reported, 0, n, false);
        int left = n;
        int from = 0;
        int told = 0;
        boolean ended = false;
        long launched = System.nanoTime();
        long queryAt = launched + QUERY_NANOS;
        while (true) {
            for (int i = from; i < n; i++) {
                if (reported[i]) {
                    continue;
                }
                byte s = host.get(base + i);
                if (s == UNWRITTEN) {
                    continue;
                }
                reported[i] = true;
                left--;
                if (BatchAbi.statusAllowed(c.op, s)) {
                    VarHandle.acquireFence();  // the task's outputs are read after its status
                    tell(c, i, s);
                    told++;
                }
            }
            while (from < n && reported[from]) {
                from++;
            }
            if (left == 0 || ended) {
                return told;
            }
            long now = System.nanoTime();
            if (now - queryAt >= 0) {
                // Every status the launch writes is written once it has ended: one last scan.
                ended = launchEnded(where);
                queryAt = now + QUERY_NANOS;
                if (ended) {
                    continue;
                }
            }
            LockSupport.parkNanos(Math.min(MAX_POLL_NANOS, Math.max(MIN_POLL_NANOS, (now - launched) >> 3)));
        }
    }

    private void tell(Chunk c, int i, byte status) {
        try {
            c.early.finished(c.first + i, status);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "task listener failed for task " + (c.first + i), e);
        }
    }

    /** Whether the work recorded before {@link #launchEnded} is done; a fault is a {@link BackendException}. */
    private boolean launchEnded(String where) {
        int result;
        try {
            result = JCudaDriver.cuEventQuery(launchEnded);
        } catch (CudaException e) {
            if (NOT_READY.equals(e.getMessage())) {
                return false;
            }
            throw new BackendException("CUDA error " + e.getMessage() + " in cuEventQuery (" + where + ")", e);
        }
        if (result == CUresult.CUDA_ERROR_NOT_READY) {
            return false;
        }
        CudaCall.check("cuEventQuery(" + where + ")", () -> result);
        return true;
    }

    /** Launches the chunk's kernel on its device block, or with the outputs at {@code published} (non-null entries). */
    private void launch(Kernel kernel, BatchLayout layout, CUdeviceptr[] published, String where) {
        KernelConfig cfg = kernel.config();
        List<BatchLayout.Region> regions = layout.regions();
        NativePointerObject[] args = new NativePointerObject[regions.size() + 3];
        for (int r = 0; r < regions.size(); r++) {
            args[r] = Pointer.to(published != null && published[r] != null ? published[r]
                    : deviceBlock.withByteOffset(regions.get(r).offset()));
        }
        args[regions.size()] = Pointer.to(new int[] {layout.tasks()});
        args[regions.size() + 1] = Pointer.to(scratch);
        args[regions.size() + 2] = Pointer.to(workspace);
        int grid = cfg.gridFor(layout.tasks(), device.multiprocessors());
        if (cfg.workspaceBytes(layout.tasks(), device.multiprocessors()) > workspaceBytes) {
            throw new IllegalStateException(kernel.name() + " needs more workspace than the slot holds");
        }
        CudaCall.check("cuLaunchKernel(grid " + grid + ", block " + cfg.threads() + ", " + where + ")",
                () -> JCudaDriver.cuLaunchKernel(kernel.function(), grid, 1, 1, cfg.threads(), 1, 1,
                        cfg.sharedBytes(), stream, Pointer.to(args), null));
    }

    private void download(BatchLayout layout, String where) {
        CudaCall.check("cuMemcpyDtoHAsync(" + layout.outputBytes() + " bytes, " + where + ")",
                () -> JCudaDriver.cuMemcpyDtoHAsync(hostBlock.withByteOffset(layout.outputOffset()),
                        deviceBlock.withByteOffset(layout.outputOffset()), layout.outputBytes(), stream));
    }

    /**
     * Downloads each output region of a chunk on {@link PinnedBuffer}s straight into the caller's
     * memory, and the status bytes into the slot's pinned block.
     */
    private void downloadDirect(Chunk c, BatchLayout layout, String where) {
        List<BatchLayout.Region> regions = layout.regions();
        int statusIndex = regions.size() - 1;
        for (int r = 0; r < statusIndex; r++) {
            BatchLayout.Region region = regions.get(r);
            if (!region.input()) {
                long bytes = region.bytes(c.count);
                Pointer to = c.pinned[r].withByteOffset((long) c.first * region.recordBytes());
                CudaCall.check("cuMemcpyDtoHAsync(" + region.name() + ", " + bytes + " bytes, " + where + ")",
                        () -> JCudaDriver.cuMemcpyDtoHAsync(to, deviceBlock.withByteOffset(region.offset()), bytes,
                                stream));
            }
        }
        BatchLayout.Region status = layout.status();
        CudaCall.check("cuMemcpyDtoHAsync(status, " + where + ")",
                () -> JCudaDriver.cuMemcpyDtoHAsync(hostBlock.withByteOffset(status.offset()),
                        deviceBlock.withByteOffset(status.offset()), status.bytes(c.count), stream));
    }

    /** The status bytes of a chunk on {@link PinnedBuffer}s into the caller's array; failed tasks' outputs cleared. */
    private void unpackDirect(Chunk c, BatchLayout layout) {
        List<BatchLayout.Region> regions = layout.regions();
        int statusIndex = regions.size() - 1;
        byte[] status = c.arrays[statusIndex];
        host.get(Math.toIntExact(layout.status().offset()), status, c.first, c.count);
        for (int i = c.first; i < c.first + c.count; i++) {
            if (status[i] == BatchAbi.STATUS_OK) {
                continue;
            }
            for (int r = 0; r < statusIndex; r++) {
                BatchLayout.Region region = regions.get(r);
                if (!region.input()) {
                    int size = region.recordBytes();
                    c.views[r].put(i * size, ZEROS, 0, size);
                }
            }
        }
    }

    private void checkStatus(Chunk c, BatchLayout layout, Kernel kernel) {
        int base = Math.toIntExact(layout.status().offset());
        for (int i = 0; i < c.count; i++) {
            byte s = host.get(base + i);
            if (!BatchAbi.statusAllowed(c.op, s)) {
                throw new BackendException(kernel.name() + " on " + device.description() + " left task "
                        + (c.first + i) + " with status " + (s & 0xFF)
                        + (s == UNWRITTEN ? " (never written)" : " (not a status of " + c.op + ")"));
            }
        }
    }

    private void unpack(Chunk c, BatchLayout layout) {
        List<BatchLayout.Region> regions = layout.regions();
        int statusIndex = regions.size() - 1;
        long outputBytesPerTask = (layout.totalBytes() - layout.outputOffset()) / c.count;
        copier.forEachPart(c.count, outputBytesPerTask, (from, to) -> {
            ByteBuffer h = host.duplicate();
            for (int r = 0; r < regions.size(); r++) {
                BatchLayout.Region region = regions.get(r);
                if (!region.input()) {
                    int size = region.recordBytes();
                    h.get(Math.toIntExact(region.offset() + (long) from * size), c.arrays[r],
                            (c.first + from) * size, (to - from) * size);
                    if (region.secret()) {
                        zero(host, region.offset() + (long) from * size, (long) (to - from) * size);
                    }
                }
            }
            byte[] status = c.arrays[statusIndex];
            for (int r = 0; r < statusIndex; r++) {
                BatchLayout.Region region = regions.get(r);
                if (!region.input()) {
                    clearFailed(status, c.arrays[r], region.recordBytes(), c.first + from, c.first + to);
                }
            }
        });
    }

    /** Output records of tasks whose status is not OK are zeros, never stale bytes of another batch. */
    private static void clearFailed(byte[] status, byte[] out, int size, int from, int to) {
        for (int i = from; i < to; i++) {
            if (status[i] != BatchAbi.STATUS_OK) {
                Arrays.fill(out, i * size, (i + 1) * size, (byte) 0);
            }
        }
    }

    /**
     * Zeroes the pinned block's secret input regions ({@code inputs}) or secret output regions of
     * this chunk's tasks, on the copy threads.
     */
    private void zeroHostRegions(BatchLayout layout, boolean inputs) {
        long bytesPerTask = 0;
        for (BatchLayout.Region region : layout.regions()) {
            if (region.secret() && region.input() == inputs) {
                bytesPerTask += region.recordBytes();
            }
        }
        if (bytesPerTask == 0) {
            return;
        }
        copier.forEachPart(layout.tasks(), bytesPerTask, (from, to) -> {
            for (BatchLayout.Region region : layout.regions()) {
                if (region.secret() && region.input() == inputs) {
                    int size = region.recordBytes();
                    zero(host, region.offset() + (long) from * size, (long) (to - from) * size);
                }
            }
        });
    }

    /**
     * Queues the wipes of the secret arrays from the device block on the slot's stream and
     * records {@link #wiped} after them (which may fail on a broken context: that failure is added
     * to the one in flight, or thrown when there is none). When a failure is in flight, first
     * wipes the pinned block (always possible; on success the launch path has already wiped it),
     * then the workspace too (on success the kernel has), and waits for the device wipes.
     */
    private void wipe(BatchLayout layout, Kernel kernel, String where, Throwable inFlight, boolean sleep) {
        int n = layout.tasks();
        if (inFlight != null) {
            zeroHostRegions(layout, true);
            zeroHostRegions(layout, false);
        }
        try {
            for (BatchLayout.Region region : layout.regions()) {
                if (region.secret()) {
                    CudaCall.check("cuMemsetD8Async(wipe " + region.name() + ", " + where + ")",
                            () -> JCudaDriver.cuMemsetD8Async(deviceBlock.withByteOffset(region.offset()), (byte) 0,
                                    region.bytes(n), stream));
                }
            }
            long used = kernel.config().workspaceBytes(n, device.multiprocessors());
            if (used > 0 && inFlight != null) {
                CudaCall.check("cuMemsetD8Async(wipe workspace, " + where + ")",
                        () -> JCudaDriver.cuMemsetD8Async(workspace, (byte) 0, used, stream));
            }
            CudaCall.check("cuEventRecord(wiped, " + where + ")", () -> JCudaDriver.cuEventRecord(wiped, stream));
            wipePending = true;
            if (inFlight != null) {
                awaitStream(sleep, "wipe, " + where);
            }
        } catch (BackendException e) {
            if (inFlight == null) {
                throw e;
            }
            inFlight.addSuppressed(e);
        }
    }

    /** Fills {@code length} bytes at {@code offset} with {@code value} (a short run). */
    private static void fill(ByteBuffer buffer, long offset, int length, byte value) {
        for (int i = 0; i < length; i++) {
            buffer.put(Math.toIntExact(offset) + i, value);
        }
    }

    private static void zero(ByteBuffer buffer, long offset, long length) {
        ByteBuffer b = buffer.duplicate();
        int at = Math.toIntExact(offset);
        long left = length;
        while (left > 0) {
            int n = (int) Math.min(left, ZEROS.length);
            b.put(at, ZEROS, 0, n);
            at += n;
            left -= n;
        }
    }

    private String where(String what) {
        return what + ", device " + device.ordinal() + ", stream " + index;
    }

    /**
     * Destroys the stream and frees the memory. Errors are logged, not thrown: a broken device
     * may be why the slot closes. Idempotent.
     */
    @Override
    public synchronized void close() {
        busy.lock();  // a caller running a chunk itself finishes it first
        try {
            closeIdle();
        } finally {
            busy.unlock();
        }
    }

    private void closeIdle() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            device.bind(where("closing"));
        } catch (BackendException e) {
            LOG.log(System.Logger.Level.WARNING, e.getMessage());
        }
        if (hostAllocated) {
            zero(host, 0, blockBytes);
        }
        // The wipes queued on the stream run before its memory is freed.
        release("cuStreamSynchronize", streamCreated, () -> JCudaDriver.cuStreamSynchronize(stream));
        release("cuEventDestroy", eventCreated, () -> JCudaDriver.cuEventDestroy(uploaded));
        release("cuEventDestroy", eventCreated, () -> JCudaDriver.cuEventDestroy(wiped));
        release("cuEventDestroy", eventCreated, () -> JCudaDriver.cuEventDestroy(launchEnded));
        release("cuEventDestroy(blocking)", sleepEventsCreated, () -> JCudaDriver.cuEventDestroy(uploadedSleeping));
        release("cuEventDestroy(blocking)", sleepEventsCreated, () -> JCudaDriver.cuEventDestroy(finishedSleeping));
        release("cuStreamDestroy", streamCreated, () -> JCudaDriver.cuStreamDestroy(stream));
        release("cuMemFree(workspace)", workspaceAllocated, () -> JCudaDriver.cuMemFree(workspace));
        release("cuMemFree(scratch)", scratchAllocated, () -> JCudaDriver.cuMemFree(scratch));
        release("cuMemFree(block)", deviceAllocated, () -> JCudaDriver.cuMemFree(deviceBlock));
        release("cuMemFreeHost", hostAllocated, () -> JCudaDriver.cuMemFreeHost(hostBlock));
        host = null;
    }

    private void release(String what, boolean held, java.util.function.IntSupplier call) {
        if (!held) {
            return;
        }
        try {
            CudaCall.check(what + " (" + where("closing") + ")", call);
        } catch (BackendException e) {
            LOG.log(System.Logger.Level.WARNING, e.getMessage());
        }
    }
}
