package io.dilithiumgpu.spi;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.spec.RawPrivateKeySpec;
import io.dilithiumgpu.spec.RawPublicKeySpec;
import io.dilithiumgpu.spec.SeedPrivateKeySpec;

import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactorySpi;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.function.Supplier;
import javax.security.auth.Destroyable;

/**
 * Keys of one parameter set or, for the generic names, of any set of the family, to and from
 * {@link X509EncodedKeySpec}, {@link PKCS8EncodedKeySpec} ({@link io.dilithiumgpu.key.Spki},
 * {@link io.dilithiumgpu.key.Pkcs8}), {@link RawPublicKeySpec}, {@link RawPrivateKeySpec} and
 * {@link SeedPrivateKeySpec}. {@code translateKey} takes any provider's key of an accepted set through
 * its encoding.
 */
public final class DilithiumKeyFactory extends KeyFactorySpi {
    private final Family family;
    private final ParameterSet fixedSet;

    /** @param fixedSet the one set this service takes, or {@code null} for any set of the family */
    public DilithiumKeyFactory(Family family, ParameterSet fixedSet) {
        this.family = family;
        this.fixedSet = fixedSet;
    }

    @Override
    protected PublicKey engineGeneratePublic(KeySpec keySpec) throws InvalidKeySpecException {
        DilithiumPublicKey key;
        if (keySpec instanceof X509EncodedKeySpec) {
            key = KeyConversion.decodePublic(((X509EncodedKeySpec) keySpec).getEncoded());
        } else if (keySpec instanceof RawPublicKeySpec) {
            RawPublicKeySpec raw = (RawPublicKeySpec) keySpec;
            ParameterSet p = parameterSet(raw.getParameterSet());
            byte[] pk = raw.getKey();
            if (pk.length != p.publicKeyBytes()) {
                throw new InvalidKeySpecException(p + " public key must be " + p.publicKeyBytes() + " bytes, not "
                        + pk.length);
            }
            key = DilithiumPublicKey.of(p, pk);
        } else {
            throw new InvalidKeySpecException("public keys come from an X509EncodedKeySpec or a RawPublicKeySpec, not "
                    + describe(keySpec));
        }
        requireScope(key.parameterSet());
        return key;
    }

    @Override
    protected PrivateKey engineGeneratePrivate(KeySpec keySpec) throws InvalidKeySpecException {
        DilithiumPrivateKey key;
        if (keySpec instanceof PKCS8EncodedKeySpec) {
            byte[] encoded = ((PKCS8EncodedKeySpec) keySpec).getEncoded();
            try {
                key = KeyConversion.decodePrivate(encoded);
            } finally {
                Arrays.fill(encoded, (byte) 0);
            }
        } else if (keySpec instanceof RawPrivateKeySpec) {
            RawPrivateKeySpec raw = (RawPrivateKeySpec) keySpec;
            ParameterSet p = parameterSet(raw.getParameterSet());
            byte[] sk = secretOf(raw, raw::getKey);
            try {
                key = KeyConversion.fromExpanded(p, sk, null, null);
            } finally {
                Arrays.fill(sk, (byte) 0);
            }
        } else if (keySpec instanceof SeedPrivateKeySpec) {
            SeedPrivateKeySpec seedSpec = (SeedPrivateKeySpec) keySpec;
            ParameterSet p = parameterSet(seedSpec.getParameterSet());
            byte[] seed = secretOf(seedSpec, seedSpec::getSeed);
            try {
                key = KeyConversion.fromSeed(p, seed);
            } finally {
                Arrays.fill(seed, (byte) 0);
            }
        } else {
            throw new InvalidKeySpecException("private keys come from a PKCS8EncodedKeySpec, RawPrivateKeySpec or "
                    + "SeedPrivateKeySpec, not " + describe(keySpec));
        }
        String refusal = family.refusal(fixedSet, key.parameterSet(), "KeyFactory");
        if (refusal != null) {
            key.destroy();
            throw new InvalidKeySpecException(refusal);
        }
        return key;
    }

