package io.dilithiumgpu.interop;

import static io.dilithiumgpu.ProviderTestSupport.ML_DSA_SETS;
import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.ProviderTestSupport.ScriptedRandom;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.key.Oids;
import io.dilithiumgpu.key.Pkcs8;
import io.dilithiumgpu.key.PrivateKeyForm;
import io.dilithiumgpu.spec.MLDSAParameterSpec;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.jcajce.spec.ContextParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAKeyPairGenerator;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAParameters;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAPrivateKeyParameters;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAPublicKeyParameters;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Interoperability with BouncyCastle 1.85's ML-DSA: the same keys from the same seed, key encodings
 * both ways (byte-exact round trips of theirs through ours), and signatures of ours verified by
 * theirs and theirs by ours, for all three sets, with and without a context, over message sizes
 * from 0 bytes to 1 MiB.
 */
class BouncyCastleInteropTest {
    private static final Provider BC = new BouncyCastleProvider();

    static Stream<Arguments> setsAndContexts() {
        return ML_DSA_SETS.stream().flatMap(set -> Stream.of(
                Arguments.of(set, new byte[0]), Arguments.of(set, "interop-context".getBytes()),
                Arguments.of(set, randomBytes(set.hashCode(), 255))));
    }

    static List<String> sets() { return ML_DSA_SETS; }

    /**
     * Message sizes: the edges 0 B and 1 MiB, a few sizes around 64 bytes and up to 10 kB, and a
     * few seeded random sizes between.
     */
    private static List<Integer> messageSizes(long seed) {
        Random random = new Random(seed);
        List<Integer> sizes = new ArrayList<>(List.of(0, 1, 63, 64, 65, 1000, 10_000, 1 << 20));
        for (int i = 0; i < 4; i++) {
            sizes.add(random.nextInt(1 << (4 + 4 * i)));
        }
        return sizes;
    }

    /** Key generation from ξ (FIPS 204 Algorithm 6): ours through the JCA, theirs through its lightweight API. */
    @ParameterizedTest
    @MethodSource("sets")
    void sameKeysFromTheSameSeed(String set) throws Exception {
        Random random = new Random(set.hashCode());
        for (int trial = 0; trial < 5; trial++) {
            byte[] seed = new byte[32];
            random.nextBytes(seed);
            MLDSAKeyPairGenerator generator = new MLDSAKeyPairGenerator();
            generator.init(new MLDSAKeyGenerationParameters(ScriptedRandom.of(seed), lightweight(set)));
            AsymmetricCipherKeyPair theirs = generator.generateKeyPair();
            KeyPair ours = keyPair(set, seed);
            assertArrayEquals(((MLDSAPublicKeyParameters) theirs.getPublic()).getEncoded(),
                    ((DilithiumPublicKey) ours.getPublic()).getRawKey(), set + " trial " + trial);
            assertArrayEquals(((MLDSAPrivateKeyParameters) theirs.getPrivate()).getPrivateKey(),
                    ((DilithiumPrivateKey) ours.getPrivate()).getExpandedKey(), set + " trial " + trial);
        }
    }

    private static MLDSAParameters lightweight(String set) {
        switch (set) {
            case "ML-DSA-44": return MLDSAParameters.ml_dsa_44;
            case "ML-DSA-65": return MLDSAParameters.ml_dsa_65;
            case "ML-DSA-87": return MLDSAParameters.ml_dsa_87;
            default: throw new IllegalArgumentException(set);
        }
    }

