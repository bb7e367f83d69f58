package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

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
}
