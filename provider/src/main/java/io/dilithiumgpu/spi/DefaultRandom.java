package io.dilithiumgpu.spi;

import java.security.DrbgParameters;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The randomness used when the caller gives none (ML-DSA's hedged rnd, key seeds): NIST SP 800-90A
 * Hash_DRBG instances of the JDK ({@code SecureRandom.getInstance("DRBG")}) at 256-bit strength,
 * each seeded by the operating system, striped over threads and drawn in blocks.
 *
 * <p>Why striped: the platform default on Linux, NativePRNG, serves every instance from one
 * global object under one lock (and mixes in a SHA-1 PRNG). With thousands of callers signing at
 * once, that lock became the provider's bottleneck (on an H100 host, a JFR profile of 4,096
 * signing callers spent a fifth of its samples in {@code NativePRNG$RandomIO}). Each caller thread
 * starts at one of {@link #STRIPES} independent DRBGs, chosen by its thread id.
 *
 * <p>Why probing: a caller never waits for a stripe that another holds; it takes the next free one
 * ({@code tryLock}), and blocks only if it finds every stripe busy, which needs more threads inside
 * {@code nextBytes} at once than there are stripes. Waiting would be costly out of proportion:
 * with thousands of virtual-thread callers each hand-over of a contended lock waits for the next
 * waiter's thread to be scheduled (hundreds of microseconds on a busy host), so a stripe that
 * paused to refill its block gathered a queue that drained one wake-up at a time.
 *
 * <p>Why blocks: every {@code nextBytes} call of a Hash_DRBG pays for its state update (SHA-256
 * and big-number additions) however few bytes it returns; drawing 32 bytes per signature, that
 * fixed cost showed in profiles of many callers (docs/performance.md). A stripe draws
 * {@value #BLOCK_BYTES} bytes at a time and hands them out in order, zeroing each part as it
 * leaves, so no byte is handed out twice and none lingers after use.
 *
 * <p>The SPIs and the asynchronous API ({@code io.dilithiumgpu.DilithiumGpu}) use it when the caller
 * gives no {@code SecureRandom}.
 *
 * <p>Stripes are made on first use with a compare-and-set rather than in a holder class: a
 * virtual thread that meets a class initialization in progress waits for it pinned to its carrier.
 * The stripe's lock is a {@link ReentrantLock}, so a virtual thread waiting for it unmounts.
 */
public final class DefaultRandom {
    /** Independent DRBGs: enough that thousands of callers rarely meet on one. */
    static final int STRIPES = Math.max(8, Integer.highestOneBit(Runtime.getRuntime().availableProcessors()) * 4);
    /** Bytes a stripe draws from its DRBG at once. */
    static final int BLOCK_BYTES = 1024;

    private static final AtomicReferenceArray<Stripe> STRIPED = new AtomicReferenceArray<>(STRIPES);

    private DefaultRandom() {}

    /** Fills {@code out} with fresh random bytes from the calling thread's stripe. */
    public static void nextBytes(byte[] out) {
        int home = (int) (Thread.currentThread().getId() & (STRIPES - 1));
        for (int i = 0; i < STRIPES; i++) {
            if (stripe((home + i) & (STRIPES - 1)).tryNext(out)) {
                return;
            }
        }
        stripe(home).next(out);
    }

    /** For tests: the lock of the stripe a thread of id {@code threadId} starts at. */
    static ReentrantLock homeLock(long threadId) {
        return stripe((int) (threadId & (STRIPES - 1))).lock;
    }

    /** Stripe {@code index}, made on first use. */
    private static Stripe stripe(int index) {
        Stripe stripe = STRIPED.get(index);
        if (stripe == null) {
            Stripe fresh = new Stripe(create());
            stripe = STRIPED.compareAndExchange(index, null, fresh);
            if (stripe == null) {
                stripe = fresh;
            }
        }
        return stripe;
    }

    private static SecureRandom create() {
        try {
            return SecureRandom.getInstance("DRBG",
                    DrbgParameters.instantiation(256, DrbgParameters.Capability.RESEED_ONLY, null));
        } catch (NoSuchAlgorithmException e) {
            // Every JDK since 9 has DRBG; a stripped runtime without it still gets a strong default.
            return new SecureRandom();
        }
    }

    /** One DRBG and the unread rest of its last block. */
    private static final class Stripe {
        private final ReentrantLock lock = new ReentrantLock();
        private final SecureRandom drbg;
        private final byte[] block = new byte[BLOCK_BYTES];
        private int position = BLOCK_BYTES;

        Stripe(SecureRandom drbg) {
            this.drbg = drbg;
        }

        /** Fills {@code out} unless another thread holds this stripe; true when it did. */
        boolean tryNext(byte[] out) {
            if (!lock.tryLock()) {
                return false;
            }
            try {
                fill(out);
            } finally {
                lock.unlock();
            }
            return true;
        }

        /** Fills {@code out}, waiting for this stripe if another thread holds it. */
        void next(byte[] out) {
            lock.lock();
            try {
                fill(out);
            } finally {
                lock.unlock();
            }
        }

        private void fill(byte[] out) {
            if (out.length > BLOCK_BYTES) {
                drbg.nextBytes(out);
                return;
            }
            if (BLOCK_BYTES - position < out.length) {
                drbg.nextBytes(block);
                position = 0;
            }
            System.arraycopy(block, position, out, 0, out.length);
            Arrays.fill(block, position, position + out.length, (byte) 0);
            position += out.length;
        }
    }
}
