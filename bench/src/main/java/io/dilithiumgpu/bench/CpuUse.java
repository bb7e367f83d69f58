package io.dilithiumgpu.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Where the process's CPU time went between two snapshots, by kind of thread: the callers (the
 * carriers of virtual threads, or platform caller threads), the batcher's dispatcher and batch
 * threads, the CUDA backend's slot workers and copy threads, other Java threads, and the rest of
 * the process (garbage collection, the JIT: threads Java does not list). With the wall time between
 * the snapshots it says how many cores were busy, and per call how much CPU each part takes: when
 * the busy cores approach the host's, the calls are CPU-bound.
 *
 * @param wallNanos    {@link System#nanoTime()} at the snapshot
 * @param processNanos the process's CPU time, or -1 where the JVM does not report it
 * @param threads      CPU time of each live Java thread by id, with its group
 */
record CpuUse(long wallNanos, long processNanos, Map<Long, Sample> threads) {

    /** Thread groups, in the order they are reported. */
    enum Group {
        CALLERS("callers"), DISPATCH("dispatch"), BATCH("batch threads"), SLOTS("cuda slots"),
        COPIES("cuda copies"), OTHER("other threads");

        final String label;

        Group(String label) {
            this.label = label;
        }

        /** The group of a thread by its name ({@code dilithiumgpu-batch-1-3}, {@code ForkJoinPool-1-worker-2}, ...). */
        static Group of(String name) {
            if (name.startsWith("ForkJoinPool") || name.startsWith("bench-caller")) {
                return CALLERS;
            }
            if (name.startsWith("dilithiumgpu-dispatch")) {
                return DISPATCH;
            }
            if (name.startsWith("dilithiumgpu-batch")) {
                return BATCH;
            }
            if (name.startsWith("dilithiumgpu-cuda-copy")) {
                return COPIES;
            }
            if (name.startsWith("dilithiumgpu-cuda")) {
                return SLOTS;
            }
            return OTHER;
        }
    }

    record Sample(Group group, long cpuNanos) {}

    /** The CPU times now. */
    static CpuUse snapshot() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<Long, Sample> threads = new HashMap<>();
        if (mx.isThreadCpuTimeSupported() && mx.isThreadCpuTimeEnabled()) {
            for (ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
                if (info == null) {
                    continue;
                }
                long cpu = mx.getThreadCpuTime(info.getThreadId());
                if (cpu >= 0) {
                    threads.put(info.getThreadId(), new Sample(Group.of(info.getThreadName()), cpu));
                }
            }
        }
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        long process = os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
        return new CpuUse(System.nanoTime(), process, threads);
    }

    /**
     * CPU nanoseconds of each group since {@code earlier} (a thread born since counts whole; one
     * that ended since is lost to the groups and falls into the process's remainder).
     */
    Map<Group, Long> byGroupSince(CpuUse earlier) {
        Map<Group, Long> sums = new LinkedHashMap<>();
        for (Group g : Group.values()) {
            sums.put(g, 0L);
        }
        threads.forEach((id, now) -> {
            Sample before = earlier.threads.get(id);
            long used = now.cpuNanos - (before == null ? 0 : before.cpuNanos);
            sums.merge(now.group, Math.max(0, used), Long::sum);
        });
        return sums;
    }

    /**
     * One line: the cores busy between {@code earlier} and this snapshot, and the CPU time per call
     * of {@code calls} calls, in all and by group (µs), with the process's remainder (GC, JIT) as "jvm".
     */
    String since(CpuUse earlier, long calls) {
        double wall = wallNanos - earlier.wallNanos;
        if (wall <= 0 || calls <= 0) {
            return "cpu: no calls";
        }
        Map<Group, Long> groups = byGroupSince(earlier);
        long listed = groups.values().stream().mapToLong(Long::longValue).sum();
        long total = processNanos >= 0 && earlier.processNanos >= 0 ? processNanos - earlier.processNanos : listed;
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "cpu: %.1f of %d cores busy; per call %.1f µs (",
                total / wall, Runtime.getRuntime().availableProcessors(), total / 1e3 / calls));
        groups.forEach((g, nanos) -> s.append(g.label).append(' ')
                .append(String.format(Locale.ROOT, "%.1f", nanos / 1e3 / calls)).append(", "));
        s.append(String.format(Locale.ROOT, "jvm %.1f)", Math.max(0, total - listed) / 1e3 / calls));
        return s.toString();
    }
}
