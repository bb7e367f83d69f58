package io.dilithiumgpu.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.security.ProviderException;

/**
 * The router's measuring part, driven by a fake clock: which calls it sends down each route
 * while the routes warm up, once measured, and when an estimate goes stale; the pinning property;
 * the counts. No threads.
 */
class RouterTest {
    private static final long MICROS = 1_000;
    private static final ParameterSet P = ParameterSet.ML_DSA_44;

    private long now = 1_000_000_000L;

    @AfterEach
    void unpin() {
        System.clearProperty(RouteSetting.PROPERTY);
    }

    private Router router(boolean gpu) {
        return new Router(() -> gpu, () -> now, 16);
    }

    /** Runs one call down {@code route} that takes {@code nanos}. */
    private void call(Router r, Operation op, Route route, long nanos) {
        long started = r.started(route);
        now += nanos;
        r.ended(op, P, route, started);
    }

    /** Routes one verification and runs it with the given cost of each route; returns its route. */
    private Route verify(Router r, long directNanos, long batchNanos) {
        Route route = r.route(Operation.VERIFY, P);
        call(r, Operation.VERIFY, route, route == Route.BATCH ? batchNanos : directNanos);
        return route;
    }

    @Test
    void aLoneDirectSignatureMaySpreadOverTheIdleCoresAndCallersThatFillThemMayNot() {
        Router r = router(false);
        long first = r.started(Route.DIRECT);
        assertEquals(15, r.spareCores(), "one call on 16 cores");
        long second = r.started(Route.DIRECT);
        assertEquals(7, r.spareCores(), "two calls");
        now += 10 * MICROS;
        r.ended(Operation.SIGN, P, Route.DIRECT, second);
        assertEquals(7, r.spareCores(), "the second caller, between two calls, still counts");
        for (int i = 2; i < 16; i++) {
            r.started(Route.DIRECT);
        }
        assertEquals(0, r.spareCores(), "sixteen calls on sixteen cores");
        for (int i = 2; i < 16; i++) {
            r.ended(Operation.SIGN, P, Route.DIRECT, first);
        }
        assertEquals(0, r.spareCores(), "the interval's peak holds");
        now += 2 * Router.SAMPLE_MILLIS * 1_000_000;
        r.spareCores();
        now += 2 * Router.SAMPLE_MILLIS * 1_000_000;
        assertEquals(15, r.spareCores(), "two intervals of one call");
        r.ended(Operation.SIGN, P, Route.DIRECT, first);
        assertEquals(0, r.getDirectRunning());
    }

    @Test
    void withTheCpuBackendEveryCallRunsDirect() {
        Router r = router(false);
        for (int i = 0; i < 200; i++) {
            assertEquals(Route.DIRECT, verify(r, 60 * MICROS, 10 * MICROS));
        }
        assertEquals(200, r.getDirectCount());
        assertEquals(0, r.getBatchCount());
        assertEquals(0, r.getDirectRunning());
    }

    @Test
    void onAGpuBothRoutesWarmUpThenTheFasterTakesTheCalls() {
        Router r = router(true);
        for (int i = 0; i < Estimate.WARM_SAMPLES; i++) {
            assertEquals(Route.DIRECT, verify(r, 60 * MICROS, 150 * MICROS), "call " + i);
        }
        for (int i = 0; i < Estimate.WARM_SAMPLES; i++) {
            assertEquals(Route.BATCH, verify(r, 60 * MICROS, 150 * MICROS), "call " + i);
        }
        for (int i = 0; i < 100; i++) {
            assertEquals(Route.DIRECT, verify(r, 60 * MICROS, 150 * MICROS));
        }
        assertTrue(r.getEstimateNanos().get("ML-DSA-44 verify direct") < r.getEstimateNanos().get("ML-DSA-44 verify batch"));
        assertEquals(Map.of("measure", (long) Estimate.WARM_SAMPLES, "rule", 100L, "probe", 0L, "trial", 0L),
                r.getDirectReasons(), "the warm-up's direct calls measured the route; the rule chose the rest");
    }

    @Test
    void aStaleEstimateIsMeasuredAgainByOneCall() {
        Router r = router(true);
        for (int i = 0; i < 2 * Estimate.WARM_SAMPLES; i++) {
            verify(r, 60 * MICROS, 150 * MICROS);
        }
        assertEquals(Route.DIRECT, verify(r, 60 * MICROS, 150 * MICROS));
        now += (Router.REFRESH_MILLIS + 1) * 1_000_000;
        long batches = r.getBatchCount();
        assertEquals(Route.DIRECT, r.route(Operation.VERIFY, P), "the stale direct estimate is refreshed");
        assertEquals(Route.BATCH, r.route(Operation.VERIFY, P), "then the stale batch estimate");
        assertEquals(Route.DIRECT, r.route(Operation.VERIFY, P), "each by one call only");
        assertEquals(batches, r.getBatchCount(), "route() decides; started() counts");
    }

