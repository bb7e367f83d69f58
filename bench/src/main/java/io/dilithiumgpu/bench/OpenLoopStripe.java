package io.dilithiumgpu.bench;

import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One share of an open loop's calls ({@link Callers#openLoop}): their latencies, the lead-in's and the
 * measured part's apart, their times by window ({@link OpenLoopTimeline.Tally}), how many have ended,
 * and the caller objects idle between them. Each stripe is its own lock and its own memory, so that
 * calls ending at once on different cores meet no shared counter; a call takes its stripe's lock twice,
 * for a caller object and for its records.
 */
final class OpenLoopStripe {
    /** The lead-in's latencies [0] and the measured part's [1], in nanoseconds. */
    private final AbstractHistogram[] byPart = {
            new IntCountsHistogram(Callers.LATENCY_DIGITS), new IntCountsHistogram(Callers.LATENCY_DIGITS)};
    private final OpenLoopTimeline.Tally tally;
    private final ArrayDeque<Callers.Call> idle = new ArrayDeque<>();
    /** Calls of this stripe that ended, by returning, by throwing or by failing to start; written under the lock. */
    private volatile long ended;

    OpenLoopStripe(OpenLoopTimeline.Tally tally) {
        this.tally = tally;
    }

    /**
     * Stripes for a host of {@code cores}: a power of two, twice the cores or more, at least 4, at most
     * 64 (each holds two histograms and a tally).
     */
    static int count(int cores) {
        int atLeast = Math.max(4, Math.min(64, 2 * cores));
        return Integer.highestOneBit(atLeast - 1) << 1;
    }

    /**
     * Runs call {@code call}, due {@code offset} after call 0 at {@link System#nanoTime()} {@code due}
     * and issued {@code late} after that, on a caller object of this stripe (made by {@code factory}
     * when none is idle), and records it in the part {@link Callers#measuredPart} gives, or stores the
     * first failure of the run in {@code failure}. Either way the call counts as ended.
     */
    void run(Callers.CallFactory<? extends Callers.Call> factory, int call, long offset, long due, long late,
             OpenLoopTimeline timeline, AtomicReference<Throwable> failure) {
        try {
            long started = System.nanoTime() - due;
            Callers.Call caller;
            synchronized (this) {
                caller = idle.pollLast();
            }
            if (caller == null) {
                caller = factory.create();
            }
            caller.call();
            long took = System.nanoTime() - due;
            // The lead-in's calls are recorded by the same code, in a histogram of their own: a branch
            // first taken where the measured part starts compiles as a trap, and the calls' compiled code
            // would go back to the interpreter and the JIT there, in the first measured window.
            AbstractHistogram part = byPart[Callers.measuredPart(offset, timeline.measuredStart())];
            synchronized (this) {
                part.recordValue(took);
                tally.record(call, late, started, took);
                idle.addLast(caller);
                ended++;
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            ended();
        }
    }

    /** Counts a call that ended without records: it threw, or its thread did not start. */
    synchronized void ended() {
        ended++;
    }

    /**
     * Waits until {@code stripes} have ended {@code calls} calls in all, polling every millisecond;
     * false if {@code timeoutNanos} passed first. Once true, every record of those calls happened
     * before this returned.
     */
    static boolean awaitEnded(OpenLoopStripe[] stripes, long calls, long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            long sum = 0;
            for (OpenLoopStripe s : stripes) {
                sum += s.ended;
            }
            if (sum >= calls) {
                return true;
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(1);
        }
    }

    /** The measured part's latencies of all {@code stripes}, once their calls have ended. */
    static Histogram measured(OpenLoopStripe[] stripes) {
        Histogram all = new Histogram(Callers.LATENCY_DIGITS);
        for (OpenLoopStripe s : stripes) {
            synchronized (s) {
                all.add(s.byPart[1]);
            }
        }
        return all;
    }
}
