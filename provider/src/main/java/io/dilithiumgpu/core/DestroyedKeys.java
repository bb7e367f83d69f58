package io.dilithiumgpu.core;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Where a private key's {@code destroy()} reaches the caches that hold its expanded form outside
 * this process's heap (the CUDA backend's device key caches): each such cache listens while it is
 * open, and {@link PrivateKeyCache#destroy()} announces the key's {@link KeyIdentity} before
 * wiping it, so that the listener wipes the key's device slot.
 *
 * <p>Listeners run on the thread that destroys the key and must not throw; one that fails is
 * logged and the others still run. Thread-safe.
 */
public final class DestroyedKeys {
    private static final System.Logger LOG = System.getLogger(DestroyedKeys.class.getName());
    private static final List<Consumer<KeyIdentity>> LISTENERS = new CopyOnWriteArrayList<>();

    private DestroyedKeys() {}

    /** Starts telling {@code listener} of every destroyed private key that had an identity. */
    public static void listen(Consumer<KeyIdentity> listener) {
        LISTENERS.add(listener);
    }

    /** Stops telling {@code listener}. */
    public static void unlisten(Consumer<KeyIdentity> listener) {
        LISTENERS.remove(listener);
    }

    /** Tells every listener that the key of {@code identity} is destroyed. */
    static void announce(KeyIdentity identity) {
        for (Consumer<KeyIdentity> l : LISTENERS) {
            try {
                l.accept(identity);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "a key cache failed to forget a destroyed key: " + e);
            }
        }
    }
}
