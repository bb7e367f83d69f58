package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;

/**
 * One stream of one GPU with the memory it owns (the paper's memory pool, §4.4): a pinned host
 * block (mapped into the device) and a device block of {@code BatchLayout.capacityBytes(slotTasks)}
 * bytes each, the scratch words and a workspace sized from the kernels' configurations (one slice
 * per worker that a launch of {@code slotTasks} tasks can have), and the events its chunks
 * record. All are allocated once and reused by every launch; one thread at a time holds the slot
 * ({@link #tryClaim}, or its worker through {@link #execute}).
 *
 * <p>The slot offers the steps a chunk is made of (copies through the device's
 * {@link UploadLane} or on its own stream, the kernel launch, the wait, the status check, the
 * wipes); {@link ChunkRun} runs one chunk with them, and the {@link RecordTransfer} its plan
 * chooses moves the records.
 *
 * <p>Secrets (see {@link BatchLayout}) are wiped from the pinned and device blocks after every
 * chunk. The kernels wipe the workspace themselves (each worker zeroes its slice and its shared
 * memory before it exits, kernels-cuda schedule.cuh), so the slot clears the workspace only after
 * a failure, when a launch may not have run to its end. The device wipes are queued on the slot's
 * stream behind the chunk's work and not waited for: the slot's next work on that stream runs
 * after them, and its next upload through the lane (another stream) waits for their event
 * ({@link #submitCopies}). A wipe that faults leaves the context in error, and the slot's next
 * call fails and falls back. After a failure the wipes are waited for.
 */
