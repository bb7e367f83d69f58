package io.dilithiumgpu.route;

/**
 * One signing engine's cost per signature over its recent calls, for choosing between this
 * provider's core and the JDK's ML-DSA ({@link RouteChoice#preferJdk}): the mean time of its last
 * {@value #BUCKETS} buckets of {@value #BUCKET} signatures and of the bucket filling now.
 *
 * <p>Why a plain mean over about a hundred calls, where {@link Estimate} weights the last few: a
 * signature's time follows its rejection loop (about four attempts on average, often one, now and
 * then a dozen) and takes whatever collection or preemption lands in it. An average weighted to
 * the last eight calls swings by tens of percent from call to call, so that two engines a third
 * apart looked alike and took the calls in turns. A mean of a hundred varies by several percent,
 * and it charges an engine the collections its allocations cause, which are its cost.
 *
 * <p>A bucket whose mean is more than {@value #SHIFT_FACTOR} times the newest full bucket's, or
 * less than its share, is dropped when that one fills: the engine's code was cold then, or the host
 * was busier, and it says nothing of the engine now.
 *
 * <p>Thread-safe; a sample costs an uncontended lock at the rate of direct signatures.
 */
final class EngineCost {
    /** Signatures per bucket. */
    static final int BUCKET = 32;
    /** Full buckets kept. */
    static final int BUCKETS = 4;
    /** Signatures measured before the cost is known. */
    static final int MIN_SAMPLES = 16;
    /** How far apart two buckets' means are for the older to be dropped. */
    static final int SHIFT_FACTOR = 2;

    /** Sums of the full buckets, newest last; 0 for none. */
    private final long[] full = new long[BUCKETS];
    private int fullCount;
    private long sum;
    private int count;

    /** Adds one signature's time. */
    synchronized void add(long nanos) {
        sum += Math.max(1, nanos);
        if (++count < BUCKET) {
            return;
        }
        // Older buckets far from the new one's mean go; the rest shift down and the new one is kept.
        int kept = 0;
        long[] next = new long[BUCKETS];
        for (int i = Math.max(0, fullCount - (BUCKETS - 1)); i < fullCount; i++) {
            long b = full[i];
            if (b <= SHIFT_FACTOR * sum && sum <= SHIFT_FACTOR * b) {
                next[kept++] = b;
            }
        }
        next[kept++] = sum;
        System.arraycopy(next, 0, full, 0, BUCKETS);
        fullCount = kept;
        sum = 0;
        count = 0;
    }

    /** The mean time per signature, or {@link RouteChoice#UNKNOWN} before {@value #MIN_SAMPLES} signatures. */
    synchronized long nanos() {
        int n = count + fullCount * BUCKET;
        if (n < MIN_SAMPLES) {
            return RouteChoice.UNKNOWN;
        }
        long total = sum;
        for (int i = 0; i < fullCount; i++) {
            total += full[i];
        }
        return Math.max(1, total / n);
    }

    /** Signatures in the mean now. */
    synchronized int samples() {
        return count + fullCount * BUCKET;
    }
}
