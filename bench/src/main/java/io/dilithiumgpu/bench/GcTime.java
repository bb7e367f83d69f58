package io.dilithiumgpu.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The garbage collectors' counts and times between two snapshots, by collector, for telling a
 * latency tail made by collections from one made elsewhere: take {@link #now()} before and after.
 *
 * @param collectors per collector's name, its collections and milliseconds so far
 */
record GcTime(Map<String, long[]> collectors) {

    /** The collectors' counts and times now (those the JVM does not count are left out). */
    static GcTime now() {
        Map<String, long[]> m = new LinkedHashMap<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            long count = gc.getCollectionCount();
            long millis = gc.getCollectionTime();
            if (count >= 0 && millis >= 0) {
                m.put(gc.getName(), new long[] {count, millis});
            }
        }
        return new GcTime(m);
    }

    /**
     * "gc: G1 Young Generation 12 in 85 ms, ..." for the collectors that ran since {@code earlier}
     * (a collector's time is what its bean counts: pauses for G1's young and old generations,
     * concurrent work for "G1 Concurrent GC"); "gc: none" when none ran.
     */
    String since(GcTime earlier) {
        StringBuilder s = new StringBuilder();
        collectors.forEach((name, now) -> {
            long[] before = earlier.collectors.getOrDefault(name, new long[2]);
            long count = now[0] - before[0];
            if (count > 0) {
                s.append(s.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s %,d in %,d ms", name, count,
                        now[1] - before[1]));
            }
        });
        return "gc: " + (s.length() == 0 ? "none" : s);
    }
}
