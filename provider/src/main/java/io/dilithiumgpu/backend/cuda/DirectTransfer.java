package io.dilithiumgpu.backend.cuda;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.JCudaDriver;

import java.util.List;

/**
 * {@link ChunkPlan.Transfer#DIRECT} and {@link ChunkPlan.Transfer#PUBLISHED}: the records are in
 * the caller's registered host memory ({@link PinnedBuffer}s), and each input region is copied
 * straight from it to the device, with no staging copy on the host.
 *
 * <p>Direct: after the launch each output region is copied straight back into the caller's
 * memory and the status bytes into the slot's pinned block.
 *
 * <p>Published (signing): the kernel writes each signature straight into the caller's mapped
 * memory and then, after a system-scope fence, its status into the slot's mapped pinned block;
 * nothing is downloaded, and the statuses can be read while the launch runs
 * ({@link EarlyReporter}). When the driver maps no device address for the caller's memory the
 * chunk runs direct instead.
 */
final class DirectTransfer implements RecordTransfer {
    private static final System.Logger LOG = System.getLogger(DirectTransfer.class.getName());

    private final boolean publish;
    /** Where a published chunk's kernel writes its outputs; null when they are downloaded. */
    private CUdeviceptr[] outputs;

    /** @param publish whether the chunk's plan publishes ({@link ChunkPlan.Transfer#PUBLISHED}) */
    DirectTransfer(boolean publish) {
        this.publish = publish;
    }

    @Override
    public void upload(ChunkRun run) {
        Chunk c = run.chunk;
        StreamSlot slot = run.slot;
        BatchLayout layout = run.layout;
        outputs = publish ? mapOutputs(run) : null;
        List<BatchLayout.Region> regions = layout.regions();
        slot.submitCopies(on -> {
            for (int r = 0; r < regions.size(); r++) {
                BatchLayout.Region region = regions.get(r);
                if (region.input()) {
                    long bytes = region.bytes(c.count);
                    Pointer from = c.pinned[r].withByteOffset((long) c.first * region.recordBytes());
                    CudaCall.check("cuMemcpyHtoDAsync(" + region.name() + ", " + bytes + " bytes, " + run.where + ")",
                            () -> JCudaDriver.cuMemcpyHtoDAsync(slot.deviceBlock().withByteOffset(region.offset()),
                                    from, bytes, on));
                }
            }
        }, c.plan.ordered(), run.uploadDone, run.where);
        // A published chunk's statuses go to the slot's mapped pinned block, not the device block.
        if (outputs == null) {
            slot.markStatusUnwritten(layout.status().offset(), layout.tasks(), run.where);
        } else {
            StreamSlot.markUnwritten(slot.host(), layout.status().offset(), c.count);
        }
    }

    /**
     * The device addresses a published chunk's kernel writes its outputs to: the caller's
     * registered records, mapped, and the status bytes in the slot's mapped pinned block. Null
     * when the driver maps no address for the caller's memory: the chunk then runs direct.
     */
    private static CUdeviceptr[] mapOutputs(ChunkRun run) {
        Chunk c = run.chunk;
        List<BatchLayout.Region> regions = run.layout.regions();
        CUdeviceptr[] mapped = new CUdeviceptr[regions.size()];
        int statusIndex = regions.size() - 1;
        for (int r = 0; r < statusIndex; r++) {
            BatchLayout.Region region = regions.get(r);
            if (!region.input()) {
                CUdeviceptr base = run.slot.device().mappedHost(c.pinned[r]);
                if (base == null) {
                    LOG.log(System.Logger.Level.DEBUG, "chunk runs unpublished: no device address for "
                            + region.name() + ", " + run.where);
                    return null;
                }
                mapped[r] = base.withByteOffset((long) c.first * region.recordBytes());
            }
        }
        mapped[statusIndex] = run.slot.hostBlockMapped().withByteOffset(run.layout.status().offset());
        return mapped;
    }

    @Override
    public CUdeviceptr[] outputs() {
        return outputs;
    }

    /** Each output region straight into the caller's memory, the status bytes into the slot's pinned block. */
    @Override
    public void download(ChunkRun run) {
        if (outputs != null) {
            return;
        }
        Chunk c = run.chunk;
        StreamSlot slot = run.slot;
        List<BatchLayout.Region> regions = run.layout.regions();
        int statusIndex = regions.size() - 1;
        for (int r = 0; r < statusIndex; r++) {
            BatchLayout.Region region = regions.get(r);
            if (!region.input()) {
                long bytes = region.bytes(c.count);
                Pointer to = c.pinned[r].withByteOffset((long) c.first * region.recordBytes());
                CudaCall.check("cuMemcpyDtoHAsync(" + region.name() + ", " + bytes + " bytes, " + run.where + ")",
                        () -> JCudaDriver.cuMemcpyDtoHAsync(to, slot.deviceBlock().withByteOffset(region.offset()),
                                bytes, slot.stream()));
            }
        }
        BatchLayout.Region status = run.layout.status();
        CudaCall.check("cuMemcpyDtoHAsync(status, " + run.where + ")",
                () -> JCudaDriver.cuMemcpyDtoHAsync(slot.hostBlock().withByteOffset(status.offset()),
                        slot.deviceBlock().withByteOffset(status.offset()), status.bytes(c.count), slot.stream()));
    }

    /** The status bytes into the caller's array; failed tasks' output records cleared. */
    @Override
    public void deliver(ChunkRun run) {
        Chunk c = run.chunk;
        List<BatchLayout.Region> regions = run.layout.regions();
        int statusIndex = regions.size() - 1;
        byte[] status = c.arrays[statusIndex];
        run.slot.host().get(Math.toIntExact(run.layout.status().offset()), status, c.first, c.count);
        for (int i = c.first; i < c.first + c.count; i++) {
            if (status[i] == BatchAbi.STATUS_OK) {
                continue;
            }
            for (int r = 0; r < statusIndex; r++) {
                BatchLayout.Region region = regions.get(r);
                if (!region.input()) {
                    int size = region.recordBytes();
                    StreamSlot.zeroRecord(c.views[r], i * size, size);
                }
            }
        }
    }

    @Override
    public boolean stagesInputs() {
        return false;
    }

    @Override
    public boolean published() {
        return outputs != null;
    }
}
