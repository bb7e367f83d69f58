package io.dilithiumgpu.fuzz;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;

import io.dilithiumgpu.ProviderTestSupport;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the fuzz targets share: one key pair per set from a fixed seed, a valid signature of
 * {@link #MESSAGE} under each, the names a caller may pass, and keys of "another implementation".
 */
final class FuzzFixtures {
    static final byte[] MESSAGE = "fuzz".getBytes(StandardCharsets.UTF_8);
    static final List<ParameterSet> SETS = List.of(ParameterSet.values());
    /** Service names, ours and others', as callers pass them to getInstance. */
    static final List<String> NAMES = List.of("ML-DSA", "ML-DSA-44", "ML-DSA-65", "ML-DSA-87", "Dilithium",
            "Dilithium2", "Dilithium3", "Dilithium5", "HASH-ML-DSA", "ML-DSA-44-WITH-SHA512",
            "ML-DSA-65-WITH-SHA512", "ML-DSA-87-WITH-SHA512", "2.16.840.1.101.3.4.3.17", "Ed25519", "RSA", "");
    /** Pre-hash names: every ACVP name, a wrong case, an unknown one, and none. */
    static final List<String> PRE_HASHES = Arrays.asList(null, "SHA2-224", "SHA2-256", "SHA2-384", "SHA2-512",
            "SHA2-512/224", "SHA2-512/256", "SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512", "SHAKE-128",
            "SHAKE-256", "sha2-512", "MD5", "");
    /** Key formats as other implementations name them. */
    static final List<String> FORMATS = Arrays.asList("X.509", "PKCS#8", "pkcs#8", "RAW", null, "");

    private static final Map<ParameterSet, KeyPair> PAIRS = new EnumMap<>(ParameterSet.class);
    private static final Map<ParameterSet, byte[]> SIGNATURES = new EnumMap<>(ParameterSet.class);

    private FuzzFixtures() {}

    static synchronized KeyPair pair(ParameterSet p) {
        return PAIRS.computeIfAbsent(p, set -> {
            byte[] seed = new byte[ParameterSet.SEED_BYTES];
            Arrays.fill(seed, (byte) (0x40 + set.ordinal()));
            try {
                return ProviderTestSupport.keyPair(set.algorithmName(), seed);
            } catch (GeneralSecurityException e) {
                throw new AssertionError(e);
            }
        });
    }

    static DilithiumPublicKey publicKey(ParameterSet p) {
        return (DilithiumPublicKey) pair(p).getPublic();
    }

    static DilithiumPrivateKey privateKey(ParameterSet p) {
        return (DilithiumPrivateKey) pair(p).getPrivate();
    }

    /** A valid signature of {@link #MESSAGE} with the default parameters (empty context, pure). */
    static synchronized byte[] signature(ParameterSet p) {
        return SIGNATURES.computeIfAbsent(p, set -> {
            try {
                Signature s = Signature.getInstance(set.algorithmName(), PROVIDER);
                s.initSign(privateKey(set));
                s.update(MESSAGE);
                return s.sign();
            } catch (GeneralSecurityException e) {
                throw new AssertionError(e);
            }
        }).clone();
    }

    /** Another implementation's public key: a name, a format and an encoding, nothing else. */
    static PublicKey foreignPublic(String algorithm, String format, byte[] encoded) {
        return new ForeignPublicKey(algorithm, format, encoded);
    }

    /** Another implementation's private key: a name, a format and an encoding, nothing else. */
    static PrivateKey foreignPrivate(String algorithm, String format, byte[] encoded) {
        return new ForeignPrivateKey(algorithm, format, encoded);
    }

    private abstract static class ForeignKey implements java.security.Key {
        private final String algorithm;
        private final String format;
        private final byte[] encoded;

        ForeignKey(String algorithm, String format, byte[] encoded) {
            this.algorithm = algorithm;
            this.format = format;
            this.encoded = encoded;
        }

        @Override public String getAlgorithm() { return algorithm; }
        @Override public String getFormat() { return format; }
        @Override public byte[] getEncoded() { return encoded == null ? null : encoded.clone(); }
    }

    private static final class ForeignPublicKey extends ForeignKey implements PublicKey {
        ForeignPublicKey(String algorithm, String format, byte[] encoded) { super(algorithm, format, encoded); }
    }

    private static final class ForeignPrivateKey extends ForeignKey implements PrivateKey {
        ForeignPrivateKey(String algorithm, String format, byte[] encoded) { super(algorithm, format, encoded); }
    }
}
