package io.dilithiumgpu.tls;

import org.bouncycastle.jcajce.util.ProviderJcaJceHelper;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.NoSuchPaddingException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Security;
import java.security.Signature;
import java.util.Locale;
import java.util.Set;

/**
 * The JCA services BouncyCastle's TLS code asks for, each from the provider that computes it
 * fastest: every {@code Signature} this provider offers (ML-DSA, by name or OID) from this
 * provider; the transcript and HKDF digests, HMAC and AES-GCM from the JDK's own providers, whose
 * implementations HotSpot replaces with CPU instructions (SHA extensions or AVX2; AES-NI and
 * carry-less multiplication); everything else (X25519, ML-KEM, ChaCha20-Poly1305, other
 * signatures, certificate parsing) from BouncyCastle, whose X25519 and ML-KEM beat the JDK's.
 * Where a JDK provider is absent or lacks the algorithm, BouncyCastle serves it. This provider alone
 * cannot serve TLS: it has no SHA-512, AES or X25519.
 */
final class MlDsaRoutingHelper extends ProviderJcaJceHelper {
    /**
     * The digests TLS 1.3 hashes its transcript and derives its keys with. Not SHA-512: BouncyCastle
     * takes its random generator ({@code DEFAULT}) from the provider of its SHA-512, which the
     * JDK's lacks, and no TLS 1.3 cipher suite hashes with it.
     */
    private static final Set<String> JDK_DIGESTS = Set.of("SHA-256", "SHA-384", "SHA256", "SHA384");
    private static final Set<String> JDK_MACS = Set.of("HMACSHA256", "HMACSHA384");
    private static final Set<String> JDK_CIPHERS = Set.of("AES/GCM/NOPADDING");

    private final Provider mlDsa;
    private final Provider jdkDigests;
    private final Provider jdkCiphers;

    MlDsaRoutingHelper(Provider everythingElse, Provider mlDsa) {
        this(everythingElse, mlDsa, Security.getProvider("SUN"), Security.getProvider("SunJCE"));
    }

    /** {@code jdkDigests} and {@code jdkCiphers} null: BouncyCastle for those too. */
    MlDsaRoutingHelper(Provider everythingElse, Provider mlDsa, Provider jdkDigests, Provider jdkCiphers) {
        super(everythingElse);
        this.mlDsa = mlDsa;
        this.jdkDigests = jdkDigests;
        this.jdkCiphers = jdkCiphers;
    }

    @Override
    public Signature createSignature(String algorithm) throws NoSuchAlgorithmException {
        if (mlDsa.getService("Signature", algorithm) != null) {
            return Signature.getInstance(algorithm, mlDsa);
        }
        return super.createSignature(algorithm);
    }

    @Override
    public MessageDigest createMessageDigest(String algorithm) throws NoSuchAlgorithmException {
        if (offers(jdkDigests, "MessageDigest", algorithm, JDK_DIGESTS)) {
            return MessageDigest.getInstance(algorithm, jdkDigests);
        }
        return super.createMessageDigest(algorithm);
    }

    @Override
    public MessageDigest createDigest(String algorithm) throws NoSuchAlgorithmException {
        return createMessageDigest(algorithm);
    }

    @Override
    public Mac createMac(String algorithm) throws NoSuchAlgorithmException {
        if (offers(jdkCiphers, "Mac", algorithm, JDK_MACS)) {
            return Mac.getInstance(algorithm, jdkCiphers);
        }
        return super.createMac(algorithm);
    }

    @Override
    public Cipher createCipher(String algorithm) throws NoSuchAlgorithmException, NoSuchPaddingException {
        if (offers(jdkCiphers, "Cipher", algorithm, JDK_CIPHERS)) {
            return Cipher.getInstance(algorithm, jdkCiphers);
        }
        return super.createCipher(algorithm);
    }

    /** Whether {@code algorithm} is one taken from the JDK and {@code jdk} offers it. */
    private static boolean offers(Provider jdk, String type, String algorithm, Set<String> fromJdk) {
        if (jdk == null || !fromJdk.contains(algorithm.toUpperCase(Locale.ROOT))) {
            return false;
        }
        String base = algorithm.indexOf('/') < 0 ? algorithm : algorithm.substring(0, algorithm.indexOf('/'));
        return jdk.getService(type, base) != null;
    }
}
