package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.MessageRecord;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;

import java.nio.ByteBuffer;
import java.security.InvalidKeyException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The one way in from the JCA SPIs and the async API to the backends: single operations in,
 * futures out. The batching implementation coalesces concurrent calls into backend batches.
 *
 * <p>Arguments are copied before the call returns; the caller may reuse or wipe its arrays
 * (except in the {@code InPlace} forms, for callers that block until the result).
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

    /**
     * {@link #sign(ParameterSet, byte[], byte[], byte[])} with the key's cache, which goes with the
     * task to the backend (not copied: it belongs to the key); {@code null} for none. By default
     * the cache is ignored.
     */
    default CompletableFuture<byte[]> sign(ParameterSet params, byte[] privateKey, PrivateKeyCache cache,
                                           byte[] mu, byte[] rnd) {
        return sign(params, privateKey, mu, rnd);
    }

    /**
     * {@link #verify(ParameterSet, byte[], byte[], byte[])} with the key's cache, which goes with
     * the task to the backend; {@code null} for none. By default the cache is ignored.
     */
    default CompletableFuture<Boolean> verify(ParameterSet params, byte[] publicKey, PublicKeyCache cache,
                                              byte[] mu, byte[] signature) {
        return verify(params, publicKey, mu, signature);
    }

    /**
     * {@link #sign(ParameterSet, byte[], PrivateKeyCache, byte[], byte[])} that takes
     * {@code privateKey} and {@code rnd} over instead of copying them, for a caller that blocks
     * until the future completes (the JCA layer): the engine reads them where they are and wipes
     * them once read, or when it drops the task (cancelled, refused); the caller must not touch
     * them after the call returns, even once it has cancelled the future. μ is read in place too
     * and left as it is. By default they are copied, as by {@code sign}, and then wiped.
     */
    default CompletableFuture<byte[]> signInPlace(ParameterSet params, byte[] privateKey, PrivateKeyCache cache,
                                                  byte[] mu, byte[] rnd) {
        try {
            return sign(params, privateKey, cache, mu, rnd);
        } finally {
            Arrays.fill(privateKey, (byte) 0);
            Arrays.fill(rnd, (byte) 0);
        }
    }

    /**
     * {@link #signInPlace(ParameterSet, byte[], PrivateKeyCache, byte[], byte[])} with a key the
     * engine reads where it lives ({@link SigningKey}) when the task's batch loads, so that the
     * call makes no copy of it; {@code rnd} is handed over and μ read in place as there. A key
     * that can no longer be read (destroyed) fails the future with
     * {@link java.security.InvalidKeyException}. By default the key is copied at once and signed
     * as by {@code signInPlace}.
     */
    default CompletableFuture<byte[]> signInPlace(ParameterSet params, SigningKey key, PrivateKeyCache cache,
                                                  byte[] mu, byte[] rnd) {
        byte[] sk = new byte[params.privateKeyBytes()];
        if (!key.copyTo(ByteBuffer.wrap(sk), 0)) {
            Arrays.fill(rnd, (byte) 0);
            return CompletableFuture.failedFuture(new InvalidKeyException(SignBatch.destroyedKey(params)));
        }
        return signInPlace(params, sk, cache, mu, rnd);
    }

    /**
     * {@link #signInPlace(ParameterSet, SigningKey, PrivateKeyCache, byte[], byte[])} with rnd drawn
     * from {@code random} (which fills the array it is given with fresh random bytes, from any
     * thread) instead of handed over: a batcher draws the rnds of a batch's requests at once, when
     * the batch loads. By default drawn now.
     */
    default CompletableFuture<byte[]> signDrawing(ParameterSet params, SigningKey key, PrivateKeyCache cache,
                                                  byte[] mu, Consumer<byte[]> random) {
        byte[] rnd = new byte[params.rndBytes()];
        random.accept(rnd);
        return signInPlace(params, key, cache, mu, rnd);
    }

    /**
     * {@link #verify(ParameterSet, byte[], PublicKeyCache, byte[], byte[])} that may read the
     * arrays where they are, for a caller that leaves them unchanged until the future completes
     * (as for {@link #signInPlace}). By default they are copied.
     */
    default CompletableFuture<Boolean> verifyInPlace(ParameterSet params, byte[] publicKey, PublicKeyCache cache,
                                                     byte[] mu, byte[] signature) {
        return verify(params, publicKey, cache, mu, signature);
    }

    /**
     * Whether a caller of {@code op} on {@code params} may give a short message instead of μ (the
     * {@code Message} forms below) and spare its thread the hash: true where the engine's backend
     * hashes μ itself ({@link io.dilithiumgpu.backend.Backend#hashesMessages}). False by default.
     */
    default boolean takesMessages(ParameterSet params, Operation op) {
        return false;
    }

    /**
     * {@link #signDrawing} of the message in {@code message}, a {@link MessageRecord} read in place:
     * μ = H(tr ‖ M′, 64), {@code tr} the key's own. By default μ is computed now.
     */
    default CompletableFuture<byte[]> signMessageDrawing(ParameterSet params, SigningKey key, PrivateKeyCache cache,
                                                         byte[] tr, byte[] message, Consumer<byte[]> random) {
        return signDrawing(params, key, cache, MessageRecord.mu(tr, message), random);
    }

    /** {@link #signInPlace(ParameterSet, SigningKey, PrivateKeyCache, byte[], byte[])} of a {@link MessageRecord}, as {@link #signMessageDrawing}. */
    default CompletableFuture<byte[]> signMessageInPlace(ParameterSet params, SigningKey key, PrivateKeyCache cache,
                                                         byte[] tr, byte[] message, byte[] rnd) {
        return signInPlace(params, key, cache, MessageRecord.mu(tr, message), rnd);
    }

    /** {@link #verifyInPlace} of a {@link MessageRecord}, as {@link #signMessageDrawing}: tr is the public key's. */
    default CompletableFuture<Boolean> verifyMessageInPlace(ParameterSet params, byte[] publicKey, PublicKeyCache cache,
                                                            byte[] tr, byte[] message, byte[] signature) {
        return verifyInPlace(params, publicKey, cache, MessageRecord.mu(tr, message), signature);
    }
}
