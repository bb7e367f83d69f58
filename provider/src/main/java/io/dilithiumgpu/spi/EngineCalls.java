package io.dilithiumgpu.spi;

import java.security.GeneralSecurityException;
import java.security.ProviderException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BiFunction;

/**
 * Waiting for the batcher's futures from the caller's thread. {@link CompletableFuture#get()} parks
 * the thread without holding a monitor, so a virtual thread that waits here releases its carrier.
 */
final class EngineCalls {
    private EngineCalls() {}

    /**
     * The future's value. An interrupt while waiting restores the thread's interrupt flag and becomes
     * {@code failure}; a {@link GeneralSecurityException} from the engine (such as a private key that
     * does not decode) becomes {@code failure} with it as the cause; a {@link ProviderException} (a
     * failed backend) stays one.
     *
     * @param what names the operation in messages ("ML-DSA-65 signing")
     */
    static <T, E extends Exception> T await(CompletableFuture<T> future, String what,
                                            BiFunction<String, Throwable, E> failure) throws E {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure.apply("interrupted while waiting for " + what, e);
        } catch (CancellationException e) {
            throw new ProviderException(what + " was cancelled", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof GeneralSecurityException) {
                throw failure.apply(what + " failed: " + cause.getMessage(), cause);
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new ProviderException(what + " failed: " + cause, cause);
        }
    }
}
