package io.dilithiumgpu.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * The router through the levels of a {@code jca} run, replayed on a fake clock: a warm-up pass of
 * 64 callers that batch, then closed loops of 1, 4 and 16 callers where a call costs less direct
 * than batched. Each caller is a stream of events on one thread (the calls in flight are the
 * router's started and ended calls); at the end of the warm-up 64 threads call once each, as the
 * warm-up's virtual threads do in the router's last sampling interval. Then loads beyond the cores
 * (after 16 callers, 64 or 256), where a batched call's round trip depends on whether direct calls
 * fill the cores. Then virtual-thread callers beyond the cores, of which the router sees only those a
 * carrier keeps while direct calls fill the cores ({@link #virtualLevel}). Counts, no timing.
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
        long trials = r.getTrialCount();
        for (int i = 0; i < callers.length; i++) {
            levels[i] = level(r, jdk, callers[i], 1_000 * MILLIS, later);
        }
        assertEquals(trials, r.getTrialCount(), "no trial with no more callers than cores");
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

    /** What one level of {@link #noisyLevel} routed: calls per route. */
    private record Shares(int callers, int jdk, int core, int batched) {
        int calls() {
            return jdk + core + batched;
        }

        @Override
        public String toString() {
            return callers + " callers: " + jdk + " to the JDK, " + core + " to the core, " + batched + " batched";
        }
    }

    /**
     * A signature's time on a route as the H100 host measures them: the JDK's engine 60 µs plus
     * 45 µs an attempt, the core 85 plus 63, the attempts of the rejection loop drawn as ML-DSA-44's
     * (one in four ends the loop); a batched round trip 480 to 680 µs.
     */
    private static long noisyCost(Random rnd, Route route) {
        if (route == Route.BATCH) {
            return 480 * MICROS + rnd.nextInt(200) * MICROS;
        }
        int attempts = 1;
        while (rnd.nextInt(4) != 0) {
            attempts++;
        }
        return route == Route.JDK ? 60 * MICROS + 45 * MICROS * attempts : 85 * MICROS + 63 * MICROS * attempts;
    }

    /**
     * {@code callers} closed-loop signers for {@code nanos} at {@link #noisyCost}, routed as the
     * provider's Signature routes them, where a collection every 100 ms holds every call in
     * flight for 2 ms.
     */
    private Shares noisyLevel(Router r, Random rnd, int callers, long nanos) {
        long end = now + nanos;
        long nextPause = now + 100 * MILLIS;
        PriorityQueue<End> ends = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
        int[] routes = new int[3];
        for (int i = 0; i < callers || !ends.isEmpty(); i++) {
            if (i >= callers) {
                End e = ends.poll();
                if (e.at >= nextPause) {
                    PriorityQueue<End> held = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
                    held.add(new End(e.at + 2 * MILLIS, e.route, e.started));
                    ends.forEach(o -> held.add(new End(o.at + 2 * MILLIS, o.route, o.started)));
                    ends = held;
                    nextPause += 100 * MILLIS;
                    continue;
                }
                now = Math.max(now, e.at);
                r.ended(Operation.SIGN, P, e.route, e.started);
                if (now >= end) {
                    continue;
                }
            }
            Route route = decide(r, true);
            routes[route == Route.JDK ? 0 : route == Route.DIRECT ? 1 : 2]++;
            ends.add(new End(now + noisyCost(rnd, route), route, r.started(route)));
        }
        return new Shares(callers, routes[0], routes[1], routes[2]);
    }

    /**
     * Signing at a few callers after a load beyond the cores, with the rejection loop's spread and
     * collections' pauses: the JDK's engine, a third faster than the core, takes the signatures,
     * the core only its measurements (a bucket a second, and 16 signatures once the load falls
     * within the cores) and the batcher only its refreshes. Before, the core took 2.4 to 8.3 % of
     * some levels' signatures (up to 5,248 of 63,277 at 16 callers): every pause's bucket dropped as
     * cold had the core measured again, and the averages weighted to the last calls, pushed over
     * the batch route's round trip, sent calls to the core as probes.
     */
    @Test
    @Timeout(60)
    void aFewCallersSignaturesGoToTheFasterEngineThroughTheRejectionLoopsSpreadAndPauses() {
        for (int seed = 1; seed <= 3; seed++) {
            Random rnd = new Random(seed);
            Router r = new Router(() -> true, () -> now, CORES);
            noisyLevel(r, rnd, 64, 2_000 * MILLIS);
            for (int callers : new int[] {1, 4, 16, 1, 4, 16}) {
                Shares s = noisyLevel(r, rnd, callers, 1_000 * MILLIS);
                // the share of two duels at most: a second's, and one as the load falls within the cores
                assertTrue(s.core <= 2 * (EngineDuel.SAMPLES
                                + s.calls() * EngineDuel.WINDOW_MILLIS / 1_000 / RouteChoice.EXPLORE),
                        "seed " + seed + ", " + s);
                assertTrue(s.batched <= 1_000 / Router.REFRESH_MILLIS + 1, "only the refreshes: seed " + seed + ", " + s);
            }
        }
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

    /** The simulated caller whose call the router sees now ({@link #virtualLevel}); 0 elsewhere. */
    private int current;
    /** When the callers from the {@link #keep}-th on stop ({@link #virtualLevel}). */
    private long dropAt;
    private int keep;
    /** Per simulated caller, its slot for the router's count of callers per interval. */
    private int[][] slots = {{-1}};

    private Router virtualRouter() {
        return virtualRouter(CORES);
    }

    /** A router that counts {@code cores} for the {@code CORES} carriers of {@link #virtualLevel}. */
    private Router virtualRouter(int cores) {
        slots = new int[4_096][];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new int[] {-1};
        }
        return new Router(() -> true, () -> now, cores, () -> slots[current]);
    }

    /** An event of {@link #virtualLevel}: at {@code at}, a carrier turns to its next caller, or a batched caller wakes. */
    private record Step(long at, long seq, int carrier, int caller, boolean direct, long started) {}

    /** Virtual callers' costs: a direct call's time on its carrier; a batched one's hand-off, round trips. */
    private record VirtualCosts(long core, long handOff, long carrying, long saturated) {}

    /**
     * {@code callers} closed-loop virtual-thread callers of verification on {@code CORES} carriers for
     * {@code nanos}, the calls of the last {@code countedNanos} counted. A carrier runs one caller at a
     * time: a direct call holds it for {@code core}; then the caller goes to the back of the carrier's
     * own queue, and the carrier takes its next caller from the common queue while its own holds
     * fewer than {@code perCarrier}, else from its own. So while direct calls fill the cores only
     * {@code perCarrier} callers per carrier ever run, and the router counts only those (as it
     * counted 45 of 4,096 callers on 16 cores); the rest wait unseen. A batched call holds the
     * carrier for {@code handOff}; its caller then parks until the round trip ends ({@code carrying},
     * or {@code saturated} when every other carrier runs a direct call, whose completion waits for a
     * carrier), and queues in the common queue for a carrier, where it ends its call and calls again.
     * The callers from the {@code keep}-th on stop after {@code keptNanos}.
     */
    private Level virtualLevel(Router r, int callers, int perCarrier, long nanos, long countedNanos, VirtualCosts c) {
        return virtualLevel(r, callers, perCarrier, nanos, countedNanos, c, callers, nanos);
    }

    private Level virtualLevel(Router r, int callers, int perCarrier, long nanos, long countedNanos, VirtualCosts c,
                               int keep, long keptNanos) {
        dropAt = now + keptNanos;
        this.keep = keep;
        long end = now + nanos;
        long counted = end - countedNanos;
        PriorityQueue<Step> steps = new PriorityQueue<>((a, b) ->
                a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
        ArrayDeque<Integer> common = new ArrayDeque<>();
        @SuppressWarnings("unchecked")
        ArrayDeque<Integer>[] own = new ArrayDeque[CORES];
        boolean[] idle = new boolean[CORES];
        long[] batchStarted = new long[callers];
        long[] ready = new long[callers];
        int[] counts = new int[3];  // calls, batched, direct running
        long[] seq = {0};
        for (int i = 0; i < callers; i++) {
            common.add(i);
        }
        for (int k = 0; k < CORES; k++) {
            own[k] = new ArrayDeque<>();
            idle[k] = true;
        }
        wakeIdle(r, idle, own, common, perCarrier, steps, seq, batchStarted, ready, counts, end, counted, c);
        while (!steps.isEmpty()) {
            Step s = steps.poll();
            now = Math.max(now, s.at);
            if (s.carrier < 0) {
                common.add(s.caller);  // woken: its batch is done
                wakeIdle(r, idle, own, common, perCarrier, steps, seq, batchStarted, ready, counts, end, counted, c);
                continue;
            }
            if (s.direct) {
                current = s.caller;
                r.ended(Operation.VERIFY, P, Route.DIRECT, s.started);
                counts[2]--;
                if (now < end && (s.caller < keep || now < dropAt)) {
                    own[s.carrier].add(s.caller);
                }
            }
            next(r, s.carrier, idle, own, common, perCarrier, steps, seq, batchStarted, ready, counts, end, counted, c);
        }
        return new Level(callers, counts[0], counts[1], counts[1]);
    }

    private void wakeIdle(Router r, boolean[] idle, ArrayDeque<Integer>[] own, ArrayDeque<Integer> common,
                          int perCarrier, PriorityQueue<Step> steps, long[] seq, long[] batchStarted, long[] ready,
                          int[] counts, long end, long counted, VirtualCosts c) {
        for (int k = 0; k < CORES && !common.isEmpty(); k++) {
            if (idle[k]) {
                next(r, k, idle, own, common, perCarrier, steps, seq, batchStarted, ready, counts, end, counted, c);
            }
        }
    }

    /** Carrier {@code k} takes its next caller, which ends its batched call if it has one and calls again. */
    private void next(Router r, int k, boolean[] idle, ArrayDeque<Integer>[] own, ArrayDeque<Integer> common,
                      int perCarrier, PriorityQueue<Step> steps, long[] seq, long[] batchStarted, long[] ready,
                      int[] counts, long end, long counted, VirtualCosts c) {
        while (true) {
            Integer x = own[k].size() < perCarrier && !common.isEmpty() ? common.poll() : own[k].poll();
            if (x == null) {
                x = common.poll();
            }
            idle[k] = x == null;
            if (x == null) {
                return;
            }
            current = x;
            if (ready[x] != 0) {
                r.ended(Operation.VERIFY, P, Route.BATCH, batchStarted[x], ready[x]);
                ready[x] = 0;
            }
            if (now >= end || x >= keep && now >= dropAt) {
                continue;  // this caller stops; the carrier turns to the next
            }
            Route route = r.route(Operation.VERIFY, P);
            long started = r.started(route);
            if (now >= counted) {
                counts[0]++;
                counts[1] += route == Route.BATCH ? 1 : 0;
            }
            if (route == Route.BATCH) {
                batchStarted[x] = started;
                ready[x] = now + (counts[2] >= CORES - 1 ? c.saturated : c.carrying);
                steps.add(new Step(ready[x], seq[0]++, -1, x, false, 0));
                steps.add(new Step(now + c.handOff, seq[0]++, k, x, false, 0));
            } else {
                counts[2]++;
                steps.add(new Step(now + c.core, seq[0]++, k, x, true, started));
            }
            return;
        }
    }

    /** Verification: 45 µs of a core direct; batched, 20 µs of a carrier and a 2 ms round trip. */
    private static final VirtualCosts VERIFY_VIRTUAL = new VirtualCosts(45 * MICROS, 20 * MICROS, 2 * MILLIS,
            100 * MILLIS);

    /** 16 platform callers for 1 s, as {@link #beyondTheCores} warms up: the direct route takes them. */
    private Router stuckAfterSixteenCallers() {
        return stuckAfterSixteenCallers(virtualRouter());
    }

    private Router stuckAfterSixteenCallers(Router r) {
        loadLevel(r, Operation.VERIFY, 16, 1_000 * MILLIS, 0, VERIFY_VIRTUAL.core, 300 * MICROS, 7 * MILLIS);
        return r;
    }

    /**
     * 4,096 virtual callers after 16, where a carrier keeps {@code perCarrier} callers while direct
     * calls fill the cores: the router counts those, under which a direct call's wait for a core
     * looks shorter than the batch route's floor, and the batch route's refreshes wait for a carrier
     * behind the direct calls; batched, the callers complete more than twice as many calls. The
     * trial of the batch route finds it, and the batcher keeps the calls.
     */
    private void hiddenCallersAreFound(int perCarrier) {
        Router r = stuckAfterSixteenCallers();
        assertEquals(0, r.getTrialCount(), "16 callers on 16 cores: no trial");
        Level l = virtualLevel(r, 4_096, perCarrier, 1_500 * MILLIS, 500 * MILLIS, VERIFY_VIRTUAL);
        long direct = 500 * MILLIS * CORES / VERIFY_VIRTUAL.core;
        assertTrue(l.batched >= 0.95 * l.calls, l.toString());
        assertTrue(l.calls >= 2 * direct, l + "; the cores alone: " + direct);
        assertTrue(r.getTrialsWon() >= 1, "trials " + r.getTrialCount() + ", won " + r.getTrialsWon());
    }

    /**
     * An application that runs its callers on 16 carriers of a 64-processor host
     * ({@code jdk.virtualThreadScheduler.parallelism=16}): the router counts the carriers' cores
     * ({@link CallerCores}), so direct calls fill them, and the 4,096 callers, of whom a carrier
     * keeps one while its direct calls never yield, go to the batcher as on 16 processors. Counting
     * the 64 processors instead, it never saw the cores full and kept all but 10 of 177,782 calls
     * direct.
     */
    @Test
    @Timeout(60)
    void callersOnFewerCarriersThanProcessorsAreFoundAsOnThatManyCores() {
        Router r = stuckAfterSixteenCallers(virtualRouter(CallerCores.of(4 * CORES, Integer.toString(CORES))));
        Level l = virtualLevel(r, 4_096, 1, 1_500 * MILLIS, 500 * MILLIS, VERIFY_VIRTUAL);
        assertTrue(l.batched >= 0.95 * l.calls, l.toString());
        assertTrue(r.getTrialsWon() >= 1, "trials " + r.getTrialCount() + ", won " + r.getTrialsWon());
    }

    /** Three callers a carrier: the router counts 48 in flight, more than the cores. */
    @Test
    @Timeout(60)
    void virtualCallersHiddenBehindDirectCallsAreFoundByTheTrialOfTheBatchRoute() {
        hiddenCallersAreFound(3);
    }

    /**
     * One caller a carrier, as when direct calls never yield their carriers: the router counts no
     * more calls in flight than cores, but the batch route's refreshes end long after the backend
     * had their outcomes, their callers queued for a carrier behind the unseen ones.
     */
    @Test
    @Timeout(60)
    void callersThatNeverGetACarrierAreFoundByTheRefreshesWaitForOne() {
        hiddenCallersAreFound(1);
    }

    /**
     * 64 virtual callers after 16: the batch route completes fewer calls than the cores, and each
     * trial that finds it so waits twice as long for the next. Then 4,096 callers held by the
     * batcher, of whom all but 64 stop at once: the direct route, tried against the held batcher,
     * takes the calls back.
     */
    @Test
    @Timeout(60)
    void whereTheCoresCompleteMoreTheTrialsLoseAndBackOff() {
        Router r = stuckAfterSixteenCallers();
        Level l = virtualLevel(r, 64, 3, 4_000 * MILLIS, 2_000 * MILLIS, VERIFY_VIRTUAL);
        assertTrue(l.batched <= 0.05 * l.calls, l.toString());
        assertEquals(0, r.getTrialsWon());
        assertTrue(r.getTrialCount() >= 3 && r.getTrialCount() <= 6, "trials in 4 s: " + r.getTrialCount());

        r = stuckAfterSixteenCallers();
        l = virtualLevel(r, 4_096, 3, 3_000 * MILLIS, 1_000 * MILLIS, VERIFY_VIRTUAL, 64, 1_000 * MILLIS);
        assertTrue(l.batched <= 0.05 * l.calls, l.toString());
        assertEquals(2, r.getTrialsWon(), "the batch route's trial won at 4,096 callers, the direct route's at 64");
        assertTrue(r.getDirectReasons().get("trial") > 0, "the direct route's trial sent the calls direct: "
                + r.getDirectReasons());
    }
}
