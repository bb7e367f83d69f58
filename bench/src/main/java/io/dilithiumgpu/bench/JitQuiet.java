package io.dilithiumgpu.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * When a warm-up may end: once the JIT has gone quiet. A warm-up pass of fixed length can end while
 * the JIT still compiles the code of the first cells measured, and a cell measured then pays for
 * the compiler's work; a provider measured later in the same JVM, over code warmed meanwhile, does
 * not.
 *
 * <p>The rule ({@link #judge}), over readings of the JIT's work ({@link JitActivity}) taken at the
 * end of each slice of warm-up load: the JIT is quiet when its work grew by less than
 * {@value #QUIET_PERCENT} % of the wall time in each of the last {@value #QUIET_SLICES} slices, and
 * at least {@code cycle} slices ran (one of each kind of load, so that every kind has been called
 * since the pass). The warm-up ends there, or when it has run {@code bound} nanoseconds, quiet or
 * not. A JVM that shows no JIT work ({@link JitActivity#ofThisJvm} null) is not waited for.
 */
final class JitQuiet {
    /** The most JIT work in a quiet slice, in percent of the slice's wall time. */
    static final int QUIET_PERCENT = 2;
    /** Quiet slices in a row that end the warm-up. */
    static final int QUIET_SLICES = 2;
    /** A slice's length, unless the bound is shorter. */
    static final long SLICE_NANOS = 250_000_000L;

    private JitQuiet() {}

    /** A reading at a slice's boundary: the clock, and the JIT's work so far ({@link JitActivity#nanos}). */
    record Reading(long nanos, long jitNanos) {}

    /** Where the readings leave a warm-up. */
    enum State {
        /** Not yet quiet, bound not reached: run another slice. */
        RUNNING,
        /** The JIT is quiet. */
        QUIET,
        /** The bound was reached before the JIT went quiet. */
        BOUND,
        /** The JVM shows no JIT work: nothing to wait for. */
        UNSUPPORTED
    }

    /**
     * The state after {@code readings}: the first taken before the first slice, one more after each.
     *
     * @param cycle the fewest slices before the JIT may be called quiet
     * @param bound nanoseconds from the first reading after which the warm-up ends anyway
     */
    static State judge(List<Reading> readings, int cycle, long bound) {
        int slices = readings.size() - 1;
        if (slices >= Math.max(cycle, QUIET_SLICES)) {
            boolean quiet = true;
            for (int i = readings.size() - QUIET_SLICES; i < readings.size(); i++) {
                quiet &= quiet(readings.get(i - 1), readings.get(i));
            }
            if (quiet) {
                return State.QUIET;
            }
        }
        return readings.get(readings.size() - 1).nanos() - readings.get(0).nanos() >= bound
                ? State.BOUND : State.RUNNING;
    }

    /** Whether the JIT's work grew by less than {@value #QUIET_PERCENT} % of the wall time from {@code a} to {@code b}. */
    static boolean quiet(Reading a, Reading b) {
        return (b.jitNanos() - a.jitNanos()) * 100 < QUIET_PERCENT * (b.nanos() - a.nanos());
    }

    /** Runs slice number {@code index} (0 to cycle - 1) of warm-up load for about {@code nanos}. */
    interface Slices {
        void run(int index, long nanos) throws Exception;
    }

    /**
     * How a warm-up ended: its state, its time and slices, and the JIT's work over the last
     * {@value #QUIET_SLICES} slices (fewer if fewer ran) with their wall time; {@code jit} is null
     * when the JVM shows none.
     */
    record Outcome(State state, long nanos, int slices, JitActivity jit, long windowJitNanos, long windowNanos) {
        /** {@code JIT quiet (compiler CPU 3 ms in the last 0.50 s)}, and the like for the other states. */
        String describe() {
            if (state == State.UNSUPPORTED) {
                return "JIT not waited for: this JVM shows no compiler work";
            }
            String window = String.format(Locale.ROOT, "%s in the last %.2f s", jit.between(0, windowJitNanos),
                    windowNanos / 1e9);
            return switch (state) {
                case QUIET -> "JIT quiet (" + window + ")";
                case BOUND -> "JIT not quiet at the bound (" + window + ")";
                default -> throw new IllegalStateException("a warm-up still running has no outcome");
            };
        }
    }

    /**
     * Runs slices 0, 1, ..., cycle - 1, 0, 1, ... until {@link #judge} says quiet or bound, reading
     * {@code clock} (nanoseconds) and {@code jit} around each. With no {@code jit} it runs nothing
     * and returns {@link State#UNSUPPORTED}.
     */
    static Outcome warmUp(Slices slices, int cycle, long bound, LongSupplier clock, JitActivity jit)
            throws Exception {
        if (jit == null) {
            return new Outcome(State.UNSUPPORTED, 0, 0, null, 0, 0);
        }
        long slice = Math.min(SLICE_NANOS, bound);
        List<Reading> readings = new ArrayList<>();
        readings.add(new Reading(clock.getAsLong(), jit.nanos()));
        State state = State.RUNNING;
        while (state == State.RUNNING) {
            slices.run((readings.size() - 1) % cycle, slice);
            readings.add(new Reading(clock.getAsLong(), jit.nanos()));
            state = judge(readings, cycle, bound);
        }
        Reading first = readings.get(0);
        Reading last = readings.get(readings.size() - 1);
        Reading windowStart = readings.get(Math.max(0, readings.size() - 1 - QUIET_SLICES));
        return new Outcome(state, last.nanos() - first.nanos(), readings.size() - 1, jit,
                last.jitNanos() - windowStart.jitNanos(), last.nanos() - windowStart.nanos());
    }

    /** The rule in words, for a run's header: {@code jit} says what is counted, null where nothing is. */
    static String rule(JitActivity jit) {
        return "in slices of " + Format.seconds(SLICE_NANOS / 1e9) + " until the JIT is quiet ("
                + (jit == null ? "" : jit.label() + " ") + "less than " + QUIET_PERCENT + " % of a slice's wall time, "
                + QUIET_SLICES + " slices in a row, after one slice of each)";
    }
}
