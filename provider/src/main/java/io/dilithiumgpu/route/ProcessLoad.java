package io.dilithiumgpu.route;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * This process's CPU load since the last reading: its CPU time over the wall time, per core, 0 to
 * 1; negative where the JDK cannot tell. The process's own time, not the host's: a container or a
 * virtual machine may report a host whose other cores the process cannot use. Not thread-safe:
 * {@link Router} reads it from one sampling caller at a time.
 */
final class ProcessLoad implements DoubleSupplier {
    private final LongSupplier cpuNanos;
    private final LongSupplier clock;
    private final int cores;
    private long lastCpu;
    private long lastAt;

    ProcessLoad(LongSupplier cpuNanos, LongSupplier clock, int cores) {
        this.cpuNanos = cpuNanos;
        this.clock = clock;
        this.cores = cores;
        this.lastCpu = cpuNanos.getAsLong();
        this.lastAt = clock.getAsLong();
    }

    /** The process's CPU time, from the platform MXBean; -1 where it is not available. */
    static LongSupplier processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            com.sun.management.OperatingSystemMXBean sun = (com.sun.management.OperatingSystemMXBean) os;
            return sun::getProcessCpuTime;
        }
        return () -> -1;
    }

    @Override
    public double getAsDouble() {
        long cpu = cpuNanos.getAsLong();
        long at = clock.getAsLong();
        long cpuDelta = cpu - lastCpu;
        long wall = at - lastAt;
        lastCpu = cpu;
        lastAt = at;
        if (cpu < 0 || wall <= 0) {
            return -1;
        }
        return Math.max(0, Math.min(1, (double) cpuDelta / wall / cores));
    }
}
