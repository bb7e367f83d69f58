package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuUseTest {

    @Test
    void threadsAreGroupedByTheirNamesWholeOrAsLinuxTruncatesThem() {
        // Java's names, then the OS thread names of /proc (15 characters).
        Object[][] cases = {
            {"ForkJoinPool-1-worker-3", CpuUse.Group.CALLERS}, {"bench-caller", CpuUse.Group.CALLERS},
            {"dilithiumgpu-dispatch-1", CpuUse.Group.DISPATCH}, {"dilithiumgpu-batch-1-7", CpuUse.Group.BATCH},
            {"dilithiumgpu-cuda-dev0-slot5", CpuUse.Group.SLOTS}, {"dilithiumgpu-cuda-copy-2", CpuUse.Group.COPIES},
            {"main", CpuUse.Group.OTHER},
            {"ForkJoinPool-1-", CpuUse.Group.CALLERS}, {"dilithiumgpu-di", CpuUse.Group.DISPATCH},
            {"dilithiumgpu-ba", CpuUse.Group.BATCH}, {"dilithiumgpu-cu", CpuUse.Group.SLOTS},
        };
        for (Object[] c : cases) {
            assertEquals(c[1], CpuUse.Group.of((String) c[0]), (String) c[0]);
        }
    }

    @Test
    void aBusyThreadsTimeLandsInItsGroup() throws Exception {
        CpuUse before = CpuUse.snapshot();
        Thread t = new Thread(() -> {
            long end = System.nanoTime() + 200_000_000L;
            long x = 0;
            while (System.nanoTime() < end) {
                x += Long.numberOfTrailingZeros(x + 1);
            }
            if (x == 42) {
                System.out.print("");
            }
        }, "dilithiumgpu-batch-test-1");
        CpuUse during;
        t.start();
        try {
            Thread.sleep(150);
            during = CpuUse.snapshot();
        } finally {
            t.join();
        }
        Map<CpuUse.Group, Long> groups = during.byGroupSince(before);
        assertTrue(groups.get(CpuUse.Group.BATCH) >= 50_000_000L, "batch group " + groups);
        assertEquals(0L, groups.get(CpuUse.Group.SLOTS));
        String line = during.since(before, 1000);
        assertTrue(line.startsWith("cpu: "), line);
        assertTrue(line.contains("batch threads "), line);
        assertTrue(line.contains(" of " + Runtime.getRuntime().availableProcessors() + " cores busy"), line);
        if (new java.io.File("/proc/self/task").isDirectory()) {
            // Linux: the batch-named thread ran, so its group has a run-queue share.
            assertTrue(during.runQueueSince(before).contains("batch threads "), during.runQueueSince(before));
            assertTrue(line.contains("waiting for a core: "), line);
        }
    }
}
