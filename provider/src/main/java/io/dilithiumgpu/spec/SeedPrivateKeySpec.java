package io.dilithiumgpu.spec;

import javax.security.auth.Destroyable;
import java.security.spec.KeySpec;
import java.util.Arrays;
import java.util.Objects;

/**
 * A private key as the 32-byte seed it is generated from (ξ of FIPS 204 Algorithm 6, or ζ of round
 * 3.1 key generation) with the name of its parameter set. The {@code DilithiumGPU} KeyFactory expands
 * it into the full key, and produces it for keys whose seed is known.
 *
 * <p>The seed is copied in and out; {@link #destroy()} zeroes the spec's copy. Not thread-safe
 * against a concurrent {@code destroy}.
 */
public final class SeedPrivateKeySpec implements KeySpec, Destroyable {
    private final String parameterSet;
    private final byte[] seed;
    private boolean destroyed;

    public SeedPrivateKeySpec(String parameterSet, byte[] seed) {
        this.parameterSet = Objects.requireNonNull(parameterSet, "parameterSet");
        this.seed = Objects.requireNonNull(seed, "seed").clone();
    }

    public String getParameterSet() { return parameterSet; }

    /**
     * The seed; a fresh copy the caller should wipe.
     *
     * @throws IllegalStateException after {@link #destroy()}
     */
    public byte[] getSeed() {
        if (destroyed) {
            throw new IllegalStateException("key spec is destroyed");
        }
        return seed.clone();
    }

    @Override
    public void destroy() {
        destroyed = true;
        Arrays.fill(seed, (byte) 0);
    }

    @Override
    public boolean isDestroyed() { return destroyed; }
}