final class StreamSlot implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(StreamSlot.class.getName());
    private static final byte[] ZEROS = new byte[1 << 16];
    /** Status the host writes before a launch; no kernel writes it, so it marks a skipped task. */
    static final byte UNWRITTEN = (byte) 0xFF;
    private static final byte[] UNWRITTENS = new byte[1 << 12];

    static {
        java.util.Arrays.fill(UNWRITTENS, UNWRITTEN);
    }

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
    private final CUdeviceptr deviceBlock = new CUdeviceptr();
    private final CUdeviceptr scratch = new CUdeviceptr();
    private final CUdeviceptr workspace = new CUdeviceptr();
    /** Native memory of {@link #params}. */
    private final Pointer paramBlock = new Pointer();
    private KernelParams params;
    /** Recorded after each upload: secret inputs can leave the pinned block once it completes. */
    private final CUevent uploaded = new CUevent();
    /** {@link #uploaded} and the end of a chunk's work for chunks that sleep while they wait: blocking-sync events. */
    private final CUevent uploadedSleeping = new CUevent();
    private final CUevent finishedSleeping = new CUevent();
    /** Recorded after a chunk's device wipes: the slot's next upload through the lane waits for it. */
    private final CUevent wiped = new CUevent();
    /** Whether wipes were queued after {@link #wiped} was last waited for by an upload on another stream. */
    private boolean wipePending;
    private final boolean sleeper;
    /** What the slot has taken from the driver, in order: {@link #close} gives it back in reverse. */
    private final Deque<Held> held = new ArrayDeque<>();
    private ByteBuffer host;
    private boolean closed;

    private StreamSlot(DeviceContext device, int index, HostCopier copier, CudaConfig.Sync sync, long blockBytes,
                       long workspaceBytes) {
        this.device = device;
        this.index = index;
        this.copier = copier;
        this.sleeper = sync.sleepsForLoneChunks();
        this.blockBytes = blockBytes;
        this.workspaceBytes = workspaceBytes;
    }

    /**
     * Creates the stream and allocates the slot's memory on {@code device}.
     *
     * @param slotTasks the most tasks one launch holds
     * @param sync      how the slot's threads wait: under {@link CudaConfig.Sync#ADAPTIVE} a chunk
     *                  whose plan says so sleeps on blocking-sync events
     * @throws BackendException when a CUDA call fails (typically CUDA_ERROR_OUT_OF_MEMORY)
     */
    static StreamSlot open(DeviceContext device, int index, int slotTasks, HostCopier copier, CudaConfig.Sync sync) {
        long blockBytes = BatchLayout.capacityBytes(slotTasks);
        long workspaceBytes = Math.max(BatchLayout.ALIGNMENT, device.slotWorkspaceBytes(slotTasks));
        StreamSlot s = new StreamSlot(device, index, copier, sync, blockBytes, workspaceBytes);
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

    /** A driver resource the slot holds, and the call that gives it back. */
    private record Held(String what, IntSupplier release) {}

    /** Makes {@code call} ({@code what}); once it succeeded, holds what it took until {@code release} gives it back. */
    private void take(String what, IntSupplier call, String releaseWhat, IntSupplier release) {
        CudaCall.check(what, call);
        held.push(new Held(releaseWhat, release));
    }

    private void allocate() {
        String where = where("allocating");
        device.bind(where);
        // The stream first: close() waits for it before giving anything else back.
        take("cuStreamCreate (" + where + ")",
                () -> JCudaDriver.cuStreamCreate(stream, CUstream_flags.CU_STREAM_NON_BLOCKING),
                "cuStreamDestroy", () -> JCudaDriver.cuStreamDestroy(stream));
        take("cuMemHostAlloc(" + blockBytes + " bytes, " + where + ")",
                () -> JCudaDriver.cuMemHostAlloc(hostBlock, blockBytes, JCudaDriver.CU_MEMHOSTALLOC_DEVICEMAP),
                "cuMemFreeHost", () -> JCudaDriver.cuMemFreeHost(hostBlock));
        host = hostBlock.getByteBuffer(0, blockBytes);
        CudaCall.check("cuMemHostGetDevicePointer(" + where + ")",
                () -> JCudaDriver.cuMemHostGetDevicePointer(hostBlockMapped, hostBlock, 0));
        take("cuMemHostAlloc(kernel parameters, " + where + ")",
                () -> JCudaDriver.cuMemHostAlloc(paramBlock, KernelParams.BYTES, 0),
                "cuMemFreeHost", () -> JCudaDriver.cuMemFreeHost(paramBlock));
        params = new KernelParams(paramBlock);
        take("cuMemAlloc(" + blockBytes + " bytes, " + where + ")",
                () -> JCudaDriver.cuMemAlloc(deviceBlock, blockBytes),
                "cuMemFree(block)", () -> JCudaDriver.cuMemFree(deviceBlock));
        take("cuMemAlloc(scratch, " + where + ")",
                () -> JCudaDriver.cuMemAlloc(scratch, 4L * BatchAbi.SCRATCH_WORDS),
                "cuMemFree(scratch)", () -> JCudaDriver.cuMemFree(scratch));
        take("cuMemAlloc(workspace " + workspaceBytes + " bytes, " + where + ")",
                () -> JCudaDriver.cuMemAlloc(workspace, workspaceBytes),
                "cuMemFree(workspace)", () -> JCudaDriver.cuMemFree(workspace));
        for (CUevent e : List.of(uploaded, launchEnded, wiped)) {
            take("cuEventCreate(" + where + ")",
                    () -> JCudaDriver.cuEventCreate(e, CUevent_flags.CU_EVENT_DISABLE_TIMING),
                    "cuEventDestroy", () -> JCudaDriver.cuEventDestroy(e));
        }
        if (sleeper) {
            int flags = CUevent_flags.CU_EVENT_DISABLE_TIMING | CUevent_flags.CU_EVENT_BLOCKING_SYNC;
            for (CUevent e : List.of(uploadedSleeping, finishedSleeping)) {
                take("cuEventCreate(blocking, " + where + ")", () -> JCudaDriver.cuEventCreate(e, flags),
                        "cuEventDestroy(blocking)", () -> JCudaDriver.cuEventDestroy(e));
            }
        }
        zero(host, 0, blockBytes);
        CudaCall.check("cuMemsetD8Async(clear block, " + where + ")",
                () -> JCudaDriver.cuMemsetD8Async(deviceBlock, (byte) 0, blockBytes, stream));
        CudaCall.check("cuMemsetD8Async(clear workspace, " + where + ")",
                () -> JCudaDriver.cuMemsetD8Async(workspace, (byte) 0, workspaceBytes, stream));
        CudaCall.check("cuMemsetD32Async(clear scratch, " + where + ")",
                () -> JCudaDriver.cuMemsetD32Async(scratch, 0, BatchAbi.SCRATCH_WORDS, stream));
        CudaCall.check("cuStreamSynchronize(" + where + ")", () -> JCudaDriver.cuStreamSynchronize(stream));
    }

    /** The memories of a slot, for {@link #read}. */
    enum Memory { HOST_BLOCK, DEVICE_BLOCK, WORKSPACE, SCRATCH }

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
        CUdeviceptr base = switch (memory) {
            case DEVICE_BLOCK -> deviceBlock;
            case WORKSPACE -> workspace;
            default -> scratch;
        };
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

    /** Bytes of the pinned block and of the device block. */
    long blockBytes() {
        return blockBytes;
    }

    /** Bytes of the workspace. */
    long workspaceBytes() {
        return workspaceBytes;
    }

    /**
     * Claims the slot for the calling thread if nobody uses it, for a caller that runs a chunk
     * itself ({@link ChunkRun#launch} and {@link ChunkRun#finish} from the same thread);
     * {@link #unclaim} gives it back. The slot's worker, should it take a chunk meanwhile, waits.
     */
    boolean tryClaim() {
        return busy.tryLock();
    }

    void unclaim() {
        busy.unlock();
    }

    /**
     * Runs one chunk as one launch on this slot's stream and delivers its outputs into the
     * caller's records ({@link ChunkRun}). Called by the slot's worker; waits while a caller holds
     * the slot.
     *
     * @param outputsReady runs as soon as the outputs are in the caller's records, before the
     *                     slot's device wipes are queued; an exception after it comes from
     *                     queueing them: the outputs stand, but the device is in error
     * @throws BackendException on a CUDA error, or when the kernel leaves a task without a status
     *                          its operation allows; the outputs are then unspecified
     */
    void execute(Chunk c, CudaStats stats, Runnable outputsReady) {
        busy.lock();
        try {
            ChunkRun.launch(this, c).finish(stats, outputsReady);
        } finally {
            busy.unlock();
        }
    }

    // ---- what the chunk's steps use: memory, stream, events

    /** The pinned block, as the host reads and writes it. */
    ByteBuffer host() {
        return host;
    }

    Pointer hostBlock() {
        return hostBlock;
    }

    /** The pinned block in the device's address space. */
    CUdeviceptr hostBlockMapped() {
        return hostBlockMapped;
    }

    CUdeviceptr deviceBlock() {
        return deviceBlock;
    }

    CUstream stream() {
        return stream;
    }

    HostCopier copier() {
        return copier;
    }

    /** The event recorded after a chunk's input copies: a blocking-sync one for a chunk that sleeps. */
    CUevent uploadEvent(boolean sleep) {
        return sleep ? uploadedSleeping : uploaded;
    }

    /** Recorded after a published chunk's launch by {@link EarlyReporter}. */
    CUevent launchEndedEvent() {
        return launchEnded;
    }

    /**
     * Submits a chunk's input copies through the device's {@link UploadLane} when {@code ordered},
     * after this slot's last wipes and with this slot's stream waiting for them; or else on this
     * slot's stream, after its wipes in stream order. {@code done} is recorded after them, unless
     * it is null: copies on the slot's own stream that no one waits for record nothing (a driver
     * call less per chunk; the lane's copies always record it, for the launch waits on it).
     */
    void submitCopies(UploadLane.Copies copies, boolean ordered, CUevent done, String where) {
        if (ordered) {
            device.uploads().upload(wipePending ? wiped : null, copies, done, stream, where);
            wipePending = false;
        } else {
            copies.submit(stream);
            if (done != null) {
                CudaCall.check("cuEventRecord(upload, " + where + ")", () -> JCudaDriver.cuEventRecord(done, stream));
            }
        }
    }

    /**
     * Marks {@code tasks} status bytes at {@code statusOffset} of the device block unwritten,
     * before a launch that writes its statuses there. The scratch words need nothing: every
     * launch leaves them zero for the next (batch_abi.h).
     */
    void markStatusUnwritten(long statusOffset, int tasks, String where) {
        CudaCall.check("cuMemsetD8Async(status, " + where + ")",
                () -> JCudaDriver.cuMemsetD8Async(deviceBlock.withByteOffset(statusOffset), UNWRITTEN, tasks, stream));
    }

    /**
     * Zeroes the scratch words after a failed chunk, whose launch may not have run to the end
     * that resets them; a failure to queue it is added to {@code inFlight}.
     */
    void clearScratch(String where, Throwable inFlight) {
        try {
            CudaCall.check("cuMemsetD32Async(scratch, " + where + ")",
                    () -> JCudaDriver.cuMemsetD32Async(scratch, 0, BatchAbi.SCRATCH_WORDS, stream));
        } catch (BackendException e) {
            inFlight.addSuppressed(e);
        }
    }

    /**
     * Launches {@code kernel} on the layout's regions: each region at {@code outputs[r]} where that
     * is not null (a published chunk's outputs in host memory), else in the device block.
     */
    void launch(Kernel kernel, BatchLayout layout, CUdeviceptr[] outputs, String where) {
        List<BatchLayout.Region> regions = layout.regions();
        CUdeviceptr[] arrays = new CUdeviceptr[regions.size()];
        for (int r = 0; r < regions.size(); r++) {
            arrays[r] = outputs != null && outputs[r] != null ? outputs[r]
                    : deviceBlock.withByteOffset(regions.get(r).offset());
        }
        launch(kernel, arrays, layout.tasks(), where);
    }

    /**
     * Launches {@code kernel} for {@code tasks} tasks on {@code arrays} (its pointer parameters, in
     * order; an entry may be a null device pointer), followed by the task count, the scratch
     * words and the workspace, as every entry point of {@code batch_abi.h} takes them.
     */
    void launch(Kernel kernel, CUdeviceptr[] arrays, int tasks, String where) {
        KernelConfig cfg = kernel.config();
        int grid = cfg.gridFor(tasks, device.multiprocessors());
        if (cfg.workspaceBytes(tasks, device.multiprocessors()) > workspaceBytes) {
            throw new IllegalStateException(kernel.name() + " needs more workspace than the slot holds");
        }
        Pointer args = params.set(arrays, tasks, scratch, workspace);
        CudaCall.check("cuLaunchKernel(grid " + grid + ", block " + cfg.threads() + ", " + where + ")",
                () -> JCudaDriver.cuLaunchKernel(kernel.function(), grid, 1, 1, cfg.threads(), 1, 1,
                        cfg.sharedBytes(), stream, args, null));
    }

    /**
     * Waits for all work queued on the stream: spinning or not as the context's scheduling says,
     * or, for a chunk that sleeps, on a blocking-sync event recorded now.
     */
    void awaitStream(boolean sleep, String where) {
        if (sleep) {
            CudaCall.check("cuEventRecord(finished, " + where + ")",
                    () -> JCudaDriver.cuEventRecord(finishedSleeping, stream));
            CudaCall.check("cuEventSynchronize(finished, " + where + ")",
                    () -> JCudaDriver.cuEventSynchronize(finishedSleeping));
        } else {
            CudaCall.check("cuStreamSynchronize (" + where + ")", () -> JCudaDriver.cuStreamSynchronize(stream));
        }
    }

    /**
     * Fails the chunk when the kernel left a task of it without a status its operation allows
     * (the status bytes are in the pinned block).
     */
    void checkStatus(Chunk c, BatchLayout layout, Kernel kernel) {
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

    /**
     * Zeroes the pinned block's secret input regions ({@code inputs}) or secret output regions of
     * this chunk's tasks, on the copy threads.
     */
    void zeroHostRegions(BatchLayout layout, boolean inputs) {
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
     * Queues the wipes of the secret regions from the device block on the slot's stream and
     * records the wipes' event after them (which may fail on a broken context: that failure is
     * added to the one in flight, or thrown when there is none). When a failure is in flight,
     * first wipes the pinned block (always possible; on success the chunk's steps have already
     * wiped it), then the workspace too (on success the kernel has), and waits for the device wipes.
     */
    void wipe(BatchLayout layout, Kernel kernel, String where, Throwable inFlight, boolean sleep) {
        int n = layout.tasks();
        if (inFlight != null) {
            zeroHostRegions(layout, true);
            zeroHostRegions(layout, false);
        }
        List<long[]> ranges = new java.util.ArrayList<>();
        for (BatchLayout.Region region : layout.regions()) {
            if (region.secret()) {
                ranges.add(new long[] {region.offset(), region.bytes(n)});
            }
        }
        wipeDevice(ranges, kernel.config().workspaceBytes(n, device.multiprocessors()), where, inFlight, sleep);
    }

    /**
     * Queues the wipes of {@code ranges} ({offset, bytes} of the device block) on the slot's
     * stream and records the wipes' event after them, as {@link #wipe} does for a layout's secret
     * regions; after a failure ({@code inFlight}) also wipes the {@code workspaceUsed} bytes of
     * the workspace and waits. The caller wipes the pinned block.
     */
    void wipeDevice(List<long[]> ranges, long workspaceUsed, String where, Throwable inFlight, boolean sleep) {
        try {
            for (long[] range : ranges) {
                CudaCall.check("cuMemsetD8Async(wipe " + range[1] + " bytes at " + range[0] + ", " + where + ")",
                        () -> JCudaDriver.cuMemsetD8Async(deviceBlock.withByteOffset(range[0]), (byte) 0, range[1],
                                stream));
            }
            if (workspaceUsed > 0 && inFlight != null) {
                CudaCall.check("cuMemsetD8Async(wipe workspace, " + where + ")",
                        () -> JCudaDriver.cuMemsetD8Async(workspace, (byte) 0, workspaceUsed, stream));
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

    /** Marks {@code length} status bytes at {@code offset} {@link #UNWRITTEN}. */
    static void markUnwritten(ByteBuffer buffer, long offset, long length) {
        repeat(buffer, offset, length, UNWRITTENS);
    }

    static void zero(ByteBuffer buffer, long offset, long length) {
        repeat(buffer, offset, length, ZEROS);
    }

    /** Writes {@code length} bytes at {@code offset}, each the byte that fills {@code run}. */
    private static void repeat(ByteBuffer buffer, long offset, long length, byte[] run) {
        ByteBuffer b = buffer.duplicate();
        int at = Math.toIntExact(offset);
        long left = length;
        while (left > 0) {
            int n = (int) Math.min(left, run.length);
            b.put(at, run, 0, n);
            at += n;
            left -= n;
        }
    }

    /** Zeroes {@code length} bytes of {@code buffer} at {@code offset} (a record of a failed task). */
    static void zeroRecord(ByteBuffer buffer, int offset, int length) {
        buffer.put(offset, ZEROS, 0, length);
    }

    /** A description of where a step runs, for error messages: {@code what, device d, stream s}. */
    String where(String what) {
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
        if (host != null) {
            zero(host, 0, blockBytes);
        }
        if (!held.isEmpty()) {
            // The stream was taken first: the wipes queued on it run before its memory is freed.
            release("cuStreamSynchronize", () -> JCudaDriver.cuStreamSynchronize(stream));
        }
        while (!held.isEmpty()) {
            Held h = held.pop();
            release(h.what(), h.release());
        }
        host = null;
    }

    private void release(String what, IntSupplier call) {
        try {
            CudaCall.check(what + " (" + where("closing") + ")", call);
        } catch (BackendException e) {
            LOG.log(System.Logger.Level.WARNING, e.getMessage());
        }
    }
}
