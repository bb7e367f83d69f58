package io.dilithiumgpu.batch;

/**
 * When a lane's queued requests become a batch: the adaptive rule of the batcher, in one place.
 *
 * <p>A batch is handed to the backend only while fewer than {@code maxInFlight} batches run (a
 * free slot). Given a free slot, a non-empty lane is <em>ready</em> when any of these holds:
 * <ol>
 *   <li><b>full</b>: it holds at least its largest batch ({@link Lane#maxBatch});</li>
 *   <li><b>due</b>: its oldest request has waited {@code maxDelay};</li>
 *   <li><b>hungry</b>: fewer than half of {@code maxInFlight} batches run, over all lanes (at
 *       least: none runs). A lone request on an idle provider thus goes at once, and the backend
 *       is kept fed: when batches return faster than {@code maxDelay} passes, the next forms as
 *       soon as one returns rather than when its oldest request falls due. It counts the whole
 *       provider's batches, not the lane's: with many lanes in use (every operation and set of a
 *       mixed load) some lane is almost always without a running batch, and a per-lane rule would
 *       send single requests into a busy backend;</li>
 *   <li><b>backlog</b>: the queue is at capacity, so callers are blocked and waiting longer
 *       cannot make batches larger;</li>
 *   <li><b>draining</b>: the batcher is closing.</li>
 * </ol>
 * Of the ready lanes, the one whose oldest request is oldest goes first, so no lane starves. Under
 * load every slot is busy, requests pile up while batches run, and each freed slot takes a full
 * (or nearly full) batch: batch size grows with load, and {@code maxDelay} bounds the wait a
 * request adds when the backend is busy but not saturated.
 *
 * <p>Pure and stateless: the batcher calls it under its lock with the current state.
 */
final class DispatchPolicy {
    private final long maxDelayNanos;
    private final int maxInFlight;
    /** Batches in flight below which the backend is hungry: half of maxInFlight, at least 1. */
    private final int hungryBelow;
    private final int queueCapacity;

    DispatchPolicy(long maxDelayNanos, int maxInFlight, int queueCapacity) {
        this.maxDelayNanos = maxDelayNanos;
        this.maxInFlight = maxInFlight;
        this.hungryBelow = Math.max(1, maxInFlight / 2);
        this.queueCapacity = queueCapacity;
    }

    /**
     * The lane to dispatch now, or null to wait.
     *
     * @param now      {@link System#nanoTime()}
     * @param inFlight batches running, over all lanes
     * @param queued   requests queued, over all lanes
     * @param draining true once the batcher is closing
     */
    Lane next(Lane[] lanes, long now, int inFlight, int queued, boolean draining) {
        if (inFlight >= maxInFlight) {
            return null;
        }
        boolean backlog = queued >= queueCapacity;
        Lane pick = null;
        for (Lane lane : lanes) {
            if (lane.isEmpty()) {
                continue;
            }
            boolean ready = draining || backlog
                    || inFlight < hungryBelow
                    || lane.size() >= lane.maxBatch
                    || now - lane.oldestNanos() >= maxDelayNanos;
            if (ready && (pick == null || lane.oldestNanos() - pick.oldestNanos() < 0)) {
                pick = lane;
            }
        }
        return pick;
    }

    /**
     * Nanoseconds until the next non-empty lane becomes due, at least 1; {@link Long#MAX_VALUE}
     * when every lane is empty.
     */
    long nanosUntilDue(Lane[] lanes, long now) {
        long wait = Long.MAX_VALUE;
        for (Lane lane : lanes) {
            if (!lane.isEmpty()) {
                wait = Math.min(wait, Math.max(1, lane.oldestNanos() + maxDelayNanos - now));
            }
        }
        return wait;
    }

    int maxInFlight() {
        return maxInFlight;
    }
}
