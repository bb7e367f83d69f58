package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Operation;

import java.util.Arrays;

/**
 * How one backend call runs on the slots, decided before any work starts: where its chunks
 * begin and end, how their records travel, how their outputs come back, and how the threads
 * that run them wait. A pure function of the call and the backend's state ({@link #of}); the
 * slots and their strategy classes only carry it out.
 *
 * @param bounds     the start of each chunk, followed by n ({@link #bounds(int, int, int, int)})
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
 * @param onCaller   whether the calling thread runs the chunks itself on the idle slots it
 *                   claims (a call of several chunks, or a verification chunk: its caller would
 *                   otherwise wait for a worker to wake), queueing for the slots' workers only
 *                   the chunks that find no idle slot
 */
record ChunkPlan(int[] bounds, Transfer transfer, boolean tellsEarly, boolean ordered, boolean sleep,
                 boolean onCaller) {

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
        if (tellsEarly && transfer != Transfer.PUBLISHED) {
            throw new IllegalArgumentException("only published chunks tell tasks early");
        }
    }

    /**
     * The plan of a call of {@code n} tasks of {@code op}.
     *
     * @param pinned         whether the records are in registered host memory
     * @param listener       whether the call has a task listener
     * @param config         the backend's slot sizes and waiting
     * @param slots          the slots open over all devices
     * @param chunksInFlight chunks of other calls queued or running when this call starts
     * @throws IllegalArgumentException when n &lt; 1
     */
    static ChunkPlan of(int n, Operation op, boolean pinned, boolean listener, CudaConfig config, int slots,
                        int chunksInFlight) {
        int[] bounds = bounds(n, config.slotTasks(), slots, config.minChunkTasks());
        int chunks = bounds.length - 1;
        Transfer transfer = !pinned ? Transfer.STAGED : op == Operation.SIGN ? Transfer.PUBLISHED : Transfer.DIRECT;
        boolean sleep = config.sync().sleepsForLoneChunks() && chunks == 1 && chunksInFlight >= 1;
        return new ChunkPlan(bounds, transfer, listener && transfer == Transfer.PUBLISHED, chunks > 1, sleep,
                chunks > 1 || op == Operation.VERIFY);
    }

    /**
     * Cuts {@code n} tasks into balanced chunks: enough that none exceeds {@code slotTasks}, and
     * as many as {@code slots} when each keeps at least {@code minChunkTasks} tasks, so that a
     * batch that fills several slots spreads over them (and over the GPUs).
     *
     * @return the start of each chunk, followed by {@code n}
     */
    static int[] bounds(int n, int slotTasks, int slots, int minChunkTasks) {
        if (n < 1) {
            throw new IllegalArgumentException("no tasks to cut");
        }
        int bySize = (int) ((n + (long) slotTasks - 1) / slotTasks);
        int bySpread = Math.min(slots, n / minChunkTasks);
        int chunks = Math.max(1, Math.max(bySize, bySpread));
        int[] bounds = new int[chunks + 1];
        for (int i = 0; i <= chunks; i++) {
            bounds[i] = HostCopier.bound(n, chunks, i);
        }
        return bounds;
    }

    @Override
    public int[] bounds() {
        return bounds.clone();
    }

    /** The number of chunks. */
    int chunks() {
        return bounds.length - 1;
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
        return o instanceof ChunkPlan p && Arrays.equals(bounds, p.bounds) && transfer == p.transfer
                && tellsEarly == p.tellsEarly && ordered == p.ordered && sleep == p.sleep && onCaller == p.onCaller;
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(bounds) + java.util.Objects.hash(transfer, tellsEarly, ordered, sleep, onCaller);
    }

    @Override
    public String toString() {
        return "ChunkPlan[bounds=" + Arrays.toString(bounds) + ", " + transfer + (tellsEarly ? ", tells early" : "")
                + (ordered ? ", ordered uploads" : "") + (sleep ? ", sleeps" : "") + (onCaller ? ", on caller" : "")
                + "]";
    }
}
