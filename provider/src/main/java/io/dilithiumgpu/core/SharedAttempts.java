package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.ParameterSet.MU_BYTES;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * One signature's rejection loop, shared by its caller and idle helper threads
 * ({@link SigningHelpers}): each takes the next attempt number from a counter, and the signature
 * is that of the lowest-numbered attempt that passes, exactly the one the loop on one thread
 * would return. Attempts are independent given the key, μ and ρ″ (attempt i masks with
 * ExpandMask(ρ″, i·ℓ)), so a loop of four or five attempts on average runs in about two
 * attempts' time on three threads.
 *
 * <p>The caller never waits on a helper for long: once an attempt has passed, it checks that
 * every earlier attempt has ended, waits at most about one attempt's time for one still running,
 * and then runs it itself (the same attempt gives the same result on any thread). Helpers give
 * up an attempt once an earlier one has passed, and leave when the caller has returned.
 *
 * <p>Secrets: the helpers read ŝ1, ŝ2, t̂0 and ρ″ from the caller's workspace, so the workspace is
 * wiped and returned to its pool by whoever leaves last, the caller or a helper; each helper wipes
 * its own. The passing attempt's signature, public, is packed into this object's buffer.
 */
final class SharedAttempts {
    private static final long DEFAULT_PATIENCE_NANOS = 100_000;
    /** Signatures whose loop helpers joined. */
    static final LongAdder SHARED = new LongAdder();
    /** Attempts helpers ran to their end for them. */
    static final LongAdder HELPED = new LongAdder();
    private final ParameterSet p;
    /** The caller's workspace: ŝ1, ŝ2, t̂0 and ρ″, read by every thread; the caller's temporaries. */
    private final Workspace secrets;
    private final int[] matrix;
    private final byte[] mu = new byte[MU_BYTES];
    private final AtomicInteger next = new AtomicInteger();
    /** One bit per attempt that has ended, passed or not. */
    private final AtomicLongArray ended = new AtomicLongArray((Scheme.MAX_SIGN_ATTEMPTS + 63) / 64);
    /** The lowest attempt that passed so far, or {@link Scheme#MAX_SIGN_ATTEMPTS}. */
    private volatile int passed = Scheme.MAX_SIGN_ATTEMPTS;
    /** Its signature, packed under this object's lock. */
    private final byte[] signature;
    /** Set when the caller has returned: helpers leave. */
    private volatile boolean over;
    /** The caller and each helper that joined, until it leaves; the last one out wipes {@link #secrets}. */
    private final AtomicInteger holders = new AtomicInteger(1);

    private SharedAttempts(ParameterSet p, Workspace secrets, int[] matrix, byte[] mu, int muOff) {
        this.p = p;
        this.secrets = secrets;
        this.matrix = matrix;
        System.arraycopy(mu, muOff, this.mu, 0, MU_BYTES);
        this.signature = new byte[p.signatureBytes()];
    }

    /**
     * Offers the loop of a signature whose secrets and ρ″ are in {@code ws} to up to
     * {@code helpers} idle helpers; null when none is idle (the caller runs the loop alone, as
     * before). From a non-null return on, {@code ws} belongs to the shared loop: the caller
     * {@link #leave}s instead of wiping it.
     */
    static SharedAttempts start(ParameterSet p, Workspace ws, int[] matrix, byte[] mu, int muOff, int helpers) {
        SigningHelpers pool = SigningHelpers.shared();
        if (!pool.anyIdle()) {
            return null;
        }
        SharedAttempts shared = new SharedAttempts(p, ws, matrix, mu, muOff);
        if (pool.offer(shared, helpers) == 0) {
            return null;
        }
        SHARED.increment();
        return shared;
    }

    /** Counts a helper in, before it is handed this loop (by the caller, before its own part). */
    void join() {
        holders.incrementAndGet();
    }

    /** Whether an attempt numbered below {@code attempt} has passed, or the caller has returned. */
    boolean passedBefore(int attempt) {
        return over || passed < attempt;
    }

    /**
     * Runs attempts on a helper's own workspace {@code ws} until the loop is decided or the
     * caller returns; then {@link #leave}s.
     */
    void help(Workspace ws) {
        try {
            int a;
            while (!over && (a = next.getAndIncrement()) < passed) {
                if (!run(ws, a)) {
                    return;
                }
                HELPED.increment();
            }
        } finally {
            leave();
        }
    }

    /**
     * The caller's part: attempts in turn with the helpers until one has passed and every
     * earlier one has ended; then the signature into {@code sig}.
     *
     * @return false when every attempt up to {@link Scheme#MAX_SIGN_ATTEMPTS} was rejected
     */
    boolean runAsCaller(byte[] sig, int sigOff) {
        try {
            long attemptNanos = 0;
            int own = 0;
            int a;
            while ((a = next.getAndIncrement()) < passed) {
                long t0 = System.nanoTime();
                run(secrets, a);
                attemptNanos += System.nanoTime() - t0;
                own++;
            }
            // Every attempt below the lowest that passed must have ended: some may still be running
            // on helpers. Wait about one attempt's time for each (the caller's own mean, or a level-5
            // attempt's on a slow core when the helpers took them all), then run it here.
            long patience = own == 0 ? DEFAULT_PATIENCE_NANOS : attemptNanos / own;
            for (a = 0; a < passed; a++) {
                if (hasEnded(a)) {
                    continue;
                }
                long until = System.nanoTime() + patience;
                while (!hasEnded(a) && System.nanoTime() - until < 0) {
                    Thread.onSpinWait();
                }
                if (!hasEnded(a)) {
                    run(secrets, a);
                }
            }
        } finally {
            // Decided, or failed: either way the helpers stop taking attempts.
            over = true;
        }
        if (passed >= Scheme.MAX_SIGN_ATTEMPTS) {
            return false;
        }
        synchronized (this) {
            System.arraycopy(signature, 0, sig, sigOff, signature.length);
        }
        return true;
    }

    /**
     * Runs attempt {@code a} on {@code ws} and records how it ended; false when it was given up
     * (an earlier attempt passed meanwhile).
     */
    private boolean run(Workspace ws, int a) {
        int result = Scheme.attempt(p, secrets, ws, matrix, mu, 0, a, this);
        if (result == Scheme.ABANDONED) {
            return false;
        }
        if (result == Scheme.ACCEPTED) {
            synchronized (this) {
                if (a < passed) {
                    Scheme.packSignature(p, ws, signature, 0);
                    passed = a;
                }
            }
        }
        int word = a >>> 6;
        long bit = 1L << (a & 63);
        ended.getAndAccumulate(word, bit, (x, y) -> x | y);
        return true;
    }

    private boolean hasEnded(int a) {
        return (ended.get(a >>> 6) & (1L << (a & 63))) != 0;
    }

    /** The caller or a helper is done with the loop; the last one out wipes the caller's workspace. */
    void leave() {
        if (holders.decrementAndGet() == 0) {
            secrets.wipeSecrets(p);
            Scheme.WORKSPACES.release(secrets);
        }
    }

    /** The set signed, for the helpers' workspaces. */
    ParameterSet params() {
        return p;
    }
}
