package io.dilithiumgpu.bench;

import java.math.BigDecimal;
import java.util.Locale;

/** Number formats of the text tables (the CSV files carry plain numbers). */
final class Format {
    private Format() {}

    /** A rate rounded to a whole number with thousands separators: {@code 1,234,567}. */
    static String rate(double opsPerSecond) {
        return String.format(Locale.ROOT, "%,d", Math.round(opsPerSecond));
    }

    /** A count with thousands separators. */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** Nanoseconds as milliseconds with three decimals: {@code 1.250 ms}. */
    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }

    /** Seconds without needless decimals: {@code 1 s}, {@code 0.25 s}. */
    static String seconds(double seconds) {
        return new BigDecimal(Double.toString(seconds)).stripTrailingZeros().toPlainString() + " s";
    }

    /** A ratio as a whole percentage: {@code 87%}; {@code <1%} for a positive ratio below 0.5%. */
    static String percent(double ratio) {
        if (ratio > 0 && ratio < 0.005) {
            return "<1%";
        }
        return String.format(Locale.ROOT, "%.0f%%", ratio * 100);
    }

    /** A ratio of two rates as a signed change: {@code +12%}, {@code -3%}, {@code +0%}. */
    static String change(double ratio) {
        return String.format(Locale.ROOT, "%+.0f%%", (ratio - 1) * 100);
    }

    /** {@code n} and the noun, plural unless n is 1: {@code 1 run}, {@code 3 runs}. */
    static String plural(long n, String noun) {
        return count(n) + " " + noun + (n == 1 ? "" : "s");
    }

    /** A number for CSV: integers without a fraction, others with up to six significant digits. */
    static String csvNumber(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%.6g", v).trim();
    }
}
