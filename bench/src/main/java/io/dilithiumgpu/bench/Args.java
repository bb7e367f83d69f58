package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The options of one subcommand: {@code --name value}, {@code --name=value} and boolean
 * {@code --flag}s. Each subcommand declares which names it accepts; anything else is a
 * {@link UsageException}, so a mistyped option never silently falls back to a default.
 *
 * <p>Counts accept {@code _} as a digit separator and a {@code k} (×1,000) or {@code M}
 * (×1,000,000) suffix: {@code 10000}, {@code 10_000} and {@code 10k} are the same.
 */
final class Args {
    private final Map<String, String> values;
    private final Set<String> flags;

    private Args(Map<String, String> values, Set<String> flags) {
        this.values = values;
        this.flags = flags;
    }

    /**
     * Parses {@code argv}.
     *
     * @param valued   option names (without {@code --}) that take a value
     * @param booleans option names that are flags
     * @throws UsageException on an unknown option, a missing value, a value given to a flag, a
     *                        repeated option, or a bare word
     */
    static Args parse(List<String> argv, Set<String> valued, Set<String> booleans) throws UsageException {
        Map<String, String> values = new HashMap<>();
        Set<String> flags = new HashSet<>();
        for (int i = 0; i < argv.size(); i++) {
            String arg = argv.get(i);
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new UsageException("unexpected argument: " + arg);
            }
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (values.containsKey(name) || flags.contains(name)) {
                throw new UsageException("option given twice: --" + name);
            }
            if (booleans.contains(name)) {
                if (value != null) {
                    throw new UsageException("--" + name + " takes no value");
                }
                flags.add(name);
            } else if (valued.contains(name)) {
                if (value == null) {
                    if (i + 1 == argv.size()) {
                        throw new UsageException("--" + name + " needs a value");
                    }
                    value = argv.get(++i);
                }
                values.put(name, value);
            } else {
                throw new UsageException("unknown option: --" + name);
            }
        }
        return new Args(values, flags);
    }

    static Args parse(String[] argv, Set<String> valued, Set<String> booleans) throws UsageException {
        return parse(Arrays.asList(argv), valued, booleans);
    }

    boolean flag(String name) {
        return flags.contains(name);
    }

    boolean has(String name) {
        return values.containsKey(name);
    }

    String string(String name, String defaultValue) {
        return values.getOrDefault(name, defaultValue);
    }

    /** One of {@code allowed} (compared ignoring case), returned in lower case. */
    String choice(String name, String defaultValue, String... allowed) throws UsageException {
        String v = string(name, defaultValue).toLowerCase(Locale.ROOT);
        for (String a : allowed) {
            if (a.equals(v)) {
                return v;
            }
        }
        throw new UsageException("--" + name + " must be one of " + String.join(", ", allowed) + ": " + v);
    }

    Optional<Path> path(String name) {
        return Optional.ofNullable(values.get(name)).map(Path::of);
    }

    /** A count ≥ 1. */
    int positiveCount(String name, int defaultValue) throws UsageException {
        return count(name, defaultValue, 1);
    }

    /** A count ≥ 0. */
    int count(String name, int defaultValue) throws UsageException {
        return count(name, defaultValue, 0);
    }

    private int count(String name, int defaultValue, int min) throws UsageException {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        int n = parseCount(name, v);
        if (n < min) {
            throw new UsageException("--" + name + " must be at least " + min + ": " + v);
        }
        return n;
    }

    /** A comma-separated list of counts ≥ 1, in the order given. */
    List<Integer> counts(String name, List<Integer> defaultValue) throws UsageException {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        List<Integer> out = new ArrayList<>();
        for (String part : v.split(",", -1)) {
            int n = parseCount(name, part.trim());
            if (n < 1) {
                throw new UsageException("--" + name + " values must be at least 1: " + v);
            }
            out.add(n);
        }
        return Collections.unmodifiableList(out);
    }

    /** A positive number of seconds, fractions allowed. */
    double seconds(String name, double defaultValue) throws UsageException {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            double s = Double.parseDouble(v);
            if (s > 0 && Double.isFinite(s)) {
                return s;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--" + name + " must be a positive number of seconds: " + v);
    }

    /**
     * Parameter sets: {@code all}, or a comma-separated list of names such as
     * {@code ML-DSA-65,Dilithium2} (any case; {@code -} and {@code _} optional). The order of
     * {@link ParameterSet#values()} when absent or {@code all}.
     */
    List<ParameterSet> sets(String name) throws UsageException {
        String v = values.get(name);
        if (v == null || v.equalsIgnoreCase("all")) {
            return List.of(ParameterSet.values());
        }
        List<ParameterSet> out = new ArrayList<>();
        for (String part : v.split(",", -1)) {
            ParameterSet p;
            try {
                p = ParameterSet.forName(part.trim());
            } catch (IllegalArgumentException e) {
                throw new UsageException("--" + name + ": " + e.getMessage());
            }
            if (!out.contains(p)) {
                out.add(p);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Operations: a comma-separated list of {@code keygen}, {@code sign}, {@code verify} (any
     * case), returned in that order; all three when absent.
     */
    List<Operation> operations(String name) throws UsageException {
        String v = values.get(name);
        if (v == null) {
            return List.of(Operation.values());
        }
        EnumSet<Operation> ops = EnumSet.noneOf(Operation.class);
        for (String part : v.split(",", -1)) {
            try {
                ops.add(Operation.valueOf(part.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--" + name + " takes keygen, sign, verify: " + part.trim());
            }
        }
        return List.copyOf(ops);
    }

    /**
     * Parses one count: digits with optional {@code _} separators and an optional {@code k} or
     * {@code M} suffix (either case). Result in [0, 2^31).
     */
    static int parseCount(String name, String text) throws UsageException {
        String t = text.replace("_", "");
        long scale = 1;
        if (t.endsWith("k") || t.endsWith("K")) {
            scale = 1_000;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m") || t.endsWith("M")) {
            scale = 1_000_000;
            t = t.substring(0, t.length() - 1);
        }
        if (t.isEmpty() || !t.chars().allMatch(c -> c >= '0' && c <= '9') || t.length() > 10) {
            throw new UsageException("--" + name + " is not a count: " + text);
        }
        long n = Long.parseLong(t) * scale;
        if (n > Integer.MAX_VALUE) {
            throw new UsageException("--" + name + " is too large: " + text);
        }
        return (int) n;
    }
}
