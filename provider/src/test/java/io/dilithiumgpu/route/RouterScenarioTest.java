package io.dilithiumgpu.route;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.PriorityQueue;

/**
 * The router through the levels of a {@code jca} run, replayed on a fake clock: a warm-up pass of
 * 64 callers that batch, then closed loops of 1, 4 and 16 callers where a call costs less direct
 * than batched. Each caller is a stream of events on one thread (the calls in flight are the
 * router's started and ended calls); at the end of the warm-up 64 threads call once each, as the
 * warm-up's virtual threads do in the router's last sampling interval. Then loads beyond the cores
 * (after 16 callers, 64 or 256), where a batched call's round trip depends on whether direct calls
 * fill the cores. Counts, no timing.
 */
class RouterScenarioTest {
    private static final long MICROS = 1_000;
    private static final long MILLIS = 1_000_000;
    private static final ParameterSet P = ParameterSet.ML_DSA_44;
    private static final int CORES = 16;

    private long now = 1_000_000_000L;

    /** The time of a call on each route at one level (the JDK's engine: 0 where it does not sign). */
    private record Costs(long core, long jdk, long batch) {}

    /**
     * What one level routed: its calls, those that batched, and those that batched once the router
     * had sampled the calls in flight of the level (after {@link Router#SAMPLE_MILLIS}).
     */
    private record Level(int callers, int calls, int batched, int late) {
        @Override
        public String toString() {
            return callers + " callers: " + batched + " of " + calls + " calls batched, " + late + " after the first "
                    + Router.SAMPLE_MILLIS + " ms";
        }
    }

    /** An event: a caller's call ends at {@code at}. */
    private record End(long at, Route route, long started) {}

    /** Routes one signature as the provider's Signature does: the JDK first, where it signs, then the rule. */
    private Route decide(Router r, boolean jdk) {
        return jdk && r.toJdk(P) ? Route.JDK : r.route(Operation.SIGN, P, jdk);
    }

    private static long cost(Costs c, Route route) {
        return route == Route.BATCH ? c.batch : route == Route.JDK ? c.jdk : c.core;
    }

    /**
     * {@code callers} closed-loop callers for {@code nanos}: each routes a call, runs it for its
     * route's cost, and calls again when it ends. Direct calls beyond the cores share them.
     */
    private Level level(Router r, boolean jdk, int callers, long nanos, Costs c) {
        long end = now + nanos;
        PriorityQueue<End> ends = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
        int calls = 0;
        int batched = 0;
        int direct = 0;
        int late = 0;
        long settled = now + Router.SAMPLE_MILLIS * MILLIS;
        for (int i = 0; i < callers; i++) {
            Route route = call(r, jdk, c, ends, direct);
            direct += route == Route.BATCH ? 0 : 1;
            calls++;
            batched += route == Route.BATCH ? 1 : 0;
        }
        while (!ends.isEmpty()) {
            End e = ends.poll();
            now = Math.max(now, e.at);
            r.ended(Operation.SIGN, P, e.route, e.started);
            direct -= e.route == Route.BATCH ? 0 : 1;
            if (now >= end) {
                continue;
            }
            Route route = call(r, jdk, c, ends, direct);
            direct += route == Route.BATCH ? 0 : 1;
            calls++;
            batched += route == Route.BATCH ? 1 : 0;
            late += route == Route.BATCH && now >= settled ? 1 : 0;
        }
        return new Level(callers, calls, batched, late);
    }

    /**
     * Routes one call and schedules its end: a direct call beside {@code direct} others shares the
     * cores with them. Returns its route.
     */
    private Route call(Router r, boolean jdk, Costs c, PriorityQueue<End> ends, int direct) {
        Route route = decide(r, jdk);
        int running = direct + (route == Route.BATCH ? 0 : 1);
        long took = cost(c, route) * Math.max(1, (running + CORES - 1) / CORES);
        ends.add(new End(now + took, route, r.started(route)));
        return route;
    }

    /** The last sampling interval of the warm-up: 64 threads call once each. */
    private void warmUpCallersCallOnce(Router r, long batchNanos) throws InterruptedException {
        for (int i = 0; i < 64; i++) {
            Thread t = new Thread(() -> {
                long started = r.started(Route.BATCH);
                r.ended(Operation.SIGN, P, Route.BATCH, started - batchNanos);
            });
            t.start();
            t.join();
        }
    }

    /**
     * The run: a 64-caller warm-up pass of 2 s, where direct calls measure {@code coldFactor} times
     * their later cost (code not compiled yet, cores busy), then 1 s at 1, 4 and 16 callers.
     */
    private Level[] run(boolean jdk, Costs later, long coldFactor) throws InterruptedException {
        Router r = new Router(() -> true, () -> now, CORES);
        Costs warmUp = new Costs(later.core * coldFactor, later.jdk * coldFactor, 460 * MICROS);
        level(r, jdk, 64, 2_000 * MILLIS, warmUp);
        warmUpCallersCallOnce(r, warmUp.batch);
        Level[] levels = new Level[3];
        int[] callers = {1, 4, 16};
        for (int i = 0; i < callers.length; i++) {
            levels[i] = level(r, jdk, callers[i], 1_000 * MILLIS, later);
        }
        return levels;
    }

