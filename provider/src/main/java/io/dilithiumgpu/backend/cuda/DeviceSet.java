package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.ProviderThreads;
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
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The GPUs of the host, opened: a {@link DeviceContext} per device, {@code streamsPerDevice}
 * {@link StreamSlot}s on each, and one worker thread per slot. A backend call is planned once
 * ({@link ChunkPlan}): dealt to the devices in equal shares (a call of one chunk to the least
 * loaded device) and cut into {@link Chunk}s, so that a large batch spreads over all streams of
 * all GPUs and the upload, compute and download of consecutive chunks overlap (paper §5.4: one
 * stream per partition).
 *
 * <p>One scheduling path, per device: each device has its own queue, served by its own slots'
 * workers. A share of a call (the call's chunks on that device) is dealt to one or more threads
 * ({@link LaunchSplit}), and each thread's part runs on the idle slots of the device that it
 * claims, all launched before any is waited for; the chunks that find no idle slot go to the
 * device's queue. When the plan runs its chunks on the caller, the caller runs the first part of
 * the first device's share itself and hands every other part, of every device, to its device's
 * queue first, so that the launches of several chunks run side by side rather than one after
 * another from one thread; every other call's chunk goes to its device's queue.
 *
 * <p>Lifecycle: opened whole or not at all; {@link #close()} fails the chunks still queued,
 * lets each worker finish the chunks in hand, joins the workers and frees slots, modules and
 * contexts. A call in progress always returns only after all its chunks are done.
 */
final class DeviceSet implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DeviceSet.class.getName());

    /** Chunks of one call on one device, in plan order: what one thread launches. */
    private record Share(List<Chunk> chunks) {}

    /** Tells a worker to stop: no call's share. */
    private static final Share STOP = new Share(List.of());

    private final CudaConfig config;
    private final List<DeviceContext> devices;
    private final List<StreamSlot> slots;
    private final CudaStats stats;
    /** Per device: the shares its workers take. */
    private final List<BlockingQueue<Share>> queues = new ArrayList<>();
    /** Per device: its slots, in the order {@link #claimIdle} tries them. */
    private final List<List<StreamSlot>> slotsOf = new ArrayList<>();
    private final int[] slotCounts;
    /**
     * Per device: chunks of calls in progress, queued or running. A call of one chunk goes to the
     * least loaded device; under {@link CudaConfig.Sync#ADAPTIVE} a lone chunk's slot sleeps while
     * another chunk is in flight, and spins while none is ({@link ChunkPlan#sleep}).
     */
    private final AtomicIntegerArray inFlight;
    /** The next call's {@link DeviceLoads#rotation}. */
    private final AtomicInteger rotation = new AtomicInteger();
    /** Where {@link #claimIdle} starts looking for idle slots. */
    private final AtomicInteger nextClaim = new AtomicInteger();
    private final List<Thread> workers = new ArrayList<>();
    private final Map<ParameterSet, Map<Operation, Integer>> preferred = new EnumMap<>(ParameterSet.class);
    /**
     * The sets whose keyed entry points every device with slots has, with a key cache: where one-key
     * records run as they are. Empty until {@link #keyCachesOpened}.
     */
    private volatile java.util.Set<ParameterSet> keyedEverywhere = java.util.EnumSet.noneOf(ParameterSet.class);
    private final String description;
    private final Object closeLock = new Object();
    private boolean closing;
    private BackendException closeReason;

    private DeviceSet(CudaConfig config, List<DeviceContext> devices, List<StreamSlot> slots, CudaStats stats) {
        this.config = config;
        this.stats = stats;
        this.devices = devices;
        this.slots = slots;
        this.slotCounts = new int[devices.size()];
        this.inFlight = new AtomicIntegerArray(devices.size());
        for (int d = 0; d < devices.size(); d++) {
            DeviceContext device = devices.get(d);
            List<StreamSlot> own = slots.stream().filter(slot -> slot.device() == device).toList();
            slotsOf.add(own);
            slotCounts[d] = own.size();
            queues.add(new LinkedBlockingQueue<>());
        }
        stats.devicesOpened(devices.size());
        StringBuilder d = new StringBuilder();
        for (int i = 0; i < devices.size(); i++) {
            d.append(d.length() == 0 ? "" : "; ").append(devices.get(i).description());
            if (slotCounts[i] != config.streamsPerDevice()) {
                d.append(" with ").append(slotCounts[i]).append(" streams (what half its memory holds)");
            }
        }
        this.description = d + "; " + config.streamsPerDevice() + " streams per device, " + config.slotTasks()
                + " tasks per stream, " + config.sync().name().toLowerCase(java.util.Locale.ROOT) + " waits, "
                + CudaLoader.connections();
        for (ParameterSet p : ParameterSet.values()) {
            Map<Operation, Integer> byOp = new EnumMap<>(Operation.class);
            for (Operation op : Operation.values()) {
                long total = 0;
                for (int i = 0; i < devices.size(); i++) {
                    int perLaunch = Math.min(config.slotTasks(),
                            Math.max(config.minChunkTasks(), 4 * devices.get(i).kernel(p, op).residentTasks()));
                    total += (long) perLaunch * slotCounts[i];
                }
                byOp.put(op, (int) Math.min(total, Integer.MAX_VALUE));
            }
            preferred.put(p, byOp);
        }
    }

    /**
     * Opens the devices {@code config} names ({@link CudaConfig#devices()}; every device the
     * driver reports when it names none); its slots add their chunk times to {@code stats}.
     *
     * @throws CudaLoader.Unavailable when CUDA cannot be used on this host, and why; also when
     *                                {@code config} names a device the driver does not report
     * @throws BackendException       when a device fails to open (a CUDA error, out of memory)
     */
    static DeviceSet open(CudaConfig config, CudaStats stats) throws CudaLoader.Unavailable {
        CudaLoader.requestConnections(config.streamsPerDevice());
        List<Integer> ordinals = ordinals(config, CudaLoader.initDriver());
        byte[] fatbin = CudaLoader.readFatbin();
        List<DeviceContext> devices = new ArrayList<>();
        List<StreamSlot> slots = new ArrayList<>();
        boolean done = false;
        try {
            for (int ordinal : ordinals) {
                devices.add(DeviceContext.open(ordinal, fatbin, config.sync(), config.copyThreads()));
            }
            int[] fit = new int[devices.size()];
            for (int d = 0; d < fit.length; d++) {
                fit[d] = devices.get(d).slotsThatFit(config.streamsPerDevice(), config.slotTasks());
            }
            for (int s = 0; s < config.streamsPerDevice(); s++) {
                for (int d = 0; d < fit.length; d++) {
                    if (s < fit[d]) {
                        DeviceContext device = devices.get(d);
                        slots.add(StreamSlot.open(device, s, config.slotTasks(), device.copier(), config.sync()));
                    }
                }
            }
            DeviceSet set = new DeviceSet(config, List.copyOf(devices), List.copyOf(slots), stats);
            set.startWorkers();
            done = true;
            return set;
        } finally {
            if (!done) {
                slots.forEach(StreamSlot::close);
                devices.forEach(DeviceContext::close);
            }
        }
    }

    /**
     * The ordinals of the devices to open: those {@code config} names, or all {@code count}.
     *
     * @throws CudaLoader.Unavailable ({@link CudaLoader.Reason#NO_DEVICE}) for a named device the
     *                                driver does not report
     */
    static List<Integer> ordinals(CudaConfig config, int count) throws CudaLoader.Unavailable {
        if (config.devices().isEmpty()) {
            return java.util.stream.IntStream.range(0, count).boxed().toList();
        }
        for (int ordinal : config.devices()) {
            if (ordinal >= count) {
                throw new CudaLoader.Unavailable(CudaLoader.Reason.NO_DEVICE, "CUDA device " + ordinal
                        + " was asked for; the driver reports " + count + " (ordinals 0 to " + (count - 1) + ")", null);
            }
        }
        return config.devices();
    }

    private void startWorkers() {
        for (int d = 0; d < devices.size(); d++) {
            for (StreamSlot slot : slotsOf.get(d)) {
                int device = d;
                Thread t = ProviderThreads.register(new Thread(() -> work(device, slot),
                        "dilithiumgpu-cuda-dev" + slot.device().ordinal() + "-slot" + workers.size()));
                t.setDaemon(true);
                workers.add(t);
            }
        }
        workers.forEach(Thread::start);
    }

    /** A worker of {@code device}, whose own slot is {@code own}: runs the shares queued for the device. */
    private void work(int device, StreamSlot own) {
        BlockingQueue<Share> queue = queues.get(device);
        while (true) {
            Share share;
            try {
                share = queue.take();
            } catch (InterruptedException e) {
                // Workers are stopped by STOP, never by interruption; keep serving the queue.
                continue;
            }
            if (share == STOP) {
                return;
            }
            runShare(device, share.chunks(), own);
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
     * Runs {@code n} tasks of {@code op}: plans the call over the devices, deals each device's
     * share to its launching threads ({@link LaunchSplit}), hands each part to that device's
     * workers, except the first device's first part, which the calling thread runs itself on the
     * idle slots it claims (those that find none are queued for the workers), and waits for all
     * chunks. Why on the caller: it waits for the call anyway, and a hand-off would add a worker's
     * wake-up before the launch and the caller's after it (a lone chunk as much as a call of
     * several; the batcher's batch threads are such callers).
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
        run(params, op, n, arrays, pinned, views, early, null, null, false);
    }

    /**
     * As above, with the call's key objects, one per task, or null ({@link Chunk#keys}): chunks
     * with them run on the device key cache where it helps ({@link KeyedRun}); where each task's
     * key record was copied from, or null ({@link Chunk#keySources}); and whether the μ field
     * holds message records ({@link Chunk#messages}: one-key calls only).
     */
    void run(ParameterSet params, Operation op, int n, byte[][] arrays, Pointer[] pinned, ByteBuffer[] views,
             TaskListener early, Object[] keys, Object[] keySources, boolean messages) {
        ChunkPlan plan = ChunkPlan.of(n, op, pinned != null, early != null, config, loads(keys),
                KeyedRun.oneKey(keys, n));
        List<Chunk> chunks = new ArrayList<>(plan.chunks());
        for (int i = 0; i < plan.chunks(); i++) {
            chunks.add(new Chunk(params, op, plan, i, arrays, pinned, views, early, keys, keySources, messages));
            inFlight.incrementAndGet(plan.device(i));
        }
        try {
            List<Chunk> own = List.of();
            int ownDevice = -1;
            for (int from = 0, to; from < chunks.size(); from = to) {
                int device = plan.device(from);
                to = from + 1;
                while (to < chunks.size() && plan.device(to) == device) {
                    to++;
                }
                List<List<Chunk>> parts = LaunchSplit.deal(chunks.subList(from, to), slotCounts[device]);
                for (int p = 0; p < parts.size(); p++) {
                    if (from == 0 && p == 0) {
                        own = parts.get(p);
                        ownDevice = device;
                    } else {
                        queue(device, parts.get(p));
                    }
                }
            }
            if (!own.isEmpty()) {
                runShare(ownDevice, own, null);
            }
            Failures failures = new Failures();
            for (Chunk c : chunks) {
                try {
                    c.done.join();
                } catch (CompletionException e) {
                    failures.add(e.getCause() instanceof BackendException b ? b
                            : new BackendException("CUDA backend failure: " + e.getCause(), e.getCause()));
                }
            }
            failures.throwFirst();
        } finally {
            for (int i = 0; i < plan.chunks(); i++) {
                inFlight.decrementAndGet(plan.device(i));
            }
        }
    }

    /**
     * The devices as the next call's plan sees them. Ties between equally loaded devices go to
     * the next device in turn, except for a call with key objects: its ties go to the device its
     * first key names, so that a key's calls on idle GPUs keep landing where its cache slot is.
     */
    private DeviceLoads loads(Object[] keys) {
        int[] now = new int[slotCounts.length];
        for (int d = 0; d < now.length; d++) {
            now[d] = inFlight.get(d);
        }
        Object key = keys == null || keys.length == 0 ? null : keys[0];
        int turn = key == null ? rotation.getAndIncrement() : System.identityHashCode(key);
        return new DeviceLoads(slotCounts, now, turn);
    }

    /** Queues {@code chunks}, all of one call, for {@code device}'s workers; fails them when the set is closing. */
    private void queue(int device, List<Chunk> chunks) {
        if (chunks.isEmpty()) {
            return;
        }
        synchronized (this) {
            if (closing) {
                chunks.forEach(c -> c.done.completeExceptionally(refusal()));
                return;
            }
            long now = System.nanoTime();
            chunks.forEach(c -> c.queuedNanos = now);
            queues.get(device).add(new Share(chunks));
        }
    }

    /**
     * Runs {@code share}, one thread's chunks of one call on {@code device}, on the idle slots it
     * claims; queues those that find none for the device's workers first. A worker ({@code own}:
     * its slot; null on the caller's thread) that finds no idle slot queues all but the first and
     * runs that one on its own slot once it is free. Completes every chunk it runs, normally or
     * with a {@link BackendException}; never throws.
     */
    private void runShare(int device, List<Chunk> share, StreamSlot own) {
        List<Chunk> mine = share;
        try {
            List<StreamSlot> claimed = claimIdle(device, share.size(), own);
            if (claimed.isEmpty() && refusal() != null) {
                share.forEach(c -> c.done.completeExceptionally(refusal()));
            } else if (claimed.isEmpty() && own != null) {
                mine = share.subList(0, 1);
                queue(device, share.subList(1, share.size()));
                Chunk c = share.get(0);
                try {
                    execute(own, c, () -> {
                        stats.ranOn(device, c.count);
                        c.done.complete(null);
                    });
                } catch (BackendException e) {
                    failed(c, e);
                }
            } else {
                mine = share.subList(0, claimed.size());
                queue(device, share.subList(claimed.size(), share.size()));
                runClaimed(device, mine, claimed, own == null);
            }
        } catch (RuntimeException | Error e) {
            // Not expected (each chunk's failure is its own); none of this thread's chunks may be
            // left unfinished. Chunks queued for other threads are theirs to finish.
            BackendException failure = e instanceof BackendException b ? b
                    : new BackendException("CUDA backend failure: " + e, e);
            mine.forEach(c -> c.done.completeExceptionally(failure));
        }
    }

    /**
     * Claims up to {@code wanted} idle slots of {@code device} for the calling thread
     * ({@link StreamSlot#tryClaim}): {@code own} first when it is not null, then from where the
     * last claim left off; none when the set is closing.
     */
    private List<StreamSlot> claimIdle(int device, int wanted, StreamSlot own) {
        List<StreamSlot> claimed = new ArrayList<>(wanted);
        if (own != null && own.tryClaim()) {
            claimed.add(own);
        }
        List<StreamSlot> candidates = slotsOf.get(device);
        int count = candidates.size();
        int start = Math.floorMod(nextClaim.getAndAdd(wanted), count);
        for (int i = 0; i < count && claimed.size() < wanted; i++) {
            StreamSlot slot = candidates.get((start + i) % count);
            if (slot != own && slot.tryClaim()) {
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
     * Runs {@code chunks}, one on each of the {@code claimed} slots, on the calling thread: all
     * launched first, then each finished in turn, then the slots given back. A share's first
     * launches do not wait for workers to wake one after another (a blocking queue wakes its
     * next taker only once the last has taken), nor its end for the caller to be woken.
     *
     * @param device the claimed slots' device
     * @param inline whether the calling thread is the call's caller (counted in the stats)
     */
    private void runClaimed(int device, List<Chunk> chunks, List<StreamSlot> claimed, boolean inline) {
        List<ChunkRun> launched = new ArrayList<>(chunks.size());
        try {
            for (int i = 0; i < chunks.size(); i++) {
                StreamSlot slot = claimed.get(i);
                Chunk c = chunks.get(i);
                if (inline) {
                    c.queuedNanos = System.nanoTime();
                }
                try {
                    launched.add(ChunkRun.launch(slot, c));
                } catch (RuntimeException | Error e) {
                    launched.add(null);
                    failed(c, failure(slot, e));
                }
            }
            for (int i = 0; i < launched.size(); i++) {
                ChunkRun run = launched.get(i);
                if (run != null) {
                    Chunk c = chunks.get(i);
                    try {
                        run.finish(stats, () -> {
                            if (inline) {
                                stats.ranInline();
                            }
                            stats.ranOn(device, c.count);
                            c.done.complete(null);
                        });
                    } catch (RuntimeException | Error e) {
                        failed(c, failure(claimed.get(i), e));
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
        for (DeviceContext d : devices) {
            d.mapHost(address);
        }
    }

    /** Undoes {@link #registerHost} unless the set is closed (its contexts then went with it); logs failures. */
    void unregisterHost(Pointer address) {
        synchronized (this) {
            if (closing) {
                return;
            }
        }
        for (DeviceContext d : devices) {
            d.unmapHost(address);
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

    /**
     * Takes note of the devices' key caches, once the backend has opened them
     * ({@link DeviceContext#openKeyCache}), for {@link #keyedEverywhere}.
     */
    void keyCachesOpened() {
        java.util.Set<ParameterSet> sets = java.util.EnumSet.noneOf(ParameterSet.class);
        for (ParameterSet p : ParameterSet.values()) {
            boolean keyed = true;
            for (int d = 0; d < devices.size(); d++) {
                DeviceContext device = devices.get(d);
                keyed &= slotCounts[d] == 0 || (device.keyCache() != null && device.keyedKernels(p) != null);
            }
            if (keyed) {
                sets.add(p);
            }
        }
        keyedEverywhere = sets;
    }

    /**
     * Whether every device with slots has a key cache and the keyed entry points of {@code params},
     * which one-key records need (their tasks carry no key record of their own); false before
     * {@link #keyCachesOpened}.
     */
    boolean keyedEverywhere(ParameterSet params) {
        return keyedEverywhere.contains(params);
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
                for (int d = 0; d < devices.size(); d++) {
                    for (int i = 0; i < slotsOf.get(d).size(); i++) {
                        queues.get(d).add(STOP);
                    }
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
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        close(new BackendException("CUDA backend closed"));
    }
}