    @Test
    void aDirectEngineMeasuredSlowIsProbedOneCallAtATimeWhileItsCallsWin() {
        Router r = router(true);
        for (int i = 0; i < 2 * Estimate.WARM_SAMPLES; i++) {
            verify(r, 1_000 * MICROS, 550 * MICROS);  // direct measured while its code was cold
        }
        now += (Router.REFRESH_MILLIS + 1) * 1_000_000;
        assertEquals(Route.DIRECT, verify(r, 250 * MICROS, 550 * MICROS), "the direct estimate's refresh");
        assertEquals(Route.BATCH, verify(r, 250 * MICROS, 550 * MICROS), "the batch estimate's refresh");
        assertTrue(r.getEstimateNanos().get("ML-DSA-44 verify direct") > 550 * MICROS);
        assertEquals(Route.DIRECT, r.route(Operation.VERIFY, P), "its last call won: a probe");
        long probe = r.started(Route.DIRECT);
        assertEquals(Route.BATCH, r.route(Operation.VERIFY, P), "one probe at a time");
        now += 250 * MICROS;
        r.ended(Operation.VERIFY, P, Route.DIRECT, probe);
        assertEquals(1L, r.getDirectReasons().get("probe"));
        for (int i = 0; i < 100; i++) {
            assertEquals(Route.DIRECT, verify(r, 250 * MICROS, 550 * MICROS), "call " + i);
        }
        assertTrue(r.getEstimateNanos().get("ML-DSA-44 verify direct") < 300 * MICROS);
    }

    @Test
    void whenTheGpuRoundTripIsShorterCallsGoToTheBatcher() {
        Router r = router(true);
        for (int i = 0; i < 2 * Estimate.WARM_SAMPLES; i++) {
            verify(r, 700 * MICROS, 400 * MICROS);
        }
        for (int i = 0; i < 50; i++) {
            assertEquals(Route.BATCH, verify(r, 700 * MICROS, 400 * MICROS));
        }
    }

    @Test
    void manyCallsInFlightGoToTheBatcher() {
        Router r = router(true);
        for (int i = 0; i < 2 * Estimate.WARM_SAMPLES; i++) {
            verify(r, 60 * MICROS, 500 * MICROS);  // the warm-up takes less than the refresh interval
        }
        assertEquals(Route.DIRECT, r.route(Operation.VERIFY, P));
        // 400 batched calls in flight: a direct call would wait for 25 others per core
        long[] batched = new long[400];
        for (int i = 0; i < batched.length; i++) {
            batched[i] = r.started(Route.BATCH);
        }
        now += (Router.SAMPLE_MILLIS + 1) * 1_000_000;
        call(r, Operation.VERIFY, Route.DIRECT, 60 * MICROS);  // both estimates current: no refresh due
        call(r, Operation.VERIFY, Route.BATCH, 500 * MICROS);
        assertEquals(Route.BATCH, r.route(Operation.VERIFY, P));
        assertTrue(r.getInFlight() >= 400, "in flight: " + r.getInFlight());
        for (long started : batched) {
            r.ended(Operation.VERIFY, P, Route.BATCH, started);
        }
        now += (Router.SAMPLE_MILLIS + 1) * 1_000_000;
        call(r, Operation.VERIFY, Route.DIRECT, 60 * MICROS);
        call(r, Operation.VERIFY, Route.BATCH, 500 * MICROS);
        assertEquals(Route.DIRECT, r.route(Operation.VERIFY, P), "once they have ended");
    }

    @Test
    void withNoMoreCallsThanCoresTheBatchRouteIsJudgedByItsAverage() {
        Router r = router(true);
        // a signature: direct 270 us on average, the batcher's round trip 150 to 750 us, 450 on average
        for (int i = 0; i < 2 * Estimate.WARM_SAMPLES; i++) {
            Route route = r.route(Operation.SIGN, P);
            call(r, Operation.SIGN, route, route == Route.BATCH ? (i % 2 == 0 ? 150 : 750) * MICROS : 270 * MICROS);
        }
        assertEquals(Route.DIRECT, r.route(Operation.SIGN, P), "the floor of 150 us would send it to the batcher");
    }

