package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Operation;

import java.util.Arrays;

/**
 * How one backend call runs on the slots, decided before any work starts: where its chunks
 * begin and end, how their records travel, how their outputs come back, and how the threads
 * that run them wait. A pure function of the call and the backend's state ({@link #of}); the
 * slots and their strategy classes only carry it out.
 *
 * @param bounds     the start of each chunk, followed by n ({@link #bounds(int, int, int, int, boolean)}):
 *                   a verification's last chunk on each device half the size of the others
 * @param devices    the device of each chunk (its index in the {@link DeviceSet}): a call of
 *                   several chunks is dealt to as many devices as it has chunks, all of them at
 *                   most, in equal shares of tasks, each share cut into chunks for its device's
 *                   slots; a call of one chunk goes to the least loaded device ({@link DeviceLoads}).
 *                   Each device's chunks are adjacent
 * @param transfer   how the records travel between the caller and the device
 * @param tellsEarly whether the slots tell the call's listener of each task as it ends (only
 *                   {@link Transfer#PUBLISHED} chunks can: their statuses appear in host memory)
 * @param ordered    whether the chunks' input copies go through the device's {@link UploadLane},
 *                   one chunk's after another's, so that each launch waits only for its own: a
 *                   call of several chunks. A lone chunk (each of the batcher's) copies on its
 *                   slot's own stream and takes no lock shared with other slots' threads
 * @param sleep      whether a slot's thread sleeps on a blocking-sync event while the GPU runs
 *                   the chunk, instead of waiting as the context's scheduling flag says
 *                   ({@link CudaConfig.Sync#ADAPTIVE}: a lone chunk while other chunks are in
 *                   flight, as the batcher's batches of concurrent single calls are)
 */
