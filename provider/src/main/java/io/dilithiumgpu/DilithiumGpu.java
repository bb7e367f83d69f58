package io.dilithiumgpu;

import io.dilithiumgpu.backend.KeyHandle;
import io.dilithiumgpu.backend.MessageRecord;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.batch.Engine;
import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.batch.SelfTest;
import io.dilithiumgpu.batch.SigningKey;
import io.dilithiumgpu.core.MuHasher;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PreHash;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;
import io.dilithiumgpu.core.Scheme;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.spec.MLDSAParameterSpec;
import io.dilithiumgpu.spi.DefaultRandom;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.ProviderException;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * The asynchronous API, for callers that batch themselves: each call queues one operation on the
 * same batcher and backends as the JCA services ({@link Engines#shared()}) and returns at once with
 * a future. Issue many calls before waiting on any, and they run as large batches.
 *
 * <p>Semantics match {@code Signature.getInstance(set name, "DilithiumGPU")} with an
 * {@link MLDSAParameterSpec}: pure signing (FIPS 204 Algorithms 2 and 3; round 3.1
 * {@code crypto_sign}) with the spec's context; HashML-DSA (FIPS 204 Algorithms 4 and 5) when the
 * spec names a pre-hash; external μ when the spec says so (the message is then μ itself, 64
 * bytes). ML-DSA signing is hedged (rnd from the provider's default randomness, striped SP 800-90A
 * DRBGs: {@link DefaultRandom}) unless the spec is
 * deterministic; round 3.1 signing is deterministic (ρ′ = H(K ‖ μ)), as with a {@code Signature}
 * given no {@code SecureRandom}.
 *
 * <p>The message representative μ is computed on the calling thread before the call returns;
 * the calling thread blocks only when the batch queue is full (backpressure). Errors come through
 * the future: {@link InvalidKeyException} for an unusable key, {@link InvalidAlgorithmParameterException}
 * for a spec the key's set does not allow, {@link java.security.ProviderException} when no backend
 * could run the operation. A {@code false} verification result means the signature is invalid.
 * Dependent stages attached without an executor run on a batch thread: keep them short, or use
 * the {@code *Async} variants.
 *
 * <p>Ownership: arguments are copied or consumed before the call returns; the caller may reuse or
 * wipe them. Private-key copies made here are wiped once queued, and the key converted from
 * another provider's is destroyed. The key-object methods pass the
 * key's cache of decoded vectors along (a raw encoding has none), so that repeated use of one key
 * object is cheaper on the CPU backend.
 */
public final class DilithiumGpu {
    private static final Provider PROVIDER = new DilithiumGpuProvider();
    /** FIPS 204 Algorithm 2: ctx is at most 255 bytes. */
    private static final int MAX_CONTEXT_BYTES = 255;

    private DilithiumGpu() {}

    // ---- health

    /**
     * The backend the provider's operations run on, the GPUs in use and why CUDA is not used,
     * starting the shared engine if no operation has yet (that probes CUDA once). Never throws for
     * a backend that cannot open: the status then says {@code none} and why.
     */
    public static Status status() {
        try {
            return Status.of(Engines.sharedBatcher());
        } catch (ProviderException e) {
            return Status.none(e.getMessage());
        }
    }

    /**
     * Runs the compiled-in known-answer self-test ({@link SelfTest}: key generation, signing and
     * verification of all six sets, no files needed) on the shared engine, so on the backend in use.
     *
     * @return what it found; failed checks are listed, not thrown
     * @throws ProviderException    when no backend can be opened
     * @throws InterruptedException when interrupted while waiting for the engine
     */
    public static SelfTest.Result selfTest() throws InterruptedException {
        return SelfTest.run(Engines.shared());
    }

    // ---- key objects

    /** Signs a message with the default spec (empty context; hedged for ML-DSA). */
    public static CompletableFuture<byte[]> signAsync(PrivateKey privateKey, byte[] message) {
        return signAsync(privateKey, message, MLDSAParameterSpec.DEFAULT);
    }

    /**
     * Signs a message.
     *
     * <p>With this provider's own key, a hedged ML-DSA signature of a short message (M′ of at most
     * 71 bytes) reaches the batch as the message itself and the key object: the batch reads the key
     * when it runs and the backend hashes μ, as for a JCA signature, so that the calling thread
     * neither copies the key nor hashes. A key destroyed before then fails the future with
     * {@link InvalidKeyException}.
     *
     * @param privateKey this provider's private key, or another provider's ML-DSA or Dilithium
     *                   private key with a PKCS#8 encoding
     */
    public static CompletableFuture<byte[]> signAsync(PrivateKey privateKey, byte[] message, MLDSAParameterSpec spec) {
        return signAsync(Engines.shared(), privateKey, message, spec);
    }

    /**
     * {@link #signAsync(PrivateKey, byte[], MLDSAParameterSpec)} on {@code engine}. Another
     * provider's key is converted into one of ours for the call, and that copy is destroyed once
     * the engine has taken what it needs.
     */
    static CompletableFuture<byte[]> signAsync(Engine engine, PrivateKey privateKey, byte[] message,
                                               MLDSAParameterSpec spec) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(spec, "spec");
        DilithiumPrivateKey key = null;
        byte[] sk = null;
        try {
            key = ours(privateKey, DilithiumPrivateKey.class);
            ParameterSet p = key.parameterSet();
            checkSpec(p, message, spec);
            // Our own key object, hedged: the engine reads the key where it lives and hashes μ itself.
            byte[] record = key == privateKey && !spec.isDeterministic() && p.isFips204()
                    ? record(engine, p, Operation.SIGN, message, spec) : null;
            if (record != null) {
                return engine.signMessageDrawing(p, key.signingKey(), key.cache(), key.trInPlace(), record,
                        DRAW_DEFAULT);
            }
            sk = key.getExpandedKey();
            return sign(engine, p, sk, key.cache(), key.trInPlace(), message, spec);
        } catch (GeneralSecurityException e) {
            return CompletableFuture.failedFuture(e);
        } catch (IllegalStateException e) {
            return CompletableFuture.failedFuture(new InvalidKeyException("private key is destroyed", e));
        } finally {
            wipe(sk);
            if (key != null && key != privateKey) {
                key.destroy();
            }
        }
    }

    /** Verifies a signature with the default spec (empty context). */
    public static CompletableFuture<Boolean> verifyAsync(PublicKey publicKey, byte[] message, byte[] signature) {
        return verifyAsync(publicKey, message, signature, MLDSAParameterSpec.DEFAULT);
    }

    /**
     * Verifies a signature.
     *
     * @param publicKey this provider's public key, or another provider's ML-DSA or Dilithium
     *                  public key with an X.509 encoding
     */
    public static CompletableFuture<Boolean> verifyAsync(PublicKey publicKey, byte[] message, byte[] signature,
                                                         MLDSAParameterSpec spec) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(signature, "signature");
        Objects.requireNonNull(spec, "spec");
        try {
            DilithiumPublicKey key = ours(publicKey, DilithiumPublicKey.class);
            return verify(Engines.shared(), key.parameterSet(), key.rawKeyInPlace(), key.cache(), key.trInPlace(), message,
                    signature, spec);
        } catch (GeneralSecurityException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Generates {@code n} key pairs (FIPS 204 Algorithm 1; round 3.1 {@code crypto_sign_keypair}),
     * each from 32 bytes of the provider's default randomness ({@link DefaultRandom}). The private
     * keys keep their seeds.
     *
     * @param n ≥ 0; above the batch queue's capacity the calling thread blocks until the first
     *          batches have run
     */
    public static CompletableFuture<List<KeyPair>> generateKeyPairs(ParameterSet parameterSet, int n) {
        return generateKeyPairs(Engines.shared(), parameterSet, n, DefaultRandom::nextBytes);
    }

    /** As {@link #generateKeyPairs(ParameterSet, int)}, the set by name ({@code ML-DSA-65}, {@code Dilithium2}). */
    public static CompletableFuture<List<KeyPair>> generateKeyPairs(String parameterSet, int n) {
        return generateKeyPairs(ParameterSet.forName(parameterSet), n);
    }

    // ---- one key for many operations

    /**
     * A handle of this private key for one-key work: {@link #signAsync(KeyHandle, byte[],
     * MLDSAParameterSpec)}, {@link #signAllAsync(KeyHandle, List, MLDSAParameterSpec)} and the bulk
     * {@link io.dilithiumgpu.backend.BatchRecords} one-key forms. The handle holds a copy of the
     * expanded key; {@link KeyHandle#destroy()} wipes it and the key's slots in every GPU's key
     * cache. Handles of equal keys share the cached form.
     *
     * @throws InvalidKeyException when the key is not an ML-DSA or Dilithium key, or is destroyed
     */
    public static KeyHandle keyHandle(PrivateKey privateKey) throws InvalidKeyException {
        DilithiumPrivateKey key = ours(privateKey, DilithiumPrivateKey.class);
        byte[] sk = null;
        try {
            sk = key.getExpandedKey();
            return KeyHandle.ofPrivateKey(key.parameterSet(), sk);
        } catch (IllegalStateException e) {
            throw new InvalidKeyException("private key is destroyed", e);
        } finally {
            wipe(sk);
            if (key != privateKey) {
                key.destroy();
            }
        }
    }

    /**
     * A handle of this public key for one-key work ({@link #verifyAsync(KeyHandle, byte[], byte[],
     * MLDSAParameterSpec)}, {@link #verifyAllAsync(KeyHandle, List, List, MLDSAParameterSpec)}, the
     * bulk one-key forms).
     *
     * @throws InvalidKeyException when the key is not an ML-DSA or Dilithium key
     */
    public static KeyHandle keyHandle(PublicKey publicKey) throws InvalidKeyException {
        DilithiumPublicKey key = ours(publicKey, DilithiumPublicKey.class);
        return KeyHandle.ofPublicKey(key.parameterSet(), key.rawKeyInPlace());
    }

    /**
     * Signs a message with a private key's handle: as {@link #signAsync(PrivateKey, byte[],
     * MLDSAParameterSpec)}, the handle's cache identity going with the task, so that the CUDA
     * backend keeps the key expanded in device memory from its second use on.
     */
    public static CompletableFuture<byte[]> signAsync(KeyHandle key, byte[] message, MLDSAParameterSpec spec) {
        return signAsync(Engines.shared(), key, message, spec);
    }

    /**
     * {@link #signAsync(KeyHandle, byte[], MLDSAParameterSpec)} on {@code engine}: a hedged signature
     * of a short pure message goes to it as the message record and the handle's key, read when the
     * batch runs, as {@link #signAsync(PrivateKey, byte[], MLDSAParameterSpec)} hands a key object's.
     */
    static CompletableFuture<byte[]> signAsync(Engine engine, KeyHandle key, byte[] message, MLDSAParameterSpec spec) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(spec, "spec");
        byte[] sk = null;
        try {
            requireHandle(key, true);
            ParameterSet p = key.params();
            checkSpec(p, message, spec);
            byte[] record = !spec.isDeterministic() && p.isFips204()
                    ? record(engine, p, Operation.SIGN, message, spec) : null;
            if (record != null) {
                return engine.signMessageDrawing(p, new HandleKey(key), key.privateKeyCache(), key.trInPlace(),
                        record, DRAW_DEFAULT);
            }
            sk = handleKey(key, true);
            return sign(engine, p, sk, key.privateKeyCache(), key.trInPlace(), message, spec);
        } catch (GeneralSecurityException e) {
            return CompletableFuture.failedFuture(e);
        } finally {
            wipe(sk);
        }
    }

    /**
     * A private key handle's key as a batch reads it when it runs; one made per call, equal for one
     * handle, so that a batch of one handle's signatures reads the key once.
     */
    private record HandleKey(KeyHandle handle) implements SigningKey {
        @Override
        public boolean copyTo(ByteBuffer dst, int offset) {
            return handle.copyPrivateKeyTo(dst, offset);
        }
    }

    /** Verifies a signature with a public key's handle (see {@link #signAsync(KeyHandle, byte[], MLDSAParameterSpec)}). */
    public static CompletableFuture<Boolean> verifyAsync(KeyHandle key, byte[] message, byte[] signature,
                                                         MLDSAParameterSpec spec) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(signature, "signature");
        Objects.requireNonNull(spec, "spec");
        try {
            // The handle's own bytes, read in place: a public key's handle never changes them.
            byte[] pk = handleKey(key, false, true);
            return verify(Engines.shared(), key.params(), pk, key.publicKeyCache(), key.trInPlace(), message,
                    signature, spec);
        } catch (GeneralSecurityException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * A one-key batch: signs every message with one key, queued together so that they run in the
     * same backend batches and, on the CUDA backend, read one expanded copy of the key from device
     * memory. The list holds the signatures in the messages' order; it fails as a whole with the
     * first failure.
     */
    public static CompletableFuture<List<byte[]>> signAllAsync(KeyHandle key, List<byte[]> messages,
                                                               MLDSAParameterSpec spec) {
        Objects.requireNonNull(messages, "messages");
        List<CompletableFuture<byte[]>> pending = new ArrayList<>(messages.size());
        for (byte[] message : messages) {
            pending.add(signAsync(key, message, spec));
        }
        return all(pending);
    }

    /**
     * A one-key batch of verifications: {@code signatures.get(i)} of {@code messages.get(i)}, all
     * with one key (see {@link #signAllAsync}); the list holds the verdicts in order.
     *
     * @throws IllegalArgumentException when the lists differ in length
     */
    public static CompletableFuture<List<Boolean>> verifyAllAsync(KeyHandle key, List<byte[]> messages,
                                                                  List<byte[]> signatures, MLDSAParameterSpec spec) {
        Objects.requireNonNull(messages, "messages");
        Objects.requireNonNull(signatures, "signatures");
        if (messages.size() != signatures.size()) {
            throw new IllegalArgumentException(messages.size() + " messages, " + signatures.size() + " signatures");
        }
        List<CompletableFuture<Boolean>> pending = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            pending.add(verifyAsync(key, messages.get(i), signatures.get(i), spec));
        }
        return all(pending);
    }

    private static <T> CompletableFuture<List<T>> all(List<CompletableFuture<T>> pending) {
        return CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0]))
                .thenApply(ignored -> pending.stream().map(CompletableFuture::join).toList());
    }

    /** The handle's packed key (a copy for a private key, to be wiped); fails for the wrong kind or a destroyed handle. */
    private static byte[] handleKey(KeyHandle key, boolean secret) throws InvalidKeyException {
        return handleKey(key, secret, false);
    }

    /** Checks that the handle is of the kind the operation needs and not destroyed. */
    private static void requireHandle(KeyHandle key, boolean secret) throws InvalidKeyException {
        Objects.requireNonNull(key, "key");
        if (key.isPrivate() != secret) {
            throw new InvalidKeyException((secret ? "signing needs a private" : "verification needs a public")
                    + " key's handle, not " + key);
        }
        if (key.isDestroyed()) {
            throw new InvalidKeyException(key + " is destroyed");
        }
    }

    /**
     * The handle's key, once checked to be of the kind the operation needs and not destroyed: a copy
     * the caller owns, or, {@code inPlace}, a public key's own bytes ({@link KeyHandle#publicKeyInPlace}).
     */
    private static byte[] handleKey(KeyHandle key, boolean secret, boolean inPlace) throws InvalidKeyException {
        requireHandle(key, secret);
        try {
            return inPlace ? key.publicKeyInPlace() : key.copyKey();
        } catch (IllegalStateException e) {
            throw new InvalidKeyException(key + " is destroyed", e);
        }
    }

    // ---- raw encodings

    /** Signs with a raw expanded private key and the default spec (empty context; hedged for ML-DSA). */
    public static CompletableFuture<byte[]> signAsync(ParameterSet parameterSet, byte[] privateKey, byte[] message) {
        return signAsync(parameterSet, privateKey, message, MLDSAParameterSpec.DEFAULT);
    }

    /**
     * Signs with a raw expanded private key sk = ρ ‖ K ‖ tr ‖ s1 ‖ s2 ‖ t0 (FIPS 204 skEncode;
     * round 3.1 {@code pack_sk}).
     */
    public static CompletableFuture<byte[]> signAsync(ParameterSet parameterSet, byte[] privateKey, byte[] message,
                                                      MLDSAParameterSpec spec) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(spec, "spec");
        if (privateKey.length != parameterSet.privateKeyBytes()) {
            return CompletableFuture.failedFuture(new InvalidKeyException(parameterSet + " private key must be "
                    + parameterSet.privateKeyBytes() + " bytes, not " + privateKey.length));
        }
        int trOffset = 2 * ParameterSet.SEED_BYTES;
        byte[] tr = Arrays.copyOfRange(privateKey, trOffset, trOffset + parameterSet.trBytes());
        try {
            return sign(Engines.shared(), parameterSet, privateKey, null, tr, message, spec);
        } catch (GeneralSecurityException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Verifies with a raw public key and the default spec (empty context). */
    public static CompletableFuture<Boolean> verifyAsync(ParameterSet parameterSet, byte[] publicKey, byte[] message,
                                                         byte[] signature) {
        return verifyAsync(parameterSet, publicKey, message, signature, MLDSAParameterSpec.DEFAULT);
    }

    /** Verifies with a raw public key pk = ρ ‖ t1 (FIPS 204 pkEncode; round 3.1 {@code pack_pk}). */
    public static CompletableFuture<Boolean> verifyAsync(ParameterSet parameterSet, byte[] publicKey, byte[] message,
                                                         byte[] signature, MLDSAParameterSpec spec) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(signature, "signature");
        Objects.requireNonNull(spec, "spec");
        if (publicKey.length != parameterSet.publicKeyBytes()) {
            return CompletableFuture.failedFuture(new InvalidKeyException(parameterSet + " public key must be "
                    + parameterSet.publicKeyBytes() + " bytes, not " + publicKey.length));
        }
        try {
            byte[] pk = publicKey.clone();
            return verify(Engines.shared(), parameterSet, pk, null, Scheme.tr(parameterSet, pk, 0), message, signature,
                    spec);
        } catch (GeneralSecurityException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    // ---- shared by both forms

    /** @param cache the key's cache, or {@code null} for a raw key */
    static CompletableFuture<byte[]> sign(Engine engine, ParameterSet p, byte[] sk, PrivateKeyCache cache, byte[] tr,
                                          byte[] message, MLDSAParameterSpec spec)
            throws InvalidAlgorithmParameterException {
        byte[] mu = mu(p, tr, message, spec);
        byte[] rnd = null;
        try {
            if (spec.isDeterministic() || !p.isFips204()) {
                rnd = Scheme.deterministicRnd(p, sk, 0, mu, 0);
            } else {
                rnd = new byte[p.rndBytes()];
                DefaultRandom.nextBytes(rnd);
            }
            return engine.sign(p, sk, cache, mu, rnd);
        } finally {
            wipe(rnd);
        }
    }

    /**
     * @param pk    an array no one writes (a copy of the caller's, or a key's own): a short message's
     *              engine reads it in place
     * @param cache the key's cache, or {@code null} for a raw key
     */
    static CompletableFuture<Boolean> verify(Engine engine, ParameterSet p, byte[] pk, PublicKeyCache cache, byte[] tr,
                                             byte[] message, byte[] signature, MLDSAParameterSpec spec)
            throws InvalidAlgorithmParameterException {
        checkSpec(p, message, spec);
        byte[] record = record(engine, p, Operation.VERIFY, message, spec);
        if (record != null) {
            return engine.verifyMessageInPlace(p, pk, cache, tr, record, signature.clone());
        }
        return engine.verify(p, pk, cache, mu(p, tr, message, spec), signature);
    }

    /** Fills an array from the provider's default randomness, for a batch to draw its requests' rnds at once. */
    private static final Consumer<byte[]> DRAW_DEFAULT = DefaultRandom::nextBytes;

    /**
     * M′ of a pure message (FIPS 204 Algorithms 2/3: 0 ‖ |ctx| ‖ ctx ‖ M; round 3.1: M) as a
     * {@link MessageRecord} for an engine that hashes μ itself, so that the caller's thread does not;
     * null when the engine does not, the spec is not pure, or M′ does not fit a record.
     */
    private static byte[] record(Engine engine, ParameterSet p, Operation op, byte[] message, MLDSAParameterSpec spec) {
        if (spec.isExternalMu() || spec.getPreHash() != null) {
            return null;
        }
        int header = MessageRecord.headerBytes(p.isFips204(), spec.getContextLength());
        if (header + message.length > MessageRecord.MAX_MESSAGE || !engine.takesMessages(p, op)) {
            return null;
        }
        byte[] record = new byte[MessageRecord.BYTES];
        MessageRecord.putHeader(record, p.isFips204(), spec.getContext());
        System.arraycopy(message, 0, record, header, message.length);
        MessageRecord.tag(record, header + message.length);
        return record;
    }

    static CompletableFuture<List<KeyPair>> generateKeyPairs(Engine engine, ParameterSet p, int n,
                                                             Consumer<byte[]> random) {
        Objects.requireNonNull(p, "parameterSet");
        if (n < 0) {
            throw new IllegalArgumentException("n must be ≥ 0: " + n);
        }
        byte[][] seeds = new byte[n][ParameterSet.SEED_BYTES];
        List<CompletableFuture<byte[][]>> pending = new ArrayList<>(n);
        for (int i = 0; i < n && !Thread.currentThread().isInterrupted(); i++) {
            random.accept(seeds[i]);
            pending.add(engine.keyGen(p, seeds[i]));
        }
        if (pending.size() < n) {
            pending.forEach(f -> f.cancel(false));
            wipeAll(seeds);
            return CompletableFuture.failedFuture(new InterruptedException("interrupted while queueing key generation"));
        }
        return CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0]))
                .handle((ignored, failure) -> {
                    try {
                        if (failure != null) {
                            pending.forEach(f -> f.thenAccept(pair -> wipe(pair[1])));
                            throw failure instanceof RuntimeException ? (RuntimeException) failure
                                    : new CompletionException(failure);
                        }
                        List<KeyPair> pairs = new ArrayList<>(n);
                        for (int i = 0; i < n; i++) {
                            byte[][] pair = pending.get(i).join();
                            try {
                                pairs.add(new KeyPair(DilithiumPublicKey.of(p, pair[0]),
                                        DilithiumPrivateKey.of(p, seeds[i], pair[1], null)));
                            } finally {
                                wipe(pair[1]);
                            }
                        }
                        return pairs;
                    } finally {
                        wipeAll(seeds);
                    }
                });
    }

    /**
     * μ for the spec: external (the message is μ), HashML-DSA with the spec's pre-hash, or pure.
     *
     * @throws InvalidAlgorithmParameterException when the spec does not fit the set or the message
     */
    private static byte[] mu(ParameterSet p, byte[] tr, byte[] message, MLDSAParameterSpec spec)
            throws InvalidAlgorithmParameterException {
        checkSpec(p, message, spec);
        if (spec.isExternalMu()) {
            return message.clone();
        }
        if (spec.getPreHash() != null) {
            PreHash ph = PreHash.forAcvpName(spec.getPreHash());
            return MuHasher.preHashed(p, tr, spec.getContext(), ph, ph.digest(message));
        }
        return MuHasher.pure(p, tr, spec.getContext()).update(message).finish();
    }

    /**
     * Whether the spec fits the set and the message: a context of at most 255 bytes, none in round
     * 3.1, external μ of exactly 64 bytes and not with a pre-hash, a known pre-hash of ML-DSA only.
     *
     * @throws InvalidAlgorithmParameterException when it does not
     */
    private static void checkSpec(ParameterSet p, byte[] message, MLDSAParameterSpec spec)
            throws InvalidAlgorithmParameterException {
        if (spec.getContextLength() > MAX_CONTEXT_BYTES) {
            throw new InvalidAlgorithmParameterException("context is " + spec.getContextLength()
                    + " bytes; at most " + MAX_CONTEXT_BYTES + " are allowed (FIPS 204 Algorithm 2)");
        }
        if (!p.isFips204() && spec.getContextLength() != 0) {
            throw new InvalidAlgorithmParameterException("round 3.1 Dilithium signatures have no context");
        }
        if (spec.isExternalMu()) {
            if (spec.getPreHash() != null) {
                throw new InvalidAlgorithmParameterException("external mu does not apply to HashML-DSA");
            }
            if (message.length != ParameterSet.MU_BYTES) {
                throw new InvalidAlgorithmParameterException("external mu must be " + ParameterSet.MU_BYTES
                        + " bytes, not " + message.length);
            }
        } else if (spec.getPreHash() != null) {
            if (!p.isFips204()) {
                throw new InvalidAlgorithmParameterException("round 3.1 Dilithium has no pre-hash variant");
            }
            try {
                PreHash.forAcvpName(spec.getPreHash());
            } catch (IllegalArgumentException e) {
                throw new InvalidAlgorithmParameterException("unknown HashML-DSA pre-hash " + spec.getPreHash(), e);
            }
        }
    }

    /** This provider's key: the key itself, or another provider's key read from its encoding. */
    private static <K extends Key> K ours(Key key, Class<K> type) throws InvalidKeyException {
        Objects.requireNonNull(key, "key");
        if (type.isInstance(key)) {
            return type.cast(key);
        }
        String algorithm = key.getAlgorithm();
        if (algorithm == null) {
            throw new InvalidKeyException("not an ML-DSA or Dilithium key: " + key.getClass().getName()
                    + " names no algorithm");
        }
        Key translated;
        try {
            translated = KeyFactory.getInstance(algorithm, PROVIDER).translateKey(key);
        } catch (NoSuchAlgorithmException e) {
            throw new InvalidKeyException("not an ML-DSA or Dilithium key: " + key.getAlgorithm(), e);
        }
        if (!type.isInstance(translated)) {
            throw new InvalidKeyException("expected a " + type.getSimpleName() + ", got a " + key.getAlgorithm()
                    + " " + (key instanceof PublicKey ? "public" : "private") + " key");
        }
        return type.cast(translated);
    }

    private static void wipe(byte[] a) {
        if (a != null) {
            Arrays.fill(a, (byte) 0);
        }
    }

    private static void wipeAll(byte[][] arrays) {
        for (byte[] a : arrays) {
            wipe(a);
        }
    }
}
