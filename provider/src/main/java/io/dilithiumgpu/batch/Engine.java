package io.dilithiumgpu.batch;

import io.dilithiumgpu.core.ParameterSet;

import java.util.concurrent.CompletableFuture;

/**
 * The one way in from the JCA SPIs and the async API to the backends: single operations in,
 * futures out. The batching implementation coalesces concurrent calls into backend batches.
 *
 * <p>Arguments are copied before the call returns; the caller may reuse or wipe its arrays.
 */
public interface Engine {

    /** Generates a key pair from a 32-byte seed (ζ or ξ). The result is {@code {pk, sk}}. */
    CompletableFuture<byte[][]> keyGen(ParameterSet params, byte[] seed);

    /**
     * Signs μ. {@code rnd} is {@link ParameterSet#rndBytes()} long. Completes with the signature,
     * or exceptionally with {@link java.security.InvalidKeyException} when the key does not decode.
     */
    CompletableFuture<byte[]> sign(ParameterSet params, byte[] privateKey, byte[] mu, byte[] rnd);

    /** Verifies a signature of the set's exact length on μ. */
    CompletableFuture<Boolean> verify(ParameterSet params, byte[] publicKey, byte[] mu, byte[] signature);
}
