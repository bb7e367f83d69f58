package io.dilithiumgpu.route;

import static io.dilithiumgpu.route.RouteChoice.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The routing rule on its own: measured costs and counts in, a route out. */
class RouteChoiceTest {
    private static final long MICROS = 1_000;

    /** choose() with {@code inFlight} calls in flight on 16 cores, none direct, no spare core. */
    private static Route choose(long directNanos, long batchNanos, int inFlight) {
        return RouteChoice.choose(true, directNanos, batchNanos, inFlight, 16, 0, 0);
    }

    @Test
    void onTheCpuBackendEveryCallRunsDirectWhateverTheCostsAndCounts() {
        assertEquals(Route.DIRECT, RouteChoice.choose(false, 300 * MICROS, 100 * MICROS, 64, 16, 16, 0));
        assertEquals(Route.DIRECT, RouteChoice.choose(false, UNKNOWN, UNKNOWN, 0, 16, 0, 0));
        assertEquals(Route.DIRECT, RouteChoice.choose(false, 300 * MICROS, 1, 4096, 16, 16, 0));
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
    void spareCoresTakeCallsTheBatcherWouldOtherwiseGet() {
        assertEquals(Route.DIRECT, RouteChoice.choose(true, 270 * MICROS, 480 * MICROS, 64, 16, 3, 4));
        assertEquals(Route.BATCH, RouteChoice.choose(true, 270 * MICROS, 480 * MICROS, 64, 16, 4, 4));
        assertEquals(Route.BATCH, RouteChoice.choose(true, 270 * MICROS, 480 * MICROS, 64, 16, 0, 0));
        assertEquals(Route.BATCH, RouteChoice.choose(true, 700 * MICROS, 400 * MICROS, 1, 16, 0, 12),
                "with no more calls than cores each takes the route that ends it sooner");
    }

    @Test
    void anUnmeasuredRouteIsTried() {
        assertEquals(Route.DIRECT, choose(UNKNOWN, 100 * MICROS, 4096));
        assertEquals(Route.BATCH, choose(60 * MICROS, UNKNOWN, 1));
    }

    @Test
    void onlyCoresIdleBelowTheTargetLoadAreSpare() {
        assertEquals(12, RouteChoice.spareCores(16, 0.0, 0), "an idle host: three quarters of its cores");
        assertEquals(4, RouteChoice.spareCores(16, 0.5, 0), "half the cores busy with batched calls");
        assertEquals(0, RouteChoice.spareCores(16, 0.76, 0), "the batch route alone is past the target");
        assertEquals(0, RouteChoice.spareCores(16, -1, 0), "load unknown: no core is spare");
    }

    @Test
    void directCallsKeepTheCoresTheyUseWhileTheHostStaysUnderTheTarget() {
        // 4 cores with direct calls, 8 with the batch route: at the target, stays at 4
        assertEquals(4, RouteChoice.spareCores(16, 12.0 / 16, 4.0));
    }

    @Test
    void aHostPastTheTargetTakesCoresBackFromDirectCalls() {
        assertEquals(2, RouteChoice.spareCores(16, 14.0 / 16, 4.0));
        assertEquals(0, RouteChoice.spareCores(16, 1.0, 3.0));
        assertEquals(0, RouteChoice.spareCores(16, 1.2, 0), "load above 1 counts as 1");
    }

    @Test
    void spareCoresNeverExceedTheCores() {
        assertEquals(16, RouteChoice.spareCores(16, 0.0, 40.0));
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
