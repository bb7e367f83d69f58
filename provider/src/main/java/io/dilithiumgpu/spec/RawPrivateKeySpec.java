package io.dilithiumgpu.spec;

import javax.security.auth.Destroyable;
import java.security.spec.KeySpec;
import java.util.Arrays;
import java.util.Objects;

/**
 * A private key as its expanded bytes sk = ρ ‖ K ‖ tr ‖ s1 ‖ s2 ‖ t0 (FIPS 204 Algorithm 24, skEncode;
 * round 3.1 {@code pack_sk}) with the name of its parameter set. Accepted and produced by the
 * {@code DilithiumGPU} KeyFactory.
 *
 * <p>The key is copied in and out; {@link #destroy()} zeroes the spec's copy. Not thread-safe
 * against a concurrent {@code destroy}.
 */
public final class RawPrivateKeySpec implements KeySpec, Destroyable {
    private final String parameterSet;
    private final byte[] key;
    private boolean destroyed;

    public RawPrivateKeySpec(String parameterSet, byte[] key) {
        this.parameterSet = Objects.requireNonNull(parameterSet, "parameterSet");
        this.key = Objects.requireNonNull(key, "key").clone();
    }

    public String getParameterSet() { return parameterSet; }

    /**
     * The expanded private key; a fresh copy the caller should wipe.
     *
     * @throws IllegalStateException after {@link #destroy()}
     */
    public byte[] getKey() {
        if (destroyed) {
            throw new IllegalStateException("key spec is destroyed");
        }
        return key.clone();
    }

    @Override
    public void destroy() {
        destroyed = true;
        Arrays.fill(key, (byte) 0);
    }

    @Override
    public boolean isDestroyed() { return destroyed; }
}
