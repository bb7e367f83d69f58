package io.dilithiumgpu.core;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Platform threads that take attempts of signatures in progress on their callers' threads
 * ({@link SharedAttempts}), so that a signature made while cores are idle ends in about two
 * attempts' time rather than four or five. Made on the first offer, one fewer than the
 * processors and at most {@value #MAX_THREADS}; daemons.
 *
 * <p>A helper that has finished a loop spins for {@value #SPIN_MICROS} µs before it parks: a
 * caller that signs again at once (one signature after another on one thread takes a few
 * microseconds between them) finds it running, where waking a parked thread costs tens of
 * microseconds, a large part of the attempt it would take. Helpers are offered only the cores that
 * the calls in flight leave idle (the router's count), so the spin takes no core from a caller.
 *
 * <p>Thread-safe: each helper is claimed by one offer at a time (a flag), handed its loop through
 * a volatile field, and unparked only when it parks.
 */
final class SigningHelpers {
    /** The most helper threads, whatever the processors. */
    static final int MAX_THREADS = 32;
    /**
     * The most helpers one signature takes. A helper is busy for the whole loop, working or
     * waiting for the next attempt number, so a signature costs about (1 + helpers) times its
     * time in CPU; the loop of three threads runs about two attempts against four or five on one
     * (ML-DSA-44), and a third helper would save about a seventh more for a third more CPU.
     */
    static final int MAX_PER_SIGNATURE = 2;
    static final long SPIN_MICROS = 100;
    private static final long SPIN_NANOS = SPIN_MICROS * 1_000;

    private static volatile SigningHelpers shared;

    private final Helper[] helpers;

    private SigningHelpers(int threads) {
        helpers = new Helper[threads];
        for (int i = 0; i < threads; i++) {
            helpers[i] = new Helper(i);
        }
        for (Helper h : helpers) {
            h.start();
        }
    }

    /** The process's helpers, made on the first call. */
    static SigningHelpers shared() {
        SigningHelpers s = shared;
        if (s == null) {
            synchronized (SigningHelpers.class) {
                s = shared;
                if (s == null) {
                    s = new SigningHelpers(Math.max(1, Math.min(MAX_THREADS,
                            Runtime.getRuntime().availableProcessors() - 1)));
                    shared = s;
                }
            }
        }
        return s;
    }

    /** Whether every helper is idle, each done with the loops it was handed (for the tests). */
    boolean allIdle() {
        for (Helper h : helpers) {
            if (h.claimed.get()) {
                return false;
            }
        }
        return true;
    }

    /** Whether some helper is idle now (racy: an offer may still find none). */
    boolean anyIdle() {
        for (Helper h : helpers) {
            if (!h.claimed.get()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Hands {@code loop} to up to {@code wanted} idle helpers (at most
     * {@value #MAX_PER_SIGNATURE}); returns how many took it.
     */
    int offer(SharedAttempts loop, int wanted) {
        int want = Math.min(wanted, MAX_PER_SIGNATURE);
        int given = 0;
        // Start where the caller's thread hashes to, so that concurrent offers claim different helpers first.
        int start = (int) (Thread.currentThread().getId() % helpers.length);
        for (int i = 0; i < helpers.length && given < want; i++) {
            Helper h = helpers[(start + i) % helpers.length];
            if (!h.claimed.get() && h.claimed.compareAndSet(false, true)) {
                loop.join();
                h.hand(loop);
                given++;
            }
        }
        return given;
    }

    private static final class Helper extends Thread {
        final AtomicBoolean claimed = new AtomicBoolean();
        private volatile SharedAttempts loop;
        private volatile boolean parked;

        Helper(int index) {
            super("dilithiumgpu-sign-helper-" + index);
            setDaemon(true);
        }

        void hand(SharedAttempts l) {
            loop = l;
            if (parked) {
                LockSupport.unpark(this);
            }
        }

        @Override
        public void run() {
            while (true) {
                SharedAttempts l = await();
                loop = null;
                Workspace ws = Scheme.WORKSPACES.acquire();
                try {
                    l.help(ws);
                } catch (RuntimeException | Error e) {
                    // Not expected; the caller runs any attempt left unfinished itself.
                } finally {
                    ws.wipeSecrets(l.params());
                    Scheme.WORKSPACES.release(ws);
                    claimed.set(false);
                }
            }
        }

        /** The next loop handed to this helper: spins a while, then parks. */
        private SharedAttempts await() {
            long until = System.nanoTime() + SPIN_NANOS;
            SharedAttempts l;
            while ((l = loop) == null && System.nanoTime() - until < 0) {
                Thread.onSpinWait();
            }
            while (l == null) {
                parked = true;
                l = loop;
                if (l == null) {
                    LockSupport.park(this);
                    // Nothing interrupts a helper on purpose; a stray interrupt must not turn park into a spin.
                    Thread.interrupted();
                    l = loop;
                }
                parked = false;
            }
            return l;
        }
    }
}
