package io.dilithiumgpu.bench;

import io.dilithiumgpu.route.Router;

import java.util.Locale;

/** The router's calls per route ({@link io.dilithiumgpu.route.RouterMXBean}) between two snapshots, as shares. */
record RouteShare(long direct, long batch, long jdk) {

    /** The shared router's counts now. */
    static RouteShare snapshot() {
        Router r = Router.shared();
        return new RouteShare(r.getDirectCount(), r.getBatchCount(), r.getJdkCount());
    }

    /** The shared router's {batched, all} calls so far, for an open loop's windows ({@link OpenLoopTimeline}). */
    static long[] batchedOfAll() {
        RouteShare r = snapshot();
        return new long[] {r.batch, r.direct + r.batch + r.jdk};
    }

    /** The calls since {@code earlier} as shares of each route, for example {@code routes: direct 61 %, batch 39 %}. */
    String since(RouteShare earlier) {
        long d = direct - earlier.direct;
        long b = batch - earlier.batch;
        long j = jdk - earlier.jdk;
        long all = d + b + j;
        if (all == 0) {
            return "routes: no calls";
        }
        String s = String.format(Locale.ROOT, "routes: direct %.0f %%, batch %.0f %%", 100.0 * d / all, 100.0 * b / all);
        return j == 0 ? s : s + String.format(Locale.ROOT, ", jdk %.0f %%", 100.0 * j / all);
    }
}