    @ParameterizedTest
    @MethodSource("sets")
    void theirKeysRoundTripThroughOursByteForByte(String set) throws Exception {
        KeyPair theirs = KeyPairGenerator.getInstance(set, BC).generateKeyPair();
        KeyFactory ours = KeyFactory.getInstance(set, PROVIDER);
        PublicKey pub = ours.generatePublic(new X509EncodedKeySpec(theirs.getPublic().getEncoded()));
        PrivateKey priv = ours.generatePrivate(new PKCS8EncodedKeySpec(theirs.getPrivate().getEncoded()));
        assertArrayEquals(theirs.getPublic().getEncoded(), pub.getEncoded());
        assertArrayEquals(theirs.getPrivate().getEncoded(), priv.getEncoded());
        assertEquals(set, pub.getAlgorithm());
        assertEquals(pub, ours.translateKey(theirs.getPublic()));
        assertEquals(priv, ours.translateKey(theirs.getPrivate()));

        byte[] message = "our Signature, their key objects".getBytes();
        byte[] sig = sign(set, PROVIDER, theirs.getPrivate(), ourParams(new byte[0]), message);
        assertTrue(verify(set, BC, theirs.getPublic(), theirParams(new byte[0]), message, sig));
        assertTrue(verify(set, PROVIDER, theirs.getPublic(), ourParams(new byte[0]), message, sig));
    }

    @ParameterizedTest
    @MethodSource("sets")
    void ourKeysInEveryFormParseInTheirs(String set) throws Exception {
        KeyPair kp = KeyPairGenerator.getInstance(set, PROVIDER).generateKeyPair();
        KeyFactory theirs = KeyFactory.getInstance(set, BC);
        PublicKey theirPub = theirs.generatePublic(new X509EncodedKeySpec(kp.getPublic().getEncoded()));
        assertArrayEquals(kp.getPublic().getEncoded(), theirPub.getEncoded());
        DilithiumPrivateKey ourPriv = (DilithiumPrivateKey) kp.getPrivate();
        byte[] message = "signed by BouncyCastle with our key".getBytes();
        for (PrivateKeyForm form : PrivateKeyForm.values()) {
            byte[] encoded = Pkcs8.encode(ParameterSet.forName(set), form, ourPriv.getSeed(), ourPriv.getExpandedKey());
            PrivateKey theirPriv = theirs.generatePrivate(new PKCS8EncodedKeySpec(encoded));
            Signature signer = Signature.getInstance(set, BC);
            signer.initSign(theirPriv);
            signer.update(message);
            Signature verifier = Signature.getInstance(set, PROVIDER);
            verifier.initVerify(kp.getPublic());
            verifier.update(message);
            assertTrue(verifier.verify(signer.sign()), form.toString());
            assertEquals(ourPriv, KeyFactory.getInstance(set, PROVIDER)
                    .generatePrivate(new PKCS8EncodedKeySpec(theirPriv.getEncoded())), form.toString());
        }
    }

    @ParameterizedTest
    @MethodSource("setsAndContexts")
    void signaturesVerifyBothWays(String set, byte[] context) throws Exception {
        KeyPair ours = KeyPairGenerator.getInstance(set, PROVIDER).generateKeyPair();
        KeyPair theirs = KeyPairGenerator.getInstance(set, BC).generateKeyPair();
        // BouncyCastle 1.84's ML-DSA Signature takes only its own key objects: it reads ours from its encoding.
        PublicKey ourPubForThem = KeyFactory.getInstance(set, BC).generatePublic(
                new X509EncodedKeySpec(ours.getPublic().getEncoded()));
        Random random = new Random(set.hashCode() * 31L + context.length);
        for (int size : messageSizes(random.nextLong())) {
            byte[] message = new byte[size];
            random.nextBytes(message);

            byte[] ourSig = sign(set, PROVIDER, ours.getPrivate(), ourParams(context), message);
            assertTrue(verify(set, BC, ourPubForThem, theirParams(context), message, ourSig), set + " ours→BC " + size);
            byte[] theirSig = sign(set, BC, theirs.getPrivate(), theirParams(context), message);
            assertTrue(verify(set, PROVIDER, theirs.getPublic(), ourParams(context), message, theirSig),
                    set + " BC→ours " + size);

            byte[] wrong = message.length == 0 ? new byte[] {0} : message.clone();
            wrong[wrong.length - 1] ^= 1;
            assertFalse(verify(set, BC, ourPubForThem, theirParams(context), wrong, ourSig));
            assertFalse(verify(set, PROVIDER, theirs.getPublic(), ourParams(context), wrong, theirSig));
        }
    }

