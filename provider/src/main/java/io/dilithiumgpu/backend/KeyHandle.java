package io.dilithiumgpu.backend;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;
import io.dilithiumgpu.core.Scheme;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * One key for many batches: its packed bytes (copied once) and its cache identity, so that a
 * backend that keeps keys (the CUDA backend's device key cache) recognises it from batch to batch
 * without hashing it again. Use it for one-key batches ({@link BatchRecords#sign(KeyHandle, int,
 * byte[], byte[], byte[], byte[])}, {@link BatchRecords#verify(KeyHandle, int, byte[], byte[],
 * byte[])} and their {@link HostBuffer} forms), whose records carry no key, or give its cache to
 * per-task records ({@link #privateKeyCache()}, {@link #publicKeyCache()} with
 * {@link BatchRecords#withCaches}).
 *
 * <p>Handles of equal keys share a backend's cached form. {@link #destroy()} zeroes a private
 * key's copy and has every device key cache wipe the key's slots; the handle is unusable
 * afterwards. Thread-safe; immutable until destroyed.
 */
public final class KeyHandle {
    private final ParameterSet params;
    private final byte[] key;
    private final PrivateKeyCache privateCache;
    private final PublicKeyCache publicCache;
    /** tr = H(pk): a public key's hashed once rather than at every verification, a private key's read from it. */
    private final byte[] tr;
    private volatile boolean destroyed;

    private KeyHandle(ParameterSet params, byte[] key, boolean secret) {
        this.params = params;
        this.key = key;
        this.privateCache = secret ? new PrivateKeyCache(params) : null;
        this.publicCache = secret ? null : new PublicKeyCache(params);
        int trAt = 2 * ParameterSet.SEED_BYTES;
        this.tr = secret ? Arrays.copyOfRange(key, trAt, trAt + params.trBytes()) : Scheme.tr(params, key, 0);
    }

    /**
     * A handle of a packed private key (FIPS 204 skEncode, or round 3.1's), copied.
     *
     * @throws IllegalArgumentException when {@code sk} is not {@link ParameterSet#privateKeyBytes()} long
     */
    public static KeyHandle ofPrivateKey(ParameterSet params, byte[] sk) {
        Objects.requireNonNull(params, "params");
        requireLength(sk, params.privateKeyBytes(), "private key");
        return new KeyHandle(params, sk.clone(), true);
    }

    /**
     * A handle of a packed public key (ρ ‖ t1), copied.
     *
     * @throws IllegalArgumentException when {@code pk} is not {@link ParameterSet#publicKeyBytes()} long
     */
    public static KeyHandle ofPublicKey(ParameterSet params, byte[] pk) {
        Objects.requireNonNull(params, "params");
        requireLength(pk, params.publicKeyBytes(), "public key");
        return new KeyHandle(params, pk.clone(), false);
    }

    private static void requireLength(byte[] key, int length, String what) {
        Objects.requireNonNull(key, what);
        if (key.length != length) {
            throw new IllegalArgumentException("a " + what + " of this set is " + length + " bytes, not " + key.length);
        }
    }

    public ParameterSet params() {
        return params;
    }

    /** Whether this is a private key's handle (for signing) rather than a public key's (for verification). */
    public boolean isPrivate() {
        return privateCache != null;
    }

    /** The private key's cache identity, for per-task records; null for a public key's handle. */
    public PrivateKeyCache privateKeyCache() {
        return privateCache;
    }

    /** The public key's cache identity, for per-task records; null for a private key's handle. */
    public PublicKeyCache publicKeyCache() {
        return publicCache;
    }

    /**
     * A copy of the packed key, which the caller owns (and wipes, for a private key).
     *
     * @throws IllegalStateException when the handle is destroyed
     */
    public byte[] copyKey() {
        return keyInPlace().clone();
    }

    /** The key's tr, the hash of the public key that μ starts from ({@link Scheme#tr}), a copy. */
    public byte[] tr() {
        return tr.clone();
    }

    /**
     * A public key's packed bytes themselves, not a copy, for callers that only read them (the
     * async API's verifications, which the engine reads when their batch runs): {@link #destroy()}
     * leaves a public key's bytes as they are.
     *
     * @throws IllegalStateException when the handle is destroyed or holds a private key
     */
    public byte[] publicKeyInPlace() {
        if (privateCache != null) {
            throw new IllegalStateException(params + " key handle holds a private key");
        }
        return keyInPlace();
    }

    /** The key's tr itself, not a copy ({@link #tr()}), for callers that only read it (tr is public). */
    public byte[] trInPlace() {
        return tr;
    }

    /**
     * Copies a private key's packed bytes into {@code dst} from absolute position {@code offset},
     * as a batch reads them when it runs ({@code SigningKey}).
     *
     * @return false, with whatever was written there zeroed, when the handle is or is being destroyed
     * @throws IllegalStateException for a public key's handle
     */
    public boolean copyPrivateKeyTo(ByteBuffer dst, int offset) {
        if (privateCache == null) {
            throw new IllegalStateException(params + " key handle holds a public key");
        }
        if (!destroyed) {
            dst.put(offset, key);
            // destroy() marks the handle before it zeroes the key: a copy it overlapped fails here.
            if (!destroyed) {
                return true;
            }
        }
        dst.put(offset, new byte[key.length]);
        return false;
    }

    /** The packed key itself, not a copy: for the backends. */
    byte[] keyInPlace() {
        requireLive();
        return key;
    }

    /** The cache, as the object a backend's records name. */
    Object cache() {
        return privateCache != null ? privateCache : publicCache;
    }

    /**
     * Zeroes a private key's copy and destroys its cache (every device key cache wipes the key's
     * slots); a public key's handle only becomes unusable. Idempotent.
     */
    public void destroy() {
        destroyed = true;
        if (privateCache != null) {
            privateCache.destroy();
            Arrays.fill(key, (byte) 0);
        }
    }

    public boolean isDestroyed() {
        return destroyed;
    }

    void requireLive() {
        if (destroyed) {
            throw new IllegalStateException(params + " key handle is destroyed");
        }
    }

    @Override
    public String toString() {
        return params + (isPrivate() ? " private" : " public") + " key handle" + (destroyed ? " (destroyed)" : "");
    }
}
