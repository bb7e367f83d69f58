package io.dilithiumgpu.route;

import static io.dilithiumgpu.route.RouteChoice.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The routing rule on its own: measured costs and counts in, a route out. */
class RouteChoiceTest {
    private static final long MICROS = 1_000;

    /** choose() with {@code inFlight} calls in flight on 16 cores. */
    private static Route choose(long directNanos, long batchNanos, int inFlight) {
        return RouteChoice.choose(true, directNanos, batchNanos, inFlight, 16);
    }

    @Test
    void onTheCpuBackendEveryCallRunsDirectWhateverTheCostsAndCounts() {
        assertEquals(Route.DIRECT, RouteChoice.choose(false, 300 * MICROS, 100 * MICROS, 64, 16));
        assertEquals(Route.DIRECT, RouteChoice.choose(false, UNKNOWN, UNKNOWN, 0, 16));
        assertEquals(Route.DIRECT, RouteChoice.choose(false, 300 * MICROS, 1, 4096, 16));
    }

    @Test
    void onAGpuALoneCallRunsDirectWhenTheCpuBeatsTheRoundTrip() {
        // a verification: tens of µs on a core against a round trip of hundreds through the GPU
        assertEquals(Route.DIRECT, choose(60 * MICROS, 150 * MICROS, 1));
        assertEquals(Route.DIRECT, choose(150 * MICROS, 150 * MICROS, 1), "a tie runs direct");
        assertEquals(Route.DIRECT, choose(60 * MICROS, 150 * MICROS, 16), "no more calls than cores: no wait");
    }

    @Test
    void onAGpuACallGoesToTheBatcherWhenItsRoundTripIsShorter() {
        assertEquals(Route.BATCH, choose(700 * MICROS, 400 * MICROS, 1));
    }

    @Test
    void callsBeyondTheCoresWaitForOneSoManyGoToTheBatcher() {
        // 40 µs on a core, 500 µs through the GPU: direct up to 12.5 calls per core
        assertEquals(Route.DIRECT, choose(40 * MICROS, 500 * MICROS, 64));
        assertEquals(Route.DIRECT, choose(40 * MICROS, 500 * MICROS, 200));
        assertEquals(Route.BATCH, choose(40 * MICROS, 500 * MICROS, 201));
        assertEquals(Route.BATCH, choose(40 * MICROS, 2_700 * MICROS, 4096));
        // a signature: 270 µs on a core against 480 µs through the GPU
        assertEquals(Route.DIRECT, choose(270 * MICROS, 480 * MICROS, 16));
        assertEquals(Route.DIRECT, choose(270 * MICROS, 480 * MICROS, 28));
        assertEquals(Route.BATCH, choose(270 * MICROS, 480 * MICROS, 29));
    }

    @Test
    void anUnmeasuredRouteIsTried() {
        assertEquals(Route.DIRECT, choose(UNKNOWN, 100 * MICROS, 4096));
        assertEquals(Route.BATCH, choose(60 * MICROS, UNKNOWN, 1));
    }

    @Test
    void theJdkSignsWhenItMeasuredFasterAndIsTriedUntilMeasured() {
        assertTrue(RouteChoice.preferJdk(500 * MICROS, 400 * MICROS, false));
        assertFalse(RouteChoice.preferJdk(400 * MICROS, 500 * MICROS, true));
        assertTrue(RouteChoice.preferJdk(400 * MICROS, UNKNOWN, false));
        assertTrue(RouteChoice.preferJdk(UNKNOWN, UNKNOWN, false));
        assertFalse(RouteChoice.preferJdk(UNKNOWN, 400 * MICROS, true));
    }

    @Test
    void theEngineInUseKeepsTheSignaturesUntilTheOtherIsFivePercentFaster() {
        assertFalse(RouteChoice.preferJdk(400 * MICROS, 400 * MICROS, false), "a tie stays on the core");
        assertTrue(RouteChoice.preferJdk(400 * MICROS, 400 * MICROS, true), "a tie stays on the JDK");
        assertFalse(RouteChoice.preferJdk(400 * MICROS, 388 * MICROS, false), "3 % faster is noise");
        assertTrue(RouteChoice.preferJdk(388 * MICROS, 400 * MICROS, true), "3 % faster is noise");
        assertTrue(RouteChoice.preferJdk(400 * MICROS, 370 * MICROS, false));
        assertFalse(RouteChoice.preferJdk(370 * MICROS, 400 * MICROS, true));
    }
}
