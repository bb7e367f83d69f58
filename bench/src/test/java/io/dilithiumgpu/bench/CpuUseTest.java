package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuUseTest {
    private static final long SPIN_NANOS = 50_000_000L;

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

    /**
     * The thread spins until it has used {@link #SPIN_NANOS} of CPU by its own clock, however loaded
     * the machine, and stays alive (parked) until the second snapshot is taken.
     */
    @Test
    @Timeout(60)
    void aBusyThreadsTimeLandsInItsGroup() throws Exception {
        CpuUse before = CpuUse.snapshot();
        CountDownLatch spun = new CountDownLatch(1);
        CountDownLatch measured = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            long x = 0;
            while (mx.getCurrentThreadCpuTime() < SPIN_NANOS) {
                for (int i = 0; i < 10_000; i++) {
                    x += Long.numberOfTrailingZeros(x + 1);
                }
            }
            if (x == 42) {
                System.out.print("");
            }
            spun.countDown();
            try {
                measured.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "dilithiumgpu-batch-test-1");
        CpuUse during;
        t.start();
        try {
            spun.await();
            during = CpuUse.snapshot();
        } finally {
            measured.countDown();
            t.join();
        }
        Map<CpuUse.Group, Long> groups = during.byGroupSince(before);
        assertTrue(groups.get(CpuUse.Group.BATCH) >= SPIN_NANOS, "batch group " + groups);
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
