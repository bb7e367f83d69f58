package io.dilithiumgpu.route;

import java.util.Arrays;

/**
 * One signing engine's cost per signature over its recent calls, for choosing between this
 * provider's core and the JDK's ML-DSA ({@link RouteChoice#preferJdk}): the median of the means of
 * its last {@value #BUCKETS} buckets of {@value #BUCKET} signatures (before the first bucket fills,
 * the mean of the signatures so far).
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
    /** {@link #nanos()}'s answer, as of the last sample. */
    private volatile long cost = RouteChoice.UNKNOWN;

    /** Adds one signature's time. */
    synchronized void add(long nanos) {
        sum += Math.max(1, nanos);
        if (++count < BUCKET) {
            if (fullCount == 0 && count >= MIN_SAMPLES) {
                cost = Math.max(1, sum / count);
            }
            return;
        }
        int kept = 0;
        long[] next = new long[BUCKETS];
        for (int i = Math.max(0, fullCount - (BUCKETS - 1)); i < fullCount; i++) {
            if (full[i] <= COLD_FACTOR * sum) {
                next[kept++] = full[i];
            }
        }
        next[kept++] = sum;
        System.arraycopy(next, 0, full, 0, BUCKETS);
        fullCount = kept;
        sum = 0;
        count = 0;
        long[] sums = Arrays.copyOf(full, fullCount);
        Arrays.sort(sums);
        // The lower middle of an even count: a slow bucket does not move it.
        cost = Math.max(1, sums[(fullCount - 1) / 2] / BUCKET);
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