    @Test
    void beyondTheCoresTheBatchRouteIsJudgedByTheFloorOfItsRoundTrips() {
        Router r = router(true);
        for (int i = 0; i < 2 * Estimate.WARM_SAMPLES; i++) {
            verify(r, 60 * MICROS, 300 * MICROS);
        }
        long[] batched = new long[100];  // 100 calls in flight: a direct call takes 6.25 x 60 us
        for (int i = 0; i < batched.length; i++) {
            batched[i] = r.started(Route.BATCH);
        }
        now += (Router.SAMPLE_MILLIS + 1) * 1_000_000;
        // lone batched calls on a busy host: their threads waited for cores, the average grows
        for (int i = 0; i < 8; i++) {
            call(r, Operation.VERIFY, Route.BATCH, 3_000 * MICROS);
        }
        call(r, Operation.VERIFY, Route.DIRECT, 60 * MICROS);
        assertTrue(r.getEstimateNanos().get("ML-DSA-44 verify batch") > 1_000 * MICROS);
        assertEquals(Route.BATCH, r.route(Operation.VERIFY, P), "the floor, not the average, is the GPU's round trip");
    }

    /**
     * Beyond the cores a covered signature's direct time is the routes' averages, measured at that
     * load, not the last duel's mean (a signature's work on its own): the JDK's engine, 400 µs in
     * its duel, now takes 5 ms a signature and the core 700 µs, with 24 calls in flight on 16
     * cores; the batcher's round trip, 700 µs at its floor, wins (the duel's 400 µs × 24 / 16 would
     * not).
     */
    @Test
    void beyondTheCoresACoveredSignaturesDirectTimeIsTheAverageMeasuredAtThatLoad() {
        Router r = router(true);
        for (int i = 0; i < Estimate.WARM_SAMPLES; i++) {
            call(r, Operation.SIGN, Route.BATCH, 1_000 * MICROS);
        }
        sign(r, 2_000, 700 * MICROS, 400 * MICROS);
        assertEquals(400 * MICROS, r.getEngineCostNanos().get("ML-DSA-44 jdk"));
        for (int i = 0; i < 8; i++) {
            call(r, Operation.SIGN, Route.JDK, 5_000 * MICROS);
        }
        holdInFlight(r, 24);
        assertFalse(r.toJdk(P), "400 us a signature beside 24 calls in flight would have sent it to the JDK");
        Route first = r.route(Operation.SIGN, P, true);
        assertEquals(Route.BATCH, r.route(Operation.SIGN, P, true), "after the core's refresh, if due: " + first);
    }

    /** Starts {@code n} batched calls that stay in flight, and samples the calls in flight. */
    private void holdInFlight(Router r, int n) {
        for (int i = 0; i < n; i++) {
            r.started(Route.BATCH);
        }
        now += (Router.SAMPLE_MILLIS + 1) * 1_000_000;
    }

    @Test
    void aBatcherSlowerThanTheCoresAtThisLoadIsLeftUntilItsMeasurementAges() {
        Router r = router(true);
        for (int i = 0; i < 2 * Estimate.WARM_SAMPLES; i++) {
            verify(r, 40 * MICROS, 120 * MICROS);  // a lone batched call: 120 us
        }
        holdInFlight(r, 64);  // 64 calls on 16 cores: 160 us a direct call
        assertEquals(Route.BATCH, r.route(Operation.VERIFY, P), "the floor of 120 us looks shorter");
        for (int i = 0; i < 16; i++) {
            call(r, Operation.VERIFY, Route.BATCH, 265 * MICROS);  // carrying 64 calls: 265 us
        }
        assertEquals(Route.DIRECT, r.route(Operation.VERIFY, P));
        for (int i = 0; i < 200; i++) {
            assertEquals(Route.DIRECT, verify(r, 40 * MICROS, 265 * MICROS), "call " + i);
        }
        now += (LoadedRoundTrip.MAX_AGE_MILLIS + 1) * 1_000_000;
        assertEquals(Route.DIRECT, r.route(Operation.VERIFY, P), "the direct estimate's refresh");
        assertEquals(Route.BATCH, r.route(Operation.VERIFY, P), "the batch estimate's refresh");
        assertEquals(Route.BATCH, r.route(Operation.VERIFY, P), "an aged measurement is taken again");
    }

