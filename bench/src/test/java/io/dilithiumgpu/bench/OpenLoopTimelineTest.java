package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
