package io.dilithiumgpu.backend;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This provider's own platform threads (the batcher's dispatcher and batch threads, the backends'
 * workers), whose CPU time is what the batch route costs the host beyond its callers' hand-offs.
 * Each thread factory of the provider registers the threads it makes; the router reads their
 * CPU time ({@link #cpuNanosSinceLastRead}) to weigh the batch route against a call on its
 * caller's thread when the host's cores are busy.
 */
public final class ProviderThreads {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    /** Each live registered thread with its CPU time at the last read (0 before the first). */
    private static final Map<Thread, Long> LIVE = new ConcurrentHashMap<>();

    private static final int PRUNE_AT = 256;

    private ProviderThreads() {}

    /** Registers {@code t}, made by one of the provider's thread factories; returns it. */
    public static Thread register(Thread t) {
        if (LIVE.size() >= PRUNE_AT) {
            // Pools replace idle threads over time; with no reader, ended ones would pile up here.
            LIVE.keySet().removeIf(x -> x.getState() == Thread.State.TERMINATED);
        }
        LIVE.put(t, 0L);
        return t;
    }

    /**
     * The CPU time the registered threads have used since the previous call, in nanoseconds (a
     * thread that ended in between leaves out its last stretch), or -1 where the JVM does not
     * measure threads' CPU time. One caller at a time (the router's sampler).
     */
    public static long cpuNanosSinceLastRead() {
        if (!MX.isThreadCpuTimeSupported() || !MX.isThreadCpuTimeEnabled()) {
            return -1;
        }
        long sum = 0;
        for (Iterator<Map.Entry<Thread, Long>> it = LIVE.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Thread, Long> e = it.next();
            Thread t = e.getKey();
            @SuppressWarnings("deprecation")  // Thread.threadId() is JDK 19 and later; the provider compiles for 17
            long cpu = t.getState() == Thread.State.NEW ? 0 : MX.getThreadCpuTime(t.getId());
            if (cpu < 0) {  // ended
                it.remove();
                continue;
            }
            sum += cpu - e.getValue();
            e.setValue(cpu);
        }
        return sum;
    }
}