    @Test
    void aBatchedRoundTripWaitedOutBehindDirectCallsFillingTheCoresIsNotTheLoadedOne() {
        Router r = router(true);
        for (int i = 0; i < 2 * Estimate.WARM_SAMPLES; i++) {
            verify(r, 40 * MICROS, 120 * MICROS);
        }
        holdInFlight(r, 64);
        assertEquals(Route.BATCH, r.route(Operation.VERIFY, P), "the floor of 120 us looks shorter");
        long[] direct = new long[16];
        long[] batched = new long[16];
        for (int i = 0; i < direct.length; i++) {
            direct[i] = r.started(Route.DIRECT);  // the cores full of direct calls
            batched[i] = r.started(Route.BATCH);  // waiting for a core behind them
        }
        now += 40 * MICROS;
        for (long started : direct) {
            r.ended(Operation.VERIFY, P, Route.DIRECT, started);
        }
        now += 7_000 * MICROS;
        for (long started : batched) {
            r.ended(Operation.VERIFY, P, Route.BATCH, started);
        }
        assertEquals(Route.BATCH, r.route(Operation.VERIFY, P), "those round trips price no carried load");
        now += MICROS;
        for (int i = 0; i < 16; i++) {
            call(r, Operation.VERIFY, Route.BATCH, 265 * MICROS);  // carrying 64 calls: 265 us
        }
        assertEquals(Route.DIRECT, r.route(Operation.VERIFY, P), "carrying the load, the batcher is slower");
    }

    @Test
    void beyondTheLoadItWasMeasuredAtTheBatcherIsTriedAgain() {
        Router r = router(true);
        for (int i = 0; i < 2 * Estimate.WARM_SAMPLES; i++) {
            verify(r, 40 * MICROS, 150 * MICROS);
        }
        holdInFlight(r, 64);
        r.route(Operation.VERIFY, P);
        for (int i = 0; i < 16; i++) {
            call(r, Operation.VERIFY, Route.BATCH, 265 * MICROS);
        }
        assertEquals(Route.DIRECT, verify(r, 40 * MICROS, 265 * MICROS));
        holdInFlight(r, 192);  // 256 calls: 640 us a direct call
        assertEquals(Route.BATCH, r.route(Operation.VERIFY, P));
        for (int i = 0; i < 16; i++) {
            call(r, Operation.VERIFY, Route.BATCH, 540 * MICROS);  // carrying 256 calls: 540 us
        }
        int batched = 0;
        for (int i = 0; i < 100; i++) {
            batched += verify(r, 40 * MICROS, 540 * MICROS) == Route.BATCH ? 1 : 0;
        }
        assertTrue(batched >= 98, "all but the direct estimate's refreshes: " + batched);
    }

    /** One sampling interval in which 16 direct calls at once fill the cores; then the sample. */
    private void coresFullOfDirectCalls(Router r) {
        long[] started = new long[16];
        for (int i = 0; i < started.length; i++) {
            started[i] = r.started(Route.DIRECT);
        }
        now += 45 * MICROS;
        for (long s : started) {
            r.ended(Operation.VERIFY, P, Route.DIRECT, s);
        }
        now += Router.SAMPLE_MILLIS * 1_000_000;
        r.route(Operation.VERIFY, P);
    }

    @Test
    void aBatchedCallThatWaitedLongForACoreShowsCallersTheCountMisses() {
        Router r = router(true);
        for (int i = 0; i < 2 * Estimate.WARM_SAMPLES; i++) {
            verify(r, 45 * MICROS, 300 * MICROS);
        }
        for (int i = 0; i < 20; i++) {
            coresFullOfDirectCalls(r);
        }
        assertEquals(0, r.getTrialCount(), "no more calls in flight than cores: nothing to try");
        long started = r.started(Route.BATCH);
        long ready = now + 300 * MICROS;
        now += (Router.SAMPLE_MILLIS + 10) * 1_000_000;  // its caller got a core 30 ms after its outcome
        r.ended(Operation.VERIFY, P, Route.BATCH, started, ready);
        for (int i = 0; i < SaturationTrial.STREAK; i++) {
            coresFullOfDirectCalls(r);
        }
        assertEquals(1, r.getTrialCount(), "callers wait for a core unseen: the batch route is tried");
        assertEquals(Route.BATCH, r.route(Operation.VERIFY, P));
    }

    @Test
    void warmUpSamplesTakenBeforeTheJitAreForgotten() {
        Router r = router(true);
        verify(r, 50_000 * MICROS, 500 * MICROS);  // the first call, interpreted
        for (int i = 1; i < 2 * Estimate.WARM_SAMPLES; i++) {
            verify(r, 60 * MICROS, 500 * MICROS);
        }
        // a plain average over the warm-up would still read 840 µs, past the round trip
        assertTrue(r.getEstimateNanos().get("ML-DSA-44 verify direct") < 70 * MICROS,
                r.getEstimateNanos().toString());
        assertEquals(Route.DIRECT, verify(r, 60 * MICROS, 500 * MICROS));
    }

