package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuUseTest {

    @Test
    void threadsAreGroupedByTheirNames() {
        assertEquals(CpuUse.Group.CALLERS, CpuUse.Group.of("ForkJoinPool-1-worker-3"));
        assertEquals(CpuUse.Group.CALLERS, CpuUse.Group.of("bench-caller"));
        assertEquals(CpuUse.Group.DISPATCH, CpuUse.Group.of("dilithiumgpu-dispatch-1"));
        assertEquals(CpuUse.Group.BATCH, CpuUse.Group.of("dilithiumgpu-batch-1-7"));
        assertEquals(CpuUse.Group.SLOTS, CpuUse.Group.of("dilithiumgpu-cuda-dev0-slot5"));
        assertEquals(CpuUse.Group.COPIES, CpuUse.Group.of("dilithiumgpu-cuda-copy-2"));
        assertEquals(CpuUse.Group.OTHER, CpuUse.Group.of("main"));
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

    @Test
    void truncatedOsThreadNamesFallIntoTheSameGroups() {
        assertEquals(CpuUse.Group.CALLERS, CpuUse.Group.of("ForkJoinPool-1-"));
        assertEquals(CpuUse.Group.DISPATCH, CpuUse.Group.of("dilithiumgpu-di"));
        assertEquals(CpuUse.Group.BATCH, CpuUse.Group.of("dilithiumgpu-ba"));
        assertEquals(CpuUse.Group.SLOTS, CpuUse.Group.of("dilithiumgpu-cu"));
    }
}
