package io.dilithiumgpu.spi;

import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.core.ExpandedKeyCheck;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.key.Pkcs8;
import io.dilithiumgpu.key.PrivateKeyForm;
import io.dilithiumgpu.key.Spki;

import java.security.InvalidKeyException;
import java.security.Key;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.InvalidKeySpecException;
import java.util.Arrays;

/**
 * From encodings, seeds and other providers' keys to this provider's key classes. Seeds are expanded
 * by the engine's key generation; nothing here keeps an array it was given or made.
 */
final class KeyConversion {
    private KeyConversion() {}

    /** A public key from a DER SubjectPublicKeyInfo. */
    static DilithiumPublicKey decodePublic(byte[] spki) throws InvalidKeySpecException {
        Spki.Decoded d = Spki.decode(spki);
        return DilithiumPublicKey.of(d.params(), d.publicKey());
    }

    /**
     * A private key from a DER PKCS#8 key: a seed is expanded; with both seed and expanded key, the
     * seed must regenerate the expanded key; an expanded key alone must be consistent
     * ({@link #fromExpanded}); a public key alongside must be the key pair's.
     */
    static DilithiumPrivateKey decodePrivate(byte[] pkcs8) throws InvalidKeySpecException {
        Pkcs8.Decoded d = Pkcs8.decode(pkcs8);
        byte[][] generated = null;
        try {
            ParameterSet p = d.params();
            byte[] publicKey = d.publicKey();
            if (d.seed() == null) {
                return fromExpanded(p, d.expanded(), publicKey, d.form());
            }
            generated = generate(p, d.seed());
            if (d.expanded() != null && !MessageDigest.isEqual(generated[1], d.expanded())) {
                throw new InvalidKeySpecException(p + " PKCS#8 key: the seed does not regenerate the expanded key");
            }
            if (publicKey != null && !MessageDigest.isEqual(generated[0], publicKey)) {
                throw new InvalidKeySpecException(p + " PKCS#8 key: the public key is not the private key's");
            }
            return DilithiumPrivateKey.of(p, d.seed(), generated[1], d.form());
        } finally {
            d.destroy();
            if (generated != null) {
                Arrays.fill(generated[1], (byte) 0);
            }
        }
    }

    /**
     * A private key from its expanded bytes alone, which must be a key that key generation could
     * have written ({@link ExpandedKeyCheck}): otherwise it would sign, and its signatures would
     * never verify.
     *
     * @param publicKey the public key the encoding names, which must be the one sk belongs to; or
     *                  {@code null}
     * @param form      the PKCS#8 form read, or {@code null} for a raw key spec
     */
    static DilithiumPrivateKey fromExpanded(ParameterSet p, byte[] sk, byte[] publicKey, PrivateKeyForm form)
            throws InvalidKeySpecException {
        if (sk.length != p.privateKeyBytes()) {
            throw new InvalidKeySpecException(p + " private key must be " + p.privateKeyBytes() + " bytes, not "
                    + sk.length);
        }
        byte[] derived = ExpandedKeyCheck.publicKeyOf(p, sk, 0);
        if (derived == null) {
            throw new InvalidKeySpecException(p + " expanded private key is inconsistent: its t0 and tr are not"
                    + " those of its ρ, s1 and s2 (or s1 or s2 is out of range)");
        }
        if (publicKey != null && !MessageDigest.isEqual(derived, publicKey)) {
            throw new InvalidKeySpecException(p + " PKCS#8 key: the public key is not the private key's");
        }
        return DilithiumPrivateKey.of(p, null, sk, form);
    }

    /** The key pair whose key generation starts from {@code seed}, with the seed kept in the private key. */
    static DilithiumPrivateKey fromSeed(ParameterSet p, byte[] seed) throws InvalidKeySpecException {
        if (seed.length != ParameterSet.SEED_BYTES) {
            throw new InvalidKeySpecException(p + " seed must be " + ParameterSet.SEED_BYTES + " bytes, not "
                    + seed.length);
        }
        byte[][] generated = generate(p, seed);
        try {
            return DilithiumPrivateKey.of(p, seed, generated[1], null);
        } finally {
            Arrays.fill(generated[1], (byte) 0);
        }
    }

    /** {pk, sk} from the engine; the caller wipes sk. */
    private static byte[][] generate(ParameterSet p, byte[] seed) throws InvalidKeySpecException {
        return EngineCalls.await(Engines.shared().keyGen(p, seed), p + " key expansion",
                InvalidKeySpecException::new);
    }

    /**
     * This provider's public key for {@code key}: the key itself, or another provider's public key of
     * a known set re-read from its X.509 encoding.
     */
    static DilithiumPublicKey toPublic(Key key) throws InvalidKeyException {
        if (key instanceof DilithiumPublicKey) {
            return (DilithiumPublicKey) key;
        }
        if (!(key instanceof PublicKey)) {
            throw new InvalidKeyException("expected an ML-DSA or Dilithium public key, got " + describe(key));
        }
        byte[] encoded = "X.509".equalsIgnoreCase(key.getFormat()) ? key.getEncoded() : null;
        if (encoded == null) {
            throw new InvalidKeyException(describe(key) + " has no X.509 encoding");
        }
        try {
            return decodePublic(encoded);
        } catch (InvalidKeySpecException e) {
            throw new InvalidKeyException(describe(key) + " is not a usable public key: " + e.getMessage(), e);
        }
    }

    /**
     * This provider's private key for {@code key}: the key itself, or another provider's private key
     * of a known set re-read from its PKCS#8 encoding (which is wiped afterwards).
     */
    static DilithiumPrivateKey toPrivate(Key key) throws InvalidKeyException {
        if (key instanceof DilithiumPrivateKey) {
            DilithiumPrivateKey ours = (DilithiumPrivateKey) key;
            if (ours.isDestroyed()) {
                throw new InvalidKeyException(ours.parameterSet() + " private key is destroyed");
            }
            return ours;
        }
        if (!(key instanceof PrivateKey)) {
            throw new InvalidKeyException("expected an ML-DSA or Dilithium private key, got " + describe(key));
        }
        if (((PrivateKey) key).isDestroyed()) {
            throw new InvalidKeyException(describe(key) + " is destroyed");
        }
        byte[] encoded = "PKCS#8".equalsIgnoreCase(key.getFormat()) ? key.getEncoded() : null;
        if (encoded == null) {
            throw new InvalidKeyException(describe(key) + " has no PKCS#8 encoding");
        }
        try {
            return decodePrivate(encoded);
        } catch (InvalidKeySpecException e) {
            throw new InvalidKeyException(describe(key) + " is not a usable private key: " + e.getMessage(), e);
        } finally {
            Arrays.fill(encoded, (byte) 0);
        }
    }

    /** Names a key by algorithm and class, never by content. */
    static String describe(Key key) {
        return key == null ? "null" : key.getAlgorithm() + " key (" + key.getClass().getName() + ")";
    }
}
