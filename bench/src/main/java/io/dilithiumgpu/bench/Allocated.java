package io.dilithiumgpu.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * Heap bytes the process's threads have allocated so far (virtual threads' allocations count on
 * their carriers), for a figure of garbage per call: take {@link #now()} before and after a run.
 */
final class Allocated {
    private Allocated() {}

    /** Bytes allocated by all live threads so far, or -1 where the JVM does not count them. */
    static long now() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (threads instanceof com.sun.management.ThreadMXBean counting
                && counting.isThreadAllocatedMemorySupported() && counting.isThreadAllocatedMemoryEnabled()) {
            return counting.getTotalThreadAllocatedBytes();
        }
        return -1;
    }

    /** "N bytes allocated per call" between two readings of {@link #now()}, or "allocation unknown". */
    static String perCall(long before, long after, long calls) {
        if (before < 0 || after < before || calls <= 0) {
            return "allocation unknown";
        }
        return String.format(Locale.ROOT, "%,.0f bytes allocated per call", (double) (after - before) / calls);
    }
}
