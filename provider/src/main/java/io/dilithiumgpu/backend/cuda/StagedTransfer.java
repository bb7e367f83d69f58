package io.dilithiumgpu.backend.cuda;

import jcuda.driver.CUdeviceptr;
import jcuda.driver.JCudaDriver;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * {@link ChunkPlan.Transfer#STAGED}: the caller's heap arrays go through the slot's pinned block.
 * The input records are packed into it on the copy threads and uploaded with one copy; after the
 * launch the outputs and statuses come back with one copy and are unpacked into the caller's
 * arrays, each secret output part zeroed from the pinned block as soon as it is copied out, while
 * those cache lines are hot. The secret inputs leave the pinned block once their upload has
 * completed, while the kernel runs ({@link ChunkRun#finish}).
 */
final class StagedTransfer implements RecordTransfer {

    @Override
    public void upload(ChunkRun run) {
        Chunk c = run.chunk;
        StreamSlot slot = run.slot;
        BatchLayout layout = run.layout;
        pack(slot, c, layout);
        // A verification's statuses follow its inputs: marked unwritten here, they go up with
        // them, in place of a device memset.
        boolean statusStaged = layout.outputOffset() == layout.status().offset();
        if (statusStaged) {
            StreamSlot.markUnwritten(slot.host(), layout.status().offset(), c.count);
        }
        long bytes = statusStaged ? layout.totalBytes() : layout.inputBytes();
        run.packed = System.nanoTime();
        slot.submitCopies(on -> CudaCall.check("cuMemcpyHtoDAsync(" + bytes + " bytes, " + run.where + ")",
                        () -> JCudaDriver.cuMemcpyHtoDAsync(slot.deviceBlock(), slot.hostBlock(), bytes, on)),
                c.plan.ordered(), run.uploadDone, run.where);
        if (!statusStaged) {
            slot.markStatusUnwritten(layout.status().offset(), layout.tasks(), run.where);
        }
    }

    private static void pack(StreamSlot slot, Chunk c, BatchLayout layout) {
        List<BatchLayout.Region> regions = layout.regions();
        slot.copier().forEachPart(c.count, layout.inputBytes() / c.count, (from, to) -> {
            ByteBuffer h = slot.host().duplicate();
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

    @Override
    public CUdeviceptr[] outputs() {
        return null;
    }

    @Override
    public void download(ChunkRun run) {
        StreamSlot slot = run.slot;
        BatchLayout layout = run.layout;
        CudaCall.check("cuMemcpyDtoHAsync(" + layout.outputBytes() + " bytes, " + run.where + ")",
                () -> JCudaDriver.cuMemcpyDtoHAsync(slot.hostBlock().withByteOffset(layout.outputOffset()),
                        slot.deviceBlock().withByteOffset(layout.outputOffset()), layout.outputBytes(),
                        slot.stream()));
    }

    @Override
    public void deliver(ChunkRun run) {
        Chunk c = run.chunk;
        StreamSlot slot = run.slot;
        BatchLayout layout = run.layout;
        List<BatchLayout.Region> regions = layout.regions();
        int statusIndex = regions.size() - 1;
        long outputBytesPerTask = (layout.totalBytes() - layout.outputOffset()) / c.count;
        slot.copier().forEachPart(c.count, outputBytesPerTask, (from, to) -> {
            ByteBuffer h = slot.host().duplicate();
            for (int r = 0; r < regions.size(); r++) {
                BatchLayout.Region region = regions.get(r);
                if (!region.input()) {
                    int size = region.recordBytes();
                    h.get(Math.toIntExact(region.offset() + (long) from * size), c.arrays[r],
                            (c.first + from) * size, (to - from) * size);
                    if (region.secret()) {
                        StreamSlot.zero(slot.host(), region.offset() + (long) from * size, (long) (to - from) * size);
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

    @Override
    public boolean stagesInputs() {
        return true;
    }

    @Override
    public boolean published() {
        return false;
    }
}