    @Test
    void directTimesOfPlatformThreadsBeyondTheCoresCountAsTheirShareOfACore() {
        Router r = router(true);
        long[] started = new long[32];
        for (int i = 0; i < started.length; i++) {
            started[i] = r.started(Route.DIRECT);
        }
        now += 120 * MICROS;  // 32 threads time-sliced on 16 cores: 60 µs of work each
        r.ended(Operation.VERIFY, P, Route.DIRECT, started[0]);
        assertEquals(60 * MICROS, r.getEstimateNanos().get("ML-DSA-44 verify direct"));
    }

    @Test
    void aBatchedCallsTimeRunsToWhenTheBackendHadItsOutcome() {
        Router r = router(true);
        long started = r.started(Route.BATCH);
        long ready = now + 300 * MICROS;
        now += 5_000 * MICROS;  // its caller waited for a core long after the outcome was there
        r.ended(Operation.VERIFY, P, Route.BATCH, started, ready);
        assertEquals(300 * MICROS, r.getEstimateNanos().get("ML-DSA-44 verify batch"));
        started = r.started(Route.BATCH);
        now += 400 * MICROS;
        r.ended(Operation.VERIFY, P, Route.BATCH, started, 0);  // unknown: to now
        assertEquals(350 * MICROS, r.getEstimateNanos().get("ML-DSA-44 verify batch"));
    }

    @Test
    @Timeout(60)
    void everyThreadThatCalledDirectInAnIntervalCountsAsACallerInFlight() throws InterruptedException {
        Router r = router(true);
        r.route(Operation.VERIFY, P);  // learns that the batcher runs on a GPU, as a call's route does
        // 40 threads, one direct call each and none at once: what a core's queue of virtual threads
        // that never block looks like from the router, which sees only the calls on the carriers
        for (int i = 0; i < 40; i++) {
            Thread t = new Thread(() -> call(r, Operation.VERIFY, Route.DIRECT, 60 * MICROS));
            t.start();
            t.join();
        }
        call(r, Operation.VERIFY, Route.DIRECT, 60 * MICROS);
        call(r, Operation.VERIFY, Route.DIRECT, 60 * MICROS);  // this thread counts once
        now += (Router.SAMPLE_MILLIS + 1) * 1_000_000;
        r.route(Operation.VERIFY, P);
        assertEquals(41, r.getInFlight());
        now += (Router.SAMPLE_MILLIS + 1) * 1_000_000;
        call(r, Operation.VERIFY, Route.DIRECT, 60 * MICROS);
        r.route(Operation.VERIFY, P);
        assertEquals(1, r.getInFlight(), "the next interval counts its own callers");
    }

    @Test
    @Timeout(60)
    void batchedCallersCountWhileInFlightAndNotAfter() throws InterruptedException {
        Router r = router(true);
        // 40 threads, one batched call each, all ended: a batching load that has just stopped
        for (int i = 0; i < 40; i++) {
            Thread t = new Thread(() -> call(r, Operation.VERIFY, Route.BATCH, 300 * MICROS));
            t.start();
            t.join();
        }
        long started = r.started(Route.BATCH);
        now += (Router.SAMPLE_MILLIS + 1) * 1_000_000;
        r.route(Operation.VERIFY, P);
        assertEquals(1, r.getInFlight(), "the call in flight, not the callers gone");
        r.ended(Operation.VERIFY, P, Route.BATCH, started);
    }

