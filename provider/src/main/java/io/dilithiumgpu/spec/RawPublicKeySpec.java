package io.dilithiumgpu.spec;

import java.security.spec.KeySpec;
import java.util.Objects;

/**
 * A public key as its raw bytes pk = ρ ‖ t1 (FIPS 204 Algorithm 22, pkEncode; round 3.1
 * {@code pack_pk}) with the name of its parameter set ({@code ML-DSA-65}, {@code Dilithium3}, ...).
 * Accepted and produced by the {@code DilithiumGPU} KeyFactory. Immutable; the key is copied in and out.
 */
public final class RawPublicKeySpec implements KeySpec {
    private final String parameterSet;
    private final byte[] key;

    public RawPublicKeySpec(String parameterSet, byte[] key) {
        this.parameterSet = Objects.requireNonNull(parameterSet, "parameterSet");
        this.key = Objects.requireNonNull(key, "key").clone();
    }

    public String getParameterSet() { return parameterSet; }

    /** The raw public key; a fresh copy. */
    public byte[] getKey() { return key.clone(); }
}
