package io.dilithiumgpu.key;

import io.dilithiumgpu.batch.SigningKey;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;

import java.io.InvalidObjectException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamException;
import java.nio.ByteBuffer;
import java.security.KeyRep;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.StampedLock;
import java.util.function.Function;
import javax.security.auth.DestroyFailedException;

/**
 * A private key of one of the six sets: the expanded key sk = ρ ‖ K ‖ tr ‖ s1 ‖ s2 ‖ t0 (FIPS 204
 * Algorithm 24, skEncode; round 3.1 {@code pack_sk}), and the 32-byte key-generation seed (ξ or ζ)
 * when it is known.
 *
 * <p>Ownership: the key holds the only long-lived copies of its seed and expanded key; every
 * accessor returns a fresh copy that the caller owns and should wipe. {@link #destroy()} zeroes both;
 * afterwards every accessor of private material throws {@link IllegalStateException}. The key is
 * otherwise immutable and thread-safe. {@link #getExpandedKey()}, which every signature calls,
 * takes no lock: it copies optimistically and keeps the copy only if no {@code destroy} ran
 * meanwhile ({@link StampedLock}), so any number of signers read one key at once. A shared monitor
 * here made thousands of virtual-thread signers on one key queue for it, one hand-off at a time.
 *
 * <p>The key owns a {@link PrivateKeyCache} ({@link #cache()}): from the key's second signature on
 * the CPU backend, it holds the decoded ŝ1, ŝ2, t̂0 and Â, so that further signatures skip skDecode,
 * NTTs and ExpandA. {@code destroy()} destroys it too (its secret arrays are zeroed).
 *
 * <p>Serializes as a {@link KeyRep} of its PKCS#8 encoding; a destroyed key does not serialize
 * ({@link NotSerializableException}).
 */
public final class DilithiumPrivateKey implements PrivateKey {
    private static final long serialVersionUID = 1L;

    private final ParameterSet params;
    private final byte[] seed;
    private final byte[] expanded;
    private final byte[] tr;
    private final PrivateKeyForm decodedForm;
    /** Write-locked by {@link #destroy()}; readers validate against it or read-lock. */
    private final transient StampedLock lock = new StampedLock();
    private final transient PrivateKeyCache cache;
    /** {@link #copyExpandedKey} as the batcher reads it: one object per key ({@link #signingKey()}). */
    private final transient SigningKey signingKey = this::copyExpandedKey;
    /** This key as the JDK's own ML-DSA holds it, once a signer made it ({@link #jdkCopy}). */
    private final transient AtomicReference<PrivateKey> jdkKey = new AtomicReference<>();
    private volatile boolean destroyed;

    private DilithiumPrivateKey(ParameterSet params, byte[] seed, byte[] expanded, PrivateKeyForm decodedForm) {
        this.params = params;
        this.seed = seed;
        this.expanded = expanded;
        int trOffset = 2 * ParameterSet.SEED_BYTES;
        this.tr = Arrays.copyOfRange(expanded, trOffset, trOffset + params.trBytes());
        this.decodedForm = decodedForm;
        this.cache = new PrivateKeyCache(params);
    }

    /**
     * A key from its expanded bytes and, if known, the seed that generated them; both copied. The
     * caller vouches that the seed regenerates the expanded key.
     *
     * @param seed        ξ (FIPS 204) or ζ (round 3.1), or {@code null}
     * @param decodedForm the PKCS#8 form the key was read from, which {@link #getEncoded()} keeps
     *                    (see {@link PrivateKeyForm}); {@code null} for a key not read from PKCS#8
     * @throws IllegalArgumentException when a length is wrong
     */
    public static DilithiumPrivateKey of(ParameterSet params, byte[] seed, byte[] expanded,
                                         PrivateKeyForm decodedForm) {
        if (expanded.length != params.privateKeyBytes()) {
            throw new IllegalArgumentException(params + " private key must be " + params.privateKeyBytes()
                    + " bytes, not " + expanded.length);
        }
        if (seed != null && seed.length != ParameterSet.SEED_BYTES) {
            throw new IllegalArgumentException("seed must be " + ParameterSet.SEED_BYTES + " bytes, not "
                    + seed.length);
        }
        return new DilithiumPrivateKey(params, seed == null ? null : seed.clone(), expanded.clone(), decodedForm);
    }

