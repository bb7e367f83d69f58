package io.dilithiumgpu.bench;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * Heap bytes the process's threads have allocated so far (virtual threads' allocations count on
 * their carriers), for a figure of garbage per call: take {@link #now()} before and after a run.
 */
final class Allocated {
    /**
     * {@code com.sun.management.ThreadMXBean.getTotalThreadAllocatedBytes()}, looked up at run time:
     * javac 25 does not find it in release 17's API (a build on JDK 25 failed), though JDK 17 has it.
     */
    private static final MethodHandle TOTAL = findTotal();

    private Allocated() {}

    /** Bytes allocated by all threads so far, or -1 where the JVM does not count them. */
    static long now() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (TOTAL == null || !(threads instanceof com.sun.management.ThreadMXBean counting)
                || !counting.isThreadAllocatedMemorySupported() || !counting.isThreadAllocatedMemoryEnabled()) {
            return -1;
        }
        try {
            return (long) TOTAL.invoke(counting);
        } catch (Throwable t) {
            return -1;
        }
    }

    private static MethodHandle findTotal() {
        try {
            return MethodHandles.publicLookup().findVirtual(com.sun.management.ThreadMXBean.class,
                    "getTotalThreadAllocatedBytes", MethodType.methodType(long.class));
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    /** "N bytes allocated per call" between two readings of {@link #now()}, or "allocation unknown". */
    static String perCall(long before, long after, long calls) {
        if (before < 0 || after < before || calls <= 0) {
            return "allocation unknown";
        }
        return String.format(Locale.ROOT, "%,.0f bytes allocated per call", (double) (after - before) / calls);
    }
}
