package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpenLoopTimelineTest {
    private static OpenLoopTimeline.Window window(double start, double max, double other, long gcMillis) {
        return new OpenLoopTimeline.Window(start, 100, max / 4, max, 0.05, 0.5, 9.5, other, 0, 12, gcMillis > 0 ? 1 : 0,
                gcMillis, other > 5 ? 0.25 : Double.NaN);
    }

    @Test
    void theSummaryCountsSlowWindowsApartFromTheLeadInAndNamesTheSlowest() {
        List<OpenLoopTimeline.Window> windows = List.of(window(-100, 80, 0, 0), window(-50, 2, 0, 0),
                window(0, 3, 0.5, 0), window(50, 111, 6.1, 10), window(100, 12, 1.0, 0), window(150, 0.9, 0, 0));
        assertEquals("50 ms windows: 2 of 4 slow (a call over 10 ms), 1 of 2 in the lead-in; slowest at +50 ms:"
                        + " 100 calls, mean 27.75 ms, max 111.00 ms, issued up to 0.05 ms late, started up to 0.50 ms"
                        + " late; cores: this JVM 9.5, other processes 6.1, steal 0.0; jit 12 ms; gc 1 in 10 ms; batched 25 %",
                OpenLoopTimeline.summary(windows));
    }

    @Test
    void aCoreCountTheHostDoesNotShowReadsAsAQuestionMark() {
        OpenLoopTimeline.Window w = new OpenLoopTimeline.Window(0, 1, 1, 1, 0, 0, Double.NaN, Double.NaN, Double.NaN,
                0, 0, 0, Double.NaN);
        assertEquals("+0 ms: 1 calls, mean 1.00 ms, max 1.00 ms, issued up to 0.00 ms late, started up to 0.00 ms late;"
                + " cores: this JVM ?, other processes ?, steal ?; jit 0 ms; gc 0 in 0 ms", OpenLoopTimeline.describe(w));
    }

    @Test
    void theLeadInEndsWhenTheJitWasQuietForTwoSpansOfAQuarterSecond() {
        long ms = 1_000_000L;
        // Compiler CPU per 50 ms window: busy, then 4 ms in each of windows 3 to 12 (under 2 % of 250 ms
        // in every span of five), 30 ms in window 13, quiet again from 14 on.
        double[] jit = new double[40];
        jit[0] = 30;
        jit[1] = 12;
        jit[2] = 6;
        for (int w = 3; w <= 12; w++) {
            jit[w] = 0.4;
        }
        jit[13] = 30;
        assertEquals(-1, OpenLoopTimeline.startWindow(0, 1, 120 * ms, 4_000 * ms, jit), "before the least lead-in");
        assertEquals(-1, OpenLoopTimeline.startWindow(10, 11, 120 * ms, 4_000 * ms, jit),
                "windows 1 and 2 in the first span of the two: not quiet");
        assertEquals(14, OpenLoopTimeline.startWindow(12, 13, 120 * ms, 4_000 * ms, jit),
                "windows 3 to 12 quiet: measured from window 14, window 13 running");
        assertEquals(17, OpenLoopTimeline.startWindow(12, 16, 120 * ms, 4_000 * ms, jit),
                "a late sampler: the window after the one running");
        assertEquals(-1, OpenLoopTimeline.startWindow(22, 23, 120 * ms, 4_000 * ms, jit), "window 13 in the span");
        assertEquals(25, OpenLoopTimeline.startWindow(23, 24, 120 * ms, 4_000 * ms, jit), "quiet again");
        assertEquals(2, OpenLoopTimeline.startWindow(0, 1, 10 * ms, 10 * ms, jit), "a fixed lead-in waits for nothing");
        assertEquals(-1, OpenLoopTimeline.startWindow(4, 5, 10 * ms, 400 * ms, new double[40]),
                "a JIT idle from the start still has its two spans to show it");
        assertEquals(10, OpenLoopTimeline.startWindow(8, 9, 10 * ms, 400 * ms, jit), "400 ms reached, quiet or not");
    }

    @Test
    @Timeout(30)
    void theMeasuredPartStartsAtAWindowsStartOnceTheSamplerDecides() throws Exception {
        long ms = 1_000_000L;
        OpenLoopTimeline none = new OpenLoopTimeline(System.nanoTime(), 1e6, 100, 0, 0, null);
        assertEquals(0, none.measuredStart(), "no lead-in: measured from call 0");
        none.stop();
        OpenLoopTimeline waiting = new OpenLoopTimeline(System.nanoTime(), 1e6, 100_000, 10_000 * ms, 20_000 * ms, null);
        assertEquals(OpenLoopTimeline.LEAD_IN, waiting.measuredStart(), "during the lead-in: beyond every arrival");
        waiting.stop();
        OpenLoopTimeline fixed = new OpenLoopTimeline(System.nanoTime(), 1e6, 100_000, 10 * ms, 10 * ms, null);
        while (fixed.measuredStart() == OpenLoopTimeline.LEAD_IN) {
            Thread.sleep(5);
        }
        long start = fixed.measuredStart();
        fixed.stop();
        assertEquals(0, start % OpenLoopTimeline.WINDOW_NANOS, "a window's start: " + start);
        assertTrue(start >= 2 * OpenLoopTimeline.WINDOW_NANOS, "after the window the sampler decided in: " + start);
    }

    @Test
    @Timeout(30)
    void eachWindowAddsTheTalliesCallsAndTakesTheirLatestTimes() throws Exception {
        // 1,000 calls a second: calls 0 to 49 arrive in window 0, 50 to 99 in window 1.
        OpenLoopTimeline timeline = new OpenLoopTimeline(System.nanoTime(), 1e6, 100, 0, 0, null);
        OpenLoopTimeline.Tally a = timeline.newTally();
        OpenLoopTimeline.Tally b = timeline.newTally();
        a.record(0, 1_000_000, 2_000_000, 4_000_000);
        a.record(10, 3_000_000, 3_000_000, 6_000_000);
        b.record(49, 2_000_000, 5_000_000, 8_000_000);
        b.record(50, 0, 0, 1_000_000);
        timeline.stop();
        List<OpenLoopTimeline.Window> windows = timeline.windows();
        assertEquals(2, windows.size(), windows.toString());
        OpenLoopTimeline.Window first = windows.get(0);
        assertEquals(3, first.calls());
        assertEquals(6.0, first.meanMillis(), 1e-9);
        assertEquals(8.0, first.maxMillis(), 1e-9);
        assertEquals(3.0, first.issuedLate(), 1e-9);
        assertEquals(5.0, first.startedLate(), 1e-9);
        assertEquals(1, windows.get(1).calls());
        assertEquals(1.0, windows.get(1).maxMillis(), 1e-9);
        assertTrue(windows.get(0).startMillis() == 0 && windows.get(1).startMillis() == 50, windows.toString());
    }

    @Test
    void hostCpuIsBusyTimeAndStealFromProcStat() {
        // user nice system idle iowait irq softirq steal guest guest_nice, in 1/100 s
        assertArrayEquals(new long[] {(100 + 2 + 30 + 4 + 5) * 10_000_000L, 7 * 10_000_000L},
                OpenLoopTimeline.HostCpu.parse("cpu  100 2 30 9000 50 4 5 7 0 0"));
        assertThrows(IllegalArgumentException.class, () -> OpenLoopTimeline.HostCpu.parse("cpu0 1 2 3 4 5 6 7 8"));
    }

    @Test
    void aWindowCrossesToTheOtherJvmIntact() {
        OpenLoopTimeline.Window w = new OpenLoopTimeline.Window(-450, 27_633, 0.355, 111.018, 0.2, 108.5, 9.6,
                Double.NaN, 0.01, 35, 2, 10, 0.97);
        assertEquals(w, OpenLoopTimeline.Window.decode(w.encode()));
        assertThrows(IllegalArgumentException.class, () -> OpenLoopTimeline.Window.decode("1,2,3"));
    }
}
