package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The quiet rule over made-up readings, and the loop over a made-up clock and compiler: no timing. */
class JitQuietTest {
    private static final long SLICE = JitQuiet.SLICE_NANOS;
    private static final long BOUND = 15_000_000_000L;

    private static final long MS = 1_000_000L;

    /** Readings 0.25 s apart, starting at no JIT work, each slice adding the given milliseconds of it. */
    private static List<JitQuiet.Reading> slices(long... jitMillis) {
        List<JitQuiet.Reading> r = new ArrayList<>();
        long jit = 0;
        r.add(new JitQuiet.Reading(0, jit));
        for (int i = 0; i < jitMillis.length; i++) {
            jit += jitMillis[i] * MS;
            r.add(new JitQuiet.Reading((i + 1) * SLICE, jit));
        }
        return r;
    }

    /** A made-up source of JIT work: the count in {@code counter[0]}. */
    private static JitActivity activity(long[] counter) {
        return new JitActivity("compiler CPU", () -> counter[0]);
    }

    @Test
    void aSliceIsQuietBelowTwoPercentOfItsWallTime() {
        JitQuiet.Reading start = new JitQuiet.Reading(0, 100 * MS);
        assertTrue(JitQuiet.quiet(start, new JitQuiet.Reading(SLICE, 105 * MS - 1)), "just under 5 ms in 250");
        assertFalse(JitQuiet.quiet(start, new JitQuiet.Reading(SLICE, 105 * MS)), "5 ms in 250");
        assertTrue(JitQuiet.quiet(start, new JitQuiet.Reading(SLICE, 100 * MS)), "none");
        assertFalse(JitQuiet.quiet(start, new JitQuiet.Reading(SLICE / 10, 101 * MS)), "1 ms in 25");
    }

    @Test
    void quietAfterTwoQuietSlicesInARow() {
        assertEquals(JitQuiet.State.QUIET, JitQuiet.judge(slices(80, 40, 3, 0), 2, BOUND));
        assertEquals(JitQuiet.State.QUIET, JitQuiet.judge(slices(0, 0), 2, BOUND));
    }

    @Test
    void oneQuietSliceIsNotEnough() {
        assertEquals(JitQuiet.State.RUNNING, JitQuiet.judge(slices(80, 40, 3), 2, BOUND));
        assertEquals(JitQuiet.State.RUNNING, JitQuiet.judge(slices(0), 1, BOUND));
        assertEquals(JitQuiet.State.RUNNING, JitQuiet.judge(slices(0, 30, 0), 2, BOUND), "not in a row");
        assertEquals(JitQuiet.State.RUNNING, JitQuiet.judge(slices(), 1, BOUND), "no slice yet");
    }

    @Test
    void notQuietBeforeOneSliceOfEachKindRan() {
        assertEquals(JitQuiet.State.RUNNING, JitQuiet.judge(slices(0, 0, 0), 4, BOUND));
        assertEquals(JitQuiet.State.QUIET, JitQuiet.judge(slices(0, 0, 0, 0), 4, BOUND));
    }

    @Test
    void theBoundEndsAWarmUpThatNeverGoesQuiet() {
        assertEquals(JitQuiet.State.RUNNING, JitQuiet.judge(slices(9, 9, 9), 2, 4 * SLICE));
        assertEquals(JitQuiet.State.BOUND, JitQuiet.judge(slices(9, 9, 9, 9), 2, 4 * SLICE));
        assertEquals(JitQuiet.State.QUIET, JitQuiet.judge(slices(9, 9, 0, 0), 2, 4 * SLICE), "quiet at the bound");
        assertEquals(JitQuiet.State.BOUND, JitQuiet.judge(slices(0, 0, 0), 4, 3 * SLICE),
                "bound before a full cycle");
    }

    /**
     * The loop over a clock that a slice advances by its length and a compiler that compiles 40 ms in
     * each of the first five slices, then nothing: quiet after the seventh, every slice in turn.
     */
    @Test
    void theLoopRunsEachSliceInTurnUntilQuiet() throws Exception {
        long[] now = {1_000};
        long[] compiled = {500 * MS};
        List<Integer> ran = new ArrayList<>();
        JitQuiet.Outcome o = JitQuiet.warmUp((index, nanos) -> {
            assertEquals(SLICE, nanos);
            ran.add(index);
            now[0] += nanos;
            if (ran.size() <= 5) {
                compiled[0] += 40 * MS;
            }
        }, 3, BOUND, () -> now[0], activity(compiled));
        assertEquals(List.of(0, 1, 2, 0, 1, 2, 0), ran);
        assertEquals(JitQuiet.State.QUIET, o.state());
        assertEquals(7, o.slices());
        assertEquals(7 * SLICE, o.nanos());
        assertEquals(0, o.windowJitNanos());
        assertEquals(2 * SLICE, o.windowNanos());
        assertEquals("JIT quiet (compiler CPU 0 ms in the last 0.50 s)", o.describe());
    }

    @Test
    void theLoopStopsAtTheBoundAndSlicesNoLongerThanIt() throws Exception {
        long[] now = {0};
        long[] compiled = {0};
        List<Long> lengths = new ArrayList<>();
        JitQuiet.Outcome o = JitQuiet.warmUp((index, nanos) -> {
            lengths.add(nanos);
            now[0] += nanos;
            compiled[0] += 10 * MS;
        }, 2, 3 * SLICE, () -> now[0], activity(compiled));
        assertEquals(JitQuiet.State.BOUND, o.state());
        assertEquals(List.of(SLICE, SLICE, SLICE), lengths);
        assertEquals("JIT not quiet at the bound (compiler CPU 20 ms in the last 0.50 s)", o.describe());

        lengths.clear();
        o = JitQuiet.warmUp((index, nanos) -> {
            lengths.add(nanos);
            now[0] += nanos;
        }, 2, 10_000_000L, () -> now[0], activity(compiled));
        assertEquals(JitQuiet.State.BOUND, o.state());
        assertEquals(List.of(10_000_000L), lengths, "one slice of the bound's length");
    }

    @Test
    void aJvmWithoutCompilationTimeIsNotWaitedFor() throws Exception {
        JitQuiet.Outcome o = JitQuiet.warmUp((index, nanos) -> {
            throw new AssertionError("no slice runs");
        }, 2, BOUND, System::nanoTime, null);
        assertEquals(JitQuiet.State.UNSUPPORTED, o.state());
        assertEquals(0, o.slices());
        assertEquals("JIT not waited for: this JVM shows no compiler work", o.describe());
    }
}
