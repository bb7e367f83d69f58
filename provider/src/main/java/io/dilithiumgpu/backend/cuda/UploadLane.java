package io.dilithiumgpu.backend.cuda;

import jcuda.driver.CUevent;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;

/**
 * One device's upload stream: every chunk's input copies go through it, one chunk's after
 * another in the order their slots hand them in, and each slot's stream waits for its own
 * chunk's copies only (an event), not for the lane.
 *
 * <p>Why: copies submitted on the slots' own streams run side by side and share the link, so a
 * batch's first launch waited for nearly every chunk's inputs; through one upload stream it
 * waits for its own chunk's share of the link (docs/perf-log/history-to-2026-11-26.md, kernel_bench DG_H2H).
 *
 * <p>Thread safety: {@link #upload} is called from any slot's thread; the lane serialises it.
 */
final class UploadLane implements AutoCloseable {
    private final CUstream stream = new CUstream();
    private boolean created;

    private UploadLane() {
    }

    /**
     * Creates the lane's stream on the device whose context is current.
     *
     * @throws io.dilithiumgpu.backend.BackendException when the driver refuses
     */
    static UploadLane open(String where) {
        UploadLane lane = new UploadLane();
        CudaCall.check("cuStreamCreate(upload lane, " + where + ")",
                () -> JCudaDriver.cuStreamCreate(lane.stream, CUstream_flags.CU_STREAM_NON_BLOCKING));
        lane.created = true;
        return lane;
    }

    /** Copies of one chunk, submitted on the stream given. */
    @FunctionalInterface
    interface Copies {
        void submit(CUstream on);
    }

    /**
     * Submits {@code copies} on the lane after every chunk handed in before and, when {@code after}
     * is not null, after the work recorded by it (the consumer's wipes of the memory the copies
     * overwrite); records {@code done} after them and makes {@code consumer} wait for {@code done}
     * before its next work.
     */
    synchronized void upload(CUevent after, Copies copies, CUevent done, CUstream consumer, String where) {
        if (after != null) {
            CudaCall.check("cuStreamWaitEvent(wiped, " + where + ")",
                    () -> JCudaDriver.cuStreamWaitEvent(stream, after, 0));
        }
        copies.submit(stream);
        CudaCall.check("cuEventRecord(uploaded, " + where + ")", () -> JCudaDriver.cuEventRecord(done, stream));
        CudaCall.check("cuStreamWaitEvent(uploaded, " + where + ")",
                () -> JCudaDriver.cuStreamWaitEvent(consumer, done, 0));
    }

    /** Destroys the stream; the device's context must be current. Idempotent. */
    @Override
    public synchronized void close() {
        if (created) {
            created = false;
            JCudaDriver.cuStreamDestroy(stream);
        }
    }
}
