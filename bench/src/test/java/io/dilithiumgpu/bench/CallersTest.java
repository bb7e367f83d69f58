package io.dilithiumgpu.bench;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
        Histogram latency = Callers.openLoop(2000, 25 * MS, () -> new Counting(total));
        assertEquals(50, latency.getTotalCount());
        assertEquals(50, total.get());
        assertTrue(latency.getMinValue() > 0, "latency " + latency.getMinValue());
        assertTrue(latency.getValueAtPercentile(50) <= latency.getValueAtPercentile(99));
        assertTrue(latency.getValueAtPercentile(99) <= latency.getMaxValue());
    }

    @Test
    void openLoopDealtToSeveralIssuersIssuesEveryCallOnce() throws Exception {
        AtomicInteger total = new AtomicInteger();
        Histogram latency = Callers.openLoop(2000, 25 * MS, () -> new Counting(total), 3);
        assertEquals(50, latency.getTotalCount());
        assertEquals(50, total.get());
    }

    @Test
    void openLoopReportsFailuresAndRejectsEmptyPlans() {
        assertThrows(WrongResultException.class, () -> Callers.openLoop(1000, 10 * MS, () -> () -> {
            throw new WrongResultException("signature did not verify");
        }));
        assertThrows(IllegalArgumentException.class, () -> Callers.openLoop(10, MS, () -> () -> { }));
    }
}