    public ParameterSet parameterSet() { return params; }

    /** The parameter-set name: {@code ML-DSA-44}, ..., {@code Dilithium5}. */
    @Override
    public String getAlgorithm() { return params.algorithmName(); }

    @Override
    public String getFormat() { return "PKCS#8"; }

    /**
     * The DER PKCS#8 encoding ({@link Pkcs8}), in the form {@link PrivateKeyForm} describes; a fresh
     * array the caller owns.
     *
     * @throws IllegalStateException when the key is destroyed
     */
    @Override
    public byte[] getEncoded() {
        PrivateKeyForm form = PrivateKeyForm.configured();
        if (form == null) {
            form = decodedForm != null ? decodedForm : PrivateKeyForm.SEED;
        }
        long stamp = lock.readLock();
        try {
            requireLive();
            if (seed == null) {
                form = PrivateKeyForm.EXPANDED;
            }
            return Pkcs8.encode(params, form, seed, expanded);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** The parameter set as a {@link NamedParameterSpec} (overrides {@code AsymmetricKey.getParams()}). */
    public AlgorithmParameterSpec getParams() {
        return new NamedParameterSpec(params.algorithmName());
    }

    /** Whether the key-generation seed is known. */
    public boolean hasSeed() { return seed != null; }

    /**
     * The key-generation seed; a fresh copy the caller should wipe.
     *
     * @return the seed, or {@code null} when it is not known
     * @throws IllegalStateException when the key is destroyed
     */
    public byte[] getSeed() {
        long stamp = lock.readLock();
        try {
            requireLive();
            return seed == null ? null : seed.clone();
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /**
     * The expanded private key; a fresh copy the caller should wipe.
     *
     * @throws IllegalStateException when the key is destroyed
     */
    public byte[] getExpandedKey() {
        long stamp = lock.tryOptimisticRead();
        if (stamp != 0 && !destroyed) {
            byte[] copy = expanded.clone();
            if (lock.validate(stamp)) {
                return copy;
            }
            Pkcs8.wipe(copy);  // a destroy ran meanwhile: the copy may be part zeros
        }
        stamp = lock.readLock();
        try {
            requireLive();
            return expanded.clone();
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /**
     * Copies the expanded private key into {@code dst} from absolute position {@code offset}, where
     * a signer needs it (a batch's record) instead of in a fresh array; as {@link #getExpandedKey()},
     * without a lock unless a {@code destroy} runs meanwhile. The buffer's position is left alone.
     *
     * @return true when copied; false when the key is destroyed (the bytes written there are then
     *         zeroed)
     * @throws IndexOutOfBoundsException when the key does not fit there
     */
    public boolean copyExpandedKey(ByteBuffer dst, int offset) {
        Objects.checkFromIndexSize(offset, expanded.length, dst.limit());
        long stamp = lock.tryOptimisticRead();
        if (stamp != 0 && !destroyed) {
            dst.put(offset, expanded, 0, expanded.length);
            if (lock.validate(stamp)) {
                return true;
            }
        }
        stamp = lock.readLock();
        try {
            if (destroyed) {
                dst.put(offset, new byte[expanded.length], 0, expanded.length);
                return false;
            }
            dst.put(offset, expanded, 0, expanded.length);
            return true;
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** tr = H(pk), the public hash inside the expanded key; a fresh copy. Available after destroy. */
    public byte[] getTr() { return tr.clone(); }

    /**
     * Internal plumbing, for this provider's signers: tr itself, not a copy (public, and kept after
     * destroy). Callers only read it; anything else should call {@link #getTr()}.
     */
    public byte[] trInPlace() { return tr; }

    /**
     * Internal plumbing, for this provider's signers: {@link #copyExpandedKey} as the batcher reads
     * a key where it lives, the same object at every call, so that the batch knows the records it
     * copies through it hold one key's bytes ({@link SigningKey}).
     */
    public SigningKey signingKey() {
        return signingKey;
    }

    /**
     * Internal plumbing, for this provider's signers: the key's cache of decoded vectors, handed to
     * the backend with each signature. It exposes no key bytes; {@link #destroy()} destroys it.
     */
    public PrivateKeyCache cache() {
        return cache;
    }

    /**
     * Internal plumbing, for this provider's signers: this key as the JDK's own ML-DSA holds it, made
     * by {@code convert} on first use and kept, so that a key is converted once. {@link #destroy()}
     * drops and destroys it.
     *
     * @return the copy, or {@code null} when {@code convert} gave none or this key is destroyed
     */
    public PrivateKey jdkCopy(Function<? super DilithiumPrivateKey, ? extends PrivateKey> convert) {
        PrivateKey copy = jdkKey.get();
        if (copy == null && !destroyed) {
            PrivateKey made = convert.apply(this);
            if (made == null) {
                return null;
            }
            if (!jdkKey.compareAndSet(null, made)) {
                destroyQuietly(made);
            }
            copy = jdkKey.get();
        }
        if (destroyed) {
            // A destroy() that ran meanwhile may have missed the copy just kept.
            destroyQuietly(jdkKey.getAndSet(null));
            return null;
        }
        return copy;
    }

    /**
     * Zeroes the seed and the expanded key, destroys the cache (zeroing its vectors) and the JDK's
     * copy of the key, if one was made. Idempotent.
     */
    @Override
    public void destroy() {
        // Outside the write lock: the cache waits for signers copying out of it, on a lock of its own.
        cache.destroy();
        long stamp = lock.writeLock();
        try {
            destroyed = true;
            Pkcs8.wipe(seed);
            Pkcs8.wipe(expanded);
        } finally {
            lock.unlockWrite(stamp);
        }
        destroyQuietly(jdkKey.getAndSet(null));
    }

    private static void destroyQuietly(PrivateKey key) {
        if (key == null) {
            return;
        }
        try {
            key.destroy();
        } catch (DestroyFailedException e) {
            // A key that cannot be destroyed is dropped all the same.
        }
    }

    @Override
    public boolean isDestroyed() {
        return destroyed;
    }

    private void requireLive() {
        if (destroyed) {
            throw new IllegalStateException(params + " private key is destroyed");
        }
    }

    /**
     * Same set and same expanded key, compared in constant time; whether the seed is known does not
     * matter. A destroyed key equals only itself.
     */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof DilithiumPrivateKey)) {
            return false;
        }
        DilithiumPrivateKey other = (DilithiumPrivateKey) o;
        if (params != other.params) {
            return false;
        }
        byte[] mine = null;
        byte[] theirs = null;
        try {
            mine = getExpandedKey();
            theirs = other.getExpandedKey();
            return MessageDigest.isEqual(mine, theirs);
        } catch (IllegalStateException destroyedKey) {
            return false;
        } finally {
            Pkcs8.wipe(mine);
            Pkcs8.wipe(theirs);
        }
    }

    /** A hash of the set and tr, which is public; stable across {@link #destroy()}. */
    @Override
    public int hashCode() {
        return 31 * params.algorithmName().hashCode() + Arrays.hashCode(tr);
    }

    @Override
    public String toString() {
        return params + " private key (" + (isDestroyed() ? "destroyed" : seed != null ? "seed known" : "expanded only") + ")";
    }

    /** @throws NotSerializableException when the key is destroyed: there is nothing left to write */
    private Object writeReplace() throws ObjectStreamException {
        try {
            return new KeyRep(KeyRep.Type.PRIVATE, getAlgorithm(), getFormat(), getEncoded());
        } catch (IllegalStateException destroyed) {
            throw new NotSerializableException(params + " private key is destroyed");
        }
    }

    private void readObject(ObjectInputStream in) throws InvalidObjectException {
        throw new InvalidObjectException("DilithiumPrivateKey is serialized as a KeyRep");
    }
}
