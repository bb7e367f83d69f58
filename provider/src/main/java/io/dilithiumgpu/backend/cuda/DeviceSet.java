package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskListener;
import io.dilithiumgpu.core.ParameterSet;
import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Every GPU of the host, opened: a {@link DeviceContext} per device, {@code streamsPerDevice}
 * {@link StreamSlot}s on each, and one worker thread per slot. A backend call is planned once
 * ({@link ChunkPlan}) and cut into {@link Chunk}s, so that a large batch spreads over all streams
 * of all GPUs and the upload, compute and download of consecutive chunks overlap (paper §5.4: one
 * stream per partition). One scheduling path: the chunks of a call whose plan runs them on the
 * caller go to the idle slots it claims, launched all before any is waited for; every other
 * chunk, and any that finds no idle slot, goes into one shared queue, whichever slot's worker is
 * free taking the next.
 *
 * <p>Lifecycle: opened whole or not at all; {@link #close()} fails the chunks still queued,
 * lets each worker finish the chunk in hand, joins the workers and frees slots, modules and
 * contexts. A call in progress always returns only after all its chunks are done.
 */
final class DeviceSet implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DeviceSet.class.getName());
    /** Tells a worker to stop: no call's chunk. */
    private static final Chunk STOP = new Chunk(ParameterSet.ML_DSA_44, Operation.VERIFY,
            new ChunkPlan(new int[] {0, 0}, ChunkPlan.Transfer.STAGED, false, false, false, false), 0, new byte[0][],
            null, null, null);

    private final CudaConfig config;
    private final List<DeviceContext> devices;
    private final List<StreamSlot> slots;
    private final HostCopier copier;
    private final CudaStats stats;
    private final BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
    /**
     * Chunks of calls in progress, queued or running: under {@link CudaConfig.Sync#ADAPTIVE} a lone
     * chunk's slot sleeps while another chunk is in flight, and spins while none is ({@link ChunkPlan#sleep}).
     */
    private final AtomicInteger chunksInFlight = new AtomicInteger();
    /** Where {@link #claimIdle} starts looking for idle slots. */
    private final AtomicInteger nextClaim = new AtomicInteger();
    private final List<Thread> workers = new ArrayList<>();
    private final Map<ParameterSet, Map<Operation, Integer>> preferred = new EnumMap<>(ParameterSet.class);
    private final String description;
    private final Object closeLock = new Object();
    private boolean closing;
    private BackendException closeReason;

    private DeviceSet(CudaConfig config, List<DeviceContext> devices, List<StreamSlot> slots, HostCopier copier,
                      CudaStats stats) {
        this.config = config;
        this.stats = stats;
        this.devices = devices;
        this.slots = slots;
        this.copier = copier;
        Map<DeviceContext, Integer> streams = new java.util.HashMap<>();
        for (StreamSlot slot : slots) {
            streams.merge(slot.device(), 1, Integer::sum);
        }
        StringBuilder d = new StringBuilder();
        for (DeviceContext device : devices) {
            d.append(d.length() == 0 ? "" : "; ").append(device.description());
            int n = streams.getOrDefault(device, 0);
            if (n != config.streamsPerDevice()) {
                d.append(" with ").append(n).append(" streams (what half its memory holds)");
            }
        }
        this.description = d + "; " + config.streamsPerDevice() + " streams per device, " + config.slotTasks()
                + " tasks per stream, " + config.sync().name().toLowerCase(java.util.Locale.ROOT) + " waits, "
                + CudaLoader.connections();
        for (ParameterSet p : ParameterSet.values()) {
            Map<Operation, Integer> byOp = new EnumMap<>(Operation.class);
            for (Operation op : Operation.values()) {
                long total = 0;
                for (DeviceContext device : devices) {
                    int perLaunch = Math.min(config.slotTasks(),
                            Math.max(config.minChunkTasks(), 4 * device.kernel(p, op).residentTasks()));
                    total += (long) perLaunch * streams.getOrDefault(device, 0);
                }
                byOp.put(op, (int) Math.min(total, Integer.MAX_VALUE));
            }
            preferred.put(p, byOp);
        }
    }

    /**
     * Opens every device the driver reports; its slots add their chunk times to {@code stats}.
     *
     * @throws CudaLoader.Unavailable when CUDA cannot be used on this host, and why
     * @throws BackendException       when a device fails to open (a CUDA error, out of memory)
     */
    static DeviceSet open(CudaConfig config, CudaStats stats) throws CudaLoader.Unavailable {
        CudaLoader.requestConnections(config.streamsPerDevice());
        int count = CudaLoader.initDriver();
        byte[] fatbin = CudaLoader.readFatbin();
        List<DeviceContext> devices = new ArrayList<>();
        List<StreamSlot> slots = new ArrayList<>();
        HostCopier copier = new HostCopier(config.copyThreads());
        boolean done = false;
        try {
            for (int ordinal = 0; ordinal < count; ordinal++) {
                devices.add(DeviceContext.open(ordinal, fatbin, config.sync()));
            }
            int[] fit = new int[devices.size()];
            for (int d = 0; d < fit.length; d++) {
                fit[d] = devices.get(d).slotsThatFit(config.streamsPerDevice(), config.slotTasks());
            }
            // Interleaved, so that the first free slots spread over the devices.
            for (int s = 0; s < config.streamsPerDevice(); s++) {
                for (int d = 0; d < fit.length; d++) {
                    if (s < fit[d]) {
                        slots.add(StreamSlot.open(devices.get(d), s, config.slotTasks(), copier, config.sync()));
                    }
                }
            }
            DeviceSet set = new DeviceSet(config, List.copyOf(devices), List.copyOf(slots), copier, stats);
            set.startWorkers();
            done = true;
            return set;
        } finally {
            if (!done) {
                slots.forEach(StreamSlot::close);
                devices.forEach(DeviceContext::close);
                copier.close();
            }
        }
    }

    private void startWorkers() {
        for (StreamSlot slot : slots) {
            Thread t = new Thread(() -> work(slot), "dilithiumgpu-cuda-dev" + slot.device().ordinal()
                    + "-slot" + workers.size());
            t.setDaemon(true);
            workers.add(t);
        }
        workers.forEach(Thread::start);
    }

    private void work(StreamSlot slot) {
        while (true) {
            Chunk c;
            try {
                c = queue.take();
            } catch (InterruptedException e) {
                // Workers are stopped by STOP, never by interruption; keep serving the queue.
                continue;
            }
            if (c == STOP) {
                return;
            }
            BackendException refused = refusal();
            if (refused != null) {
                c.done.completeExceptionally(refused);
                continue;
            }
            try {
                execute(slot, c, () -> c.done.complete(null));
            } catch (BackendException e) {
                failed(c, e);
            }
        }
    }

    /** Runs chunk {@code c} on {@code slot}; whatever fails comes out as a {@link BackendException}. */
    private void execute(StreamSlot slot, Chunk c, Runnable outputsReady) {
        try {
            slot.execute(c, stats, outputsReady);
        } catch (RuntimeException | Error e) {
            throw failure(slot, e);
        }
    }

    /**
     * Fails chunk {@code c}; when its outputs were already delivered (the failure came from wiping
     * the slot afterwards), logs it instead: the device's next call then fails and falls back.
     */
    private static void failed(Chunk c, BackendException e) {
        if (!c.done.completeExceptionally(e)) {
            LOG.log(System.Logger.Level.WARNING, "CUDA failure after a chunk's outputs were delivered: "
                    + e.getMessage());
        }
    }

    /** A fresh exception per refused chunk, caused by the reason the set closed; null while open. */
    private synchronized BackendException refusal() {
        return closing ? new BackendException(closeReason.getMessage(), closeReason) : null;
    }

    /**
     * Runs {@code n} tasks of {@code op} on heap arrays, as {@link #run(ParameterSet, Operation,
     * int, byte[][], Pointer[], ByteBuffer[], TaskListener)} does.
     *
     * @param arrays the caller's arrays in {@link BatchLayout} region order, status last
     */
    void run(ParameterSet params, Operation op, int n, byte[][] arrays) {
        run(params, op, n, arrays, null, null, null);
    }

    /**
     * Runs {@code n} tasks of {@code op}: plans the call, runs on the calling thread the chunks it
     * finds idle slots for when the plan says so ({@link #runOnCaller}), queues the rest for the
     * slots' workers and waits for all.
     *
     * @param arrays the caller's arrays in {@link BatchLayout} region order, status last (the only
     *               entry used when {@code pinned} is not null)
     * @param pinned the records in registered host memory, or null for heap arrays
     * @param views  views of {@code pinned}, or null
     * @param early  told of each task as it ends when the plan can tell ({@link ChunkPlan#tellsEarly}), or null
     * @throws BackendException the first chunk failure (the others are suppressed into it)
     */
    void run(ParameterSet params, Operation op, int n, byte[][] arrays, Pointer[] pinned, ByteBuffer[] views,
             TaskListener early) {
        int count = ChunkPlan.bounds(n, config.slotTasks(), slots.size(), config.minChunkTasks()).length - 1;
        int inFlight = chunksInFlight.getAndAdd(count);
        ChunkPlan plan = ChunkPlan.of(n, op, pinned != null, early != null, config, slots.size(), inFlight);
        List<Chunk> chunks = new ArrayList<>(plan.chunks());
        for (int i = 0; i < plan.chunks(); i++) {
            chunks.add(new Chunk(params, op, plan, i, arrays, pinned, views, early));
        }
        List<StreamSlot> claimed = plan.onCaller() ? claimIdle(chunks.size()) : List.of();
        List<Chunk> queued = chunks.subList(claimed.size(), chunks.size());
        Failures failures = new Failures();
        try {
            synchronized (this) {
                for (Chunk c : queued) {
                    if (closing) {
                        c.done.completeExceptionally(refusal());
                    } else {
                        c.queuedNanos = System.nanoTime();
                        queue.add(c);
                    }
                }
            }
            runOnCaller(chunks.subList(0, claimed.size()), claimed, failures);
            for (Chunk c : queued) {
                try {
                    c.done.join();
                } catch (CompletionException e) {
                    failures.add(e.getCause() instanceof BackendException b ? b
                            : new BackendException("CUDA backend failure: " + e.getCause(), e.getCause()));
                }
            }
        } finally {
            chunksInFlight.addAndGet(-chunks.size());
        }
        failures.throwFirst();
    }

    /**
     * Claims up to {@code wanted} idle slots for the calling thread ({@link StreamSlot#tryClaim}),
     * starting where the last claim left off; none when the set is closing.
     */
    private List<StreamSlot> claimIdle(int wanted) {
        List<StreamSlot> claimed = new ArrayList<>(wanted);
        int count = slots.size();
        int start = Math.floorMod(nextClaim.getAndAdd(wanted), count);
        for (int i = 0; i < count && claimed.size() < wanted; i++) {
            StreamSlot slot = slots.get((start + i) % count);
            if (slot.tryClaim()) {
                claimed.add(slot);
            }
        }
        if (refusal() != null) {
            claimed.forEach(StreamSlot::unclaim);
            return List.of();
        }
        return claimed;
    }

    /**
     * Runs {@code chunks} on the calling thread, one on each of the {@code claimed} slots: all
     * launched first, then each finished in turn, then the slots given back. A batch's first
     * launches do not wait for workers to wake one after another (a blocking queue wakes its
     * next taker only once the last has taken), nor its end for the caller to be woken.
     */
    private void runOnCaller(List<Chunk> chunks, List<StreamSlot> claimed, Failures failures) {
        List<ChunkRun> launched = new ArrayList<>(chunks.size());
        try {
            for (int i = 0; i < chunks.size(); i++) {
                StreamSlot slot = claimed.get(i);
                Chunk c = chunks.get(i);
                c.queuedNanos = System.nanoTime();
                try {
                    launched.add(ChunkRun.launch(slot, c));
                } catch (RuntimeException | Error e) {
                    launched.add(null);
                    failures.add(failure(slot, e));
                }
            }
            for (int i = 0; i < launched.size(); i++) {
                ChunkRun run = launched.get(i);
                if (run != null) {
                    StreamSlot slot = claimed.get(i);
                    try {
                        run.finish(stats, stats::ranInline);
                    } catch (RuntimeException | Error e) {
                        failures.add(failure(slot, e));
                    }
                }
            }
        } finally {
            claimed.forEach(StreamSlot::unclaim);
        }
    }

    /** {@code e}, from running a chunk on {@code slot}, as a {@link BackendException}. */
    private static BackendException failure(StreamSlot slot, Throwable e) {
        return e instanceof BackendException b ? b
                : new BackendException("CUDA backend failure on " + slot.device().description() + ": " + e, e);
    }

    /** The failures of one call's chunks: the first, with the others suppressed into it. */
    private static final class Failures {
        private BackendException first;

        void add(BackendException e) {
            if (first == null) {
                first = e;
            } else if (first != e) {
                first.addSuppressed(e);
            }
        }

        void throwFirst() {
            if (first != null) {
                throw first;
            }
        }
    }

    /**
     * Page-locks {@code bytes} of host memory at {@code address} for every context of the process
     * and maps it into the devices' address space ({@code CU_MEMHOSTREGISTER_PORTABLE | DEVICEMAP}:
     * signing kernels write their outputs straight into it); memory another set registered, still
     * registered, is taken as it is.
     *
     * @throws BackendException when the set is closed or the driver refuses
     */
    void registerHost(Pointer address, long bytes) {
        DeviceContext device = devices.get(0);
        synchronized (this) {
            if (closing) {
                throw refusal();
            }
        }
        String what = "cuMemHostRegister(" + bytes + " bytes, device " + device.ordinal() + ")";
        device.bind(what);
        int registered = CUresult.CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
        CudaCall.check(what, () -> {
            int result;
            try {
                result = JCudaDriver.cuMemHostRegister(address, bytes,
                        JCudaDriver.CU_MEMHOSTREGISTER_PORTABLE | JCudaDriver.CU_MEMHOSTREGISTER_DEVICEMAP);
            } catch (CudaException e) {
                // JCuda's exceptions (on in this process) carry the CUresult's name as their message.
                if (!CUresult.stringFor(registered).equals(e.getMessage())) {
                    throw e;
                }
                result = registered;
            }
            return result == registered ? CUresult.CUDA_SUCCESS : result;
        });
    }

    /** Undoes {@link #registerHost} unless the set is closed (its contexts then went with it); logs failures. */
    void unregisterHost(Pointer address) {
        synchronized (this) {
            if (closing) {
                return;
            }
        }
        try {
            DeviceContext device = devices.get(0);
            device.bind("cuMemHostUnregister");
            CudaCall.check("cuMemHostUnregister (device " + device.ordinal() + ")",
                    () -> JCudaDriver.cuMemHostUnregister(address));
        } catch (BackendException e) {
            LOG.log(System.Logger.Level.DEBUG, e.getMessage());
        }
    }

    /** The preferred batch size: per device, about four device-fills per launch, times its streams. */
    int preferredBatchSize(ParameterSet params, Operation op) {
        return preferred.get(params).get(op);
    }

    /** The devices and slots, for logs. */
    String description() {
        return description;
    }

    /** One description per device, in ordinal order. */
    List<String> deviceDescriptions() {
        return devices.stream().map(DeviceContext::description).toList();
    }

    /** The slots, for inspection by tests. */
    List<StreamSlot> slots() {
        return slots;
    }

    int deviceCount() {
        return devices.size();
    }

    /**
     * Stops the workers and frees everything. Queued chunks fail with {@code reason}. Idempotent:
     * a second caller returns once the first has finished. Safe from any thread but a worker.
     */
    void close(BackendException reason) {
        synchronized (closeLock) {
            synchronized (this) {
                if (closing) {
                    return;
                }
                closing = true;
                closeReason = reason;
                for (int i = 0; i < workers.size(); i++) {
                    queue.add(STOP);
                }
            }
            release();
        }
    }

    private void release() {
        boolean interrupted = false;
        for (Thread t : workers) {
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        for (StreamSlot slot : slots) {
            slot.close();
        }
        for (DeviceContext device : devices) {
            device.close();
        }
        copier.close();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        close(new BackendException("CUDA backend closed"));
    }
}
