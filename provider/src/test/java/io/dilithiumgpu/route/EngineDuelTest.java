package io.dilithiumgpu.route;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The choice between the signing engines: a duel in one window, then the winner until the next. */
class EngineDuelTest {
    private static final long MILLIS = 1_000_000;
    private long now = 1_000_000_000L;

    /**
     * Routes and runs {@code n} signatures one after the other, each taking {@code core} or
     * {@code jdk} nanoseconds by its engine; returns how many went to the JDK's engine.
     */
    private int sign(EngineDuel d, int n, long core, long jdk) {
        int toJdk = 0;
        for (int i = 0; i < n; i++) {
            boolean j = d.toJdk(now);
            long started = now;
            now += j ? jdk : core;
            d.add(j, j ? jdk : core, started, now);
            toJdk += j ? 1 : 0;
        }
        return toJdk;
    }

    @Test
    void aDuelSendsOneSignatureInSixteenToTheEnginePassedOverThenTheWinnerSignsAlone() {
        EngineDuel d = new EngineDuel(now);
        assertTrue(d.jdkInUse());
        // the core the faster: the JDK's engine in use takes 15 in 16 until the core has its samples
        int calls = EngineDuel.SAMPLES * RouteChoice.EXPLORE;
        assertEquals(calls - EngineDuel.SAMPLES, sign(d, calls, 200_000, 300_000));
        assertFalse(d.jdkInUse(), "the core won");
        assertEquals(200_000, d.coreNanos());
        assertEquals(300_000, d.jdkNanos());
        assertEquals(0, sign(d, 1_000, 200_000, 300_000), "no duel until the interval is over");
        assertTrue(d.current(now));
    }

    @Test
    void theEnginePassedOverSignsInRunsSoThatItsHelpersAreStillSpinning() {
        EngineDuel d = new EngineDuel(now);
        int cycle = EngineDuel.RUN * RouteChoice.EXPLORE;
        StringBuilder routes = new StringBuilder();
        // three cycles of equal signatures, 48 ms: within the window, the duel still runs
        for (int i = 0; i < 3 * cycle; i++) {
            boolean j = d.toJdk(now);
            long started = now;
            now += 250_000;
            d.add(j, 250_000, started, now);
            routes.append(j ? 'j' : 'c');
        }
        String one = "j".repeat(cycle - EngineDuel.RUN) + "c".repeat(EngineDuel.RUN);
        assertEquals(one.repeat(3), routes.toString(), "the core's share in runs of " + EngineDuel.RUN);
    }

    @Test
    void aDuelLastsItsWindowHoweverSoonTheSamplesCome() {
        EngineDuel d = new EngineDuel(now);
        // 10 us signatures: 32 of the core's in 5 ms, but the window is 100 ms
        int calls = (int) (EngineDuel.WINDOW_MILLIS * MILLIS / 10_000);
        int toJdk = sign(d, calls - RouteChoice.EXPLORE, 10_000, 10_000);
        assertTrue(toJdk < calls - 2 * EngineDuel.SAMPLES, toJdk + " of " + calls + ": still dueling");
        sign(d, 2 * RouteChoice.EXPLORE, 10_000, 10_000);
        assertEquals(1_000, sign(d, 1_000, 10_000, 10_000), "ended: the JDK's engine, in use, kept the calls");
    }

    @Test
    void theEngineInUseKeepsTheCallsUnlessTheOtherIsFasterByTheMargin() {
        EngineDuel d = new EngineDuel(now);
        sign(d, EngineDuel.SAMPLES * RouteChoice.EXPLORE, 290_000, 300_000);
        assertTrue(d.jdkInUse(), "the core faster by less than the margin");
    }

    @Test
    void signaturesBegunBeforeTheWindowDoNotCount() {
        EngineDuel d = new EngineDuel(now);
        long before = now - 1;
        for (int i = 0; i < 10 * EngineDuel.SAMPLES; i++) {
            d.add(false, 1_000, before, now + EngineDuel.WINDOW_MILLIS * MILLIS);
        }
        assertTrue(d.jdkInUse());
        assertEquals(RouteChoice.UNKNOWN, d.coreNanos(), "no duel decided on another time's signatures");
    }

    @Test
    void aDuelWhoseEnginePassedOverNeverSignsEndsWithTheEngineInUseKept() {
        EngineDuel d = new EngineDuel(now);
        d.toJdk(now);
        long started = now;
        now += EngineDuel.LONGEST_MILLIS * MILLIS;
        d.add(true, 250_000, started, now);
        assertTrue(d.jdkInUse());
        assertEquals(100, sign(d, 100, 200_000, 300_000), "ended: no exploration until the next interval");
    }

    @Test
    void aRestartForgetsTheMeansAndDuelsAtOnce() {
        EngineDuel d = new EngineDuel(now);
        sign(d, EngineDuel.SAMPLES * RouteChoice.EXPLORE, 200_000, 300_000);
        assertFalse(d.jdkInUse());
        d.restart(now);
        assertEquals(RouteChoice.UNKNOWN, d.coreNanos());
        assertEquals(RouteChoice.UNKNOWN, d.jdkNanos());
        // the load fell: now the JDK's engine is the faster, and the duel begun at once finds it
        int calls = EngineDuel.SAMPLES * RouteChoice.EXPLORE;
        assertEquals(EngineDuel.SAMPLES, sign(d, calls, 300_000, 200_000));
        assertTrue(d.jdkInUse());
    }

    @Test
    void theMeansAreCurrentForTwoIntervalsAfterADuel() {
        EngineDuel d = new EngineDuel(now);
        sign(d, EngineDuel.SAMPLES * RouteChoice.EXPLORE, 200_000, 300_000);
        long ended = now;
        assertTrue(d.current(ended + 2 * EngineDuel.INTERVAL_MILLIS * MILLIS));
        assertFalse(d.current(ended + 2 * EngineDuel.INTERVAL_MILLIS * MILLIS + 1),
                "the signatures went elsewhere: no duel ran since");
    }
}