    /**
     * Once the router has sampled the level's calls in flight, only the batch route's refreshes
     * batch (one per refresh interval), and the callers make at least 90 % of the calls they would
     * make on the cheapest direct engine alone.
     */
    private static void assertOnlyRefreshesBatch(Level[] levels, long cheapestNanos) {
        for (Level l : levels) {
            assertTrue(l.late <= 1_000 / Router.REFRESH_MILLIS + 1, l.toString());
            assertTrue(l.calls >= 0.9 * l.callers * 1_000 * MILLIS / cheapestNanos, l.toString());
        }
    }

    @Test
    @Timeout(60)
    void afterTheBatchingWarmUpTheCoreTakesTheFewCallersCalls() throws InterruptedException {
        Costs c = new Costs(250 * MICROS, 0, 550 * MICROS);
        assertOnlyRefreshesBatch(run(false, c, 1), c.core);
        assertOnlyRefreshesBatch(run(false, c, 5), c.core);
    }

    @Test
    @Timeout(60)
    void afterTheBatchingWarmUpTheJdkTakesTheFewCallersSignatures() throws InterruptedException {
        Costs c = new Costs(320 * MICROS, 210 * MICROS, 550 * MICROS);
        assertOnlyRefreshesBatch(run(true, c, 1), c.jdk);
        assertOnlyRefreshesBatch(run(true, c, 5), c.jdk);
    }

    /**
     * {@code callers} closed-loop callers of {@code op} for {@code nanos}, where a direct call takes
     * {@code coreNanos} of a core (sharing the cores beyond them) and a batched call's round trip is
     * {@code carrying} while fewer direct calls run than there are cores, {@code saturated} when
     * they fill the cores (the batcher's threads then wait for one). Counts the calls of the last
     * {@code countedNanos}.
     */
    private Level loadLevel(Router r, Operation op, int callers, long nanos, long countedNanos, long coreNanos,
                            long carrying, long saturated) {
        long end = now + nanos;
        long counted = end - countedNanos;
        PriorityQueue<End> ends = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
        int direct = 0;
        int calls = 0;
        int batched = 0;
        for (int i = 0; i < callers || !ends.isEmpty(); i++) {
            if (i >= callers) {
                End e = ends.poll();
                now = Math.max(now, e.at);
                r.ended(op, P, e.route, e.started);
                direct -= e.route == Route.BATCH ? 0 : 1;
                if (now >= end) {
                    continue;
                }
            }
            Route route = r.route(op, P);
            long took;
            if (route == Route.BATCH) {
                took = direct >= CORES ? saturated : carrying;
            } else {
                direct++;
                took = coreNanos * Math.max(1, (direct + CORES - 1) / CORES);
            }
            ends.add(new End(now + took, route, r.started(route)));
            if (now >= counted) {
                calls++;
                batched += route == Route.BATCH ? 1 : 0;
            }
        }
        return new Level(callers, calls, batched, batched);
    }

    /** 16 callers for 1 s, then {@code callers} for 3 s, of which the last 2 s are counted. */
    private Level beyondTheCores(Operation op, int callers, long coreNanos, long carrying, long saturated) {
        Router r = new Router(() -> true, () -> now, CORES);
        loadLevel(r, op, 16, 1_000 * MILLIS, 0, coreNanos, carrying, saturated);
        return loadLevel(r, op, callers, 3_000 * MILLIS, 2_000 * MILLIS, coreNanos, carrying, saturated);
    }

    /**
     * Signing at 64 callers on 16 cores: direct, a call shares its core with three others and ends
     * after four times its work; batched, its round trip is shorter, as the batcher measures while
     * it carries the calls, though far longer while direct calls fill the cores. The batcher takes
     * most of the calls.
     */
    @Test
    @Timeout(60)
    void beyondTheCoresSignaturesGoToTheBatcherItsLoadedRoundTripFavours() {
        Level l = beyondTheCores(Operation.SIGN, 64, 255 * MICROS, 600 * MICROS, 7 * MILLIS);
        assertTrue(l.batched >= 0.9 * l.calls, l.toString());
        l = beyondTheCores(Operation.SIGN, 256, 255 * MICROS, 1_200 * MICROS, 7 * MILLIS);
        assertTrue(l.batched >= 0.9 * l.calls, l.toString());
    }

    /** Verification at 64 callers on 16 cores: four direct calls per core still end before a batched one. */
    @Test
    @Timeout(60)
    void beyondTheCoresVerificationsTheCoresEndSoonerStayDirect() {
        Level l = beyondTheCores(Operation.VERIFY, 64, 45 * MICROS, 350 * MICROS, 7 * MILLIS);
        assertTrue(l.batched <= 0.1 * l.calls, l.toString());
    }
}
