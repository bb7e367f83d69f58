package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FormatTest {

    @Test
    void ratesAndCountsAreWholeNumbersWithSeparators() {
        assertEquals("0", Format.rate(0.4));
        assertEquals("1", Format.rate(0.5));
        assertEquals("1,234,568", Format.rate(1_234_567.5));
        assertEquals("10,000", Format.count(10_000));
    }

    @Test
    void percentages() {
        assertEquals("87%", Format.percent(0.871));
        assertEquals("100%", Format.percent(1.0));
        assertEquals("145%", Format.percent(1.449));
        assertEquals("<1%", Format.percent(0.0001));
        assertEquals("1%", Format.percent(0.005));
        assertEquals("0%", Format.percent(0));
    }

    @Test
    void secondsWithoutNeedlessDecimals() {
        assertEquals("1 s", Format.seconds(1));
        assertEquals("0.25 s", Format.seconds(0.25));
        assertEquals("30 s", Format.seconds(30));
    }

    @Test
    void millisecondsWithThreeDecimals() {
        assertEquals("1.250 ms", Format.millis(1_250_000));
        assertEquals("0.001 ms", Format.millis(1_000));
    }

    @Test
    void plurals() {
        assertEquals("1 run", Format.plural(1, "run"));
        assertEquals("0 runs", Format.plural(0, "run"));
        assertEquals("10,000 records", Format.plural(10_000, "record"));
    }
}
