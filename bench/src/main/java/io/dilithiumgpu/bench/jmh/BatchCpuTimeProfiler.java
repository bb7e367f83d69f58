package io.dilithiumgpu.bench.jmh;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A JMH profiler that relates throughput to the CPU time the benchmark JVM spent: on a machine
 * shared with other work, wall-clock throughput swings with the other load, while operations per
 * CPU-second of this process (its threads' user and system time, GC and JIT included) do not.
 * Use with {@code -prof io.dilithiumgpu.bench.jmh.BatchCpuTimeProfiler}; it adds two secondary
 * results per benchmark:
 *
 * <ul>
 *   <li>{@code ops/cpu-s}: the primary score (ops/s) × wall seconds / CPU seconds of the iteration.
 *       A path that keeps every core busy reaches this rate × cores on a dedicated machine.</li>
 *   <li>{@code cores}: CPU seconds / wall seconds, the cores the process kept busy on average.</li>
 *   <li>{@code other-cores} (Linux only): the cores the rest of the machine kept busy meanwhile
 *       (busy time of all CPUs in {@code /proc/stat}, less this process's). Tells a benchmark
 *       that left cores idle (low {@code cores}, low {@code other-cores}) from one that other
 *       work crowded out (low {@code cores}, high {@code other-cores}).</li>
 * </ul>
 * Needs a throughput benchmark with seconds as its time unit.
 */
public final class BatchCpuTimeProfiler implements InternalProfiler {
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long wallStart;
    private long cpuStart;
    private long machineBusyStart;

    @Override
    public String getDescription() {
        return "throughput per CPU-second of the benchmark JVM, and the cores it kept busy";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        wallStart = System.nanoTime();
        cpuStart = os.getProcessCpuTime();
        machineBusyStart = machineBusyNanos();
    }

    @Override
    public List<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                 IterationResult result) {
        double wall = (System.nanoTime() - wallStart) / 1e9;
        double cpu = (os.getProcessCpuTime() - cpuStart) / 1e9;
        double opsPerSecond = result.getPrimaryResult().getScore();
        long machineBusyEnd = machineBusyNanos();
        List<Result> results = new ArrayList<>(List.of(
                new ScalarResult("ops/cpu-s", opsPerSecond * wall / cpu, "ops/cpu-s", AggregationPolicy.AVG),
                new ScalarResult("cores", cpu / wall, "cores", AggregationPolicy.AVG)));
        if (machineBusyStart >= 0 && machineBusyEnd >= 0) {
            double others = ((machineBusyEnd - machineBusyStart) / 1e9 - cpu) / wall;
            results.add(new ScalarResult("other-cores", Math.max(0, others), "cores", AggregationPolicy.AVG));
        }
        return results;
    }

    /**
     * Busy time of all CPUs since boot from the first line of {@code /proc/stat} (user, nice,
     * system, irq, softirq, steal; in USER_HZ ticks, taken as 100 per second), or −1 where there
     * is no such file.
     */
    private static long machineBusyNanos() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            if (!f[0].equals("cpu") || f.length < 9) {
                return -1;
            }
            long ticks = 0;
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                ticks += Long.parseLong(f[i]);
            }
            return ticks * 10_000_000L;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
