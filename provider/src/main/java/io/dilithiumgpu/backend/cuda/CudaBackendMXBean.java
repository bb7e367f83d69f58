package io.dilithiumgpu.backend.cuda;

/**
 * Where the CUDA backend's time goes, per chunk (the part of a backend call one stream slot runs
 * as one launch), as running sums that start at zero when the backend opens and only grow. A
 * monitor divides the growth of a time by the growth of {@link #getChunkCount()} over the same
 * interval. Registered as {@code io.dilithiumgpu:type=CudaBackend,id=N} while the backend is open.
 * Slots run at once, so the sums add up to more than wall time. A chunk is counted when its slot
 * has finished with it, after its wipes are queued, which can be shortly after the backend call
 * returned.
 */
public interface CudaBackendMXBean {

    /** The devices in use and their slots, or why there are none. */
    String getDescription();

    /** Chunks run (each one launch). */
    long getChunkCount();

    /** Tasks in those chunks. */
    long getTaskCount();

    /** From a chunk's arrival in the queue until a stream slot started on it. */
    long getSlotWaitNanos();

    /** Copying a chunk's inputs into the slot's pinned memory. */
    long getPackNanos();

    /** Upload, kernel and download, until the stream is synchronized. */
    long getGpuNanos();

    /**
     * The host's part of {@link #getGpuNanos()} before the kernel runs: submitting a chunk's
     * uploads, its launch and (unless published) its download to the driver. A call of several
     * chunks launches a few of each device's one after another from each thread, so this is how
     * late its last launches on a device come.
     */
    long getLaunchNanos();

    /** Checking the status bytes and copying the outputs into the caller's arrays. */
    long getUnpackNanos();

    /**
     * Wiping the secrets from pinned memory, and queueing their wipes from device memory on the
     * slot's stream (not waited for), after the caller has its outputs. The kernels wipe their
     * workspace themselves.
     */
    long getWipeNanos();

    /**
     * Chunks whose slot slept on a blocking-sync event while the GPU worked, rather than spinning:
     * lone chunks on busy devices under {@code adaptive} waits (see {@link CudaConfig.Sync#ADAPTIVE}).
     */
    long getSleptChunkCount();

    /**
     * Signing tasks whose callers got their signatures while the launch still ran: the kernel
     * writes them into page-locked host memory, status last, and the slot reports each as it
     * appears ({@link io.dilithiumgpu.backend.TaskListener}).
     */
    long getEarlyTaskCount();

    /**
     * Signing and verification tasks that gave the device their message instead of μ
     * ({@link io.dilithiumgpu.backend.MessageRecord}): the kernel hashed μ, not the caller's thread.
     */
    long getMessageTaskCount();

    /**
     * Signing tasks on cached keys that a group of warps signed together ({@code sign_keyed_wide_},
     * while the device's signing warps would otherwise idle) instead of one warp each.
     */
    long getWideSigningTaskCount();

    /**
     * Signing tasks on cached keys of launches that each held a whole one-key call's share of a
     * device, larger than the device runs warps at once ({@code sign_keyed_helped_}: warps without a
     * task help the tasks still signing).
     */
    long getHelpedSigningTaskCount();

    /**
     * Chunks their caller ran on its own thread, on a slot it found idle, instead of handing them
     * to the slot's worker: the first device's first part of every call (the one chunk of each of
     * the batcher's batches among them).
     */
    long getInlineChunkCount();

    /**
     * Tasks run on each GPU in use, in the order of {@link CudaBackend#deviceDescriptions()}:
     * how the calls spread over the devices. Empty until the devices first open; starts again
     * from zero when they reopen as a different number of devices.
     */
    long[] getTaskCountPerDevice();

    /**
     * Keys found in a device key cache, ready: one per key per launch (a launch of 1,000 tasks of
     * one cached key counts one hit). Launches of records without key objects look nothing up.
     */
    long getKeyCacheHits();

    /** Keys looked up and not found ready (then expanded into the cache, or run uncached). */
    long getKeyCacheMisses();

    /** Cached keys evicted (least recently used first) to make room for another key. */
    long getKeyCacheEvictions();

    /** Device memory the key caches of the open GPUs hold now (slots holding or filling a key). */
    long getKeyCacheBytes();
}
