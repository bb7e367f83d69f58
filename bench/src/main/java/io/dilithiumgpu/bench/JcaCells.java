package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.util.List;

/**
 * One provider's part of a {@code jca} run, warmed up and ready: its cells measured one at a time,
 * in the order {@link JcaSchedule} gives, in this JVM ({@link InProcessJcaCells}) or in a second one
 * ({@link CpuJcaProcess}). Every signature a cell makes is checked.
 */
interface JcaCells {
    /**
     * Latency under open-loop arrivals at {@code rate} per second: {@code calls} measured calls, in
     * nanoseconds, and the whole run, lead-in included, in windows of arrival time.
     */
    record Latency(double rate, int calls, long p50, long p99, long p999, long max,
                   List<OpenLoopTimeline.Window> timeline) {}

    /** Whether this provider measures {@code set} (it has it, and its load was made). */
    boolean has(ParameterSet set);

    /**
     * Throughput in ops/s of {@code callers} callers in a closed loop, after the run's warm-up time
     * per level.
     *
     * @throws WrongResultException when a result was wrong
     */
    double closedLoop(ParameterSet set, Operation op, JcaLoad.Style style, int callers) throws Exception;

    /**
     * Latency with calls arriving at {@code rate} per second for the run's measured time, after as
     * long a lead-in at that rate as its warm-up time per level.
     *
     * @throws WrongResultException when a result was wrong
     */
    Latency openLoop(ParameterSet set, Operation op, JcaLoad.Style style, double rate) throws Exception;

    /** Ends the measurements and destroys the keys; returns what went wrong doing so (empty when nothing). */
    List<String> finish() throws Exception;
}
