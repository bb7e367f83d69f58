package io.dilithiumgpu.route;

import java.util.Arrays;

/**
 * One signing engine's cost per signature over its recent calls, for choosing between this
 * provider's core and the JDK's ML-DSA ({@link RouteChoice#preferJdk}): the median of the means of
 * its last {@value #BUCKETS} buckets of {@value #BUCKET} signatures (before the first bucket fills,
 * the mean of the signatures so far); and whether that cost is current beside the other engine's
 * ({@link #currentBeside}).
 *
 * <p>Why means of buckets, where {@link Estimate} weights the last few calls: a signature's time
 * follows its rejection loop (about four attempts on average, often one, now and then a dozen), so
 * an average weighted to the last eight calls swung by tens of percent from call to call, and two
 * engines a third apart looked alike and took the calls in turns. A bucket's mean varies by about a
 * sixth. Why their median: a collection that holds every signature in flight for milliseconds
 * lands in one engine's bucket, the engine in use's, whose buckets fill fastest; in a mean of the
 * buckets it doubled that engine's cost and handed the calls to the slower one until the bucket
 * left. The median passes over a bucket or two like it; collections frequent enough to slow most
 * buckets of an engine still count against it.
 *
 * <p>When a bucket fills at less than half the mean of an older one, the older one is dropped: the
 * engine's code was cold then (not compiled yet), and it says nothing of the engine now.
 *
 * <p>The cost of the engine not in use is current while its last bucket is recent, and began no
 * earlier than the engine in use first dropped a cold one (since it was made or {@link #reset}):
 * the JIT that was compiling the one engine may have been compiling the other's code too, or
 * holding a core from it. Only the first: later, a bucket dropped so is mostly one a collection
 * held (at four callers every pause did, and each time the engine passed over was measured again,
 * a bucket of its slower signatures), and the other's cost is measured again within a second
 * anyway.
 *
 * <p>Thread-safe. A sample takes a lock; the cost is read without one (it is worked out as a
 * bucket fills, and read at the start of every signature the JDK covers).
 */
final class EngineCost {
    /** Signatures per bucket. */
    static final int BUCKET = 32;
    /** Full buckets kept. */
    static final int BUCKETS = 5;
    /** Signatures measured before the cost is known. */
    static final int MIN_SAMPLES = 16;
    /** How many times slower an older bucket is than a new one for the older to be dropped. */
    static final int COLD_FACTOR = 2;

    /** Sums of the full buckets, oldest first. */
    private final long[] full = new long[BUCKETS];
    private int fullCount;
    private long sum;
    private int count;
    /** When the first signature of the bucket filling ended. */
    private long startedAt;
    /** {@link #nanos()}'s answer, as of the last sample. */
    private volatile long cost = RouteChoice.UNKNOWN;
    /** When the last bucket filled and when its first signature ended, once {@link #filled}. */
    private volatile long filledAt;
    private volatile long filledFrom;
    private volatile boolean filled;
    /** When a filling bucket first dropped older ones as cold, once {@link #droppedCold}. */
    private volatile long droppedColdAt;
    private volatile boolean droppedCold;

    /** Adds one signature's time, ended at {@code now} (nanoseconds, as {@link System#nanoTime()}). */
    synchronized void add(long nanos, long now) {
        sum += Math.max(1, nanos);
        if (count == 0) {
            startedAt = now;
        }
        if (++count < BUCKET) {
            if (fullCount == 0 && count >= MIN_SAMPLES) {
                cost = Math.max(1, sum / count);
            }
            return;
        }
        int kept = 0;
        long[] next = new long[BUCKETS];
        int first = Math.max(0, fullCount - (BUCKETS - 1));
        for (int i = first; i < fullCount; i++) {
            if (full[i] <= COLD_FACTOR * sum) {
                next[kept++] = full[i];
            }
        }
        boolean cold = kept < fullCount - first;
        next[kept++] = sum;
        System.arraycopy(next, 0, full, 0, BUCKETS);
        fullCount = kept;
        sum = 0;
        count = 0;
        long[] sums = Arrays.copyOf(full, fullCount);
        Arrays.sort(sums);
        // The lower middle of an even count: a slow bucket does not move it.
        cost = Math.max(1, sums[(fullCount - 1) / 2] / BUCKET);
        filledAt = now;
        filledFrom = startedAt;
        filled = true;
        if (cold && !droppedCold) {
            droppedColdAt = now;
            droppedCold = true;
        }
    }

    /**
     * Whether this engine's cost is current beside {@code inUse}, the engine that signed while this
     * one did not: a bucket of this one filled at {@code now - maxAgeNanos} or later, of signatures
     * that ended no earlier than {@code inUse} first dropped a bucket as cold (since it was made or reset).
     */
    boolean currentBeside(EngineCost inUse, long now, long maxAgeNanos) {
        return filled && now - filledAt <= maxAgeNanos
                && (!inUse.droppedCold || filledFrom - inUse.droppedColdAt >= 0);
    }

    /**
     * Forgets every signature: the load has fallen from beyond the cores to within them, and what
     * was measured while the cores were full (or while the calls went to the batcher and the
     * engines' code went cold) says nothing of the engine now. Both engines are then measured
     * again, {@value #MIN_SAMPLES} signatures each, before the choice is made by their costs.
     */
    synchronized void reset() {
        Arrays.fill(full, 0);
        fullCount = 0;
        sum = 0;
        count = 0;
        cost = RouteChoice.UNKNOWN;
        filled = false;
        droppedCold = false;
    }

    /** The cost per signature, or {@link RouteChoice#UNKNOWN} before {@value #MIN_SAMPLES} signatures. */
    long nanos() {
        return cost;
    }

    /** Signatures in the full buckets and the one filling. */
    synchronized int samples() {
        return count + fullCount * BUCKET;
    }
}
