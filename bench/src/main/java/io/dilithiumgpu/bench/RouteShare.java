package io.dilithiumgpu.bench;

import io.dilithiumgpu.route.Router;

import java.util.Locale;

/**
 * The router's calls per route ({@link io.dilithiumgpu.route.RouterMXBean}) between two snapshots, as
 * shares; {@code shared}: the direct signatures whose rejection loops helper threads joined.
 */
record RouteShare(long direct, long batch, long jdk, long shared) {

    /** The shared router's counts now. */
    static RouteShare snapshot() {
        Router r = Router.shared();
        return new RouteShare(r.getDirectCount(), r.getBatchCount(), r.getJdkCount(), r.getSharedSignatureCount());
    }

    /** The shared router's {batched, all} calls so far, for an open loop's windows ({@link OpenLoopTimeline}). */
    static long[] batchedOfAll() {
        RouteShare r = snapshot();
        return new long[] {r.batch, r.direct + r.batch + r.jdk};
    }

    /**
     * The calls since {@code earlier} as shares of each route, for example {@code routes: direct 61 %,
     * batch 39 %}, or {@code routes: direct 76 % (70 % with helpers), batch 0 %, jdk 24 %}.
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
        return j == 0 ? s : s + String.format(Locale.ROOT, ", jdk %.0f %%", 100.0 * j / all);
    }
}
