package io.dilithiumgpu.spi;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.batch.Engine;
import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.batch.SigningKey;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PreHash;
import io.dilithiumgpu.core.Scheme;
import io.dilithiumgpu.route.Route;
import io.dilithiumgpu.route.Router;
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
import java.security.Signature;
import java.security.SignatureException;
import java.security.SignatureSpi;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidParameterSpecException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One Signature SPI for all services: pure ML-DSA (FIPS 204 Algorithms 2/3), HashML-DSA (Algorithms
 * 4/5) and round 3.1 Dilithium, over one fixed parameter set or, for the generic names, the key's.
 *
 * <p>Routes ({@link Router}): {@code update} feeds the message to a streaming hash on the caller's
 * thread ({@link MuInput}); {@code sign} and {@code verify} then compute on the caller's thread, or
 * hand μ to the shared {@link io.dilithiumgpu.batch.Engine} and park until the batch that carries it
 * completes, whichever the router expects to finish sooner. A signature that the JDK's own ML-DSA
 * computes exactly as this provider ({@link JdkSigning}) may instead go to the JDK, decided when its
 * message starts (the first {@code update}, or {@code sign}): the message is then kept, up to
 * {@value #JDK_MESSAGE_LIMIT} bytes, for the JDK's {@code Signature}, which buffers whole messages; a
 * longer one goes on into μ, as any other, so that no message is held whole. The object is ready
 * for the next message, with the same key and parameters, after every {@code sign} and
 * {@code verify}, successful or not.
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
 * this provider is not copied: a batched signature's batch reads it straight into its record
 * ({@link SigningKey}), and a signature on the caller's thread, or one whose rnd derives from the
 * key, takes a transient copy and wipes it. The key's cache goes with each call ({@link DilithiumPrivateKey#cache()},
 * {@link DilithiumPublicKey#cache()}), so that repeated use of one key is cheaper on the CPU backend.
 */
public final class DilithiumSignature extends SignatureSpi {
    private static final int MAX_CONTEXT_BYTES = 255;
    /** The longest message kept for the JDK's signer; beyond it the message streams into μ. */
    static final int JDK_MESSAGE_LIMIT = 1 << 16;
    private static final byte[] EMPTY = new byte[0];

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
    /** {@link #privateKey} as the batcher reads it: the key's own, one object per key. */
    private SigningKey signingKey;
    private boolean ownsPrivateKey;
    private SecureRandom random;
    /** The key's own tr, read only: the μ hasher copies it. */
    private byte[] tr;
    /** Whether initSign or initVerify has run. */
    private boolean initialized;
    /** μ of the message begun since the last init, sign or verify; null before its first byte. */
    private MuInput message;
    /**
     * The μ input of the last message, to be restarted for the next one with the same key and
     * parameters when it starts (not before: a {@code Signature} used once never restarts it); or null.
     */
    private MuInput spareMessage;
    /** The JDK's signer, kept for the next message; initialized for the current key while {@link #jdkReady}. */
    private Signature jdkSigner;
    private boolean jdkReady;
    /** Whether the current message goes to the JDK: kept in {@link #jdkMessage} until sign. */
    private boolean toJdk;
    private byte[] jdkMessage;
    private int jdkMessageLength;
    /** For {@code update(byte)}; made at its first call. */
    private byte[] oneByte;

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
        this.tr = k.trInPlace();
        this.initialized = true;
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
        this.signingKey = k.signingKey();
        this.ownsPrivateKey = translated;
        this.random = random;
        this.tr = k.trInPlace();
        this.initialized = true;
    }

    private ParameterSet requireScope(ParameterSet p) throws InvalidKeyException {
        String refusal = family.refusal(fixedSet, p, servicePreHash != null ? "HashML-DSA Signature" : "Signature");
        if (refusal != null) {
            throw new InvalidKeyException(refusal);
        }
        return p;
    }

    /**
     * Forgets the keys and the message begun; a private key this object made from another provider's
     * key is destroyed.
     */
    private void clearKeys() {
        if (ownsPrivateKey) {
            privateKey.destroy();
        }
        publicKey = null;
        privateKey = null;
        signingKey = null;
        ownsPrivateKey = false;
        random = null;
        jdkReady = false;
        dropMessage();
    }

    /** Discards the message begun, if any. */
    private void dropMessage() {
        message = null;
        spareMessage = null;
        toJdk = false;
        jdkMessageLength = 0;
    }

    /**
     * Starts a message: kept for the JDK's signer when the call is one the JDK covers and the router
     * sends it there, else into μ.
     */
    private void startMessage() {
        if (privateKey != null && JdkSigning.covers(params, preHash, spec) && Router.shared().toJdk(params)) {
            toJdk = true;
            jdkMessageLength = 0;
            return;
        }
        message = newMuInput();
    }

    private void keepForJdk(byte[] b, int off, int len) throws SignatureException {
        if (len > JDK_MESSAGE_LIMIT - jdkMessageLength) {
            spillToMu();
            message.update(b, off, len);
            return;
        }
        int needed = jdkMessageLength + len;
        if (jdkMessage == null || jdkMessage.length < needed) {
            int size = jdkMessage == null ? 256 : jdkMessage.length;
            while (size < needed) {
                size <<= 1;
            }
            jdkMessage = jdkMessage == null ? new byte[size] : Arrays.copyOf(jdkMessage, size);
        }
        System.arraycopy(b, off, jdkMessage, jdkMessageLength, len);
        jdkMessageLength = needed;
    }

    /** Moves the message kept for the JDK into μ; it goes on there. */
    private void spillToMu() throws SignatureException {
        toJdk = false;
        message = newMuInput();
        message.update(jdkMessage == null ? EMPTY : jdkMessage, 0, jdkMessageLength);
        jdkMessageLength = 0;
    }

    @Override
    protected void engineUpdate(byte b) throws SignatureException {
        if (oneByte == null) {
            oneByte = new byte[1];
        }
        oneByte[0] = b;
        engineUpdate(oneByte, 0, 1);
    }

    @Override
    protected void engineUpdate(byte[] b, int off, int len) throws SignatureException {
        requireInitialized();
        if (message == null && !toJdk) {
            startMessage();
        }
        if (toJdk) {
            keepForJdk(b, off, len);
        } else {
            message.update(b, off, len);
        }
    }

    /** Signs the message given since the last init, sign or verify. */
    @Override
    protected byte[] engineSign() throws SignatureException {
        requireInitialized();
        if (privateKey == null) {
            throw new SignatureException("Signature is initialized for verification, not signing");
        }
        if (message == null && !toJdk) {
            startMessage();
        }
        if (toJdk) {
            byte[] signature = signWithJdk();
            if (signature != null) {
                return signature;
            }
            spillToMu();
        }
        // Timed from here: μ's last block and rnd are this route's work as much as the signature
        // is, and the JDK's route does both inside its own timed call.
        Router router = Router.shared();
        Route route = router.route(Operation.SIGN, params, JdkSigning.covers(params, preHash, spec));
        long started = router.started(route);
        CompletableFuture<byte[]> request = null;
        byte[] sk = null;
        byte[] rnd = null;
        try {
            Engine engine = route == Route.DIRECT ? null : Engines.shared();
            // A short message goes to an engine that hashes μ itself as it is, unless rnd derives from μ here.
            byte[] record = engine != null && !rndFromKey() && engine.takesMessages(params, Operation.SIGN)
                    ? message.record() : null;
            byte[] mu = record == null ? message.mu() : null;
            if (privateKey.isDestroyed()) {
                throw new SignatureException(params + " private key was destroyed after initSign");
            }
            if (rndFromKey()) {
                sk = expandedKey();
                rnd = Scheme.deterministicRnd(params, sk, 0, mu, 0);
            } else if (route == Route.DIRECT || random != null) {
                rnd = drawnRnd();
            } else {
                // The default randomness: the batch draws its requests' rnds at once.
                request = record != null
                        ? engine.signMessageDrawing(params, signingKey, privateKey.cache(), tr, record, DRAW_DEFAULT)
                        : engine.signDrawing(params, signingKey, privateKey.cache(), mu, DRAW_DEFAULT);
                return EngineCalls.await(request, params, " signing", SignatureException::new);
            }
            if (route == Route.DIRECT) {
                if (sk == null) {
                    sk = expandedKey();
                }
                return signHere(sk, mu, rnd);
            }
            byte[] handedRnd = rnd;
            rnd = null;  // the engine's from here on: it wipes it (EngineCalls.signInPlace)
            request = EngineCalls.signInPlace(engine, params, signingKey, privateKey.cache(), tr, record, mu,
                    handedRnd);
            return EngineCalls.await(request, params, " signing", SignatureException::new);
        } finally {
            router.ended(Operation.SIGN, params, route, started, request == null ? 0 : Engines.readyNanos(request));
            wipe(sk);
            wipe(rnd);
            spareMessage = message;
            message = null;
        }
    }

    /**
     * Signs μ on this thread with the core, through the key's cache, its attempts shared with the
     * helpers of the cores the calls in flight leave idle ({@link Router#spareCores}).
     */
    private byte[] signHere(byte[] sk, byte[] mu, byte[] rnd) throws SignatureException {
        byte[] signature = new byte[params.signatureBytes()];
        if (!Scheme.sign(params, sk, 0, privateKey.cache(), mu, 0, rnd, 0, signature, 0,
                Router.shared().spareCores())) {
            // The batcher's words for the same outcome (SignBatch), so that both routes fail alike.
            String why = params + " private key does not decode: s1 or s2 has a coefficient outside [-"
                    + params.eta() + ", " + params.eta() + "]";
            throw new SignatureException(params + " signing failed: " + why, new InvalidKeyException(why));
        }
        return signature;
    }

    /**
     * Signs the message kept for the JDK's signer with it, on this thread; null, with the message
     * still kept, when the JDK cannot sign with this key. Timed from before the signer is made or
     * re-initialized, which is this route's cost per call as much as the signature is (with
     * {@code Signature.getInstance} per call, SUN decodes the key at every {@code initSign}).
     */
    private byte[] signWithJdk() throws SignatureException {
        Router router = Router.shared();
        long started = router.started(Route.JDK);
        if (!jdkReady) {
            jdkSigner = JdkSigning.signer(jdkSigner, params, privateKey, random);
            jdkReady = jdkSigner != null;
            if (!jdkReady) {
                router.cancelled(Route.JDK);
                return null;
            }
        }
        toJdk = false;
        boolean signed = false;
        try {
            if (privateKey.isDestroyed()) {
                throw new SignatureException(params + " private key was destroyed after initSign");
            }
            jdkSigner.update(jdkMessage == null ? EMPTY : jdkMessage, 0, jdkMessageLength);
            jdkMessageLength = 0;
            byte[] signature = jdkSigner.sign();
            if (privateKey.isDestroyed()) {
                // Destroyed while the JDK signed: its copy of the key may have been zeroed under it.
                wipe(signature);
                throw new SignatureException(params + " private key was destroyed after initSign");
            }
            signed = true;
            return signature;
        } finally {
            jdkReady = signed;
            router.ended(Operation.SIGN, params, Route.JDK, started);
        }
    }

    private byte[] expandedKey() throws SignatureException {
        try {
            return privateKey.getExpandedKey();
        } catch (IllegalStateException e) {
            throw new SignatureException(params + " private key was destroyed after initSign", e);
        }
    }

    /** Fills an array from the provider's default randomness, for a batch to draw its requests' rnds at once. */
    private static final Consumer<byte[]> DRAW_DEFAULT = DefaultRandom::nextBytes;

    /** Whether rnd (round 3.1: ρ′) derives from the key and μ rather than being drawn. */
    private boolean rndFromKey() {
        return spec.isDeterministic() || (!params.isFips204() && random == null);
    }

    /** Drawn FIPS 204 rnd (32 bytes), or round 3.1 ρ′ (64 bytes): {@link ParameterSet#rndBytes()}. */
    private byte[] drawnRnd() {
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
        if (message == null) {
            startMessage();
        }
        MuInput ended = message;
        spareMessage = ended;
        message = null;
        // μ now, as before routing, unless the message may go to the engine whole.
        byte[] mu = signature != null && signature.length == params.signatureBytes() && ended.holdsRecord()
                ? null : ended.mu();
        if (signature == null) {
            throw new SignatureException("signature is null");
        }
        if (signature.length != params.signatureBytes()) {
            return false;
        }
        Router router = Router.shared();
        Route route = router.route(Operation.VERIFY, params);
        long started = router.started(route);
        CompletableFuture<Boolean> request = null;
        try {
            Engine engine = route == Route.DIRECT ? null : Engines.shared();
            byte[] record = null;
            if (mu == null) {
                record = engine != null && engine.takesMessages(params, Operation.VERIFY) ? ended.record() : null;
                mu = record == null ? ended.mu() : null;
            }
            if (route == Route.DIRECT) {
                return Scheme.verify(params, publicKey.rawKeyInPlace(), 0, publicKey.cache(), mu, 0, signature, 0);
            }
            // This thread blocks until the verdict, so the engine reads the arrays in place.
            request = record != null
                    ? engine.verifyMessageInPlace(params, publicKey.rawKeyInPlace(), publicKey.cache(), tr, record,
                            signature)
                    : engine.verifyInPlace(params, publicKey.rawKeyInPlace(), publicKey.cache(), mu, signature);
            return EngineCalls.await(request, params, " verification", SignatureException::new);
        } finally {
            router.ended(Operation.VERIFY, params, route, started, request == null ? 0 : Engines.readyNanos(request));
        }
    }

    private void requireInitialized() throws SignatureException {
        if (!initialized) {
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
        dropMessage();
    }

    private MuInput newMuInput() {
        if (spareMessage != null) {
            MuInput next = spareMessage.next();
            spareMessage = null;
            return next;
        }
        if (spec.isExternalMu()) {
            return MuInput.external();
        }
        byte[] context = spec.getContextLength() == 0 ? EMPTY : spec.getContext();
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
