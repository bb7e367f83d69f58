package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class StatsTest {

    @Test
    void medianOfOddAndEvenCountsWithoutTouchingTheInput() {
        double[] odd = {5, 1, 9, 3, 7};
        assertEquals(5, Stats.median(odd));
        assertArrayEquals(new double[] {5, 1, 9, 3, 7}, odd);
        assertEquals(4.5, Stats.median(new double[] {8, 1, 4, 5}));
        assertEquals(42, Stats.median(new double[] {42}));
        assertThrows(IllegalArgumentException.class, () -> Stats.median(new double[0]));
    }

    @Test
    void oneOutlierDoesNotMoveTheMedian() {
        double[] runs = {100, 101, 99, 100, 102, 98, 100, 101, 99, 1};
        assertEquals(100, Stats.median(runs));
        Stats.Summary s = Stats.summarize(runs);
        assertEquals(10, s.runs());
        assertEquals(1, s.min());
        assertEquals(102, s.max());
        assertEquals(100, s.median());
        assertEquals(1.01, s.spread(), 1e-12);
    }

    @Test
    void opsPerSecond() {
        assertEquals(10_000, Stats.opsPerSecond(10_000, 1_000_000_000L));
        assertEquals(2_000_000, Stats.opsPerSecond(10_000, 5_000_000L));
        assertThrows(IllegalArgumentException.class, () -> Stats.opsPerSecond(1, 0));
    }
}
