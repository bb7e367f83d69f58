package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.cuda.CudaBackend;
import io.dilithiumgpu.backend.cuda.CudaBackendMXBean;

import java.util.Locale;

/**
 * The CUDA backend's chunk stage sums ({@link CudaBackendMXBean}) at one moment, and their growth;
 * {@code early} counts the tasks told to a listener as they ended, which only the batcher's
 * signing has (not part of {@link #toString()}), {@code messages} the tasks whose μ the kernels
 * hashed from a message record, {@code wide} the signing tasks a group of warps signed, and
 * {@code helped} those of launches that held a whole one-key share, helped at their end.
 */
record ChunkTimes(long chunks, long tasks, long slotWait, long pack, long gpu, long launch, long unpack, long wipe,
                  long early, long messages, long wide, long helped) {

    /** The sums of {@code backend} now; null for a backend other than CUDA. */
    static ChunkTimes of(Backend backend) {
        return backend instanceof CudaBackend cuda ? of(cuda.metrics()) : null;
    }

    static ChunkTimes of(CudaBackendMXBean m) {
        return new ChunkTimes(m.getChunkCount(), m.getTaskCount(), m.getSlotWaitNanos(), m.getPackNanos(),
                m.getGpuNanos(), m.getLaunchNanos(), m.getUnpackNanos(), m.getWipeNanos(), m.getEarlyTaskCount(),
                m.getMessageTaskCount(), m.getWideSigningTaskCount(), m.getHelpedSigningTaskCount());
    }

    /** The growth since {@code earlier}; null when either is null. */
    ChunkTimes minus(ChunkTimes earlier) {
        if (earlier == null) {
            return null;
        }
        return new ChunkTimes(chunks - earlier.chunks, tasks - earlier.tasks, slotWait - earlier.slotWait,
                pack - earlier.pack, gpu - earlier.gpu, launch - earlier.launch, unpack - earlier.unpack,
                wipe - earlier.wipe, early - earlier.early, messages - earlier.messages, wide - earlier.wide,
                helped - earlier.helped);
    }

    ChunkTimes plus(ChunkTimes other) {
        return new ChunkTimes(chunks + other.chunks, tasks + other.tasks, slotWait + other.slotWait,
                pack + other.pack, gpu + other.gpu, launch + other.launch, unpack + other.unpack, wipe + other.wipe,
                early + other.early, messages + other.messages, wide + other.wide, helped + other.helped);
    }

    /** Means per chunk, in µs. */
    @Override
    public String toString() {
        if (chunks == 0) {
            return "no chunks";
        }
        String hashed = messages == 0 ? ""
                : String.format(Locale.ROOT, "; μ hashed on the GPU for %.0f %% of tasks", 100.0 * messages / tasks);
        String grouped = wide == 0 ? ""
                : String.format(Locale.ROOT, "; %.0f %% of tasks signed by groups of warps", 100.0 * wide / tasks);
        String whole = helped == 0 ? ""
                : String.format(Locale.ROOT, "; %.0f %% of tasks in launches helped at their end", 100.0 * helped / tasks);
        return String.format(Locale.ROOT,
                "%d chunks of %.0f, per chunk: slot wait %.0f, pack %.0f, gpu %.0f (launch %.0f), unpack %.0f, wipe %.0f µs%s%s%s",
                chunks, (double) tasks / chunks, us(slotWait), us(pack), us(gpu), us(launch), us(unpack), us(wipe),
                hashed, grouped, whole);
    }

    private double us(long nanos) {
        return nanos / 1e3 / chunks;
    }
}
