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

    /** batchCost() on 16 cores: average 400 us, floor 150 us. */
    private static long batchCost(long loadedNanos, int loadedAt, boolean carrying, int inFlight) {
        return RouteChoice.batchCost(400 * MICROS, 150 * MICROS, loadedNanos, loadedAt, carrying, inFlight, 16);
    }

    @Test
    void withNoMoreCallsThanCoresTheBatchRouteCostsItsAverage() {
        assertEquals(400 * MICROS, batchCost(UNKNOWN, 0, false, 1));
        assertEquals(400 * MICROS, batchCost(265 * MICROS, 16, true, 16));
        assertEquals(400 * MICROS, batchCost(100 * MICROS, 8, false, 16));
    }

    @Test
    void beyondTheCoresTheBatchRouteCostsWhatItMeasuredCarryingTheCalls() {
        assertEquals(150 * MICROS, batchCost(UNKNOWN, 0, false, 64), "never carried: its floor");
        assertEquals(150 * MICROS, batchCost(UNKNOWN, 0, true, 64), "not yet measured carrying: its floor");
        assertEquals(265 * MICROS, batchCost(265 * MICROS, 64, true, 64), "carrying: its round trip at this load");
        assertEquals(100 * MICROS, batchCost(100 * MICROS, 64, true, 64), "carrying, even below its floor");
    }

    @Test
    void whileTheCallsRunDirectTheBatcherCostsAtLeastWhatItMeasuredAtALowerLoad() {
        assertEquals(265 * MICROS, batchCost(265 * MICROS, 64, false, 64));
        assertEquals(265 * MICROS, batchCost(265 * MICROS, 60, false, 64), "more calls: at least as long");
        assertEquals(150 * MICROS, batchCost(265 * MICROS, 70, false, 64), "fewer calls: only the floor bounds it");
        assertEquals(150 * MICROS, batchCost(100 * MICROS, 64, false, 64), "never below the floor");
    }

    @Test
    void atFourCallsPerCoreABatcherMeasuredSlowerThanTheCoresKeepsTheCallsDirect() {
        // a verification: 40 us on a core, 160 us with 64 calls on 16 cores; the batcher's floor
        // 150 us would take them, its round trip carrying 64 calls is 265 us
        long direct = 40 * MICROS;
        assertEquals(Route.BATCH, choose(direct, batchCost(UNKNOWN, 0, false, 64), 64));
        assertEquals(Route.DIRECT, choose(direct, batchCost(265 * MICROS, 64, true, 64), 64));
        assertEquals(Route.DIRECT, choose(direct, batchCost(265 * MICROS, 64, false, 64), 64));
        // at 256 calls, 640 us direct: what the batcher measured at 64 does not keep them direct
        assertEquals(Route.BATCH, choose(direct, batchCost(265 * MICROS, 64, false, 256), 256));
        assertEquals(Route.BATCH, choose(direct, batchCost(540 * MICROS, 256, true, 256), 256));
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

    @Test
    void onABusyHostADirectCallGoesToTheBatcherWhenThatCostsTheHostLess() {
        // a signature: 500 µs of a core direct, 60 µs of this provider's threads batched
        assertEquals(Route.BATCH, RouteChoice.forBusyHost(Route.DIRECT, 500 * MICROS, 60 * MICROS, true, 3, 16));
        assertEquals(Route.DIRECT, RouteChoice.forBusyHost(Route.DIRECT, 500 * MICROS, 60 * MICROS, false, 3, 16),
                "cores to spare: the faster route");
        assertEquals(Route.DIRECT, RouteChoice.forBusyHost(Route.DIRECT, 50 * MICROS, 60 * MICROS, true, 3, 16),
                "a verification cheaper on its caller's thread stays there");
        assertEquals(Route.DIRECT, RouteChoice.forBusyHost(Route.DIRECT, 500 * MICROS, UNKNOWN, true, 3, 16),
                "the batcher's host cost not measured yet");
        assertEquals(Route.DIRECT, RouteChoice.forBusyHost(Route.DIRECT, 500 * MICROS, 60 * MICROS, true, 8, 16),
                "this provider's own direct calls fill half the cores: they are the load");
        assertEquals(Route.BATCH, RouteChoice.forBusyHost(Route.BATCH, 50 * MICROS, 60 * MICROS, true, 3, 16),
                "a batched call stays batched");
    }
}
