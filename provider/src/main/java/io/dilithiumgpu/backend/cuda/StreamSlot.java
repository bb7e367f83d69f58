package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.Operation;
import jcuda.NativePointerObject;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;

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
 * <p>A chunk: the caller's records are packed straight into the pinned block, the status bytes
 * set to 0xFF and the scratch words to 0, the kernel launched, the outputs downloaded, every
 * status checked and the outputs unpacked. Secrets (see {@link BatchLayout}) are wiped from the
 * pinned block, the device block and the workspace in {@code finally}, whatever happened.
 *
 * <p>A chunk moves in pieces ({@link CudaConfig#pieceTasks()}) over three streams, so that its
 * copies overlap its own kernels and not only other slots' ones: each piece is packed while the
 * previous one is uploaded (upload stream); for key generation and verification each piece is
 * launched as soon as its upload completes (compute stream, which waits on an event) and
 * downloaded as soon as its kernel completes (download stream), and the host unpacks piece k
 * while piece k+1 computes. Signing launches once per chunk after the last upload: a launch ends
 * with its slowest task's rejection loop, and a stream's next launch would wait for that tail.
 *
 * <p>Pinned secrets are wiped where the host would touch them anyway, off the slot's critical
 * path: secret inputs (private keys, rnd, seeds) as soon as their upload has completed, while the
 * kernel runs; secret outputs (generated private keys) part by part as they are copied out, while
 * those cache lines are hot. The {@code finally} then wipes only device memory, unless the chunk
 * failed (then the pinned block's secrets are wiped again, whole).
 */
final class StreamSlot implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(StreamSlot.class.getName());
    private static final byte[] ZEROS = new byte[1 << 16];
    /** Status the host writes before a launch; no kernel writes it, so it marks a skipped task. */
    private static final byte UNWRITTEN = (byte) 0xFF;

    private final DeviceContext device;
    private final int index;
    private final HostCopier copier;
    /** Chunk times for naps after a launch; null when the slot does not nap ({@link CudaConfig.Sync#naps()}). */
    private final GpuTimeModel naps;
    private final long blockBytes;
    private final long workspaceBytes;
    /** Tasks per piece, or 0 for one piece per chunk. */
    private final int pieceTasks;
    /** Whether the host waits on events that sleep ({@link CudaConfig.Sync#BLOCKING}). */
    private final boolean blockingEvents;
    /** Memsets, kernels and wipes; waits on {@link #upDone} before each launch. */
    private final CUstream stream = new CUstream();
    private final CUstream upStream = new CUstream();
    private final CUstream downStream = new CUstream();
    /** Per piece: its upload completed, its kernel completed, its download completed. */
    private final CUevent[] upDone;
    private final CUevent[] kernelDone;
    private final CUevent[] downDone;
    /** Held while a chunk runs and its memories are wiped; {@link #read} waits for it. */
    private final ReentrantLock busy = new ReentrantLock();
    private final Pointer hostBlock = new Pointer();
    private final CUdeviceptr deviceBlock = new CUdeviceptr();
    private final CUdeviceptr scratch = new CUdeviceptr();
    private final CUdeviceptr workspace = new CUdeviceptr();
    private int streamsCreated;
    private boolean hostAllocated;
    private boolean deviceAllocated;
    private boolean scratchAllocated;
    private boolean workspaceAllocated;
    private ByteBuffer host;
    private boolean closed;

    private StreamSlot(DeviceContext device, int index, HostCopier copier, CudaConfig config, long blockBytes,
                       long workspaceBytes) {
        this.device = device;
        this.index = index;
        this.copier = copier;
        this.naps = config.sync().naps() ? new GpuTimeModel() : null;
        this.pieceTasks = config.pieceTasks();
        this.blockingEvents = config.sync() == CudaConfig.Sync.BLOCKING;
        int pieces = config.maxPieces();
        this.upDone = new CUevent[pieces];
        this.kernelDone = new CUevent[pieces];
        this.downDone = new CUevent[pieces];
        this.blockBytes = blockBytes;
        this.workspaceBytes = workspaceBytes;
    }

    /**
     * Creates the streams and events and allocates the slot's memory on {@code device}, sized by
     * {@code config}: {@link CudaConfig#slotTasks()} tasks per chunk at most, in pieces of
     * {@link CudaConfig#pieceTasks()}, waiting as {@link CudaConfig#sync()} says.
     *
     * @throws BackendException when a CUDA call fails (typically CUDA_ERROR_OUT_OF_MEMORY)
     */
    static StreamSlot open(DeviceContext device, int index, CudaConfig config, HostCopier copier) {
        long blockBytes = BatchLayout.capacityBytes(config.slotTasks());
        long workspaceBytes = Math.max(BatchLayout.ALIGNMENT, device.workspaceBytes(config.slotTasks()));
        StreamSlot s = new StreamSlot(device, index, copier, config, blockBytes, workspaceBytes);
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
        for (CUstream st : new CUstream[] {stream, upStream, downStream}) {
            CudaCall.check("cuStreamCreate (" + where + ")",
                    () -> JCudaDriver.cuStreamCreate(st, CUstream_flags.CU_STREAM_NON_BLOCKING));
            streamsCreated++;
        }
        CudaCall.check("cuMemHostAlloc(" + blockBytes + " bytes, " + where + ")",
                () -> JCudaDriver.cuMemHostAlloc(hostBlock, blockBytes, 0));
        hostAllocated = true;
        host = hostBlock.getByteBuffer(0, blockBytes);
        CudaCall.check("cuMemAlloc(" + blockBytes + " bytes, " + where + ")",
                () -> JCudaDriver.cuMemAlloc(deviceBlock, blockBytes));
        deviceAllocated = true;
        CudaCall.check("cuMemAlloc(scratch, " + where + ")",
                () -> JCudaDriver.cuMemAlloc(scratch, 4L * BatchAbi.SCRATCH_WORDS));
        scratchAllocated = true;
        CudaCall.check("cuMemAlloc(workspace " + workspaceBytes + " bytes, " + where + ")",
                () -> JCudaDriver.cuMemAlloc(workspace, workspaceBytes));
        workspaceAllocated = true;
        int flags = CUevent_flags.CU_EVENT_DISABLE_TIMING | (blockingEvents ? CUevent_flags.CU_EVENT_BLOCKING_SYNC : 0);
        for (int p = 0; p < upDone.length; p++) {
            for (CUevent[] events : List.of(upDone, kernelDone, downDone)) {
                CUevent e = new CUevent();
                CudaCall.check("cuEventCreate(" + where + ")", () -> JCudaDriver.cuEventCreate(e, flags));
                events[p] = e;
            }
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
     * inspection the wipe tests make. Waits until the slot is idle: a chunk's caller may already
     * have its outputs while the slot is still wiping (see {@link #execute}).
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
        CudaCall.check("cuMemcpyDtoH(" + where + ")",
                () -> JCudaDriver.cuMemcpyDtoH(Pointer.to(out), base.withByteOffset(offset), length));
        return out;
    }

    DeviceContext device() {
        return device;
    }

    /**
     * Runs one chunk as one launch on this slot's stream and writes its outputs into the caller's
     * arrays. Must be called from one thread at a time (the slot's worker).
     *
     * <p>{@code outputsReady} runs as soon as the outputs are in the caller's arrays, before the
     * slot's memories are wiped: the caller goes on while this thread wipes, and the slot takes
     * its next chunk only afterwards. An exception after {@code outputsReady} comes from the
     * wipe: the outputs stand, but the device is in error (its next call fails and falls back).
     *
     * @throws BackendException on a CUDA error, or when the kernel leaves a task without a status
     *                          its operation allows; the outputs are then unspecified
     */
    void execute(Chunk c, CudaStats stats, Runnable outputsReady) {
        busy.lock();
        try {
            executeHeld(c, stats, outputsReady);
        } finally {
            busy.unlock();
        }
    }

    private void executeHeld(Chunk c, CudaStats stats, Runnable outputsReady) {
        long started = System.nanoTime();
        Kernel kernel = device.kernel(c.params, c.op);
        BatchLayout layout = BatchLayout.of(c.params, c.op, c.count);
        String where = where(kernel.name() + ", tasks " + c.first + ".." + (c.first + c.count - 1));
        device.bind(where);
        int[] pieces = pieceBounds(c.count, pieceTasks);
        int last = pieces.length - 2;
        boolean split = last > 0 && c.op != Operation.SIGN;
        Throwable failure = null;
        long issued = started;
        long waited = 0;
        long unpacking = 0;
        try {
            BatchLayout.Region status = layout.status();
            CudaCall.check("cuMemsetD8Async(status, " + where + ")",
                    () -> JCudaDriver.cuMemsetD8Async(deviceBlock.withByteOffset(status.offset()), UNWRITTEN,
                            layout.tasks(), stream));
            for (int p = 0; p <= last; p++) {
                pack(c, layout, pieces[p], pieces[p + 1]);
                upload(layout, pieces[p], pieces[p + 1], p, where);
                if (split) {
                    launch(kernel, layout, pieces[p], pieces[p + 1], p, where);
                }
            }
            if (!split) {
                launch(kernel, layout, 0, c.count, last, where);
            }
            issued = System.nanoTime();
            if (layout.hasSecretInputs()) {
                CudaCall.check("cuEventSynchronize(upload, " + where + ")",
                        () -> JCudaDriver.cuEventSynchronize(upDone[last]));
                zeroHostRegions(layout, true);
            }
            nap(c, issued);
            int outputs = split ? last + 1 : 1;
            for (int q = 0; q < outputs; q++) {
                int from = split ? pieces[q] : 0;
                int to = split ? pieces[q + 1] : c.count;
                CUevent downloaded = downDone[split ? q : last];
                long waitStart = System.nanoTime();
                CudaCall.check("cuEventSynchronize(download, " + where + ")",
                        () -> JCudaDriver.cuEventSynchronize(downloaded));
                long ready = System.nanoTime();
                waited += ready - waitStart;
                if (q == 0 && naps != null) {
                    naps.record(c.params, c.op, c.count, ready - issued);
                }
                checkStatus(c, layout, kernel, from, to);
                unpack(c, layout, from, to);
                unpacking += System.nanoTime() - ready;
            }
            outputsReady.run();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            long wipeStart = System.nanoTime();
            if (failure != null) {
                quiesce(where, failure);
            }
            if (layout.hasSecrets()) {
                wipe(layout, kernel, where, failure);
            }
            if (failure == null) {
                stats.chunkRan(c.count, started - c.queuedNanos, issued - started, waited, unpacking,
                        System.nanoTime() - wipeStart);
            }
        }
    }

    /**
     * Bounds of the pieces of a chunk of {@code count} tasks: multiples of {@code pieceTasks}
     * (one piece when 0), then {@code count}.
     */
    static int[] pieceBounds(int count, int pieceTasks) {
        int pieces = pieceTasks == 0 ? 1 : (count + pieceTasks - 1) / pieceTasks;
        int[] bounds = new int[pieces + 1];
        for (int p = 0; p < pieces; p++) {
            bounds[p] = p * pieceTasks;
        }
        bounds[pieces] = count;
        return bounds;
    }

    /** Sleeps, when this slot naps, through part of the GPU time expected of chunk {@code c} issued at {@code issued}. */
    private void nap(Chunk c, long issued) {
        if (naps == null) {
            return;
        }
        long nap = naps.napNanos(c.params, c.op, c.count, System.nanoTime() - issued);
        if (nap > 0) {
            LockSupport.parkNanos(nap);
        }
    }

    /** Packs the input records of tasks {@code [from, to)} of the chunk into the pinned block. */
    private void pack(Chunk c, BatchLayout layout, int from, int to) {
        List<BatchLayout.Region> regions = layout.regions();
        copier.forEachPart(to - from, layout.inputBytes() / c.count, (a, b) -> {
            ByteBuffer h = host.duplicate();
            for (int r = 0; r < regions.size(); r++) {
                BatchLayout.Region region = regions.get(r);
                if (region.input()) {
                    int size = region.recordBytes();
                    h.put(Math.toIntExact(region.offset() + (long) (from + a) * size), c.arrays[r],
                            (c.first + from + a) * size, (b - a) * size);
                }
            }
        });
    }

    /** Uploads the input records of tasks {@code [from, to)} on the upload stream, then records {@code upDone[piece]}. */
    private void upload(BatchLayout layout, int from, int to, int piece, String where) {
        for (BatchLayout.Region region : layout.regions()) {
            if (region.input()) {
                long at = region.offset() + region.bytes(from);
                long bytes = region.bytes(to - from);
                CudaCall.check("cuMemcpyHtoDAsync(" + bytes + " bytes, " + where + ")",
                        () -> JCudaDriver.cuMemcpyHtoDAsync(deviceBlock.withByteOffset(at), hostBlock.withByteOffset(at),
                                bytes, upStream));
            }
        }
        CudaCall.check("cuEventRecord(upload, " + where + ")", () -> JCudaDriver.cuEventRecord(upDone[piece], upStream));
    }

    /**
     * Launches the kernel on tasks {@code [from, to)} once {@code upDone[piece]} has completed
     * (uploads complete in order, so the last piece's event covers every earlier one), then
     * downloads their outputs on the download stream once the kernel has completed, recording
     * {@code downDone[piece]}.
     */
    private void launch(Kernel kernel, BatchLayout layout, int from, int to, int piece, String where) {
        KernelConfig cfg = kernel.config();
        int n = to - from;
        if (cfg.workspaceBytes(n, device.multiprocessors()) > workspaceBytes) {
            throw new IllegalStateException(kernel.name() + " needs more workspace than the slot holds");
        }
        CudaCall.check("cuStreamWaitEvent(upload, " + where + ")",
                () -> JCudaDriver.cuStreamWaitEvent(stream, upDone[piece], 0));
        CudaCall.check("cuMemsetD32Async(scratch, " + where + ")",
                () -> JCudaDriver.cuMemsetD32Async(scratch, 0, BatchAbi.SCRATCH_WORDS, stream));
        List<BatchLayout.Region> regions = layout.regions();
        NativePointerObject[] args = new NativePointerObject[regions.size() + 3];
        for (int r = 0; r < regions.size(); r++) {
            BatchLayout.Region region = regions.get(r);
            args[r] = Pointer.to(deviceBlock.withByteOffset(region.offset() + region.bytes(from)));
        }
        args[regions.size()] = Pointer.to(new int[] {n});
        args[regions.size() + 1] = Pointer.to(scratch);
        args[regions.size() + 2] = Pointer.to(workspace);
        int grid = cfg.gridFor(n, device.multiprocessors());
        CudaCall.check("cuLaunchKernel(grid " + grid + ", block " + cfg.threads() + ", " + where + ")",
                () -> JCudaDriver.cuLaunchKernel(kernel.function(), grid, 1, 1, cfg.threads(), 1, 1,
                        cfg.sharedBytes(), stream, Pointer.to(args), null));
        CudaCall.check("cuEventRecord(kernel, " + where + ")",
                () -> JCudaDriver.cuEventRecord(kernelDone[piece], stream));
        CudaCall.check("cuStreamWaitEvent(kernel, " + where + ")",
                () -> JCudaDriver.cuStreamWaitEvent(downStream, kernelDone[piece], 0));
        for (BatchLayout.Region region : regions) {
            if (!region.input()) {
                long at = region.offset() + region.bytes(from);
                long bytes = region.bytes(n);
                CudaCall.check("cuMemcpyDtoHAsync(" + bytes + " bytes, " + where + ")",
                        () -> JCudaDriver.cuMemcpyDtoHAsync(hostBlock.withByteOffset(at), deviceBlock.withByteOffset(at),
                                bytes, downStream));
            }
        }
        CudaCall.check("cuEventRecord(download, " + where + ")",
                () -> JCudaDriver.cuEventRecord(downDone[piece], downStream));
    }

    private void checkStatus(Chunk c, BatchLayout layout, Kernel kernel, int from, int to) {
        int base = Math.toIntExact(layout.status().offset());
        for (int i = from; i < to; i++) {
            byte s = host.get(base + i);
            if (!BatchAbi.statusAllowed(c.op, s)) {
                throw new BackendException(kernel.name() + " on " + device.description() + " left task "
                        + (c.first + i) + " with status " + (s & 0xFF)
                        + (s == UNWRITTEN ? " (never written)" : " (not a status of " + c.op + ")"));
            }
        }
    }

    /** Copies the outputs of tasks {@code [from, to)} into the caller's arrays, wiping secret ones from the pinned block. */
    private void unpack(Chunk c, BatchLayout layout, int from, int to) {
        List<BatchLayout.Region> regions = layout.regions();
        int statusIndex = regions.size() - 1;
        long outputBytesPerTask = (layout.totalBytes() - layout.outputOffset()) / c.count;
        copier.forEachPart(to - from, outputBytesPerTask, (a, b) -> {
            ByteBuffer h = host.duplicate();
            int lo = from + a;
            int hi = from + b;
            for (int r = 0; r < regions.size(); r++) {
                BatchLayout.Region region = regions.get(r);
                if (!region.input()) {
                    int size = region.recordBytes();
                    h.get(Math.toIntExact(region.offset() + (long) lo * size), c.arrays[r],
                            (c.first + lo) * size, (hi - lo) * size);
                    if (region.secret()) {
                        zero(host, region.offset() + (long) lo * size, (long) (hi - lo) * size);
                    }
                }
            }
            byte[] status = c.arrays[statusIndex];
            for (int r = 0; r < statusIndex; r++) {
                BatchLayout.Region region = regions.get(r);
                if (!region.input()) {
                    clearFailed(status, c.arrays[r], region.recordBytes(), c.first + lo, c.first + hi);
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
     * After a failure: waits until the slot's streams are idle, so that no copy still reads or
     * writes the pinned block when it is wiped and reused. A stream that cannot be waited for (a
     * broken context) adds its error to {@code failure}.
     */
    private void quiesce(String where, Throwable failure) {
        for (CUstream st : new CUstream[] {upStream, stream, downStream}) {
            try {
                CudaCall.check("cuStreamSynchronize(after a failure, " + where + ")",
                        () -> JCudaDriver.cuStreamSynchronize(st));
            } catch (BackendException e) {
                failure.addSuppressed(e);
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
     * Wipes the secret arrays from the device block and the workspace (which may fail on a broken
     * context: that failure is added to the one in flight, or thrown when there is none), and
     * first, when a failure is in flight, from the pinned block (always possible; on success the
     * launch path has already wiped them there).
     */
    private void wipe(BatchLayout layout, Kernel kernel, String where, Throwable inFlight) {
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
            if (used > 0) {
                CudaCall.check("cuMemsetD8Async(wipe workspace, " + where + ")",
                        () -> JCudaDriver.cuMemsetD8Async(workspace, (byte) 0, used, stream));
            }
            CudaCall.check("cuStreamSynchronize(wipe, " + where + ")", () -> JCudaDriver.cuStreamSynchronize(stream));
        } catch (BackendException e) {
            if (inFlight == null) {
                throw e;
            }
            inFlight.addSuppressed(e);
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
        for (CUevent[] events : List.of(upDone, kernelDone, downDone)) {
            for (CUevent e : events) {
                release("cuEventDestroy", e != null, () -> JCudaDriver.cuEventDestroy(e));
            }
        }
        CUstream[] streams = {stream, upStream, downStream};
        for (int i = 0; i < streamsCreated; i++) {
            CUstream st = streams[i];
            release("cuStreamDestroy", true, () -> JCudaDriver.cuStreamDestroy(st));
        }
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
