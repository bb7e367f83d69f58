package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class JitActivityTest {

    @Test
    void aNewThreadCountsWholeAndAGoneOneTakesNothingBack() {
        Map<Long, Long> before = Map.of(1L, 100L, 2L, 50L, 3L, 70L);
        Map<Long, Long> now = Map.of(1L, 130L, 3L, 70L, 4L, 25L);
        assertEquals(30 + 25, JitActivity.growth(before, now));
        assertEquals(0, JitActivity.growth(now, now));
        assertEquals(0, JitActivity.growth(Map.of(7L, 500L), Map.of(7L, 20L)), "a task id used again");
    }

    @Test
    void betweenTwoCountsInMilliseconds() {
        JitActivity a = new JitActivity("compilation", () -> 0);
        assertEquals("compilation 12 ms", a.between(3_000_000L, 15_200_000L));
    }

    /** HotSpot on Linux: its compiler threads are found, and their count does not go back. */
    @Test
    void onLinuxTheCompilerThreadsAreRead() {
        assumeTrue(new File("/proc/self/task").isDirectory(), "no /proc/self/task: not Linux");
        assumeTrue(System.getProperty("java.vm.name", "").contains("HotSpot")
                || System.getProperty("java.vm.name", "").contains("OpenJDK"), "not HotSpot");
        assertFalse(JitActivity.compilerThreads().isEmpty(), "no C1/C2 CompilerThread in /proc/self/task");
        JitActivity jit = JitActivity.ofThisJvm();
        assertNotNull(jit);
        assertEquals("compiler CPU", jit.label());
        long first = jit.nanos();
        long second = jit.nanos();
        assertTrue(first >= 0 && second >= first, first + " then " + second);
    }
}
