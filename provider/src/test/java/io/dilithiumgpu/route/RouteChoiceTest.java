package io.dilithiumgpu.route;

import static io.dilithiumgpu.route.RouteChoice.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The routing rule on its own: measured costs and counts in, a route out. */
class RouteChoiceTest {
    private static final long MICROS = 1_000;

    @Test
    void onTheCpuBackendEveryCallRunsDirectWhateverTheCostsAndCounts() {
        assertEquals(Route.DIRECT, RouteChoice.choose(false, 300 * MICROS, 100 * MICROS, 64, 1));
        assertEquals(Route.DIRECT, RouteChoice.choose(false, UNKNOWN, UNKNOWN, 0, 0));
        assertEquals(Route.DIRECT, RouteChoice.choose(false, 300 * MICROS, 1, 4096, 0));
    }

    @Test
    void onAGpuALoneCallRunsDirectWhenTheCpuBeatsTheRoundTrip() {
        // a verification: tens of µs on a core against a round trip of hundreds through the GPU
        assertEquals(Route.DIRECT, RouteChoice.choose(true, 60 * MICROS, 150 * MICROS, 0, 15));
        assertEquals(Route.DIRECT, RouteChoice.choose(true, 150 * MICROS, 150 * MICROS, 0, 15));
    }

    @Test
    void onAGpuACallGoesToTheBatcherWhenItsRoundTripIsShorter() {
        assertEquals(Route.BATCH, RouteChoice.choose(true, 700 * MICROS, 400 * MICROS, 0, 15));
    }

    @Test
    void callsBeyondTheFreeCoresGoToTheBatcherEvenWhenDirectIsFaster() {
        assertEquals(Route.DIRECT, RouteChoice.choose(true, 60 * MICROS, 3_000 * MICROS, 14, 15));
        assertEquals(Route.BATCH, RouteChoice.choose(true, 60 * MICROS, 3_000 * MICROS, 15, 15));
        assertEquals(Route.BATCH, RouteChoice.choose(true, 60 * MICROS, 3_000 * MICROS, 40, 15));
        assertEquals(Route.BATCH, RouteChoice.choose(true, 60 * MICROS, UNKNOWN, 0, 0), "no core free");
    }

    @Test
    void anUnmeasuredRouteIsTried() {
        assertEquals(Route.DIRECT, RouteChoice.choose(true, UNKNOWN, 100 * MICROS, 0, 15));
        assertEquals(Route.BATCH, RouteChoice.choose(true, 60 * MICROS, UNKNOWN, 0, 15));
    }

    @Test
    void anIdleHostOffersAllItsCoresButHalfOfOne() {
        assertEquals(15, RouteChoice.directCapacity(16, 0.0, 0));
        assertEquals(1, RouteChoice.directCapacity(2, 0.0, 0));
        assertEquals(15, RouteChoice.directCapacity(16, -1, 0), "load unknown: as idle");
    }

    @Test
    void coresTheBatchRouteKeepsBusyAreNotOffered() {
        // 9 of 16 cores busy with the batcher's callers and threads, none with direct calls
        assertEquals(6, RouteChoice.directCapacity(16, 9.0 / 16, 0));
    }

    @Test
    void directCallsKeepTheCoresTheyUseWhileOthersStandIdle() {
        // 6 cores with direct calls, 9 with the batch route, 1 idle: stays at 6
        assertEquals(6, RouteChoice.directCapacity(16, 15.0 / 16, 6.0));
    }

    @Test
    void aFullyBusyHostTakesCoresBackFromDirectCalls() {
        assertEquals(5, RouteChoice.directCapacity(16, 1.0, 6.0));
        assertEquals(0, RouteChoice.directCapacity(16, 1.0, 0.3));
        assertEquals(0, RouteChoice.directCapacity(16, 1.2, 0), "load above 1 counts as 1");
    }

    @Test
    void capacityNeverExceedsTheCores() {
        assertEquals(16, RouteChoice.directCapacity(16, 0.0, 40.0));
    }

    @Test
    void theJdkSignsWhenItMeasuredFasterAndIsTriedUntilMeasured() {
        assertTrue(RouteChoice.preferJdk(500 * MICROS, 400 * MICROS));
        assertFalse(RouteChoice.preferJdk(400 * MICROS, 500 * MICROS));
        assertFalse(RouteChoice.preferJdk(400 * MICROS, 400 * MICROS), "a tie stays on the core");
        assertTrue(RouteChoice.preferJdk(400 * MICROS, UNKNOWN));
        assertTrue(RouteChoice.preferJdk(UNKNOWN, UNKNOWN));
        assertFalse(RouteChoice.preferJdk(UNKNOWN, 400 * MICROS));
    }
}
