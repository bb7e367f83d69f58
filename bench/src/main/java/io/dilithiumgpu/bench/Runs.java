package io.dilithiumgpu.bench;

import java.util.function.LongSupplier;

/**
 * Repeats a timed batch: warm-up runs, then measured runs. Every run, warm-up included, is
 * prepared and checked outside the timed region, so a run that produced wrong results never
 * contributes a number.
 */
final class Runs {
    private Runs() {}

    /** One batch of work. */
    interface TimedBatch {
        /** Untimed: resets the outputs its check will read, so results of an earlier run cannot pass for this one's. */
        void prepare();

        /** Timed: the work itself. */
        void run();

        /** Untimed: checks the outputs of the run just done. */
        void check() throws WrongResultException;
    }

    /** One untimed, checked run: a stage whose outputs a later stage needs but that is not measured. */
    static void once(TimedBatch batch) throws WrongResultException {
        batch.prepare();
        batch.run();
        batch.check();
    }

    /**
     * Untimed, checked runs until at least {@code minRuns} have run and at least {@code minNanos}
     * have passed since the first began; none at all when {@code minRuns} is 0. A host path that
     * is called a few times per run (the CUDA backend's chunk launches) is compiled by the JIT only
     * after thousands of calls: a count of runs alone can leave a fast stage's host path still slow.
     *
     * @return the runs done
     */
    static int warmUp(TimedBatch batch, int minRuns, long minNanos) throws WrongResultException {
        return warmUp(batch, minRuns, minNanos, System::nanoTime);
    }

    /** {@link #warmUp(TimedBatch, int, long)} on the given clock (nanoseconds). */
    static int warmUp(TimedBatch batch, int minRuns, long minNanos, LongSupplier clock) throws WrongResultException {
        if (minRuns < 0 || minNanos < 0) {
            throw new IllegalArgumentException("minRuns ≥ 0 and minNanos ≥ 0 required: " + minRuns + ", "
                    + minNanos);
        }
        if (minRuns == 0) {
            return 0;
        }
        long start = clock.getAsLong();
        int done = 0;
        while (done < minRuns || clock.getAsLong() - start < minNanos) {
            once(batch);
            done++;
        }
        return done;
    }

    /** {@link #measure(TimedBatch, int, int, long, int)} with a warm-up of {@code warmup} runs, however short. */
    static double[] measure(TimedBatch batch, int tasks, int warmup, int runs) throws WrongResultException {
        return measure(batch, tasks, warmup, 0, runs);
    }

    /**
     * @param tasks        operations one {@link TimedBatch#run()} performs
     * @param warmup       runs done and checked but not timed, ≥ 0
     * @param warmupNanos  the least time those runs take, unless there are none ({@link #warmUp})
     * @param runs         timed runs, ≥ 1
     * @return the throughput of each timed run in operations per second
     */
    static double[] measure(TimedBatch batch, int tasks, int warmup, long warmupNanos, int runs)
            throws WrongResultException {
        if (runs < 1 || warmup < 0 || warmupNanos < 0) {
            throw new IllegalArgumentException("runs ≥ 1, warmup ≥ 0 and warmupNanos ≥ 0 required: " + runs + ", "
                    + warmup + ", " + warmupNanos);
        }
        warmUp(batch, warmup, warmupNanos);
        double[] rates = new double[runs];
        for (int i = 0; i < runs; i++) {
            batch.prepare();
            long start = System.nanoTime();
            batch.run();
            long elapsed = System.nanoTime() - start;
            batch.check();
            rates[i] = Stats.opsPerSecond(tasks, elapsed);
        }
        return rates;
    }
}
