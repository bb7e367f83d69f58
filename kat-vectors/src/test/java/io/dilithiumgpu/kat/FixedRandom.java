package io.dilithiumgpu.kat;

import java.security.SecureRandom;

/**
 * A SecureRandom that answers exactly one {@code nextBytes} call, of exactly its bytes' length,
 * with its bytes; any other request is refused, so that a signer drawing its randomness otherwise
 * than the contract says (one call of 32 bytes for ML-DSA's rnd, 64 for round 3.1's ρ′) fails.
 */
final class FixedRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;
    private final byte[] bytes;
    private boolean drawn;

    FixedRandom(byte[] bytes) {
        this.bytes = bytes.clone();
    }

    @Override
    public synchronized void nextBytes(byte[] out) {
        if (drawn || out.length != bytes.length) {
            throw new IllegalStateException("asked for " + out.length + " bytes" + (drawn ? " again" : "")
                    + "; the one answer holds " + bytes.length);
        }
        drawn = true;
        System.arraycopy(bytes, 0, out, 0, out.length);
    }

    /** Whether the one answer was drawn. */
    synchronized boolean drawn() {
        return drawn;
    }
}