    /** Context lengths around SHAKE256's and the encoding's edges, with a short message. */
    @ParameterizedTest
    @MethodSource("sets")
    void contextsOfManyLengthsVerifyBothWays(String set) throws Exception {
        KeyPair ours = KeyPairGenerator.getInstance(set, PROVIDER).generateKeyPair();
        KeyPair theirs = KeyPairGenerator.getInstance(set, BC).generateKeyPair();
        PublicKey ourPubForThem = KeyFactory.getInstance(set, BC).generatePublic(
                new X509EncodedKeySpec(ours.getPublic().getEncoded()));
        byte[] message = randomBytes(set.hashCode() + 1L, 100);
        for (int length : new int[] {1, 16, 63, 64, 65, 232}) {
            byte[] context = randomBytes(length, length);
            byte[] ourSig = sign(set, PROVIDER, ours.getPrivate(), ourParams(context), message);
            assertTrue(verify(set, BC, ourPubForThem, theirParams(context), message, ourSig), set + " ours→BC " + length);
            byte[] theirSig = sign(set, BC, theirs.getPrivate(), theirParams(context), message);
            assertTrue(verify(set, PROVIDER, theirs.getPublic(), ourParams(context), message, theirSig),
                    set + " BC→ours " + length);
            byte[] otherContext = context.clone();
            otherContext[0] ^= 1;
            assertFalse(verify(set, PROVIDER, theirs.getPublic(), ourParams(otherContext), message, theirSig));
        }
    }

    @ParameterizedTest
    @MethodSource("setsAndContexts")
    void hashMlDsaWithSha512VerifiesBothWays(String set, byte[] context) throws Exception {
        String algorithm = set + "-WITH-SHA512";
        KeyPair ours = KeyPairGenerator.getInstance(set, PROVIDER).generateKeyPair();
        KeyPair theirs = KeyPairGenerator.getInstance(algorithm, BC).generateKeyPair();
        byte[] message = new byte[4099];
        new Random(7).nextBytes(message);
        byte[] ourSig = sign(algorithm, PROVIDER, ours.getPrivate(), ourParams(context), message);
        PublicKey ourPubForThem = KeyFactory.getInstance(algorithm, BC).generatePublic(
                new X509EncodedKeySpec(underHashOid((DilithiumPublicKey) ours.getPublic())));
        assertTrue(verify(algorithm, BC, ourPubForThem, theirParams(context), message, ourSig));
        byte[] theirSig = sign(algorithm, BC, theirs.getPrivate(), theirParams(context), message);
        assertTrue(verify(algorithm, PROVIDER, theirs.getPublic(), ourParams(context), message, theirSig));
        assertFalse(verify(set, PROVIDER, theirs.getPublic(), ourParams(context), message, theirSig),
                "a HashML-DSA signature is not a pure one");
    }

    /** Our public key under its HashML-DSA OID: BouncyCastle uses HashML-DSA only with keys so marked. */
    private static byte[] underHashOid(DilithiumPublicKey key) throws Exception {
        String oid = Oids.hashMlDsaWithSha512Oid(key.parameterSet());
        return new SubjectPublicKeyInfo(new AlgorithmIdentifier(new ASN1ObjectIdentifier(oid)), key.getRawKey())
                .getEncoded(ASN1Encoding.DER);
    }

    private static MLDSAParameterSpec ourParams(byte[] context) {
        return MLDSAParameterSpec.builder().context(context).build();
    }

    private static ContextParameterSpec theirParams(byte[] context) {
        return new ContextParameterSpec(context);
    }

    private static byte[] sign(String algorithm, Provider provider, PrivateKey key,
                               AlgorithmParameterSpec params, byte[] message) throws Exception {
        Signature s = Signature.getInstance(algorithm, provider);
        s.initSign(key);
        s.setParameter(params);
        s.update(message);
        return s.sign();
    }

    private static boolean verify(String algorithm, Provider provider, PublicKey key,
                                  AlgorithmParameterSpec params, byte[] message, byte[] sig)
            throws Exception {
        Signature s = Signature.getInstance(algorithm, provider);
        s.initVerify(key);
        s.setParameter(params);
        s.update(message);
        return s.verify(sig);
    }

    private static byte[] randomBytes(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }
}
