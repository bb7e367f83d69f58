package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.cuda.CudaBackend;
import io.dilithiumgpu.backend.cuda.CudaBackendMXBean;
import io.dilithiumgpu.batch.BatcherMXBean;
import io.dilithiumgpu.batch.Engines;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Set;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Where the time of a batcher's requests went between two snapshots: the batcher's stage
 * sums ({@link BatcherMXBean}) and, when the CUDA backend is open, its chunk stage sums
 * ({@link CudaBackendMXBean}), as means per task, per batch and per chunk, and how the tasks
 * spread over the GPUs.
 */
record Anatomy(long ops, long batches, long queueWait, long handOff, long load, long backend, long complete,
               long batched, long delivered, long wake, long wakes, ChunkTimes chunks, long[] tasksPerGpu) {

    /** The shared batcher's counters now. */
    static Anatomy snapshot() {
        return of(Engines.sharedBatcher().metrics());
    }

    /** {@code b}'s counters now, with those of every open CUDA backend. */
    static Anatomy of(BatcherMXBean b) {
        ChunkTimes chunks = new ChunkTimes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        long[] perGpu = new long[0];
        for (CudaBackendMXBean c : cudaBackends()) {
            chunks = chunks.plus(ChunkTimes.of(c));
            long[] tasks = c.getTaskCountPerDevice();
            perGpu = java.util.Arrays.copyOf(perGpu, Math.max(perGpu.length, tasks.length));
            for (int d = 0; d < tasks.length; d++) {
                perGpu[d] += tasks[d];
            }
        }
        return new Anatomy(b.getOperationCount(), b.getBatchCount(), b.getQueueWaitNanos(), b.getHandOffNanos(),
                b.getLoadNanos(), b.getBackendNanos(), b.getCompleteNanos(), b.getBatchedNanos(),
                b.getDeliveredCount(), b.getCallerWakeNanos(), b.getCallerWakeCount(), chunks, perGpu);
    }

    private static Set<CudaBackendMXBean> cudaBackends() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            Set<ObjectName> names = server.queryNames(new ObjectName(CudaBackend.MBEAN_PATTERN), null);
            java.util.HashSet<CudaBackendMXBean> beans = new java.util.HashSet<>();
            for (ObjectName n : names) {
                beans.add(JMX.newMXBeanProxy(server, n, CudaBackendMXBean.class));
            }
            return beans;
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The growth since {@code earlier}, in one line of means (µs). */
    String since(Anatomy earlier) {
        long o = ops - earlier.ops;
        long b = batches - earlier.batches;
        if (o == 0 || b == 0) {
            return "no batches";
        }
        long d = Math.max(1, delivered - earlier.delivered);
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "%d batches of %.0f; per task: queued %.0f, in its batch %.0f µs; per batch: hand-off %.0f, load %.0f, "
                        + "backend %.0f, complete %.0f µs",
                b, (double) o / b, us(queueWait - earlier.queueWait, o), us(batched - earlier.batched, d),
                us(handOff - earlier.handOff, b), us(load - earlier.load, b), us(backend - earlier.backend, b),
                us(complete - earlier.complete, b)));
        long w = wakes - earlier.wakes;
        if (w > 0) {
            s.append(String.format(Locale.ROOT, "; per awaited call: wake-up %.0f µs", us(wake - earlier.wake, w)));
        }
        ChunkTimes c = chunks.minus(earlier.chunks);
        if (c.chunks() > 0) {
            s.append(String.format(Locale.ROOT, "; %.1f chunks per batch: ", (double) c.chunks() / b)).append(c)
                    .append(toldEarly(c.early(), c.tasks()));
        }
        s.append(gpuShares(tasksPerGpu, earlier.tasksPerGpu));
        return s.toString();
    }

    /**
     * The share of the chunks' tasks whose callers were told as their own task ended, for example
     * {@code , 97 % of tasks told early}; empty when none was (verification, or signing whose
     * callers all waited for their launch's end).
     */
    static String toldEarly(long early, long tasks) {
        return early <= 0 || tasks <= 0 ? "" : String.format(Locale.ROOT, ", %.0f %% of tasks told early",
                100.0 * early / tasks);
    }

    /**
     * With several GPUs, each one's share of the tasks run since {@code earlier}, for example
     * {@code ; tasks per GPU: 51 %, 49 %}; empty with one GPU or none.
     */
    static String gpuShares(long[] now, long[] earlier) {
        if (now.length < 2) {
            return "";
        }
        long[] grown = new long[now.length];
        long all = 0;
        for (int d = 0; d < now.length; d++) {
            grown[d] = now[d] - (d < earlier.length ? earlier[d] : 0);
            all += grown[d];
        }
        if (all <= 0) {
            return "";
        }
        StringBuilder s = new StringBuilder("; tasks per GPU: ");
        for (int d = 0; d < grown.length; d++) {
            s.append(d == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f %%", 100.0 * grown[d] / all));
        }
        return s.toString();
    }

    private static double us(long nanos, long count) {
        return nanos / 1e3 / count;
    }
}
