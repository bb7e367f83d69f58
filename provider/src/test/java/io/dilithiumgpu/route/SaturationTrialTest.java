package io.dilithiumgpu.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * The trial's states on a fake clock, one sampling interval of 20 ms per {@link #interval}: when a
 * trial starts, what it imposes, which route it keeps, and its back-off. No threads.
 */
class SaturationTrialTest {
    private static final long MILLIS = 1_000_000;
    private static final int CORES = 16;

    private long now = 5_000 * MILLIS;
    private final SaturationTrial trial = new SaturationTrial(now);

    /** The router's first sample, which finds no earlier one to compare with. */
    @BeforeEach
    void firstSample() {
        interval(0, false, 0);
    }

    /** One interval in which {@code calls} ended, the cores full of direct calls or not. */
    private void interval(int calls, boolean coresFull, int inFlight) {
        interval(calls, coresFull, inFlight, false);
    }

    /** As {@link #interval(int, boolean, int)}, with or without a batched call's long wait for a core lately. */
    private void interval(int calls, boolean coresFull, int inFlight, boolean starved) {
        for (int i = 0; i < calls; i++) {
            trial.ended();
        }
        now += 20 * MILLIS;
        trial.tick(now, coresFull, inFlight > CORES || starved, inFlight <= CORES);
    }

    /** Direct calls fill the cores, the rule keeps them direct, 45 callers counted: 7,000 calls an interval. */
    private void stuck(int intervals) {
        trial.ruleChose(Route.DIRECT);
        for (int i = 0; i < intervals; i++) {
            interval(7_000, true, 45);
        }
    }

    /** From a stuck state: the streak, then a trial of the batch route that completes {@code calls} an interval. */
    private void trialOfTheBatchRoute(int calls) {
        stuck(SaturationTrial.STREAK);
        assertEquals(Route.BATCH, trial.imposed(), "the trial");
        for (int i = 0; i < 1 + SaturationTrial.MEASURE_MILLIS / 20; i++) {
            assertEquals(Route.BATCH, trial.imposed());
            interval(calls, false, 4_096);
        }
    }

    @Test
    void noTrialWithNoMoreCallsInFlightThanCores() {
        trial.ruleChose(Route.DIRECT);
        for (int i = 0; i < 500; i++) {
            interval(7_000, true, CORES);
            assertNull(trial.imposed());
        }
        assertEquals(0, trial.trials());
    }

    @Test
    void callersSeenOnlyByABatchedCallsWaitForACoreAreTried() {
        trial.ruleChose(Route.DIRECT);
        for (int i = 0; i < SaturationTrial.STREAK; i++) {
            assertNull(trial.imposed());
            interval(7_000, true, CORES, true);
        }
        assertEquals(Route.BATCH, trial.imposed());
    }

    @Test
    void noTrialWhileTheRuleBatchesOrTheCoresHaveRoom() {
        for (int i = 0; i < 500; i++) {
            trial.ruleChose(i % 2 == 0 ? Route.BATCH : Route.DIRECT);
            interval(7_000, i % 2 == 0, 45);
            assertNull(trial.imposed());
        }
        assertEquals(0, trial.trials());
    }

    @Test
    void aBatchRouteThatCompletesMoreHoldsTheCallsUntilTheyFallWithinTheCores() {
        stuck(SaturationTrial.STREAK - 1);
        assertNull(trial.imposed(), "no trial before a streak");
        interval(0, false, 0);
        trialOfTheBatchRoute(28_000);
        assertEquals(Route.BATCH, trial.imposed(), "held");
        assertEquals(1, trial.trials());
        assertEquals(1, trial.won());
        trial.ruleChose(Route.BATCH);  // with every caller in flight, the rule agrees
        for (int i = 0; i < 500; i++) {
            interval(28_000, false, 4_096);
            assertEquals(Route.BATCH, trial.imposed());
        }
        interval(1_000, false, CORES);
        assertNull(trial.imposed(), "within the cores the rule decides");
        assertEquals(1, trial.trials());
    }

    @Test
    void aBatchRouteThatCompletesLessIsLeftAndTriedAgainAfterADoublingBackOff() {
        List<Long> starts = new ArrayList<>();
        trial.ruleChose(Route.DIRECT);
        for (int i = 0; i < 1_000; i++) {
            boolean before = trial.imposed() != null;
            interval(trial.imposed() == Route.BATCH ? 2_000 : 7_000, true, 45);
            if (!before && trial.imposed() != null) {
                starts.add(now);
            }
        }
        assertEquals(0, trial.won());
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < starts.size(); i++) {
            gaps.add((starts.get(i) - starts.get(i - 1)) / MILLIS);
        }
        // each gap: the trial (60 ms), then its back-off, rounded up to an interval
        assertEquals(List.of(460L, 860L, 1_660L, 3_260L, 3_260L, 3_260L, 3_260L), gaps.subList(0, 7));
    }

    @Test
    void aTrialWithinTheMarginKeepsTheRoute() {
        trialOfTheBatchRoute(7_600);  // 8.6 % more
        assertNull(trial.imposed());
        assertEquals(0, trial.won());
    }

    @Test
    void whileHoldingTheRulesDissentTriesTheDirectRoute() {
        trialOfTheBatchRoute(28_000);
        trial.ruleChose(Route.DIRECT);
        for (int i = 0; i < SaturationTrial.MIN_BACKOFF_MILLIS / 20; i++) {
            assertEquals(Route.BATCH, trial.imposed());
            interval(28_000, false, 64);
        }
        assertEquals(Route.DIRECT, trial.imposed(), "the direct route's trial, after the back-off");
        for (int i = 0; i < 3; i++) {
            interval(7_000, true, 48);
        }
        assertEquals(Route.BATCH, trial.imposed(), "the cores completed less: the batcher holds");
        assertEquals(1, trial.won());

        for (int i = 0; i < 2 * SaturationTrial.MIN_BACKOFF_MILLIS / 20; i++) {
            assertEquals(Route.BATCH, trial.imposed());
            interval(2_000, false, 64);
        }
        assertEquals(Route.DIRECT, trial.imposed(), "tried again after twice the back-off");
        for (int i = 0; i < 3; i++) {
            interval(7_000, true, 48);
        }
        assertNull(trial.imposed(), "the cores completed more: the rule decides");
        assertEquals(2, trial.won());
    }

    @Test
    void aPauseEndsTheHoldAndResetsTheBackOff() {
        trialOfTheBatchRoute(2_000);
        assertEquals(0, trial.won());
        interval(0, false, 0);  // the calls stop
        trialOfTheBatchRoute(28_000);
        assertEquals(Route.BATCH, trial.imposed(), "a new load is tried after a streak, not the back-off");
        now += (SaturationTrial.IDLE_MILLIS + 1) * MILLIS;
        interval(1, false, 4_096);
        assertNull(trial.imposed(), "no sample for a while: a new load");
    }

    @Test
    void aTrialWithTooFewCallsDecidesNothing() {
        stuck(SaturationTrial.STREAK);
        interval(0, false, 4_096);
        interval(SaturationTrial.MIN_CALLS - 1, false, 4_096);
        interval(0, false, 4_096);
        assertNull(trial.imposed());
        assertEquals(0, trial.won());
    }
}
