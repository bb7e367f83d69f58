package io.dilithiumgpu.tls;

import io.dilithiumgpu.DilithiumGpuProvider;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.jsse.provider.BouncyCastleJsseProvider;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.DrbgParameters;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * {@link SSLContext}s for TLS 1.3 with ML-DSA certificates: BouncyCastle's JSSE with every ML-DSA
 * signature (CertificateVerify and certificate chains, signing and verifying) computed by this
 * provider, the digests, HMAC and AES-GCM by the JDK's providers (which HotSpot runs on CPU
 * instructions), and the rest (key exchange, ChaCha20-Poly1305, other signature algorithms) by
 * BouncyCastle. Neither this provider nor BouncyCastle needs to be installed with
 * {@code Security.addProvider}.
 *
 * <pre>{@code
 * SSLContext server = MlDsaTls.server(privateKey, chain).build();
 * SSLContext client = MlDsaTls.client(List.of(caCertificate)).build();
 * }</pre>
 *
 * <p>Every engine and socket of a context starts with TLS 1.3 only, the signature schemes
 * {@link #SIGNATURE_SCHEMES} (ML-DSA first; BouncyCastle leaves them off by default and reads its
 * context-wide defaults only from system properties), the cipher suites {@link #CIPHER_SUITES},
 * the key exchange groups (the builder's or {@link #NAMED_GROUPS}) and client authentication. The
 * key manager hands this provider's private key to BouncyCastle unchanged, after turning another
 * provider's ML-DSA key (one read from a key store, say) into one of this provider's once; the
 * trust manager verifies each certificate of the peer's chain once ({@link PathTrustManager}: no
 * revocation checking).
 */
public final class MlDsaTls {
    /** The ML-DSA signature schemes (draft-ietf-tls-mldsa), by their TLS names. */
    public static final List<String> ML_DSA_SCHEMES = List.of("mldsa65", "mldsa87", "mldsa44");

    /**
     * The signature schemes every context offers and accepts, in order of preference: ML-DSA, then
     * the classical TLS 1.3 schemes, so that peers with other certificates still interoperate.
     */
    public static final List<String> SIGNATURE_SCHEMES = List.of("mldsa65", "mldsa87", "mldsa44",
            "ed25519", "ed448", "ecdsa_secp256r1_sha256", "ecdsa_secp384r1_sha384", "ecdsa_secp521r1_sha512",
            "rsa_pss_rsae_sha256", "rsa_pss_rsae_sha384", "rsa_pss_rsae_sha512",
            "rsa_pss_pss_sha256", "rsa_pss_pss_sha384", "rsa_pss_pss_sha512",
            "rsa_pkcs1_sha256", "rsa_pkcs1_sha384", "rsa_pkcs1_sha512");

    /**
     * The cipher suites of the contexts, in order of preference (a server's order wins over its
     * client's): AES-GCM first, which the JDK's provider computes with AES and carry-less multiply
     * instructions, far faster than ChaCha20-Poly1305 in BouncyCastle's Java; ChaCha20-Poly1305
     * last, for peers without AES-GCM.
     */
    public static final List<String> CIPHER_SUITES = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256");

    /**
     * The key exchange groups of the contexts unless the builder names others, in order of
     * preference: X25519 for the first key share, the hybrid X25519MLKEM768 and the NIST curves
     * for peers that ask. BouncyCastle's default list has twelve, and its JSSE checks each against
     * the JDK's disabled algorithms on every connection.
     */
    public static final List<String> NAMED_GROUPS = List.of("x25519", "X25519MLKEM768", "secp256r1", "secp384r1");

    private MlDsaTls() {}

    /** A server that presents {@code key} with {@code chain} (leaf first). */
    public static Builder server(PrivateKey key, List<X509Certificate> chain) {
        return new Builder(true).identity(key, chain);
    }

    /** A client that trusts servers whose chains lead to one of {@code trustAnchors}. */
    public static Builder client(Collection<X509Certificate> trustAnchors) {
        return new Builder(false).trust(trustAnchors);
    }

    /**
     * The random generator of a context's handshakes (key shares, nonces, hedged signatures): the
     * JDK's DRBG at 256-bit strength, reseeded from the system's entropy. Without one, BouncyCastle's
     * JSSE takes its provider's {@code DEFAULT} generator, a single prediction-resistant instance
     * for the whole process that reseeds on every call under one lock: a handshake makes dozens of
     * such calls, so every handshake of the process queues on it once the cores are many.
     */
    static SecureRandom handshakeRandom() throws NoSuchAlgorithmException {
        return SecureRandom.getInstance("DRBG", DrbgParameters.instantiation(256,
                DrbgParameters.Capability.RESEED_ONLY, "dilithium-gpu tls".getBytes(StandardCharsets.US_ASCII)));
    }

    /** The providers every context shares: this provider and one BouncyCastle instance. */
    private static final class Shared {
        static final Provider BOUNCY_CASTLE = new BouncyCastleProvider();
        static final Provider ML_DSA = new DilithiumGpuProvider();
        static final Provider ROUTED_JSSE = new BouncyCastleJsseProvider(false,
                new MlDsaTlsCrypto(BOUNCY_CASTLE, ML_DSA));
        static final Provider BOUNCY_CASTLE_JSSE = new BouncyCastleJsseProvider(false, BOUNCY_CASTLE);
    }

    /** The DilithiumGPU provider instance the contexts use. */
    public static Provider provider() {
        return Shared.ML_DSA;
    }

    /** The BouncyCastle provider instance the contexts use. */
    public static Provider bouncyCastle() {
        return Shared.BOUNCY_CASTLE;
    }

    /** Collects a context's identity, trust anchors and options. Not thread-safe. */
    public static final class Builder {
        private final boolean server;
        private PrivateKey key;
        private List<X509Certificate> chain;
        private List<X509Certificate> anchors = List.of();
        private List<String> namedGroups;
        private boolean needClientAuth;
        private boolean bouncyCastleOnly;

        private Builder(boolean server) {
            this.server = server;
        }

        /** The key and chain (leaf first) this side presents; for a client, its certificate for mutual TLS. */
        public Builder identity(PrivateKey key, List<X509Certificate> chain) {
            Objects.requireNonNull(key, "key");
            if (chain == null || chain.isEmpty()) {
                throw new IllegalArgumentException("the certificate chain is empty");
            }
            this.key = key;
            this.chain = List.copyOf(chain);
            return this;
        }

        /**
         * The certificates as BouncyCastle's own objects, read again from their encodings: its JSSE
         * matches a key type ({@code ML-DSA-65}) with the certificate's public key algorithm, which
         * the JDK's certificates (JDK 24 and later, from a key store say) name {@code ML-DSA}.
         */
        private static X509Certificate[] asBouncyCastle(List<X509Certificate> certificates)
                throws GeneralSecurityException {
            CertificateFactory factory = CertificateFactory.getInstance("X.509", Shared.BOUNCY_CASTLE);
            X509Certificate[] out = new X509Certificate[certificates.size()];
            for (int i = 0; i < out.length; i++) {
                X509Certificate c = certificates.get(i);
                out[i] = c.getClass().getName().startsWith("org.bouncycastle.") ? c : (X509Certificate)
                        factory.generateCertificate(new ByteArrayInputStream(c.getEncoded()));
            }
            return out;
        }

        /** The certificates this side trusts its peer's chain to lead to (for a server: client certificates). */
        public Builder trust(Collection<X509Certificate> trustAnchors) {
            this.anchors = List.copyOf(trustAnchors);
            return this;
        }

        /** A server demands a client certificate that leads to one of its {@link #trust trust anchors}. */
        public Builder needClientAuth() {
            this.needClientAuth = true;
            return this;
        }

        /**
         * The key exchange groups, in order of preference ({@code X25519MLKEM768}, {@code x25519});
         * default {@link #NAMED_GROUPS} (with {@link #bouncyCastleOnly()}: BouncyCastle's).
         */
        public Builder namedGroups(String... groups) {
            this.namedGroups = List.of(groups);
            return this;
        }

        /**
         * The stock BouncyCastle set-up instead, for comparison and interoperability tests: its JSSE
         * and provider for everything, ML-DSA included, its PKIX key and trust managers (whose path
         * building and validation verify the leaf twice); the key is turned into BouncyCastle's.
         * The signature schemes, groups and client authentication are the same; the cipher suites
         * are BouncyCastle's, in its order.
         */
        public Builder bouncyCastleOnly() {
            this.bouncyCastleOnly = true;
            return this;
        }

        /**
         * An initialized context.
         *
         * @throws InvalidKeyException      when the key is unusable (another provider's ML-DSA key
         *                                  that does not convert)
         * @throws GeneralSecurityException when BouncyCastle's JSSE refuses the set-up
         */
        public SSLContext build() throws GeneralSecurityException {
            if (server && needClientAuth && anchors.isEmpty()) {
                throw new IllegalStateException("client authentication needs trust anchors");
            }
            List<String> groups = namedGroups != null || bouncyCastleOnly ? namedGroups : NAMED_GROUPS;
            ConnectionSettings settings = new ConnectionSettings(SIGNATURE_SCHEMES, groups, needClientAuth,
                    bouncyCastleOnly ? null : CIPHER_SUITES);
            SSLContext context;
            if (bouncyCastleOnly) {
                context = SSLContext.getInstance("TLSv1.3", Shared.BOUNCY_CASTLE_JSSE);
                context.init(bouncyCastleKeyManagers(), bouncyCastleTrustManagers(), null);
            } else {
                context = SSLContext.getInstance("TLSv1.3", Shared.ROUTED_JSSE);
                KeyManager[] km = key == null ? new KeyManager[0] : new KeyManager[] {
                        new IdentityKeyManager(ownKey(key, Shared.ML_DSA), asBouncyCastle(chain))};
                context.init(km, new TrustManager[] {new PathTrustManager(anchors, Shared.ML_DSA, Shared.BOUNCY_CASTLE)},
                        handshakeRandom());
            }
            return new ConfiguredContext(context, settings);
        }

        private KeyManager[] bouncyCastleKeyManagers() throws GeneralSecurityException {
            if (key == null) {
                return new KeyManager[0];
            }
            KeyStore store = emptyStore();
            char[] password = new char[0];
            store.setKeyEntry("identity", bouncyCastleKey(key), password, asBouncyCastle(chain));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance("PKIX", Shared.BOUNCY_CASTLE_JSSE);
            kmf.init(store, password);
            return kmf.getKeyManagers();
        }

        private TrustManager[] bouncyCastleTrustManagers() throws GeneralSecurityException {
            KeyStore store = emptyStore();
            for (int i = 0; i < anchors.size(); i++) {
                store.setCertificateEntry("anchor-" + i, anchors.get(i));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX", Shared.BOUNCY_CASTLE_JSSE);
            tmf.init(store);
            return tmf.getTrustManagers();
        }

        private static KeyStore emptyStore() throws GeneralSecurityException {
            KeyStore store = KeyStore.getInstance("PKCS12", Shared.BOUNCY_CASTLE);
            try {
                store.load(null, null);
            } catch (java.io.IOException e) {
                throw new GeneralSecurityException("an empty key store does not load", e);
            }
            return store;
        }

        private static PrivateKey bouncyCastleKey(PrivateKey key) throws GeneralSecurityException {
            if (Shared.BOUNCY_CASTLE.getService("KeyFactory", key.getAlgorithm()) == null
                    || key.getClass().getName().startsWith("org.bouncycastle.")) {
                return key;
            }
            byte[] encoded = key.getEncoded();
            try {
                return KeyFactory.getInstance(key.getAlgorithm(), Shared.BOUNCY_CASTLE)
                        .generatePrivate(new PKCS8EncodedKeySpec(encoded));
            } finally {
                Arrays.fill(encoded, (byte) 0);
            }
        }
    }

    /**
     * This provider's private key for {@code key} when this provider offers its algorithm (another
     * provider's ML-DSA key is read from its PKCS#8 encoding, once), else {@code key} itself.
     *
     * @throws InvalidKeyException when an ML-DSA key does not convert
     */
    static PrivateKey ownKey(PrivateKey key, Provider mlDsa) throws InvalidKeyException {
        if (mlDsa.getService("KeyFactory", key.getAlgorithm()) == null) {
            return key;
        }
        try {
            return (PrivateKey) KeyFactory.getInstance(key.getAlgorithm(), mlDsa).translateKey(key);
        } catch (InvalidKeyException e) {
            throw e;
        } catch (GeneralSecurityException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        }
    }
}
