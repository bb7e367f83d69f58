package io.dilithiumgpu.interop;

import static io.dilithiumgpu.ProviderTestSupport.ML_DSA_SETS;
import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dilithiumgpu.ProviderTestSupport.ScriptedRandom;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.Pkcs8;
import io.dilithiumgpu.key.PrivateKeyForm;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Security;
import java.security.Signature;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.List;
import java.util.Random;

/**
 * Interoperability with the JDK's own ML-DSA (the SUN provider, Java 24 and later; JEP 497): the
 * same keys from the same seed, key encodings both ways, with byte-exact round trips of the JDK's encodings through ours, and
 * signatures of ours verified by the JDK and the JDK's by ours, for all three sets over message sizes
 * from 0 bytes to 1 MiB. The JDK offers no context strings, so all contexts here are empty. Skipped,
 * with the reason, on older JDKs.
 *
 * <p>Run it with {@code JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -pl provider test
 * -Dtest=JdkInteropTest}.
 */
class JdkInteropTest {
    private static Provider sun;

    @BeforeEach
    void requireJdkMlDsa() {
        int feature = Runtime.version().feature();
        assumeTrue(feature >= 24, "the JDK has ML-DSA from Java 24; this is Java " + feature);
        sun = Security.getProvider("SUN");
        assumeTrue(sun != null && sun.getService("Signature", "ML-DSA") != null,
                "the SUN provider of this Java " + feature + " has no ML-DSA");
    }

    static List<String> sets() { return ML_DSA_SETS; }

    /** Key generation from ξ (FIPS 204 Algorithm 6): the JDK's generator draws ξ as ours does. */
    @ParameterizedTest
    @MethodSource("sets")
    void sameKeysFromTheSameSeed(String set) throws Exception {
        byte[] seed = new byte[32];
        new Random(set.hashCode()).nextBytes(seed);
        KeyPairGenerator generator = KeyPairGenerator.getInstance(set, sun);
        ScriptedRandom random = ScriptedRandom.of(seed);
        generator.initialize(new NamedParameterSpec(set), random);
        KeyPair jdk = generator.generateKeyPair();
        random.assertExhausted();
        KeyPair ours = keyPair(set, seed);
        assertArrayEquals(jdk.getPublic().getEncoded(), ours.getPublic().getEncoded());
        assertEquals(ours.getPrivate(), KeyFactory.getInstance(set, PROVIDER)
                .generatePrivate(new PKCS8EncodedKeySpec(jdk.getPrivate().getEncoded())));
    }

    @ParameterizedTest
    @MethodSource("sets")
    void jdkKeysRoundTripThroughOursByteForByte(String set) throws Exception {
        KeyPair jdk = KeyPairGenerator.getInstance(set, sun).generateKeyPair();
        KeyFactory ours = KeyFactory.getInstance(set, PROVIDER);
        PublicKey pub = ours.generatePublic(new X509EncodedKeySpec(jdk.getPublic().getEncoded()));
        PrivateKey priv = ours.generatePrivate(new PKCS8EncodedKeySpec(jdk.getPrivate().getEncoded()));
        assertArrayEquals(jdk.getPublic().getEncoded(), pub.getEncoded());
        assertArrayEquals(jdk.getPrivate().getEncoded(), priv.getEncoded());
        assertEquals(pub, ours.translateKey(jdk.getPublic()));
        assertEquals(priv, ours.translateKey(jdk.getPrivate()));
    }

