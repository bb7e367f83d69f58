package io.dilithiumgpu.spi;

import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PreHash;
import io.dilithiumgpu.core.Scheme;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.spec.MLDSAParameterSpec;

import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.SignatureException;
import java.security.SignatureSpi;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidParameterSpecException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * One Signature SPI for all services: pure ML-DSA (FIPS 204 Algorithms 2/3), HashML-DSA (Algorithms
 * 4/5) and round 3.1 Dilithium, over one fixed parameter set or, for the generic names, the key's.
 *
 * <p>{@code update} feeds the message to a streaming hash on the caller's thread ({@link MuInput});
 * {@code sign} and {@code verify} hand μ to the shared {@link io.dilithiumgpu.batch.Engine} and park
 * until the batch that carries it completes. The object is ready for the next message, with the same
 * key and parameters, after every {@code sign} and {@code verify}, successful or not.
 *
 * <p>Randomness: ML-DSA signing is hedged (FIPS 204 Algorithm 2), with rnd drawn in one
 * {@code nextBytes} call of 32 bytes per signature from the {@code SecureRandom} given to
 * {@code initSign}, else from the platform default. Round 3.1 signing is deterministic
 * (ρ′ = H(K ‖ μ)) unless {@code initSign} was given a {@code SecureRandom}, from which ρ′ itself is
 * drawn in one {@code nextBytes} call of 64 bytes. {@link MLDSAParameterSpec#isDeterministic()}
 * makes both deterministic.
 *
 * <p>Verification returns {@code false}, never throws, for a signature of the wrong length or one
 * that does not decode (hint out of order, z out of range).
 *
 * <p>Keys of other providers are read through their X.509 or PKCS#8 encodings; a private key so
 * made belongs to this object, which destroys it when it is initialized again. A private key of
 * this provider is not copied: each signature takes a transient copy of the expanded key for the
 * engine call and wipes it. The key's cache goes with each call ({@link DilithiumPrivateKey#cache()},
 * {@link DilithiumPublicKey#cache()}), so that repeated use of one key is cheaper on the CPU backend.
 */
public final class DilithiumSignature extends SignatureSpi {
    private static final int MAX_CONTEXT_BYTES = 255;

    private final Provider provider;
    private final Family family;
    private final ParameterSet fixedSet;
    private final PreHash servicePreHash;

    private MLDSAParameterSpec spec = MLDSAParameterSpec.DEFAULT;
    private boolean parametersSet;
    private PreHash preHash;

    private ParameterSet params;
    private DilithiumPublicKey publicKey;
    private DilithiumPrivateKey privateKey;
    private boolean ownsPrivateKey;
    private SecureRandom random;
    private byte[] tr;
    private MuInput message;
    private final byte[] oneByte = new byte[1];

    /**
     * @param provider       the provider that creates this SPI (named by {@link #engineGetParameters()})
     * @param family         the services' family
     * @param fixedSet       the one set this service takes, or {@code null} to take the key's
     * @param servicePreHash the HashML-DSA pre-hash, or {@code null} for pure signing
     */
    public DilithiumSignature(Provider provider, Family family, ParameterSet fixedSet, PreHash servicePreHash) {
        if (servicePreHash != null && family != Family.ML_DSA) {
            throw new IllegalArgumentException("HashML-DSA is an ML-DSA algorithm");
        }
        this.provider = provider;
        this.family = family;
        this.fixedSet = fixedSet;
        this.servicePreHash = servicePreHash;
        this.preHash = servicePreHash;
    }

    @Override
    protected void engineInitVerify(PublicKey key) throws InvalidKeyException {
        DilithiumPublicKey k = KeyConversion.toPublic(key);
        ParameterSet p = requireScope(k.parameterSet());
        clearKeys();
        this.params = p;
        this.publicKey = k;
        this.tr = k.getTr();
        this.message = newMuInput();
    }

    @Override
    protected void engineInitSign(PrivateKey key) throws InvalidKeyException {
        initSign(key, null);
    }

    @Override
    protected void engineInitSign(PrivateKey key, SecureRandom random) throws InvalidKeyException {
        initSign(key, random);
    }

    private void initSign(PrivateKey key, SecureRandom random) throws InvalidKeyException {
        DilithiumPrivateKey k = KeyConversion.toPrivate(key);
        boolean translated = k != key;
        ParameterSet p;
        try {
            p = requireScope(k.parameterSet());
        } catch (InvalidKeyException e) {
            if (translated) {
                k.destroy();
            }
            throw e;
        }
        clearKeys();
        this.params = p;
        this.privateKey = k;
        this.ownsPrivateKey = translated;
        this.random = random;
        this.tr = k.getTr();
        this.message = newMuInput();
    }

    private ParameterSet requireScope(ParameterSet p) throws InvalidKeyException {
        String refusal = family.refusal(fixedSet, p, servicePreHash != null ? "HashML-DSA Signature" : "Signature");
        if (refusal != null) {
            throw new InvalidKeyException(refusal);
        }
        return p;
    }

    /** Forgets the keys; a private key this object made from another provider's key is destroyed. */
    private void clearKeys() {
        if (ownsPrivateKey) {
            privateKey.destroy();
        }
        publicKey = null;
        privateKey = null;
        ownsPrivateKey = false;
        random = null;
    }

    @Override
    protected void engineUpdate(byte b) throws SignatureException {
        oneByte[0] = b;
        engineUpdate(oneByte, 0, 1);
    }

    @Override
    protected void engineUpdate(byte[] b, int off, int len) throws SignatureException {
        requireInitialized();
        message.update(b, off, len);
    }

    /** Signs the message given since the last init, sign or verify. */
    @Override
    protected byte[] engineSign() throws SignatureException {
        requireInitialized();
        if (privateKey == null) {
            throw new SignatureException("Signature is initialized for verification, not signing");
        }
        byte[] sk = null;
        byte[] rnd = null;
        try {
            byte[] mu = message.mu();
            sk = expandedKey();
            rnd = rnd(sk, mu);
            // This thread blocks until the result, so the engine reads the fresh arrays in place.
            return EngineCalls.await(Engines.shared().signInPlace(params, sk, privateKey.cache(), mu, rnd),
                    params + " signing", SignatureException::new);
        } finally {
            wipe(sk);
            wipe(rnd);
            message = newMuInput();
        }
    }

    private byte[] expandedKey() throws SignatureException {
        try {
            return privateKey.getExpandedKey();
        } catch (IllegalStateException e) {
            throw new SignatureException(params + " private key was destroyed after initSign", e);
        }
    }

    /** FIPS 204 rnd (32 bytes), or round 3.1 ρ′ (64 bytes): {@link ParameterSet#rndBytes()}. */
    private byte[] rnd(byte[] sk, byte[] mu) {
        if (spec.isDeterministic() || (!params.isFips204() && random == null)) {
            return Scheme.deterministicRnd(params, sk, 0, mu, 0);
        }
        byte[] rnd = new byte[params.rndBytes()];
        if (random != null) {
            random.nextBytes(rnd);
        } else {
            DefaultRandom.nextBytes(rnd);
        }
        return rnd;
    }

    /**
     * Verifies the message given since the last init, sign or verify.
     *
     * @return {@code false} for a signature that is invalid, has the wrong length or does not decode
     * @throws SignatureException when the Signature is not initialized for verification, external μ
     *                            was not exactly 64 bytes, or the wait for the engine was interrupted
     */
    @Override
    protected boolean engineVerify(byte[] signature) throws SignatureException {
        requireInitialized();
        if (publicKey == null) {
            throw new SignatureException("Signature is initialized for signing, not verification");
        }
        byte[] mu;
        try {
            mu = message.mu();
        } finally {
            message = newMuInput();
        }
        if (signature == null) {
            throw new SignatureException("signature is null");
        }
        if (signature.length != params.signatureBytes()) {
            return false;
        }
        // This thread blocks until the verdict, so the engine reads the arrays in place.
        return EngineCalls.await(Engines.shared().verifyInPlace(params, publicKey.getRawKey(), publicKey.cache(), mu,
                signature), params + " verification", SignatureException::new);
    }

    private void requireInitialized() throws SignatureException {
        if (message == null) {
            throw new SignatureException("Signature is not initialized: call initSign or initVerify first");
        }
    }

    /**
     * Takes an {@link MLDSAParameterSpec}, or {@code null} for the defaults. Discards any message
     * given since the last init, sign or verify.
     *
     * @throws InvalidAlgorithmParameterException for another spec class, a context over 255 bytes, a
     *         context for round 3.1 or with external μ, a pre-hash for a pure signature, an unknown
     *         pre-hash, a pre-hash other than the service's for a fixed HashML-DSA service
     *         ({@code ML-DSA-44-WITH-SHA512}, ...), or external μ for HashML-DSA
     */
    @Override
    protected void engineSetParameter(AlgorithmParameterSpec parameters) throws InvalidAlgorithmParameterException {
        MLDSAParameterSpec s;
        if (parameters == null) {
            s = MLDSAParameterSpec.DEFAULT;
        } else if (parameters instanceof MLDSAParameterSpec) {
            s = (MLDSAParameterSpec) parameters;
        } else {
            throw new InvalidAlgorithmParameterException("expected an " + MLDSAParameterSpec.class.getName()
                    + ", got " + parameters.getClass().getName());
        }
        if (s.getContextLength() > MAX_CONTEXT_BYTES) {
            throw new InvalidAlgorithmParameterException("context is " + s.getContextLength()
                    + " bytes; at most " + MAX_CONTEXT_BYTES + " are allowed (FIPS 204 Algorithm 2)");
        }
        if (family == Family.DILITHIUM && s.getContextLength() != 0) {
            throw new InvalidAlgorithmParameterException("round 3.1 Dilithium signatures have no context");
        }
        if (s.isExternalMu() && servicePreHash != null) {
            throw new InvalidAlgorithmParameterException("external mu does not apply to HashML-DSA");
        }
        if (s.isExternalMu() && s.getContextLength() != 0) {
            throw new InvalidAlgorithmParameterException("with external mu the context is already inside mu");
        }
        PreHash ph = servicePreHash;
        if (s.getPreHash() != null) {
            if (servicePreHash == null) {
                throw new InvalidAlgorithmParameterException("a pre-hash applies only to HashML-DSA signatures");
            }
            try {
                ph = PreHash.forAcvpName(s.getPreHash());
            } catch (IllegalArgumentException e) {
                throw new InvalidAlgorithmParameterException("unknown HashML-DSA pre-hash " + s.getPreHash(), e);
            }
            if (fixedSet != null && ph != servicePreHash) {
                throw new InvalidAlgorithmParameterException(fixedSet + " HashML-DSA service pre-hashes with "
                        + servicePreHash.acvpName() + " only, not " + ph.acvpName()
                        + "; use HASH-ML-DSA for another pre-hash");
            }
        }
        this.spec = s;
        this.preHash = ph;
        this.parametersSet = parameters != null;
        if (message != null) {
            message = newMuInput();
        }
    }

    private MuInput newMuInput() {
        if (spec.isExternalMu()) {
            return MuInput.external();
        }
        byte[] context = spec.getContext();
        if (preHash != null) {
            return MuInput.preHashed(params, tr, context, preHash);
        }
        return MuInput.pure(params, tr, context);
    }

    /**
     * The parameters given with {@code setParameter}, with the pre-hash filled in for HashML-DSA, as
     * {@link AlgorithmParameters} holding an {@link MLDSAParameterSpec}; {@code null} when none were
     * given, as the {@code Signature} contract asks.
     */
    @Override
    protected AlgorithmParameters engineGetParameters() {
        if (!parametersSet) {
            return null;
        }
        MLDSAParameterSpec effective = preHash == null ? spec : spec.toBuilder().preHash(preHash.acvpName()).build();
        AlgorithmParameters parameters =
                new AlgorithmParameters(new SignatureParameters(), provider, family.familyName()) { };
        try {
            parameters.init(effective);
        } catch (InvalidParameterSpecException e) {
            throw new IllegalStateException("SignatureParameters refused an MLDSAParameterSpec", e);
        }
        return parameters;
    }

    /** Not supported: use {@link #engineSetParameter(AlgorithmParameterSpec)}. */
    @Override
    @Deprecated
    protected void engineSetParameter(String param, Object value) {
        throw new InvalidParameterException("use setParameter(AlgorithmParameterSpec) with an MLDSAParameterSpec");
    }

    /** Not supported: use {@link #engineGetParameters()}. */
    @Override
    @Deprecated
    protected Object engineGetParameter(String param) {
        throw new InvalidParameterException("use getParameters()");
    }

    private static void wipe(byte[] secret) {
        if (secret != null) {
            Arrays.fill(secret, (byte) 0);
        }
    }
}
