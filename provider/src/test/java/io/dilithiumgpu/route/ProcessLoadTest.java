package io.dilithiumgpu.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The process's CPU load per core between readings, from a fake CPU clock and wall clock. */
class ProcessLoadTest {
    private static final long SECOND = 1_000_000_000L;
    private long cpu;
    private long now = 7 * SECOND;

    @Test
    void theLoadIsTheCpuTimeSinceTheLastReadingPerCoreOfWallTime() {
        ProcessLoad load = new ProcessLoad(() -> cpu, () -> now, 16);
        cpu += 8 * SECOND;
        now += SECOND;
        assertEquals(0.5, load.getAsDouble(), 1e-9);
        cpu += 16 * SECOND / 10;
        now += SECOND / 10;
        assertEquals(1.0, load.getAsDouble(), 1e-9);
        now += SECOND;
        assertEquals(0.0, load.getAsDouble(), 1e-9);
    }

    @Test
    void aLoadPastTheCoresCountsAsFull() {
        ProcessLoad load = new ProcessLoad(() -> cpu, () -> now, 2);
        cpu += 3 * SECOND;
        now += SECOND;
        assertEquals(1.0, load.getAsDouble(), 1e-9);
    }

    @Test
    void anUnknownCpuTimeOrNoTimePassedIsUnknown() {
        ProcessLoad unknown = new ProcessLoad(() -> -1, () -> now, 16);
        now += SECOND;
        assertTrue(unknown.getAsDouble() < 0);
        ProcessLoad load = new ProcessLoad(() -> cpu, () -> now, 16);
        assertTrue(load.getAsDouble() < 0, "no wall time since the last reading");
    }
}
