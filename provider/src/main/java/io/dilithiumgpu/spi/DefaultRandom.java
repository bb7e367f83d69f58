package io.dilithiumgpu.spi;

import java.security.DrbgParameters;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The randomness used when the caller gives none (ML-DSA's hedged rnd, key seeds): NIST SP 800-90A
 * Hash_DRBG instances of the JDK ({@code SecureRandom.getInstance("DRBG")}) at 256-bit strength,
 * each seeded by the operating system, striped over threads.
 *
 * <p>Why striped: the platform default on Linux, NativePRNG, serves every instance from one
 * global object under one lock (and mixes in a SHA-1 PRNG). With thousands of callers signing at
 * once, that lock became the provider's bottleneck (on an H100 host, a JFR profile of 4,096
 * signing callers spent a fifth of its samples in {@code NativePRNG$RandomIO}). A DRBG instance
 * also locks, but each caller thread maps to one of {@link #STRIPES} independent instances by its
 * thread id, so contention falls with the stripe count. Instances are made on first use of their
 * stripe, with a compare-and-set rather than a holder class: a virtual thread that meets a class
 * initialization in progress waits for it pinned to its carrier.
 */
final class DefaultRandom {
    /** Independent DRBGs: enough that thousands of callers rarely meet on one. */
    static final int STRIPES = Math.max(8, Integer.highestOneBit(Runtime.getRuntime().availableProcessors()) * 4);

    private static final AtomicReferenceArray<SecureRandom> STRIPED = new AtomicReferenceArray<>(STRIPES);

    private DefaultRandom() {}

    /** The DRBG of the calling thread's stripe. */
    static SecureRandom get() {
        int stripe = (int) (Thread.currentThread().getId() & (STRIPES - 1));
        SecureRandom r = STRIPED.get(stripe);
        if (r == null) {
            SecureRandom fresh = create();
            r = STRIPED.compareAndExchange(stripe, null, fresh);
            if (r == null) {
                r = fresh;
            }
        }
        return r;
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
}
