package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/**
 * The value types of the CLI's options, as picocli converters: a value that does not convert is a
 * usage error naming the option, so that a mistyped value never silently falls back to a default.
 *
 * <p>Counts accept {@code _} as a digit separator and a {@code k} (×1,000) or {@code M}
 * (×1,000,000) suffix: {@code 10000}, {@code 10_000} and {@code 10k} are the same. A list option
 * ({@code split = ","}) converts each of its comma-separated values.
 */
final class OptionTypes {
    private OptionTypes() {}

    /** A count ≥ 0. */
    static final class Count implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            return parseCount(text);
        }
    }

    /** A count ≥ 1. */
    static final class PositiveCount implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            int n = parseCount(text);
            if (n < 1) {
                throw new TypeConversionException("must be at least 1: " + text);
            }
            return n;
        }
    }

    /** A positive, finite rate per second, digits grouped by commas or underscores allowed (1,000,000). */
    static final class Rate implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            try {
                double r = Double.parseDouble(text.replace(",", "").replace("_", ""));
                if (r > 0 && Double.isFinite(r)) {
                    return r;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new TypeConversionException("not a positive rate per second: " + text);
        }
    }

    /** A positive, finite number of seconds, fractions allowed. */
    static final class Seconds implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            try {
                double s = Double.parseDouble(text);
                if (s > 0 && Double.isFinite(s)) {
                    return s;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new TypeConversionException("not a positive number of seconds: " + text);
        }
    }

    /** One of {@code keygen}, {@code sign}, {@code verify}, in any case. */
    static final class OperationName implements ITypeConverter<Operation> {
        @Override
        public Operation convert(String text) {
            try {
                return Operation.valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("not one of keygen, sign, verify: " + text.trim());
            }
        }
    }

    /** A chosen list of parameter sets, in the order given, without repeats. */
    record SetList(List<ParameterSet> sets) {
        static final SetList ALL = new SetList(List.of(ParameterSet.values()));

        static SetList of(ParameterSet... sets) {
            return new SetList(List.of(sets));
        }
    }

    /**
     * {@code all}, or a comma-separated list of parameter set names such as {@code ML-DSA-65,Dilithium2}
     * (any case; {@code -} and {@code _} optional).
     */
    /**
     * Key modes of {@code throughput --keys}: a comma list of {@code distinct} (a distinct key per
     * task, as 0) and key counts ≥ 1.
     */
    static final class KeyModes implements ITypeConverter<List<Integer>> {
        @Override
        public List<Integer> convert(String text) {
            List<Integer> out = new ArrayList<>();
            for (String part : text.split(",", -1)) {
                String t = part.trim();
                if (t.equalsIgnoreCase("distinct")) {
                    out.add(0);
                    continue;
                }
                int n;
                try {
                    n = parseCount(t);
                } catch (TypeConversionException e) {
                    throw new TypeConversionException("not 'distinct' or a key count: " + part);
                }
                if (n < 1) {
                    throw new TypeConversionException("a key count is at least 1: " + part);
                }
                out.add(n);
            }
            return List.copyOf(out);
        }
    }

    static final class Sets implements ITypeConverter<SetList> {
        @Override
        public SetList convert(String text) {
            if (text.trim().equalsIgnoreCase("all")) {
                return SetList.ALL;
            }
            List<ParameterSet> out = new ArrayList<>();
            for (String part : text.split(",", -1)) {
                ParameterSet p;
                try {
                    p = ParameterSet.forName(part.trim());
                } catch (IllegalArgumentException e) {
                    throw new TypeConversionException(e.getMessage());
                }
                if (!out.contains(p)) {
                    out.add(p);
                }
            }
            return new SetList(Collections.unmodifiableList(out));
        }
    }

    /** {@link GpuCounts}: {@code 1,all}, {@code 1,2,4}. */
    static final class Gpus implements ITypeConverter<GpuCounts> {
        @Override
        public GpuCounts convert(String text) {
            try {
                return GpuCounts.parse(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** Operations in the order of {@link Operation}, each once. */
    static List<Operation> inOrder(List<Operation> ops) {
        return ops.isEmpty() ? List.of() : List.copyOf(EnumSet.copyOf(ops));
    }

    /**
     * Parses one count: digits with optional {@code _} separators and an optional {@code k} or
     * {@code M} suffix (either case). Result in [0, 2^31).
     *
     * @throws TypeConversionException when {@code text} is not such a count
     */
    static int parseCount(String text) {
        String t = text.trim().replace("_", "");
        long scale = 1;
        if (t.endsWith("k") || t.endsWith("K")) {
            scale = 1_000;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m") || t.endsWith("M")) {
            scale = 1_000_000;
            t = t.substring(0, t.length() - 1);
        }
        if (t.isEmpty() || !t.chars().allMatch(c -> c >= '0' && c <= '9') || t.length() > 10) {
            throw new TypeConversionException("not a count: " + text);
        }
        long n = Long.parseLong(t) * scale;
        if (n > Integer.MAX_VALUE) {
            throw new TypeConversionException("too large: " + text);
        }
        return (int) n;
    }
}
