package io.dilithiumgpu.spi;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The randomness used when the caller gives none: the platform's default {@code SecureRandom}
 * (NativePRNG or DRBG, seeded by the operating system), created on first use and shared; JDK
 * {@code SecureRandom}s are safe to share between threads.
 *
 * <p>Created with a compare-and-set, not in a holder class's static initializer: threads that
 * meet a class initialization in progress wait for it in the JVM, and a virtual thread waiting
 * there pins its carrier (the thread storm test saw it). Racing first callers may each build a
 * {@code SecureRandom}; one is kept and used by all.
 */
final class DefaultRandom {
    private static final AtomicReference<SecureRandom> SHARED = new AtomicReference<>();

    private DefaultRandom() {}

    static SecureRandom get() {
        SecureRandom shared = SHARED.get();
        if (shared == null) {
            SecureRandom fresh = new SecureRandom();
            shared = SHARED.compareAndExchange(null, fresh);
            if (shared == null) {
                shared = fresh;
            }
        }
        return shared;
    }
}
