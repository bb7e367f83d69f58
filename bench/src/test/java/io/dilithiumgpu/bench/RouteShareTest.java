package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RouteShareTest {

    @Test
    void sharesOfTheCallsSinceTheEarlierSnapshot() {
        RouteShare before = new RouteShare(100, 50, 0, 10);
        assertEquals("routes: direct 61 %, batch 39 %", new RouteShare(161, 89, 0, 10).since(before));
        assertEquals("routes: direct 76 % (70 % with helpers), batch 0 %, jdk 24 %",
                new RouteShare(176, 50, 24, 80).since(before));
        assertEquals("routes: no calls", before.since(before));
    }

    @Test
    void theDirectCallsBesideAGpuShowWhyTheyWentDirect() {
        RouteShare before = new RouteShare(100, 50, 0, 0, Map.of("measure", 10L, "rule", 80L, "probe", 5L,
                "trial", 5L));
        RouteShare after = new RouteShare(300, 250, 0, 0, Map.of("measure", 12L, "rule", 270L, "probe", 13L,
                "trial", 5L));
        assertEquals("routes: direct 50 %, batch 50 % (direct by rule 95 %, probe 4 %, measure 1 %)",
                after.since(before));
        assertEquals("routes: direct 50 %, batch 50 %",
                new RouteShare(300, 250, 0, 0, before.why()).since(before), "no reason moved");
    }
}
