package io.dilithiumgpu.spi;

import io.dilithiumgpu.batch.Engine;
import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.batch.SigningKey;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;

import java.security.SignatureException;
import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

/**
 * Waiting for the batcher's futures from the caller's thread, through {@link Engines#await}: the
 * thread parks without holding a monitor (a virtual thread releases its carrier), an interrupt
 * cancels the request and is re-asserted on the thread, and a failed backend surfaces as a
 * {@link java.security.ProviderException}. This class only words the checked exception.
 */
final class EngineCalls {
    private EngineCalls() {}

    /**
     * The future's value, or {@code failure} built from a message naming {@code what} ("ML-DSA-65
     * signing") and the cause: an interrupted wait, a cancellation, or a checked exception from the
     * engine such as the {@link java.security.InvalidKeyException} of a private key that does not decode.
     */
    static <T, E extends Exception> T await(CompletableFuture<T> future, String what,
                                            BiFunction<String, Throwable, E> failure) throws E {
        return Engines.await(future, e -> failure.apply(message(what, e), e));
    }

    /**
     * {@link #await(CompletableFuture, String, BiFunction)} naming the operation as
     * {@code set + operation} ("ML-DSA-65" + " signing"), a string built only on failure.
     */
    static <T, E extends Exception> T await(CompletableFuture<T> future, ParameterSet set, String operation,
                                            BiFunction<String, Throwable, E> failure) throws E {
        return Engines.await(future, e -> failure.apply(message(set + operation, e), e));
    }

    private static String message(String what, Exception e) {
        if (e instanceof InterruptedException) {
            return "interrupted while waiting for " + what;
        }
        if (e instanceof CancellationException) {
            return what + " was cancelled";
        }
        return what + " failed: " + e.getMessage();
    }

    /**
     * Queues the signing of μ through {@link Engine#signInPlace}; wait for it with
     * {@link #await(CompletableFuture, ParameterSet, String, BiFunction)}. {@code sk} and
     * {@code rnd} are handed over: the engine reads them where they are, when the task's batch
     * loads, and wipes them then, or when it drops the task. The caller must not touch them
     * afterwards, not even after an interrupted wait (the batch may have taken the task before
     * the cancel and still be copying them); only arrays the engine refused at once are wiped here.
     */
    static CompletableFuture<byte[]> signInPlace(Engine engine, ParameterSet p, byte[] sk, PrivateKeyCache cache,
                                                 byte[] mu, byte[] rnd) {
        try {
            return engine.signInPlace(p, sk, cache, mu, rnd);
        } catch (RuntimeException | Error notHandedOver) {
            Arrays.fill(sk, (byte) 0);
            Arrays.fill(rnd, (byte) 0);
            throw notHandedOver;
        }
    }

    /**
     * As {@link #signInPlace(Engine, ParameterSet, byte[], PrivateKeyCache, byte[], byte[])} with a
     * key the engine reads where it lives ({@link SigningKey}): only {@code rnd} is handed over.
     */
    static CompletableFuture<byte[]> signInPlace(Engine engine, ParameterSet p, SigningKey key, PrivateKeyCache cache,
                                                 byte[] mu, byte[] rnd) {
        return signInPlace(engine, p, key, cache, null, null, mu, rnd);
    }

    /**
     * As {@link #signInPlace(Engine, ParameterSet, SigningKey, PrivateKeyCache, byte[], byte[])},
     * of {@code message} ({@link Engine#signMessageInPlace}, with the key's tr) where it is not
     * null, else of μ.
     */
    static CompletableFuture<byte[]> signInPlace(Engine engine, ParameterSet p, SigningKey key, PrivateKeyCache cache,
                                                 byte[] tr, byte[] message, byte[] mu, byte[] rnd) {
        try {
            return message != null ? engine.signMessageInPlace(p, key, cache, tr, message, rnd)
                    : engine.signInPlace(p, key, cache, mu, rnd);
        } catch (RuntimeException | Error notHandedOver) {
            Arrays.fill(rnd, (byte) 0);
            throw notHandedOver;
        }
    }
}
