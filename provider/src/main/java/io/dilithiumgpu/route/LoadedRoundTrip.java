package io.dilithiumgpu.route;

/**
 * The batch route's round trip while it carries the calls, for one operation and set: the average
 * of the batched calls that ended while the rule sent calls to the batcher (not the lone refreshes
 * taken while the calls ran direct, nor the calls that ran while direct calls filled the cores:
 * {@code Router.carried}), with the calls in flight when it was last measured. It tells
 * the rule what the batcher costs at that load, which neither the floor of the route's round trips
 * (a small batch on idle cores) nor their plain average (mostly refreshes that waited for a core
 * among the direct calls) does.
 *
 * <p>Forgotten {@value #MAX_AGE_MILLIS} ms after its last sample, so that a cost measured while
 * the GPU or the JIT was cold, or at another load, is measured again. Updates may race; a
 * measurement needs no more.
 */
final class LoadedRoundTrip {
    /** How long a measurement holds without a new sample. */
    static final long MAX_AGE_MILLIS = 1_000;
    private static final long MAX_AGE_NANOS = MAX_AGE_MILLIS * 1_000_000;

    private volatile Estimate estimate = new Estimate();
    private volatile int load;
    private volatile long measuredAt;
    /** Whether the rule's last decision sent the calls to the batcher. */
    private volatile boolean chosen;

    /** Whether the rule's last decision for this operation and set was the batcher. */
    boolean chosen() {
        return chosen;
    }

    /** Records the rule's decision. */
    void chose(boolean batch) {
        if (chosen != batch) {
            chosen = batch;
        }
    }

    /** Adds a batched call's round trip that ended at {@code now} with {@code inFlight} calls in flight. */
    void add(long nanos, long now, int inFlight) {
        // Only with a sample the estimate took: every batched call writing here made the callers of
        // a loaded batcher contend for these fields.
        if (estimate.add(nanos, now)) {
            load = inFlight;
            measuredAt = now;
        }
    }

    /** The round trip while carrying the calls, or {@link RouteChoice#UNKNOWN} (never, or too long ago). */
    long nanos(long now) {
        if (measuredAt != 0 && now - measuredAt > MAX_AGE_NANOS) {
            estimate = new Estimate();
            measuredAt = 0;
        }
        return measuredAt == 0 ? RouteChoice.UNKNOWN : estimate.nanos();
    }

    /** The calls in flight at the last sample. */
    int load() {
        return load;
    }
}
