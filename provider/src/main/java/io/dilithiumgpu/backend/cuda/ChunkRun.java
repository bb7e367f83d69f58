package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import jcuda.driver.CUevent;
import jcuda.driver.JCudaDriver;

/**
 * One chunk on one slot, in two halves: {@link #launch} queues its input copies, its kernel and
 * its output copies on the slot's stream; {@link #finish} waits for them (telling an early
 * listener of each task as it ends), checks every status, delivers the outputs and wipes the
 * slot's secrets whatever happened. A caller that runs several chunks itself launches all before
 * it finishes any. The {@link RecordTransfer} of the chunk's plan moves the records. Belongs to
 * the thread that holds the slot.
 */
final class ChunkRun {
    final StreamSlot slot;
    final Chunk chunk;
    final Kernel kernel;
    final BatchLayout layout;
    /** Where the chunk runs, for error messages. */
    final String where;
    /**
     * Recorded after the chunk's input copies when something waits for it: the launch, for copies
     * on the device's upload lane, or {@link #finish}, to clear staged secret inputs early; else null.
     */
    final CUevent uploadDone;
    private final RecordTransfer transfer;
    private final long started;
    /** When the chunk's inputs were in the pinned block (the launch's start, for records in registered memory). */
    long packed;
    /** When the chunk's uploads, launch and download had been submitted. */
    private long submitted;
    /** The chunk run on the device key cache instead, or null ({@link KeyedRun}). */
    private KeyedRun keyed;

    private ChunkRun(StreamSlot slot, Chunk c, long started) {
        this.slot = slot;
        this.chunk = c;
        this.started = started;
        this.packed = started;
        this.kernel = slot.device().kernel(c.params, c.op);
        this.layout = BatchLayout.of(c.params, c.op, c.count);
        this.where = slot.where(kernel.name() + ", tasks " + c.first + ".." + (c.first + c.count - 1));
        this.transfer = switch (c.plan.transfer()) {
            case STAGED -> new StagedTransfer();
            case DIRECT -> new DirectTransfer(false);
            case PUBLISHED -> new DirectTransfer(true);
        };
        boolean awaited = c.plan.ordered() || (layout.hasSecretInputs() && transfer.stagesInputs());
        this.uploadDone = awaited ? slot.uploadEvent(c.plan.sleep()) : null;
    }

    /**
     * Uploads chunk {@code c}'s inputs on {@code slot}, which the calling thread holds, launches
     * its kernel and, unless it is published, queues the download of its outputs. On failure the
     * slot's secrets are wiped before the exception leaves.
     *
     * @throws BackendException on a CUDA error
     */
    static ChunkRun launch(StreamSlot slot, Chunk c) {
        ChunkRun run = new ChunkRun(slot, c, System.nanoTime());
        try {
            slot.device().bind(run.where);
            run.keyed = KeyedRun.start(slot, c, run.where, run.started);
            if (run.keyed != null) {
                return run;
            }
            run.transfer.upload(run);
            slot.launch(run.kernel, run.layout, run.transfer.outputs(), run.where);
            run.transfer.download(run);
            run.submitted = System.nanoTime();
            return run;
        } catch (RuntimeException | Error e) {
            if (run.layout.hasSecrets()) {
                slot.wipe(run.layout, run.kernel, run.where, e, c.plan.sleep());
            }
            slot.clearScratch(run.where, e);
            throw e;
        }
    }

    /**
     * The second half, on the thread that launched this chunk and still holds the slot: waits for
     * the stream (telling an early listener of each task as it ends), checks every status,
     * delivers the outputs, runs {@code outputsReady}, and wipes the slot's secrets whatever
     * happened; adds the chunk's times to {@code stats} when it succeeded.
     *
     * @param outputsReady runs as soon as the outputs are in the caller's records, before the
     *                     slot's device wipes are queued
     * @throws BackendException on a CUDA error, or when the kernel leaves a task without a status
     *                          its operation allows; the outputs are then unspecified
     */
    void finish(CudaStats stats, Runnable outputsReady) {
        if (keyed != null) {
            try {
                keyed.finish(stats, outputsReady);
            } catch (RuntimeException | Error e) {
                slot.clearScratch(where, e);
                throw e;
            }
            return;
        }
        Chunk c = chunk;
        boolean sleep = c.plan.sleep();
        Throwable failure = null;
        long computed = packed;
        long unpacked = packed;
        try {
            slot.device().bind(where);
            if (transfer.published() && c.early != null) {
                stats.toldEarly(EarlyReporter.report(slot, c, layout.status().offset(), where));
            }
            if (layout.hasSecretInputs() && transfer.stagesInputs()) {
                CudaCall.check("cuEventSynchronize(upload, " + where + ")",
                        () -> JCudaDriver.cuEventSynchronize(uploadDone));
                slot.zeroHostRegions(layout, true);
            }
            slot.awaitStream(sleep, where);
            computed = System.nanoTime();
            slot.checkStatus(c, layout, kernel);
            transfer.deliver(this);
            unpacked = System.nanoTime();
            outputsReady.run();
        } catch (RuntimeException | Error e) {
            failure = e;
            slot.clearScratch(where, e);
            throw e;
        } finally {
            long wipeStart = System.nanoTime();
            if (layout.hasSecrets()) {
                slot.wipe(layout, kernel, where, failure, sleep);
            }
            if (failure == null) {
                stats.chunkRan(c.count, started - c.queuedNanos, packed - started, computed - packed,
                        submitted - packed, unpacked - computed, System.nanoTime() - wipeStart, sleep);
            }
        }
    }
}
