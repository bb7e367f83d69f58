package io.dilithiumgpu.spi;

import java.security.SecureRandom;

/**
 * The randomness used when the caller gives none: the platform's default {@code SecureRandom}
 * (NativePRNG or DRBG, seeded by the operating system), created on first use and shared; JDK
 * {@code SecureRandom}s are safe to share between threads.
 */
final class DefaultRandom {
    private DefaultRandom() {}

    private static final class Holder {
        static final SecureRandom INSTANCE = new SecureRandom();
    }

    static SecureRandom get() { return Holder.INSTANCE; }
}
