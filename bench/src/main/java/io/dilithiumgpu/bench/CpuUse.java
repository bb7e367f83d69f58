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
 * <p>On Linux it also reads each thread's scheduler statistics ({@code /proc/self/task/N/schedstat}):
 * how long the threads of each group waited in the run queue for a core. A caller's virtual thread
 * cannot run while its carrier waits there, so when the host has more runnable threads than cores
 * this wait shows up in the calls' round trip without showing as CPU time.
 *
 * @param wallNanos    {@link System#nanoTime()} at the snapshot
 * @param processNanos the process's CPU time, or -1 where the JVM does not report it
 * @param threads      CPU time of each live Java thread by id, with its group
 * @param runQueue     per OS thread (by task id): its group by name, run and run-queue wait nanoseconds;
 *                     empty where the OS does not report them
 */
record CpuUse(long wallNanos, long processNanos, Map<Long, Sample> threads, Map<Long, Sched> runQueue) {

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
            if (name.startsWith("dilithiumgpu-di")) {
                return DISPATCH;
            }
            if (name.startsWith("dilithiumgpu-ba")) {
                return BATCH;
            }
            if (name.startsWith("dilithiumgpu-cuda-copy")) {
                return COPIES;
            }
            if (name.startsWith("dilithiumgpu-cu")) {
                // Linux keeps 15 characters of a thread's name: copies and slots read alike there.
                return SLOTS;
            }
            return OTHER;
        }
    }

    record Sample(Group group, long cpuNanos) {}

    /** An OS thread's group (by its name, which Linux keeps to 15 characters), run and wait times. */
    record Sched(Group group, long runNanos, long waitNanos) {}

    /** {@code /proc/self/task/*}'s schedstat by task id ({@link Tasks}); empty where there is no such file. */
    static Map<Long, Sched> readRunQueue() {
        Map<Long, Sched> out = new HashMap<>();
        Tasks.read().forEach((tid, t) -> out.put(tid, new Sched(Group.of(t.name()), t.runNanos(), t.waitNanos())));
        return out;
    }

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
        return new CpuUse(System.nanoTime(), process, threads, readRunQueue());
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
        String waits = runQueueSince(earlier);
        if (!waits.isEmpty()) {
            s.append("; waiting for a core: ").append(waits);
        }
        return s.toString();
    }

    /**
     * Per group with any run time since {@code earlier}: the share of its threads' time (run plus
     * wait) spent waiting in the run queue, e.g. "callers 31 %, batch threads 12 %"; empty when
     * there are no scheduler statistics.
     */
    String runQueueSince(CpuUse earlier) {
        Map<Group, long[]> sums = new LinkedHashMap<>();
        runQueue.forEach((tid, now) -> {
            Sched before = earlier.runQueue.get(tid);
            long run = now.runNanos - (before == null ? 0 : before.runNanos);
            long wait = now.waitNanos - (before == null ? 0 : before.waitNanos);
            long[] sum = sums.computeIfAbsent(now.group, g -> new long[2]);
            sum[0] += Math.max(0, run);
            sum[1] += Math.max(0, wait);
        });
        StringBuilder s = new StringBuilder();
        for (Group g : Group.values()) {
            long[] sum = sums.get(g);
            if (sum == null || sum[0] + sum[1] == 0) {
                continue;
            }
            s.append(s.length() == 0 ? "" : ", ").append(g.label).append(' ')
                    .append(String.format(Locale.ROOT, "%.0f %%", 100.0 * sum[1] / (sum[0] + sum[1])));
        }
        return s.toString();
    }
}