record ChunkPlan(int[] bounds, int[] devices, Transfer transfer, boolean tellsEarly, boolean ordered,
                 boolean sleep) {

    /** How a chunk's records travel between the caller's memory and the device. */
    enum Transfer {
        /**
         * Heap arrays: packed into the slot's pinned block, uploaded with one copy, downloaded
         * with one copy after the launch and unpacked ({@link StagedTransfer}).
         */
        STAGED,
        /**
         * Records in the caller's registered host memory: each region copied straight between it
         * and the device, the status bytes through the slot's pinned block ({@link DirectTransfer}).
         */
        DIRECT,
        /**
         * Signing on registered host memory: inputs copied as {@link #DIRECT}; the kernels write
         * each signature straight into the caller's memory and then, after a system-scope fence,
         * its status into the slot's mapped pinned block, so that nothing is downloaded
         * ({@link DirectTransfer}, published).
         */
        PUBLISHED
    }

    ChunkPlan {
        bounds = bounds.clone();
        devices = devices.clone();
        if (devices.length != bounds.length - 1) {
            throw new IllegalArgumentException(devices.length + " devices for " + (bounds.length - 1) + " chunks");
        }
        if (tellsEarly && transfer != Transfer.PUBLISHED) {
            throw new IllegalArgumentException("only published chunks tell tasks early");
        }
    }

    /**
     * The plan of a call of {@code n} tasks of {@code op}.
     *
     * @param pinned   whether the records are in registered host memory
     * @param listener whether the call has a task listener
     * @param config   the backend's slot sizes and waiting
     * @param loads    the devices' slots and the chunks of other calls in flight on each
     * @throws IllegalArgumentException when n &lt; 1
     */
    static ChunkPlan of(int n, Operation op, boolean pinned, boolean listener, CudaConfig config, DeviceLoads loads) {
        return of(n, op, pinned, listener, config, loads, false);
    }

    /**
     * As above, for a call whose tasks are all of one key ({@code oneKey}). Its verifications are
     * cut into chunks of a whole slot each: with the key cached a task moves only its signature
     * and μ and the kernel runs several times faster, so a chunk's launch (its driver calls, a
     * few chunks after one another from each thread) rather than its copies or its kernel sets
     * the pace, and fewer launches end the call sooner. Its signing on registered host memory
     * goes as one chunk per device, however many tasks a slot is sized for: the kernel reads and
     * writes the records where they lie, so the slot holds only the key references and statuses
     * ({@link KeyedLayout#publishedTasks}), and one launch that holds the device's whole share ends
     * with warps helping its last rejection loops ({@link SigningWidth}) instead of one loop at a
     * time in each of several launches.
     */
    static ChunkPlan of(int n, Operation op, boolean pinned, boolean listener, CudaConfig config, DeviceLoads loads,
                        boolean oneKey) {
        boolean shortTail = op == Operation.VERIFY && !oneKey;
        boolean wholeShares = op == Operation.SIGN && oneKey && pinned;
        int minChunkTasks = op == Operation.VERIFY && oneKey ? config.slotTasks() : config.minChunkTasks();
        int wanted = bounds(n, config.slotTasks(), loads.totalSlots(), minChunkTasks, shortTail).length - 1;
        int[] chosen = loads.leastLoaded(Math.min(wanted, loads.devices()));
        int[][] shares = new int[chosen.length][];
        int chunks = 0;
        for (int k = 0; k < chosen.length; k++) {
            int from = HostCopier.bound(n, chosen.length, k);
            int share = HostCopier.bound(n, chosen.length, k + 1) - from;
            shares[k] = wholeShares
                    ? bounds(share, wholeShareTasks(config.slotTasks()), 1, share)
                    : bounds(share, config.slotTasks(), loads.slots(chosen[k]), minChunkTasks, shortTail);
            for (int i = 0; i < shares[k].length; i++) {
                shares[k][i] += from;
            }
            chunks += shares[k].length - 1;
        }
        int[] bounds = new int[chunks + 1];
        int[] devices = new int[chunks];
        int c = 0;
        for (int k = 0; k < chosen.length; k++) {
            for (int i = 0; i + 1 < shares[k].length; i++, c++) {
                bounds[c] = shares[k][i];
                devices[c] = chosen[k];
            }
        }
        bounds[chunks] = n;
        Transfer transfer = !pinned ? Transfer.STAGED : op == Operation.SIGN ? Transfer.PUBLISHED : Transfer.DIRECT;
        boolean sleep = config.sync().sleepsForLoneChunks() && chunks == 1 && loads.totalInFlight() >= 1;
        return new ChunkPlan(bounds, devices, transfer, listener && transfer == Transfer.PUBLISHED, chunks > 1, sleep);
    }

    /** {@link #wholeShareTasks}'s last answer: slotTasks in the high half, its tasks in the low; 0 before the first. */
    private static volatile long wholeShare;

    /**
     * The most tasks one published one-key signing chunk takes on a slot of {@code slotTasks}
     * ({@link KeyedLayout#publishedTasks}), worked out once per slot size: the block's capacity is
     * the largest of every set's layouts, too many to build again for each of the batcher's calls.
     */
    static int wholeShareTasks(int slotTasks) {
        long w = wholeShare;
        if ((int) (w >>> 32) != slotTasks) {
            int tasks = KeyedLayout.publishedTasks(BatchLayout.capacityBytes(slotTasks));
            w = (long) slotTasks << 32 | tasks;
            wholeShare = w;
        }
        return (int) w;
    }

    /**
     * Cuts {@code n} tasks into balanced chunks: enough that none exceeds {@code slotTasks}, and
     * as many as {@code slots} when each keeps at least {@code minChunkTasks} tasks, so that a
     * batch that fills several slots spreads over them.
     *
     * <p>With {@code shortTail}, a cut of several chunks gives the last one half the tasks of the
     * others (which share its other half), where the others still fit {@code slotTasks}; the
     * count of chunks is the same. Why: a verification is bound by its uploads, which run one
     * chunk after another on the device's {@link UploadLane} while the kernels keep up, so the
     * call ends one chunk's kernel and download after its last upload; a smaller last chunk
     * shortens that drain, and moves the same bytes.
     *
     * @return the start of each chunk, followed by {@code n}
     */
    static int[] bounds(int n, int slotTasks, int slots, int minChunkTasks, boolean shortTail) {
        if (n < 1) {
            throw new IllegalArgumentException("no tasks to cut");
        }
        int bySize = (int) ((n + (long) slotTasks - 1) / slotTasks);
        int bySpread = Math.min(slots, n / minChunkTasks);
        int chunks = Math.max(1, Math.max(bySize, bySpread));
        // In halves: each chunk but the last takes two, the last one.
        long halves = 2L * chunks - 1;
        boolean tail = shortTail && chunks > 1 && (2L * n + halves - 1) / halves <= slotTasks;
        int[] bounds = new int[chunks + 1];
        for (int i = 0; i <= chunks; i++) {
            bounds[i] = tail && i < chunks ? (int) (2L * n * i / halves) : HostCopier.bound(n, chunks, i);
        }
        return bounds;
    }

    /** {@link #bounds(int, int, int, int, boolean)} in equal chunks. */
    static int[] bounds(int n, int slotTasks, int slots, int minChunkTasks) {
        return bounds(n, slotTasks, slots, minChunkTasks, false);
    }

    @Override
    public int[] bounds() {
        return bounds.clone();
    }

    @Override
    public int[] devices() {
        return devices.clone();
    }

    /** The device of chunk c. */
    int device(int c) {
        return devices[c];
    }

    /** The number of chunks. */
    int chunks() {
        return bounds.length - 1;
    }

    /**
     * Whether the chunk that starts at task {@code first} is its device's only one: it holds the
     * device's whole share of the call (each device's chunks are adjacent).
     */
    boolean aloneOnDevice(int first) {
        int c = Arrays.binarySearch(bounds, 0, bounds.length - 1, first);
        if (c < 0) {
            throw new IllegalArgumentException("no chunk starts at task " + first);
        }
        return (c == 0 || devices[c - 1] != devices[c]) && (c + 1 == chunks() || devices[c + 1] != devices[c]);
    }

    /** The first task of chunk c. */
    int first(int c) {
        return bounds[c];
    }

    /** The tasks of chunk c. */
    int count(int c) {
        return bounds[c + 1] - bounds[c];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkPlan p && Arrays.equals(bounds, p.bounds) && Arrays.equals(devices, p.devices)
                && transfer == p.transfer
                && tellsEarly == p.tellsEarly && ordered == p.ordered && sleep == p.sleep;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(bounds) + Arrays.hashCode(devices))
                + java.util.Objects.hash(transfer, tellsEarly, ordered, sleep);
    }

    @Override
    public String toString() {
        return "ChunkPlan[bounds=" + Arrays.toString(bounds) + ", devices=" + Arrays.toString(devices) + ", "
                + transfer + (tellsEarly ? ", tells early" : "")
                + (ordered ? ", ordered uploads" : "") + (sleep ? ", sleeps" : "")
                + "]";
    }
}
