package io.dilithiumgpu.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * How much the JIT has worked so far, in nanoseconds, a count that only grows; read it twice and
 * the difference is the JIT's work between. Two sources, the first this JVM has:
 * <ul>
 *   <li>The compiler threads' CPU time, on Linux ({@code /proc/self/task/N/schedstat}, in
 *       nanoseconds, of HotSpot's threads {@code C1 CompilerThread0}, {@code C2 CompilerThread0},
 *       ...): it grows while a compilation runs. (Their time waiting for a core is left out: on a
 *       host whose cores the load keeps busy it adds a scheduler's wait to every small
 *       compilation, and a quiet JIT read as a busy one.)</li>
 *   <li>The JVM's total compilation time ({@link CompilationMXBean}), where it is reported. It
 *       grows only when a compilation ends: a long C2 compilation in progress does not show until
 *       then, and a quiet reading may hide it.</li>
 * </ul>
 *
 * @param label  what the count is, for a message: {@code compiler CPU 12 ms}
 * @param reader the count so far; not thread-safe
 */
record JitActivity(String label, LongSupplier reader) {
    /** In the names of HotSpot's compiler threads as Linux keeps them ("C2 CompilerThre", "JVMCI CompilerT"). */
    private static final String COMPILER_THREAD = "CompilerT";

    /** The count now. */
    long nanos() {
        return reader.getAsLong();
    }

    /** {@code compiler CPU 12 ms} between two counts. */
    String between(long before, long after) {
        return String.format(Locale.ROOT, "%s %d ms", label, Math.round((after - before) / 1e6));
    }

    /** The first source of the two this JVM has, or null where it has neither (no JIT, say). */
    static JitActivity ofThisJvm() {
        if (!compilerThreads().isEmpty()) {
            return new JitActivity("compiler CPU", new CompilerThreads());
        }
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit != null && jit.isCompilationTimeMonitoringSupported()) {
            return new JitActivity("compilation", () -> jit.getTotalCompilationTime() * 1_000_000L);
        }
        return null;
    }

    /**
     * How much the count grows from {@code before} to {@code now}, each a thread's time by task id:
     * a thread new since counts whole, one gone since counts nothing more.
     */
    static long growth(Map<Long, Long> before, Map<Long, Long> now) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : now.entrySet()) {
            sum += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
        }
        return sum;
    }

    /** The compiler threads' CPU nanoseconds, by task id; empty where Linux shows none. */
    static Map<Long, Long> compilerThreads() {
        Map<Long, Long> out = new HashMap<>();
        Tasks.read().forEach((tid, t) -> {
            if (t.name().contains(COMPILER_THREAD)) {
                out.put(tid, t.runNanos());
            }
        });
        return out;
    }

    /**
     * The compiler threads' time so far as the sum of their growth between readings, so that a
     * thread HotSpot stops (it starts and stops them with the queue's length) takes nothing back.
     */
    private static final class CompilerThreads implements LongSupplier {
        private Map<Long, Long> last = new HashMap<>();
        private long total;

        @Override
        public long getAsLong() {
            Map<Long, Long> now = compilerThreads();
            total += growth(last, now);
            last = now;
            return total;
        }
    }
}
