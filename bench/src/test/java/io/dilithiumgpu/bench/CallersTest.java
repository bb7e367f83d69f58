package io.dilithiumgpu.bench;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class CallersTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final class Counting implements Callers.Call {
        final AtomicInteger total;
        int mine;

        Counting(AtomicInteger total) {
            this.total = total;
        }

        @Override
        public void call() {
            mine++;
            total.incrementAndGet();
        }
    }

    @Test
    void threadKindFollowsTheRuntime() {
        boolean virtual = Runtime.version().feature() >= 21;
        assertEquals(virtual, Callers.threadKind().equals("virtual threads"), Callers.threadKind());
    }

    @Test
    void closedLoopMakesOneCallerPerThreadAndCountsTheirCalls() throws Exception {
        AtomicInteger total = new AtomicInteger();
        Callers.ClosedLoopResult<Counting> r = Callers.closedLoop(8, () -> new Counting(total), MS, 20 * MS);
        assertEquals(8, r.callers().size());
        int sum = r.callers().stream().mapToInt(c -> c.mine).sum();
        assertEquals(total.get(), sum);
        assertTrue(r.calls() <= sum, r.calls() + " counted of " + sum);
        assertTrue(r.opsPerSecond() >= 0);
    }

    @Test
    void closedLoopReportsTheFirstFailure() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Callers.closedLoop(4,
                () -> () -> {
                    throw new IllegalStateException("bad result");
                }, MS, 5 * MS));
        assertEquals("bad result", e.getMessage());
    }

    @Test
    void openLoopIssuesRateTimesDurationCallsAndTimesEachOne() throws Exception {
        AtomicInteger total = new AtomicInteger();
        Histogram latency = Callers.openLoop(2000, Callers.LeadIn.fixed(0), 25 * MS, () -> new Counting(total)).latency();
        assertEquals(50, latency.getTotalCount());
        assertEquals(50, total.get());
        assertTrue(latency.getMinValue() > 0, "latency " + latency.getMinValue());
        assertTrue(latency.getValueAtPercentile(50) <= latency.getValueAtPercentile(99));
        assertTrue(latency.getValueAtPercentile(99) <= latency.getMaxValue());
    }

    @Test
    void openLoopDealtToSeveralIssuersIssuesEveryCallOnce() throws Exception {
        AtomicInteger total = new AtomicInteger();
        Histogram latency = Callers.openLoop(2000, Callers.LeadIn.fixed(0), 25 * MS, () -> new Counting(total), 3,
                null).latency();
        assertEquals(50, latency.getTotalCount());
        assertEquals(50, total.get());
    }

    @Test
    void openLoopMeasuresOnlyTheCallsAfterItsLeadInAndShowsThemAllInItsTimeline() throws Exception {
        AtomicInteger total = new AtomicInteger();
        long[] routed = new long[2];
        Callers.OpenLoopResult r = Callers.openLoop(1000, Callers.LeadIn.fixed(60 * MS), 40 * MS,
                () -> new Counting(total), 2, () -> {
                    // A router that batches every other call: the sampler reads it at each window's end.
                    routed[1] += 10;
                    routed[0] += 5;
                    return routed.clone();
                });
        assertEquals(40, r.latency().getTotalCount(), "40 ms at 1,000/s measured; the lead-in's calls are not");
        List<OpenLoopTimeline.Window> windows = r.timeline();
        int leadIn = windows.size() - 1;
        assertTrue(leadIn >= 2, "the measured part starts at a window's start 60 ms or more after call 0: " + windows);
        assertEquals(leadIn * 50 + 40, total.get(), "every call of the lead-in and of the measured part");
        for (int i = 0; i < windows.size(); i++) {
            OpenLoopTimeline.Window w = windows.get(i);
            assertEquals(50.0 * (i - leadIn), w.startMillis(), "windows of 50 ms up to the measured part's start");
            assertEquals(i < leadIn ? 50 : 40, w.calls(), w.toString());
            assertTrue(w.maxMillis() >= w.meanMillis() && w.meanMillis() > 0, w.toString());
            assertTrue(w.startedLate() >= w.issuedLate() && w.issuedLate() >= 0, w.toString());
            assertTrue(w.maxMillis() >= w.startedLate(), w.toString());
        }
        assertEquals(leadIn * OpenLoopTimeline.WINDOW_NANOS, r.leadInNanos());
        assertEquals(0.5, windows.get(0).batched(), windows.get(0).toString());
    }

    @Test
    void openLoopRecordsEveryCallOnceWhenManyAreInFlightAcrossIssuersAndStripes() throws Exception {
        AtomicInteger total = new AtomicInteger();
        AtomicInteger made = new AtomicInteger();
        // 4,000 calls a second, each 3 ms long: about a dozen in flight, more calls than stripes.
        Callers.OpenLoopResult r = Callers.openLoop(4000, Callers.LeadIn.fixed(60 * MS), 100 * MS, () -> {
            made.incrementAndGet();
            Counting c = new Counting(total);
            return () -> {
                c.call();
                Thread.sleep(3);
            };
        }, 3, null);
        List<OpenLoopTimeline.Window> windows = r.timeline();
        long measured = windows.stream().filter(w -> w.startMillis() >= 0).mapToLong(OpenLoopTimeline.Window::calls).sum();
        assertEquals(400, measured, "100 ms at 4,000/s: " + windows);
        assertEquals(measured, r.latency().getTotalCount(), "the stripes' measured histograms merged");
        assertEquals(total.get(), r.calls(), "every call in exactly one window");
        for (OpenLoopTimeline.Window w : windows) {
            assertEquals(200, w.calls(), w.toString());
        }
        assertTrue(r.latency().getMinValue() >= 3 * MS, "from arrival to return: " + r.latency().getMinValue());
        assertTrue(made.get() <= total.get(), made + " caller objects for " + total + " calls");
    }

    @Test
    void openLoopThrowsAFailureOnlyOnceTheCallsAlreadyIssuedHaveEnded() {
        AtomicInteger started = new AtomicInteger();
        AtomicInteger ended = new AtomicInteger();
        // 2,000 calls scheduled over a second; call 5 fails within the first few milliseconds.
        WrongResultException e = assertThrows(WrongResultException.class, () -> Callers.openLoop(2000,
                Callers.LeadIn.fixed(0), 1000 * MS, () -> () -> {
                    int n = started.incrementAndGet();
                    try {
                        if (n == 5) {
                            throw new WrongResultException("call 5 failed");
                        }
                        Thread.sleep(40);
                    } finally {
                        ended.incrementAndGet();
                    }
                }, 2, null));
        assertEquals("call 5 failed", e.getMessage());
        assertEquals(started.get(), ended.get(), "no call still running when the failure is thrown");
        assertTrue(started.get() < 2000, started + " calls started: issuing stops at the failure");
    }

    @Test
    void issuersFollowTheRateUpToTheirMost() {
        assertEquals(1, Callers.issuers(1));
        assertEquals(1, Callers.issuers(Callers.CALLS_PER_ISSUER));
        assertEquals(Math.min(2, Callers.ISSUERS), Callers.issuers(Callers.CALLS_PER_ISSUER + 1));
        assertEquals(Callers.ISSUERS, Callers.issuers(1e9));
    }

    @Test
    void aCallIsMeasuredFromTheMeasuredPartsStartOn() {
        assertEquals(0, Callers.measuredPart(0, 1));
        assertEquals(1, Callers.measuredPart(1, 1));
        assertEquals(1, Callers.measuredPart(0, 0));
        assertEquals(1, Callers.measuredPart(5_000_000_000L, 150_000_000L));
        assertEquals(0, Callers.measuredPart(5_000_000_000L, Long.MAX_VALUE / 2), "no start decided yet");
    }

    @Test
    void openLoopReportsFailuresAndRejectsEmptyPlans() {
        assertThrows(WrongResultException.class, () -> Callers.openLoop(1000, Callers.LeadIn.fixed(0), 10 * MS,
                () -> () -> {
                    throw new WrongResultException("signature did not verify");
                }));
        assertThrows(IllegalArgumentException.class, () -> Callers.openLoop(10, Callers.LeadIn.fixed(0), MS,
                () -> () -> { }));
        assertThrows(IllegalArgumentException.class, () -> Callers.openLoop(10, Callers.LeadIn.fixed(100 * MS), MS,
                () -> () -> { }), "a lead-in does not make up for a measured part without calls");
        assertThrows(IllegalArgumentException.class, () -> new Callers.LeadIn(2, 1));
    }
}
