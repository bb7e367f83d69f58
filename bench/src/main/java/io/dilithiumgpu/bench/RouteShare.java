package io.dilithiumgpu.bench;

import io.dilithiumgpu.route.Router;

import java.util.Locale;
import java.util.Map;

/**
 * The router's calls per route ({@link io.dilithiumgpu.route.RouterMXBean}) between two snapshots, as
 * shares; {@code shared}: the direct signatures whose rejection loops helper threads joined;
 * {@code why}: the calls sent direct beside a GPU, by reason ({@code RouterMXBean.getDirectReasons}),
 * so that a cell where many calls went direct shows what sent them.
 */
record RouteShare(long direct, long batch, long jdk, long shared, Map<String, Long> why) {

    RouteShare {
        why = Map.copyOf(why);
    }

    /** Counts with no reasons recorded (the CPU backend's, or a test's). */
    RouteShare(long direct, long batch, long jdk, long shared) {
        this(direct, batch, jdk, shared, Map.of());
    }

    /** The shared router's counts now. */
    static RouteShare snapshot() {
        Router r = Router.shared();
        return new RouteShare(r.getDirectCount(), r.getBatchCount(), r.getJdkCount(), r.getSharedSignatureCount(),
                r.getDirectReasons());
    }

    /** The shared router's {batched, all} calls so far, for an open loop's windows ({@link OpenLoopTimeline}). */
    static long[] batchedOfAll() {
        RouteShare r = snapshot();
        return new long[] {r.batch, r.direct + r.batch + r.jdk};
    }

    /**
     * The calls since {@code earlier} as shares of each route, for example {@code routes: direct 61 %,
     * batch 39 %}, or {@code routes: direct 76 % (70 % with helpers), batch 0 %, jdk 24 %}; where
     * calls went direct beside a GPU, why, as shares of the direct calls: {@code routes: direct 42 %,
     * batch 58 % (direct by rule 97 %, probe 2 %, measure 1 %)}.
     */
    String since(RouteShare earlier) {
        long d = direct - earlier.direct;
        long b = batch - earlier.batch;
        long j = jdk - earlier.jdk;
        long all = d + b + j;
        if (all == 0) {
            return "routes: no calls";
        }
        long h = shared - earlier.shared;
        String helped = h == 0 ? "" : String.format(Locale.ROOT, " (%.0f %% with helpers)", 100.0 * h / all);
        String s = String.format(Locale.ROOT, "routes: direct %.0f %%%s, batch %.0f %%", 100.0 * d / all, helped,
                100.0 * b / all);
        if (j != 0) {
            s += String.format(Locale.ROOT, ", jdk %.0f %%", 100.0 * j / all);
        }
        return s + reasons(earlier, d);
    }

    /** The nonzero reasons among {@code d} direct calls since {@code earlier}, largest first; empty if none. */
    private String reasons(RouteShare earlier, long d) {
        StringBuilder out = new StringBuilder();
        why.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - earlier.why.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0)
                .sorted((x, y) -> Long.compare(y.getValue(), x.getValue()))
                .forEach(e -> out.append(out.length() == 0 ? " (direct by " : ", ").append(e.getKey())
                        .append(String.format(Locale.ROOT, " %.0f %%", 100.0 * e.getValue() / Math.max(1, d))));
        return out.length() == 0 ? "" : out.append(')').toString();
    }
}
