package io.dilithiumgpu.spi;

import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidParameterException;
import java.security.KeyPair;
import java.security.KeyPairGeneratorSpi;
import java.security.ProviderException;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;

/**
 * Key generation (FIPS 204 Algorithm 1, ML-DSA.KeyGen; round 3.1 {@code crypto_sign_keypair}) for
 * one parameter set or, for the generic names, any set of the family (category 3 until initialized).
 *
 * <p>Each key pair takes exactly one {@code nextBytes} call of 32 bytes from the {@code SecureRandom}
 * (the one given to {@code initialize}, else the platform default): the seed ξ or ζ. A fixed or
 * DRBG-backed random therefore reproduces known-answer key pairs. The private key keeps the seed.
 */
public final class DilithiumKeyPairGenerator extends KeyPairGeneratorSpi {
    private final Family family;
    private final ParameterSet fixedSet;
    private ParameterSet params;
    private SecureRandom random;

    /** @param fixedSet the one set this service generates, or {@code null} for any set of the family */
    public DilithiumKeyPairGenerator(Family family, ParameterSet fixedSet) {
        this.family = family;
        this.fixedSet = fixedSet;
        this.params = fixedSet != null ? fixedSet : family.defaultSet();
    }

    /**
     * Chooses the set by NIST security category.
     *
     * @param keysize 2, 3 or 5
     * @throws InvalidParameterException for another number, or one that is not this service's set
     */
    @Override
    public void initialize(int keysize, SecureRandom random) {
        ParameterSet p = family.forLevel(keysize);
        if (p == null) {
            throw new InvalidParameterException(family.familyName()
                    + " key size is the NIST security category 2, 3 or 5, not " + keysize);
        }
        String refusal = family.refusal(fixedSet, p, "KeyPairGenerator");
        if (refusal != null) {
            throw new InvalidParameterException(refusal);
        }
        this.params = p;
        this.random = random;
    }

    /**
     * Chooses the set by name: a {@link NamedParameterSpec} such as {@code ML-DSA-44} or
     * {@code Dilithium2}.
     */
    @Override
    public void initialize(AlgorithmParameterSpec spec, SecureRandom random) throws InvalidAlgorithmParameterException {
        if (!(spec instanceof NamedParameterSpec)) {
            throw new InvalidAlgorithmParameterException("expected a NamedParameterSpec, got "
                    + (spec == null ? "null" : spec.getClass().getName()));
        }
        String name = ((NamedParameterSpec) spec).getName();
        ParameterSet p;
        try {
            p = ParameterSet.forName(name);
        } catch (IllegalArgumentException e) {
            throw new InvalidAlgorithmParameterException("unknown parameter set " + name, e);
        }
        String refusal = family.refusal(fixedSet, p, "KeyPairGenerator");
        if (refusal != null) {
            throw new InvalidAlgorithmParameterException(refusal);
        }
        this.params = p;
        this.random = random;
    }

    /**
     * @throws ProviderException when the engine fails, or the wait for it is interrupted (the
     *                           thread's interrupt flag is then set again)
     */
    @Override
    public KeyPair generateKeyPair() {
        ParameterSet p = params;
        byte[] seed = new byte[ParameterSet.SEED_BYTES];
        byte[][] generated = null;
        try {
            if (random != null) {
                random.nextBytes(seed);
            } else {
                DefaultRandom.nextBytes(seed);
            }
            generated = EngineCalls.await(Engines.shared().keyGen(p, seed), p + " key generation",
                    ProviderException::new);
            return new KeyPair(DilithiumPublicKey.of(p, generated[0]),
                    DilithiumPrivateKey.of(p, seed, generated[1], null));
        } finally {
            Arrays.fill(seed, (byte) 0);
            if (generated != null) {
                Arrays.fill(generated[1], (byte) 0);
            }
        }
    }
}
