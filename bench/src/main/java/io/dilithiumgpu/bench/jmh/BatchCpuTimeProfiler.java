package io.dilithiumgpu.bench.jmh;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.lang.management.ManagementFactory;
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
 * </ul>
 * Needs a throughput benchmark with seconds as its time unit.
 */
public final class BatchCpuTimeProfiler implements InternalProfiler {
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long wallStart;
    private long cpuStart;

    @Override
    public String getDescription() {
        return "throughput per CPU-second of the benchmark JVM, and the cores it kept busy";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        wallStart = System.nanoTime();
        cpuStart = os.getProcessCpuTime();
    }

    @Override
    public List<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                 IterationResult result) {
        double wall = (System.nanoTime() - wallStart) / 1e9;
        double cpu = (os.getProcessCpuTime() - cpuStart) / 1e9;
        double opsPerSecond = result.getPrimaryResult().getScore();
        return List.of(
                new ScalarResult("ops/cpu-s", opsPerSecond * wall / cpu, "ops/cpu-s", AggregationPolicy.AVG),
                new ScalarResult("cores", cpu / wall, "cores", AggregationPolicy.AVG));
    }
}
