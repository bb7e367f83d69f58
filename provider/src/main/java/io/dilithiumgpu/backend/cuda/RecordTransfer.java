package io.dilithiumgpu.backend.cuda;

import jcuda.driver.CUdeviceptr;

/**
 * How one chunk's records travel between the caller's memory and its slot's device block: the
 * strategy a {@link ChunkRun} takes from its plan's {@link ChunkPlan.Transfer}. One instance per
 * chunk run, used by the thread that holds the slot.
 */
interface RecordTransfer {

    /**
     * Queues the chunk's input copies (through the device's {@link UploadLane} when the plan
     * orders them), records the run's upload event after them, and resets the status bytes and
     * scratch words the kernel will write.
     */
    void upload(ChunkRun run);

    /**
     * Where the kernel writes each region instead of the device block (null entries: the device
     * block), or null for none: a published chunk's outputs go to host memory.
     */
    CUdeviceptr[] outputs();

    /** Queues the copies of the launch's outputs after it, if this transfer downloads them. */
    void download(ChunkRun run);

    /**
     * Once the stream is done and every status is checked: the outputs in the caller's records,
     * the records of tasks whose status is not OK cleared (never stale bytes of another batch).
     */
    void deliver(ChunkRun run);

    /** Whether the slot's pinned block holds secret inputs, to be zeroed once their upload completed. */
    boolean stagesInputs();

    /** Whether the kernel writes the statuses into host memory as each task ends. */
    boolean published();
}