    /**
     * With other work keeping the cores busy, verifications that the rule runs direct (60 µs there
     * against a 150 µs round trip) go to the batcher once it costs the host 20 µs of this
     * provider's threads per call; back direct when the host has cores to spare.
     */
    @Test
    void whileOtherWorkFillsTheCoresCallsGoWhereTheyCostTheHostLess() {
        long[] processCpu = {0};
        long[] providerCpu = {0};
        HostLoad host = new HostLoad(() -> processCpu[0], () -> {
            long d = providerCpu[0];
            providerCpu[0] = 0;
            return d;
        }, 16);
        Router r = new Router(() -> true, () -> now, 16, host);
        for (int i = 0; i < 2 * Estimate.WARM_SAMPLES; i++) {
            verify(r, 60 * MICROS, 150 * MICROS);
        }
        assertEquals(Route.DIRECT, verify(r, 60 * MICROS, 150 * MICROS), "cores to spare: the faster route");
        // A busy host: 15.5 of 16 cores, batched calls 20 µs each; the batch route's refreshes alone
        // (one call per refresh interval) measure its host cost within a few seconds.
        for (int tick = 0; tick < 200 && (tick < 12 || r.getBatchHostNanos() == RouteChoice.UNKNOWN); tick++) {
            long start = now;
            while (now - start < (Router.SAMPLE_MILLIS + 1) * 1_000_000) {
                long batched = r.getBatchCount();
                long t = now;
                verify(r, 60 * MICROS, 150 * MICROS);
                providerCpu[0] += (r.getBatchCount() - batched) * 20 * MICROS;
                processCpu[0] += (now - t) * 31 / 2;
            }
        }
        assertTrue(r.getHostBusy());
        assertEquals(20 * MICROS, r.getBatchHostNanos());
        long hostBatched = r.getHostBatchCount();
        for (int i = 0; i < 20; i++) {
            Route route = r.route(Operation.VERIFY, P);
            if (route == Route.DIRECT) {  // only the direct estimate's refresh, once per interval
                call(r, Operation.VERIFY, route, 60 * MICROS);
                continue;
            }
            assertEquals(Route.BATCH, route);
            call(r, Operation.VERIFY, route, 150 * MICROS);
        }
        assertTrue(r.getHostBatchCount() - hostBatched >= 18, "the busy host's calls went to the batcher");
        for (int tick = 0; tick < 12; tick++) {  // the host calms down: 4 of 16 cores
            long start = now;
            while (now - start < (Router.SAMPLE_MILLIS + 1) * 1_000_000) {
                long t = now;
                verify(r, 60 * MICROS, 150 * MICROS);
                processCpu[0] += (now - t) * 4;
            }
        }
        assertFalse(r.getHostBusy());
        assertEquals(Route.DIRECT, verify(r, 60 * MICROS, 150 * MICROS), "cores to spare again: the faster route");
    }

    @Test
    void theJdkAndTheCoreWarmUpThenTheFasterSigns() {
        Router r = router(false);
        for (int i = 0; i < Estimate.WARM_SAMPLES; i++) {
            assertTrue(r.toJdk(P));
            call(r, Operation.SIGN, Route.JDK, 300 * MICROS);
        }
        for (int i = 0; i < Estimate.WARM_SAMPLES; i++) {
            assertFalse(r.toJdk(P));
            call(r, Operation.SIGN, r.route(Operation.SIGN, P), 400 * MICROS);
        }
        assertTrue(r.toJdk(P));
        assertEquals(Estimate.WARM_SAMPLES, r.getJdkCount());
        assertEquals(Estimate.WARM_SAMPLES, r.getDirectCount());
    }

    /**
     * Signs {@code n} times as the provider's Signature does with the CPU backend: the JDK's engine
     * where the router says so, else the core; the JDK's i-th signature takes {@code jdk[i % length]}.
     * Returns how many went to the JDK.
     */
    private int sign(Router r, int n, long coreNanos, long... jdk) {
        int toJdk = 0;
        for (int i = 0; i < n; i++) {
            if (r.toJdk(P)) {
                call(r, Operation.SIGN, Route.JDK, jdk[toJdk++ % jdk.length]);
            } else {
                call(r, Operation.SIGN, r.route(Operation.SIGN, P, true), coreNanos);
            }
        }
        return toJdk;
    }

    @Test
    void whileCoresAreSpareTheCoreSignsWithHelpersAndOnceTheCallersFillThemTheDuelChooses() {
        Router r = new Router(() -> false, () -> now, 16, new HostLoad(() -> -1, () -> -1, 16), true);
        warmUpBoth(r, 400 * MICROS, 200 * MICROS);
        assertEquals(0, sign(r, 3_000, 400 * MICROS, 200 * MICROS),
                "one caller on sixteen cores: the core with helpers, though the JDK alone signs faster");
        List<Long> running = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            running.add(r.started(Route.DIRECT));
        }
        now += 2 * Router.SAMPLE_MILLIS * 1_000_000;
        r.spareCores();
        int toJdk = sign(r, 3_000, 400 * MICROS, 200 * MICROS);
        assertTrue(toJdk > 2_000, "sixteen callers: the duel's faster engine, the JDK's (" + toJdk + " of 3000)");
        running.forEach(t -> r.ended(Operation.SIGN, P, Route.DIRECT, t));