    @Override
    protected <T extends KeySpec> T engineGetKeySpec(Key key, Class<T> keySpec) throws InvalidKeySpecException {
        if (keySpec == null) {
            throw new InvalidKeySpecException("key spec class is null");
        }
        Key ours = translate(key);
        if (ours instanceof DilithiumPublicKey) {
            DilithiumPublicKey pub = (DilithiumPublicKey) ours;
            if (keySpec.isAssignableFrom(X509EncodedKeySpec.class)) {
                return keySpec.cast(new X509EncodedKeySpec(pub.getEncoded()));
            }
            if (keySpec.isAssignableFrom(RawPublicKeySpec.class)) {
                return keySpec.cast(new RawPublicKeySpec(pub.getAlgorithm(), pub.getRawKey()));
            }
            throw new InvalidKeySpecException("a public key gives an X509EncodedKeySpec or a RawPublicKeySpec, not "
                    + keySpec.getName());
        }
        DilithiumPrivateKey priv = (DilithiumPrivateKey) ours;
        byte[] secret = null;
        try {
            if (keySpec.isAssignableFrom(PKCS8EncodedKeySpec.class)) {
                secret = priv.getEncoded();
                return keySpec.cast(new PKCS8EncodedKeySpec(secret));
            }
            if (keySpec.isAssignableFrom(RawPrivateKeySpec.class)) {
                secret = priv.getExpandedKey();
                return keySpec.cast(new RawPrivateKeySpec(priv.getAlgorithm(), secret));
            }
            if (keySpec.isAssignableFrom(SeedPrivateKeySpec.class)) {
                secret = priv.getSeed();
                if (secret == null) {
                    throw new InvalidKeySpecException(priv.getAlgorithm() + " private key does not know its seed");
                }
                return keySpec.cast(new SeedPrivateKeySpec(priv.getAlgorithm(), secret));
            }
            throw new InvalidKeySpecException("a private key gives a PKCS8EncodedKeySpec, RawPrivateKeySpec or "
                    + "SeedPrivateKeySpec, not " + keySpec.getName());
        } catch (IllegalStateException destroyed) {
            throw new InvalidKeySpecException(priv.getAlgorithm() + " private key is destroyed", destroyed);
        } finally {
            if (secret != null) {
                Arrays.fill(secret, (byte) 0);
            }
            if (priv != key) {
                priv.destroy();
            }
        }
    }

    private Key translate(Key key) throws InvalidKeySpecException {
        try {
            return engineTranslateKey(key);
        } catch (InvalidKeyException e) {
            throw new InvalidKeySpecException(e.getMessage(), e);
        }
    }

    /**
     * This provider's key for {@code key}: the key itself, or another provider's key of an accepted
     * set read from its X.509 or PKCS#8 encoding.
     */
    @Override
    protected Key engineTranslateKey(Key key) throws InvalidKeyException {
        Key ours;
        ParameterSet p;
        if (key instanceof PublicKey) {
            DilithiumPublicKey pub = KeyConversion.toPublic(key);
            ours = pub;
            p = pub.parameterSet();
        } else if (key instanceof PrivateKey) {
            DilithiumPrivateKey priv = KeyConversion.toPrivate(key);
            ours = priv;
            p = priv.parameterSet();
        } else {
            throw new InvalidKeyException("expected an ML-DSA or Dilithium public or private key, got "
                    + KeyConversion.describe(key));
        }
        String refusal = family.refusal(fixedSet, p, "KeyFactory");
        if (refusal != null) {
            if (ours != key && ours instanceof DilithiumPrivateKey) {
                ((DilithiumPrivateKey) ours).destroy();
            }
            throw new InvalidKeyException(refusal);
        }
        return ours;
    }

    /** The secret a private key spec holds (a fresh copy), or the refusal of a destroyed spec. */
    private static byte[] secretOf(Destroyable spec, Supplier<byte[]> read) throws InvalidKeySpecException {
        try {
            if (!spec.isDestroyed()) {
                return read.get();
            }
        } catch (IllegalStateException destroyedMeanwhile) {
            // the spec's own refusal, when another thread destroyed it after the check
        }
        throw new InvalidKeySpecException("the " + spec.getClass().getSimpleName() + " is destroyed");
    }

    private ParameterSet parameterSet(String name) throws InvalidKeySpecException {
        try {
            return ParameterSet.forName(name);
        } catch (IllegalArgumentException e) {
            throw new InvalidKeySpecException("unknown parameter set " + name, e);
        }
    }

    private void requireScope(ParameterSet p) throws InvalidKeySpecException {
        String refusal = family.refusal(fixedSet, p, "KeyFactory");
        if (refusal != null) {
            throw new InvalidKeySpecException(refusal);
        }
    }

    private static String describe(KeySpec spec) {
        return spec == null ? "null" : spec.getClass().getName();
    }
}
