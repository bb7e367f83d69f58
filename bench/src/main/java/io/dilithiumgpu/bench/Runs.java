package io.dilithiumgpu.bench;

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
     * @param tasks  operations one {@link TimedBatch#run()} performs
     * @param warmup runs done and checked but not timed, ≥ 0
     * @param runs   timed runs, ≥ 1
     * @return the throughput of each timed run in operations per second
     */
    static double[] measure(TimedBatch batch, int tasks, int warmup, int runs) throws WrongResultException {
        if (runs < 1 || warmup < 0) {
            throw new IllegalArgumentException("runs ≥ 1 and warmup ≥ 0 required: " + runs + ", " + warmup);
        }
        for (int i = 0; i < warmup; i++) {
            once(batch);
        }
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
