package io.dilithiumgpu.backend.cuda;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/** The sums behind {@link CudaBackendMXBean}; each slot adds one chunk's times at its end. */
final class CudaStats implements CudaBackendMXBean {
    private final Supplier<String> description;
    private final LongAdder chunks = new LongAdder();
    private final LongAdder tasks = new LongAdder();
    private final LongAdder slotWait = new LongAdder();
    private final LongAdder pack = new LongAdder();
    private final LongAdder gpu = new LongAdder();
    private final LongAdder launch = new LongAdder();
    private final LongAdder unpack = new LongAdder();
    private final LongAdder wipe = new LongAdder();
    private final LongAdder slept = new LongAdder();
    private final LongAdder toldEarly = new LongAdder();
    private final LongAdder messages = new LongAdder();
    private final LongAdder wide = new LongAdder();
    private final LongAdder helped = new LongAdder();
    private final LongAdder inline = new LongAdder();
    private volatile AtomicLongArray perDevice = new AtomicLongArray(0);
    private final LongAdder keyHits = new LongAdder();
    private final LongAdder keyMisses = new LongAdder();
    private final LongAdder keyEvictions = new LongAdder();
    /** Bytes the open devices' key caches hold; set by the backend. */
    private volatile java.util.function.LongSupplier keyBytes = () -> 0;

    CudaStats(Supplier<String> description) {
        this.description = description;
    }

    /**
     * One chunk of {@code count} tasks and its stage times in nanoseconds ({@code launchNanos} a
     * part of {@code gpuNanos}); {@code slept}: its slot slept while the GPU worked.
     */
    void chunkRan(int count, long slotWaitNanos, long packNanos, long gpuNanos, long launchNanos, long unpackNanos,
                  long wipeNanos, boolean slept) {
        if (slept) {
            this.slept.increment();
        }
        chunks.increment();
        tasks.add(count);
        slotWait.add(slotWaitNanos);
        pack.add(packNanos);
        gpu.add(gpuNanos);
        launch.add(launchNanos);
        unpack.add(unpackNanos);
        wipe.add(wipeNanos);
    }

    /** Tasks a slot reported to their call's {@link io.dilithiumgpu.backend.TaskListener} as they ended. */
    void toldEarly(int count) {
        toldEarly.add(count);
    }

    /** Tasks of a launch on message records ({@link io.dilithiumgpu.backend.MessageRecord}) that ran. */
    void messagesRan(int count) {
        messages.add(count);
    }

    /** {@code count} signing tasks ran a group of warps each ({@link SigningWidth}). */
    void wideRan(int count) {
        wide.add(count);
    }

    /** {@code count} signing tasks ran in a launch that held a whole one-key share ({@link SigningWidth}). */
    void helpedRan(int count) {
        helped.add(count);
    }

    /** The devices now open number {@code count}: the per-device counts start again when that changes. */
    synchronized void devicesOpened(int count) {
        if (perDevice.length() != count) {
            perDevice = new AtomicLongArray(count);
        }
    }

    /** {@code tasks} ran on device {@code device} (its index among the devices open). */
    void ranOn(int device, int tasks) {
        AtomicLongArray counts = perDevice;
        if (device < counts.length()) {
            counts.addAndGet(device, tasks);
        }
    }

    @Override
    public long[] getTaskCountPerDevice() {
        AtomicLongArray counts = perDevice;
        long[] out = new long[counts.length()];
        for (int d = 0; d < out.length; d++) {
            out[d] = counts.get(d);
        }
        return out;
    }

    /** One key of one launch looked up in a device key cache: a hit, or a miss; {@code evicted}: it took an evicted key's slot. */
    void keyLookup(boolean hit, boolean evicted) {
        (hit ? keyHits : keyMisses).increment();
        if (evicted) {
            keyEvictions.increment();
        }
    }

    /** Where {@link #getKeyCacheBytes()} comes from: the open devices' caches. */
    void keyBytesFrom(java.util.function.LongSupplier bytes) {
        this.keyBytes = bytes;
    }

    @Override
    public long getKeyCacheHits() {
        return keyHits.sum();
    }

    @Override
    public long getKeyCacheMisses() {
        return keyMisses.sum();
    }

    @Override
    public long getKeyCacheEvictions() {
        return keyEvictions.sum();
    }

    @Override
    public long getKeyCacheBytes() {
        return keyBytes.getAsLong();
    }

    /** A chunk its caller ran on its own thread. */
    void ranInline() {
        inline.increment();
    }

    @Override
    public long getInlineChunkCount() {
        return inline.sum();
    }

    @Override
    public long getEarlyTaskCount() {
        return toldEarly.sum();
    }

    @Override
    public long getMessageTaskCount() {
        return messages.sum();
    }

    @Override
    public long getWideSigningTaskCount() {
        return wide.sum();
    }

    @Override
    public long getHelpedSigningTaskCount() {
        return helped.sum();
    }

    @Override
    public String getDescription() {
        return description.get();
    }

    @Override
    public long getSleptChunkCount() {
        return slept.sum();
    }

    @Override
    public long getChunkCount() {
        return chunks.sum();
    }

    @Override
    public long getTaskCount() {
        return tasks.sum();
    }

    @Override
    public long getSlotWaitNanos() {
        return slotWait.sum();
    }

    @Override
    public long getPackNanos() {
        return pack.sum();
    }

    @Override
    public long getGpuNanos() {
        return gpu.sum();
    }

    @Override
    public long getLaunchNanos() {
        return launch.sum();
    }

    @Override
    public long getUnpackNanos() {
        return unpack.sum();
    }

    @Override
    public long getWipeNanos() {
        return wipe.sum();
    }
}
