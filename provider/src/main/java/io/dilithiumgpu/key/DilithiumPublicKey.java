package io.dilithiumgpu.key;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PublicKeyCache;
import io.dilithiumgpu.core.Scheme;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamException;
import java.security.KeyRep;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;

/**
 * A public key of one of the six sets: pk = ρ ‖ t1 (FIPS 204 Algorithm 22, pkEncode; round 3.1
 * {@code pack_pk}).
 *
 * <p>Immutable and thread-safe. tr = H(pk) and the X.509 encoding are computed once, on first use;
 * every accessor returns a fresh copy. Serializes as a {@link KeyRep} of its X.509 encoding.
 *
 * <p>The key owns a {@link PublicKeyCache} ({@link #cache()}): from the key's second verification
 * on the CPU backend, it holds Â and t̂1, so that further verifications skip ExpandA and the t1
 * decoding and NTTs.
 */
public final class DilithiumPublicKey implements PublicKey {
    private static final long serialVersionUID = 1L;

    private final ParameterSet params;
    private final byte[] publicKey;
    private transient volatile byte[] tr;
    private transient volatile byte[] encoded;
    private final transient PublicKeyCache cache;

    private DilithiumPublicKey(ParameterSet params, byte[] publicKey) {
        this.params = params;
        this.publicKey = publicKey;
        this.cache = new PublicKeyCache(params);
    }

    /**
     * A key from its raw bytes, copied.
     *
     * @throws IllegalArgumentException when the length is not {@link ParameterSet#publicKeyBytes()}
     */
    public static DilithiumPublicKey of(ParameterSet params, byte[] publicKey) {
        if (publicKey.length != params.publicKeyBytes()) {
            throw new IllegalArgumentException(params + " public key must be " + params.publicKeyBytes()
                    + " bytes, not " + publicKey.length);
        }
        return new DilithiumPublicKey(params, publicKey.clone());
    }

    public ParameterSet parameterSet() { return params; }

    /** The parameter-set name: {@code ML-DSA-44}, ..., {@code Dilithium5}. */
    @Override
    public String getAlgorithm() { return params.algorithmName(); }

    @Override
    public String getFormat() { return "X.509"; }

    /** The DER SubjectPublicKeyInfo ({@link Spki}); a fresh copy. */
    @Override
    public byte[] getEncoded() {
        byte[] e = encoded;
        if (e == null) {
            e = Spki.encode(params, publicKey);
            encoded = e;
        }
        return e.clone();
    }

    /**
     * The parameter set as a {@link NamedParameterSpec}. Declared with the return type of
     * {@code AsymmetricKey.getParams()} (Java 22) so that it overrides that method where it exists.
     */
    public AlgorithmParameterSpec getParams() {
        return new NamedParameterSpec(params.algorithmName());
    }

    /** The raw public key ρ ‖ t1; a fresh copy. */
    public byte[] getRawKey() { return publicKey.clone(); }

    /**
     * Internal plumbing, for this provider's verifiers: the raw public key ρ ‖ t1 itself, not a
     * copy, so that a verification allocates nothing for it. Callers only read it; anything else
     * should call {@link #getRawKey()}.
     */
    public byte[] rawKeyInPlace() { return publicKey; }

    /** tr = H(pk) ({@link ParameterSet#trBytes()} bytes); a fresh copy. */
    public byte[] getTr() {
        return trInPlace().clone();
    }

    /**
     * Internal plumbing, for this provider's verifiers: tr itself, not a copy, so that a
     * {@code Signature} per call allocates nothing for it. Callers only read it; anything else
     * should call {@link #getTr()}.
     */
    public byte[] trInPlace() {
        byte[] t = tr;
        if (t == null) {
            t = Scheme.tr(params, publicKey, 0);
            tr = t;
        }
        return t;
    }

    /**
     * Internal plumbing, for this provider's verifiers: the key's cache of decoded vectors, handed
     * to the backend with each verification. It exposes no key bytes.
     */
    public PublicKeyCache cache() {
        return cache;
    }

    /** Same set and same key bytes, compared in constant time. */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof DilithiumPublicKey)) {
            return false;
        }
        DilithiumPublicKey other = (DilithiumPublicKey) o;
        return params == other.params && MessageDigest.isEqual(publicKey, other.publicKey);
    }

    @Override
    public int hashCode() {
        return 31 * params.algorithmName().hashCode() + Arrays.hashCode(publicKey);
    }

    @Override
    public String toString() {
        return params + " public key (" + publicKey.length + " bytes)";
    }

    private Object writeReplace() throws ObjectStreamException {
        return new KeyRep(KeyRep.Type.PUBLIC, getAlgorithm(), getFormat(), getEncoded());
    }

    private void readObject(ObjectInputStream in) throws InvalidObjectException {
        throw new InvalidObjectException("DilithiumPublicKey is serialized as a KeyRep");
    }
}
