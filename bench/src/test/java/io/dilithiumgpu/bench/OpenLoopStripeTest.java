package io.dilithiumgpu.bench;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class OpenLoopStripeTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** A timeline of 1,000 calls a second whose measured part starts at call 0, or never (a long lead-in). */
    private static OpenLoopTimeline timeline(boolean measured) {
        long leadIn = measured ? 0 : TimeUnit.SECONDS.toNanos(60);
        return new OpenLoopTimeline(System.nanoTime(), 1e6, 100, leadIn, leadIn, null);
    }

    private static OpenLoopStripe[] stripes(OpenLoopTimeline timeline, int n) {
        OpenLoopStripe[] s = new OpenLoopStripe[n];
        for (int i = 0; i < n; i++) {
            s[i] = new OpenLoopStripe(timeline.newTally());
        }
        return s;
    }

    @Test
    void stripesArePowersOfTwoTwiceTheCoresWithinBounds() {
        assertEquals(4, OpenLoopStripe.count(1));
        assertEquals(4, OpenLoopStripe.count(2));
        assertEquals(8, OpenLoopStripe.count(3));
        assertEquals(32, OpenLoopStripe.count(16));
        assertEquals(64, OpenLoopStripe.count(32));
        assertEquals(64, OpenLoopStripe.count(128));
    }

    @Test
    void theMeasuredLatenciesOfEveryStripeAreMerged() throws Exception {
        OpenLoopTimeline timeline = timeline(true);
        OpenLoopStripe[] stripes = stripes(timeline, 3);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long now = System.nanoTime();
        for (int call = 0; call < 9; call++) {
            // Call i was due (i + 1) ms ago: it takes at least that long.
            stripes[call % 3].run(() -> () -> { }, call, call * MS, now - (call + 1) * MS, 0, timeline, failure);
        }
        assertNull(failure.get());
        assertTrue(OpenLoopStripe.awaitEnded(stripes, 9, MS));
        Histogram merged = OpenLoopStripe.measured(stripes);
        assertEquals(9, merged.getTotalCount());
        assertTrue(merged.getMinValue() >= MS && merged.getMaxValue() >= 9 * MS, merged.getMaxValue() + " ns");
        timeline.stop();
        assertEquals(9, timeline.windows().get(0).calls());
    }

    @Test
    void theLeadInsCallsStayOutOfTheMeasuredLatenciesButNotOutOfTheWindows() throws Exception {
        OpenLoopTimeline timeline = timeline(false);
        OpenLoopStripe[] stripes = stripes(timeline, 2);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int call = 0; call < 4; call++) {
            stripes[call % 2].run(() -> () -> { }, call, call * MS, System.nanoTime(), 0, timeline, failure);
        }
        assertEquals(0, OpenLoopStripe.measured(stripes).getTotalCount());
        timeline.stop();
        List<OpenLoopTimeline.Window> windows = timeline.windows();
        assertEquals(4, windows.get(0).calls());
        assertTrue(windows.get(0).startMillis() < 0, "a lead-in window: " + windows);
    }

    @Test
    void aFailedCallEndsKeepsTheFirstFailureAndLeavesNoRecord() throws Exception {
        OpenLoopTimeline timeline = timeline(true);
        OpenLoopStripe[] stripes = stripes(timeline, 1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        WrongResultException first = new WrongResultException("first");
        stripes[0].run(() -> () -> {
            throw first;
        }, 0, 0, System.nanoTime(), 0, timeline, failure);
        stripes[0].run(() -> {
            throw new IllegalStateException("no caller object");
        }, 1, MS, System.nanoTime(), 0, timeline, failure);
        assertSame(first, failure.get());
        assertTrue(OpenLoopStripe.awaitEnded(stripes, 2, MS), "both calls ended");
        assertEquals(0, OpenLoopStripe.measured(stripes).getTotalCount());
        timeline.stop();
        assertEquals(0, timeline.windows().get(0).calls());
    }

    @Test
    void idleCallerObjectsAreReusedOnePerCallAtATime() throws Exception {
        OpenLoopTimeline timeline = timeline(true);
        OpenLoopStripe[] stripes = stripes(timeline, 1);
        AtomicInteger made = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int call = 0; call < 5; call++) {
            stripes[0].run(() -> {
                made.incrementAndGet();
                return () -> { };
            }, call, call * MS, System.nanoTime(), 0, timeline, failure);
        }
        assertNull(failure.get());
        assertEquals(1, made.get(), "one object for five calls one after another");
        timeline.stop();
    }

    @Test
    void awaitingCallsThatNeverEndTimesOut() throws Exception {
        OpenLoopTimeline timeline = timeline(true);
        OpenLoopStripe[] stripes = stripes(timeline, 2);
        stripes[1].ended();
        assertTrue(OpenLoopStripe.awaitEnded(stripes, 1, MS));
        assertFalse(OpenLoopStripe.awaitEnded(stripes, 2, 5 * MS));
        timeline.stop();
    }
}