        Router plain = router(false);
        warmUpBoth(plain, 400 * MICROS, 200 * MICROS);
        assertTrue(sign(plain, 3_000, 400 * MICROS, 200 * MICROS) > 2_000,
                "a router told the core does not spread leaves the choice to the duel");
    }

    /** Both engines past their warm-up: the JDK's first, then the core's. */
    private void warmUpBoth(Router r, long coreNanos, long jdkNanos) {
        for (int i = 0; i < Estimate.WARM_SAMPLES; i++) {
            assertTrue(r.toJdk(P));
            call(r, Operation.SIGN, Route.JDK, jdkNanos);
        }
        for (int i = 0; i < Estimate.WARM_SAMPLES; i++) {
            assertFalse(r.toJdk(P));
            call(r, Operation.SIGN, Route.DIRECT, coreNanos);
        }
    }

    /**
     * Asserts that the engine passed over took {@code explored} of the signatures of the last
     * {@code nanos}: one in {@link RouteChoice#EXPLORE} through a duel a refresh interval, each duel
     * at least {@link EngineDuel#SAMPLES} of them over {@link EngineDuel#WINDOW_MILLIS} ms or more;
     * {@code slowestNanos} is the longer signature of the two engines.
     */
    private static void assertADuelPerInterval(int explored, long nanos, long slowestNanos) {
        long interval = EngineDuel.INTERVAL_MILLIS * 1_000_000;
        long duel = Math.max(EngineDuel.WINDOW_MILLIS * 1_000_000,
                (long) EngineDuel.SAMPLES * RouteChoice.EXPLORE * slowestNanos);
        long fewest = (nanos / (interval + duel) - 1) * EngineDuel.SAMPLES;
        long most = (nanos / interval + 1) * EngineDuel.SAMPLES;
        assertTrue(explored >= fewest && explored <= most, explored + " signatures to the engine passed over in "
                + nanos / 1_000_000 + " ms, not " + fewest + " to " + most);
    }

    @Test
    void theEngineChoiceFollowsTheMeansNotTheLuckiestSignatures() {
        Router r = router(false);
        warmUpBoth(r, 400 * MICROS, 450 * MICROS);
        sign(r, 1_000, 400 * MICROS, 200 * MICROS, 700 * MICROS);  // the JDK's: 450 us on average, 200 at best
        long from = now;
        int toJdk = sign(r, 25_000, 400 * MICROS, 200 * MICROS, 700 * MICROS);
        // the core's mean is the smaller, though the JDK's floor is lower: the JDK takes only the explorations
        assertADuelPerInterval(toJdk, now - from, 700 * MICROS);
    }

    @Test
    void theFasterEngineTakesTheSignaturesAndTheOtherADuelsShareEveryInterval() {
        Router r = router(false);
        warmUpBoth(r, 320 * MICROS, 210 * MICROS);
        sign(r, 1_000, 320 * MICROS, 210 * MICROS);
        long from = now;
        int calls = 50_000;
        int toJdk = sign(r, calls, 320 * MICROS, 210 * MICROS);
        assertADuelPerInterval(calls - toJdk, now - from, 320 * MICROS);
        assertTrue(calls - toJdk < calls / (4 * RouteChoice.EXPLORE),
                (calls - toJdk) + " to the core: far fewer than one in " + RouteChoice.EXPLORE);
        assertEquals(Map.of("ML-DSA-44 core", 320 * MICROS, "ML-DSA-44 jdk", 210 * MICROS), r.getEngineCostNanos());
    }

    /**
     * The core signing in 320 us and the JDK in 250, except that the JDK's i-th signature after
     * both are measured takes {@code jdk[i % length]}: how many of {@code rounds} × 160 signatures
     * go to the JDK.
     */
    private int toJdkWithPauses(long[] jdk, int rounds) {
        Router r = router(false);
        warmUpBoth(r, 320 * MICROS, 250 * MICROS);
        sign(r, 1_000, 320 * MICROS, 250 * MICROS);
        int toJdk = 0;
        for (int round = 0; round < rounds; round++) {
            toJdk += sign(r, 160, 320 * MICROS, jdk);
        }
        return toJdk;
    }

    @Test
    void aSignatureRunOverByACollectionDoesNotTurnTheChoice() {
        // one signature in 40 of the JDK's takes a 2 ms pause: 294 us on average, still below 320 by the margin
        long[] jdk = new long[40];
        java.util.Arrays.fill(jdk, 250 * MICROS);
        jdk[17] = 2_000 * MICROS;
        int toJdk = toJdkWithPauses(jdk, 20);
        assertTrue(toJdk >= 20 * (160 - 2 * 160 / RouteChoice.EXPLORE), toJdk + " of 3200 to the JDK");
    }

    @Test
    void anEngineMeasuredColdCatchesUpWithinARefreshIntervalOnceItsCodeIsCompiled() {
        Router r = router(false);
        // the JDK's first signatures after its warm-up still run interpreted, at 10 times their cost
        warmUpBoth(r, 320 * MICROS, 2_100 * MICROS);
        sign(r, 64, 320 * MICROS, 2_100 * MICROS);
        long refreshAndABucket = EngineDuel.INTERVAL_MILLIS * 1_000_000
                + EngineDuel.SAMPLES * RouteChoice.EXPLORE * 320 * MICROS;
        sign(r, (int) (refreshAndABucket / (210 * MICROS)), 320 * MICROS, 210 * MICROS);
        assertEquals(160, sign(r, 160, 320 * MICROS, 210 * MICROS),
                "the next duel measured the JDK's compiled signatures");
    }

    @Test
    void anEngineInUseThatWasColdLosesTheNextDuelOnceBothAreCompiled() {
        Router r = router(false);
        // both engines measured while the JIT compiled them, the core the faster
        warmUpBoth(r, 1_500 * MICROS, 2_100 * MICROS);
        sign(r, 1_000, 1_500 * MICROS, 2_100 * MICROS);
        assertTrue(r.getEngineCostNanos().get("ML-DSA-44 jdk") > 2_000 * MICROS, r.getEngineCostNanos().toString());
        // both compiled: the next duel measures both in one window, and the JDK's engine wins it
        long intervalAndADuel = EngineDuel.INTERVAL_MILLIS * 1_000_000
                + (long) EngineDuel.SAMPLES * RouteChoice.EXPLORE * 320 * MICROS;
        sign(r, (int) (intervalAndADuel / (210 * MICROS)), 320 * MICROS, 210 * MICROS);
        assertEquals(160, sign(r, 160, 320 * MICROS, 210 * MICROS));
        assertEquals(Map.of("ML-DSA-44 core", 320 * MICROS, "ML-DSA-44 jdk", 210 * MICROS), r.getEngineCostNanos());
    }

    @Test
    void theEngineInUseKeepsTheCallsUntilTheOtherIsFasterByTheMargin() {
        Router r = router(false);
        warmUpBoth(r, 400 * MICROS, 500 * MICROS);
        sign(r, 1_000, 400 * MICROS, 500 * MICROS);
        long from = now;
        assertADuelPerInterval(sign(r, 25_000, 400 * MICROS, 500 * MICROS), now - from, 500 * MICROS);
        from = now;
        assertADuelPerInterval(sign(r, 25_000, 400 * MICROS, 385 * MICROS), now - from, 400 * MICROS);
        assertEquals(385 * MICROS, r.getEngineCostNanos().get("ML-DSA-44 jdk"),
                "385 us is not 5 % below the core's 400");
        sign(r, 25_000, 400 * MICROS, 370 * MICROS);
        assertTrue(sign(r, 160, 400 * MICROS, 370 * MICROS) >= 160 - 160 / RouteChoice.EXPLORE);
    }

    @Test
    void aCancelledCallLeavesNoTime() {
        Router r = router(false);
        r.started(Route.JDK);
        now += 50 * MICROS;
        r.cancelled(Route.JDK);
        assertEquals(0, r.getDirectRunning());
        assertFalse(r.getEstimateNanos().containsKey("ML-DSA-44 sign jdk"));
        assertTrue(r.toJdk(P), "the JDK is still to be measured");
    }

    @Test
    void thePropertyPinsTheRoute() {
        Router r = router(false);
        System.setProperty(RouteSetting.PROPERTY, "batch");
        assertEquals(Route.BATCH, r.route(Operation.SIGN, P));
        assertFalse(r.toJdk(P));
        assertEquals("batch", r.getSetting());
        System.setProperty(RouteSetting.PROPERTY, "JDK");
        assertTrue(r.toJdk(P));
        assertEquals(Route.DIRECT, r.route(Operation.SIGN, P), "what the JDK does not cover runs direct");
        System.setProperty(RouteSetting.PROPERTY, "direct");
        assertFalse(r.toJdk(P));
        assertEquals(Route.DIRECT, router(true).route(Operation.VERIFY, P));
        System.setProperty(RouteSetting.PROPERTY, "gpu");
        ProviderException e = assertThrows(ProviderException.class, () -> r.route(Operation.SIGN, P));
        assertTrue(e.getMessage().contains("dilithiumgpu.route=gpu"), e.getMessage());
    }

    @Test
    void keyGenerationIsNotRouted() {
        Router r = router(true);
        assertThrows(IllegalArgumentException.class, () -> r.route(Operation.KEYGEN, P));
    }
}