    @ParameterizedTest
    @MethodSource("sets")
    void ourKeysInEveryFormParseInTheJdk(String set) throws Exception {
        KeyPair kp = KeyPairGenerator.getInstance(set, PROVIDER).generateKeyPair();
        KeyFactory jdk = KeyFactory.getInstance(set, sun);
        PublicKey jdkPub = jdk.generatePublic(new X509EncodedKeySpec(kp.getPublic().getEncoded()));
        assertArrayEquals(kp.getPublic().getEncoded(), jdkPub.getEncoded());
        DilithiumPrivateKey ourPriv = (DilithiumPrivateKey) kp.getPrivate();
        byte[] message = "signed by the JDK with our key".getBytes();
        for (PrivateKeyForm form : PrivateKeyForm.values()) {
            byte[] encoded = Pkcs8.encode(ParameterSet.forName(set), form, ourPriv.getSeed(), ourPriv.getExpandedKey());
            if (!jdkReads(form)) {
                assertThrows(InvalidKeySpecException.class, () -> jdk.generatePrivate(new PKCS8EncodedKeySpec(encoded)),
                        form + " form: Java " + Runtime.version().feature() + " was not expected to read it");
                continue;
            }
            PrivateKey jdkPriv = jdk.generatePrivate(new PKCS8EncodedKeySpec(encoded));
            assertArrayEquals(encoded, jdkPriv.getEncoded(), form + ": the JDK keeps the form it read");
            Signature signer = Signature.getInstance("ML-DSA", sun);
            signer.initSign(jdkPriv);
            signer.update(message);
            Signature verifier = Signature.getInstance(set, PROVIDER);
            verifier.initVerify(kp.getPublic());
            verifier.update(message);
            assertTrue(verifier.verify(signer.sign()), form.toString());
        }
    }

    /**
     * The documented way to hand our private keys to Java 24 and 25: with
     * {@code dilithiumgpu.pkcs8.format=expanded}, the key's own {@code getEncoded()} (read on every
     * call) is the expanded form, the JDK's KeyFactory reads it, the JDK signs with it and we verify.
     * Without the property the same key encodes as the seed, which those JDKs refuse.
     */
    @ParameterizedTest
    @MethodSource("sets")
    void withTheExpandedFormPropertyOurKeyEncodingSignsInTheJdk(String set) throws Exception {
        KeyPair kp = KeyPairGenerator.getInstance(set, PROVIDER).generateKeyPair();
        DilithiumPrivateKey ourPriv = (DilithiumPrivateKey) kp.getPrivate();
        ParameterSet p = ParameterSet.forName(set);
        KeyFactory jdk = KeyFactory.getInstance(set, sun);
        byte[] message = "our expanded-form key, signed by the JDK".getBytes();

        String saved = System.getProperty(PrivateKeyForm.PROPERTY);
        byte[] expanded;
        byte[] byDefault;
        try {
            System.setProperty(PrivateKeyForm.PROPERTY, "expanded");
            expanded = ourPriv.getEncoded();
            System.clearProperty(PrivateKeyForm.PROPERTY);
            byDefault = ourPriv.getEncoded();
        } finally {
            if (saved == null) {
                System.clearProperty(PrivateKeyForm.PROPERTY);
            } else {
                System.setProperty(PrivateKeyForm.PROPERTY, saved);
            }
        }
        assertArrayEquals(Pkcs8.encode(p, PrivateKeyForm.EXPANDED, null, ourPriv.getExpandedKey()), expanded);
        assertArrayEquals(Pkcs8.encode(p, PrivateKeyForm.SEED, ourPriv.getSeed(), ourPriv.getExpandedKey()), byDefault,
                "without the property a generated key encodes as its seed");
        if (!jdkReads(PrivateKeyForm.SEED)) {
            assertThrows(InvalidKeySpecException.class, () -> jdk.generatePrivate(new PKCS8EncodedKeySpec(byDefault)),
                    "Java " + Runtime.version().feature() + " was not expected to read the seed form");
        }

        PrivateKey jdkPriv = jdk.generatePrivate(new PKCS8EncodedKeySpec(expanded));
        assertArrayEquals(expanded, jdkPriv.getEncoded());
        byte[] jdkSig = sign("ML-DSA", sun, jdkPriv, message);
        assertTrue(verify(set, PROVIDER, kp.getPublic(), message, jdkSig), set + ": JDK signature with our key");
        byte[] wrong = message.clone();
        wrong[0] ^= 1;
        assertFalse(verify(set, PROVIDER, kp.getPublic(), wrong, jdkSig));
    }

