package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import jcuda.CudaException;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Tells a published chunk's listener ({@link Chunk#early}) of each task as its status appears in
 * the slot's mapped pinned block, while the launch runs, so that a caller gets its signature
 * after its own rejection loop, not after the launch's longest one. The kernel fenced each task's
 * outputs before its status (kernels-cuda schedule.cuh). A status the operation does not allow is
 * left to the finishing thread's check of every status, which fails the chunk. Both kinds of
 * published chunk use it: the plain one ({@link ChunkRun}) and the one on cached keys
 * ({@link KeyedRun}), whose statuses lie in its own layout, in the caller's task order.
 */
final class EarlyReporter {
    private static final System.Logger LOG = System.getLogger(EarlyReporter.class.getName());
    /**
     * Between two scans of the status bytes: an eighth of the time since the launch, within these
     * bounds. Each scan wakes the slot's thread, which on a host busy with thousands of callers
     * costs more than the few tens of µs a task's caller may wait for it (a launch of the
     * batcher's lasts milliseconds).
     */
    private static final long MIN_POLL_NANOS = 20_000;
    private static final long MAX_POLL_NANOS = 200_000;
    /** Between two queries of whether the launch has ended (each a driver call). */
    private static final long QUERY_NANOS = 2_000_000;
    private static final String NOT_READY = CUresult.stringFor(CUresult.CUDA_ERROR_NOT_READY);

    private EarlyReporter() {}

    /**
     * Records the slot's launch-ended event after chunk {@code c}'s launch, then polls its status
     * bytes (task {@code c.first + i}'s at {@code statusOffset + i} of the slot's pinned block)
     * until every task has one or the launch has ended, telling the listener of each task with a
     * status its operation allows.
     *
     * @param where the chunk, for error messages
     * @return the tasks told
     * @throws BackendException when a driver call fails
     */
    static int report(StreamSlot slot, Chunk c, long statusOffset, String where) {
        CudaCall.check("cuEventRecord(launch ended, " + where + ")",
                () -> JCudaDriver.cuEventRecord(slot.launchEndedEvent(), slot.stream()));
        int n = c.count;
        int base = Math.toIntExact(statusOffset);
        boolean[] reported = new boolean[n];
        int left = n;
        int from = 0;
        int told = 0;
        boolean ended = false;
        long launched = System.nanoTime();
        long queryAt = launched + QUERY_NANOS;
        while (true) {
            int toldBefore = told;
            for (int i = from; i < n; i++) {
                if (reported[i]) {
                    continue;
                }
                byte s = slot.host().get(base + i);
                if (s == StreamSlot.UNWRITTEN) {
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
            if (told > toldBefore) {
                scanned(c);
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
                ended = launchEnded(slot, where);
                queryAt = now + QUERY_NANOS;
                if (ended) {
                    continue;
                }
            }
            LockSupport.parkNanos(Math.min(MAX_POLL_NANOS, Math.max(MIN_POLL_NANOS, (now - launched) >> 3)));
        }
    }

    private static void tell(Chunk c, int i, byte status) {
        try {
            c.early.finished(c.first + i, status);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "task listener failed for task " + (c.first + i), e);
        }
    }

    /** Tells the listener that a scan's tasks have all been told: it may wake their callers together. */
    private static void scanned(Chunk c) {
        try {
            c.early.scanned();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "task listener failed after a scan", e);
        }
    }

    /** Whether the work recorded before the launch-ended event is done; a fault is a {@link BackendException}. */
    private static boolean launchEnded(StreamSlot slot, String where) {
        int result;
        try {
            result = JCudaDriver.cuEventQuery(slot.launchEndedEvent());
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
}
