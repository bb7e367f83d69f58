package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunsTest {

    /** Records the order of calls; its check fails on run number {@code failOn} (1-based), if any. */
    private static class Recorder implements Runs.TimedBatch {
        final List<String> calls = new ArrayList<>();
        final int failOn;
        int runs;

        Recorder(int failOn) {
            this.failOn = failOn;
        }

        @Override
        public void prepare() {
            calls.add("prepare");
        }

        @Override
        public void run() {
            runs++;
            calls.add("run");
        }

        @Override
        public void check() throws WrongResultException {
            calls.add("check");
            if (runs == failOn) {
                throw new WrongResultException("wrong on run " + runs);
            }
        }
    }

    @Test
    void everyRunIsPreparedAndCheckedAndOnlyTimedRunsAreReported() throws WrongResultException {
        Recorder r = new Recorder(0);
        double[] rates = Runs.measure(r, 1000, 2, 3);
        assertEquals(3, rates.length);
        for (double rate : rates) {
            assertTrue(rate > 0, "rate " + rate);
        }
        assertEquals(5, r.runs);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            expected.addAll(List.of("prepare", "run", "check"));
        }
        assertEquals(expected, r.calls);
    }

    @Test
    void aWrongWarmupOrTimedRunStopsTheMeasurement() {
        WrongResultException e = assertThrows(WrongResultException.class, () -> Runs.measure(new Recorder(1), 10, 2, 3));
        assertEquals("wrong on run 1", e.getMessage());
        Recorder late = new Recorder(4);
        assertThrows(WrongResultException.class, () -> Runs.measure(late, 10, 2, 3));
        assertEquals(4, late.runs);
    }

    @Test
    void atLeastOneTimedRun() {
        assertThrows(IllegalArgumentException.class, () -> Runs.measure(new Recorder(0), 10, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> Runs.measure(new Recorder(0), 10, -1, 1));
    }

    @Test
    void theWarmUpLastsAtLeastItsRunsAndItsTime() throws WrongResultException {
        Recorder quick = new Recorder(0);
        assertEquals(3, Runs.warmUp(quick, 3, 0));
        assertEquals(3, quick.runs);

        // Each run takes 5 ms of a clock that only the runs advance: 40 ms take 8 runs, 3 ms 2.
        long[] now = {0};
        Recorder timed = new Recorder(0) {
            @Override
            public void run() {
                super.run();
                now[0] += 5_000_000;
            }
        };
        assertEquals(8, Runs.warmUp(timed, 2, 40_000_000, () -> now[0]));
        assertEquals(8, timed.runs);
        Recorder counted = new Recorder(0) {
            @Override
            public void run() {
                super.run();
                now[0] += 5_000_000;
            }
        };
        assertEquals(2, Runs.warmUp(counted, 2, 3_000_000, () -> now[0]), "the runs outlast the time");

        Recorder none = new Recorder(0);
        assertEquals(0, Runs.warmUp(none, 0, 40_000_000));
        double[] rates = Runs.measure(none, 10, 0, 40_000_000, 2);
        assertEquals(2, rates.length);
        assertEquals(2, none.runs, "--warmup 0 means no warm-up, whatever its time");
    }
}