    /**
     * docs/encodings.md, Serialization: with the JDK's provider ahead, a KeyRep of a seed-form key
     * fails to resolve unless this provider is installed too (KeyFactory then falls over to it); one
     * written in the expanded form resolves to the JDK's own key, which our Signature still takes.
     */
    @ParameterizedTest
    @MethodSource("sets")
    void keyRepOfASeedFormKeyResolvesOnlyWithOurProviderInstalled(String set) throws Exception {
        assumeTrue(Security.getProvider(PROVIDER.getName()) == null, "the provider is already installed");
        KeyPair kp = KeyPairGenerator.getInstance(set, PROVIDER).generateKeyPair();
        byte[] seedForm = serialize(kp.getPrivate());
        String saved = System.getProperty(PrivateKeyForm.PROPERTY);
        byte[] expandedForm;
        try {
            System.setProperty(PrivateKeyForm.PROPERTY, "expanded");
            expandedForm = serialize(kp.getPrivate());
        } finally {
            if (saved == null) {
                System.clearProperty(PrivateKeyForm.PROPERTY);
            } else {
                System.setProperty(PrivateKeyForm.PROPERTY, saved);
            }
        }

        if (!jdkReads(PrivateKeyForm.SEED)) {
            NotSerializableException e = assertThrows(NotSerializableException.class, () -> deserialize(seedForm));
            assertInstanceOf(InvalidKeySpecException.class, e.getCause());
        }
        PrivateKey jdkKey = (PrivateKey) deserialize(expandedForm);
        assertEquals(sun, KeyFactory.getInstance(set).getProvider(), "the JDK's KeyFactory comes first");
        assertFalse(jdkKey instanceof DilithiumPrivateKey, jdkKey.getClass().getName());
        byte[] message = "deserialized through the JDK".getBytes();
        assertTrue(verify(set, PROVIDER, kp.getPublic(), message, sign(set, PROVIDER, jdkKey, message)));

        Security.addProvider(PROVIDER);
        try {
            assertEquals(kp.getPrivate(), deserialize(seedForm), "falls over from the JDK's KeyFactory to ours");
        } finally {
            Security.removeProvider(PROVIDER.getName());
        }
    }

    private static byte[] serialize(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    private static Object deserialize(byte[] b) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            return in.readObject();
        }
    }

    @ParameterizedTest
    @MethodSource("sets")
    void signaturesVerifyBothWays(String set) throws Exception {
        KeyPair ours = KeyPairGenerator.getInstance(set, PROVIDER).generateKeyPair();
        KeyPair jdk = KeyPairGenerator.getInstance(set, sun).generateKeyPair();
        Random random = new Random(set.hashCode());
        for (int size : new int[] {0, 1, 33, random.nextInt(1 << 10), random.nextInt(1 << 16), 1 << 20}) {
            byte[] message = new byte[size];
            random.nextBytes(message);
            byte[] ourSig = sign(set, PROVIDER, ours.getPrivate(), message);
            assertTrue(verify("ML-DSA", sun, ours.getPublic(), message, ourSig), set + " ours→JDK " + size);
            byte[] jdkSig = sign("ML-DSA", sun, jdk.getPrivate(), message);
            assertTrue(verify(set, PROVIDER, jdk.getPublic(), message, jdkSig), set + " JDK→ours " + size);
            byte[] wrong = size == 0 ? new byte[] {0} : message.clone();
            wrong[wrong.length - 1] ^= 1;
            assertFalse(verify("ML-DSA", sun, ours.getPublic(), wrong, ourSig));
            assertFalse(verify(set, PROVIDER, jdk.getPublic(), wrong, jdkSig));
        }
    }

    /**
     * Java 24 and 25 read only the expanded form of RFC 9881 (the draft their ML-DSA followed);
     * JDK-8347938 adds the seed and both forms in Java 26. Keys for them need
     * {@code -Ddilithiumgpu.pkcs8.format=expanded} (docs/encodings.md).
     */
    private static boolean jdkReads(PrivateKeyForm form) {
        return form == PrivateKeyForm.EXPANDED || Runtime.version().feature() >= 26;
    }

    private static byte[] sign(String algorithm, Provider provider, PrivateKey key, byte[] message) throws Exception {
        Signature s = Signature.getInstance(algorithm, provider);
        s.initSign(key);
        s.update(message);
        return s.sign();
    }

    private static boolean verify(String algorithm, Provider provider, PublicKey key, byte[] message, byte[] sig)
            throws Exception {
        Signature s = Signature.getInstance(algorithm, provider);
        s.initVerify(key);
        s.update(message);
        return s.verify(sig);
    }
}
