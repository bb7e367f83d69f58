package io.dilithiumgpu;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.spi.DilithiumKeyFactory;
import io.dilithiumgpu.spi.DilithiumKeyPairGenerator;
import io.dilithiumgpu.spi.DilithiumSignature;
import io.dilithiumgpu.spi.SignatureParameters;
import org.junit.jupiter.api.Test;

import javax.crypto.spec.SecretKeySpec;
import java.security.InvalidParameterException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Security;
import java.security.Signature;
import java.security.SignatureSpi;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

class ProviderTest {
    /** Every name, alias and OID the provider must answer to, by canonical name. */
    private static final Map<String, List<String>> NAMES = new LinkedHashMap<>();

    static {
        NAMES.put("ML-DSA", List.of("MLDSA", "ml-dsa"));
        NAMES.put("ML-DSA-44", List.of("MLDSA44", "2.16.840.1.101.3.4.3.17", "OID.2.16.840.1.101.3.4.3.17"));
        NAMES.put("ML-DSA-65", List.of("MLDSA65", "2.16.840.1.101.3.4.3.18", "OID.2.16.840.1.101.3.4.3.18"));
        NAMES.put("ML-DSA-87", List.of("MLDSA87", "2.16.840.1.101.3.4.3.19", "OID.2.16.840.1.101.3.4.3.19"));
        NAMES.put("HASH-ML-DSA", List.of("HASHMLDSA"));
        NAMES.put("ML-DSA-44-WITH-SHA512", List.of("HASH-ML-DSA-44", "MLDSA44WITHSHA512",
                "2.16.840.1.101.3.4.3.32", "OID.2.16.840.1.101.3.4.3.32"));
        NAMES.put("ML-DSA-65-WITH-SHA512", List.of("HASH-ML-DSA-65", "MLDSA65WITHSHA512",
                "2.16.840.1.101.3.4.3.33", "OID.2.16.840.1.101.3.4.3.33"));
        NAMES.put("ML-DSA-87-WITH-SHA512", List.of("HASH-ML-DSA-87", "MLDSA87WITHSHA512",
                "2.16.840.1.101.3.4.3.34", "OID.2.16.840.1.101.3.4.3.34"));
        NAMES.put("Dilithium", List.of("DILITHIUM"));
        NAMES.put("Dilithium2", List.of("1.3.6.1.4.1.2.267.7.4.4", "OID.1.3.6.1.4.1.2.267.7.4.4"));
        NAMES.put("Dilithium3", List.of("1.3.6.1.4.1.2.267.7.6.5", "OID.1.3.6.1.4.1.2.267.7.6.5"));
        NAMES.put("Dilithium5", List.of("1.3.6.1.4.1.2.267.7.8.7", "OID.1.3.6.1.4.1.2.267.7.8.7"));
    }

    @Test
    void identity() {
        assertEquals("DilithiumGPU", PROVIDER.getName());
        assertEquals(DilithiumGpuProvider.NAME, PROVIDER.getName());
        assertFalse(PROVIDER.getVersionStr().isEmpty());
        assertTrue(PROVIDER.getInfo().contains("ML-DSA"));
    }

    @Test
    void everyNameAliasAndOidResolvesForEveryType() throws Exception {
        for (Map.Entry<String, List<String>> e : NAMES.entrySet()) {
            for (String name : concat(e.getKey(), e.getValue())) {
                for (String type : List.of("Signature", "KeyPairGenerator", "KeyFactory")) {
                    Provider.Service s = PROVIDER.getService(type, name);
                    assertNotNull(s, type + "." + name);
                    assertEquals(e.getKey(), s.getAlgorithm(), type + "." + name);
                }
                assertSame(PROVIDER, Signature.getInstance(name, PROVIDER).getProvider());
                assertSame(PROVIDER, KeyPairGenerator.getInstance(name, PROVIDER).getProvider());
                assertSame(PROVIDER, KeyFactory.getInstance(name, PROVIDER).getProvider());
            }
        }
    }

    @Test
    void theTableRegistersExactlyTheseServices() {
        Set<String> expected = new TreeSet<>();
        for (String name : NAMES.keySet()) {
            for (String type : List.of("Signature", "KeyPairGenerator", "KeyFactory")) {
                expected.add(type + "." + name);
            }
        }
        expected.add("AlgorithmParameters.ML-DSA");
        expected.add("AlgorithmParameters.Dilithium");
        Set<String> actual = PROVIDER.getServices().stream().map(s -> s.getType() + "." + s.getAlgorithm())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(expected, actual);
        assertEquals(List.copyOf(NAMES.keySet()), DilithiumGpuProvider.algorithmNames());
    }

    @Test
    void servicesBuildTheirSpisWithoutReflection() throws Exception {
        assertInstanceOf(DilithiumSignature.class, PROVIDER.getService("Signature", "ML-DSA").newInstance(null));
        assertInstanceOf(DilithiumKeyPairGenerator.class, PROVIDER.getService("KeyPairGenerator", "Dilithium").newInstance(null));
        assertInstanceOf(DilithiumKeyFactory.class, PROVIDER.getService("KeyFactory", "ML-DSA-44").newInstance(null));
        assertInstanceOf(SignatureParameters.class, PROVIDER.getService("AlgorithmParameters", "ML-DSA").newInstance(null));
        assertThrows(InvalidParameterException.class, () -> PROVIDER.getService("Signature", "ML-DSA").newInstance("x"));
    }

    @Test
    void signatureServicesDeclareTheKeysTheyTake() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        for (String name : NAMES.keySet()) {
            Provider.Service s = PROVIDER.getService("Signature", name);
            assertTrue(s.getAttribute("SupportedKeyClasses").contains("io.dilithiumgpu.key.DilithiumPrivateKey"), name);
            assertEquals("X.509|PKCS#8", s.getAttribute("SupportedKeyFormats"), name);
            assertTrue(s.supportsParameter(kp.getPublic()), name);
            assertTrue(s.supportsParameter(kp.getPrivate()), name);
            assertFalse(s.supportsParameter(new SecretKeySpec(new byte[16], "AES")), name);
        }
    }

    @Test
    void serviceLoaderFindsTheProvider() {
        assertTrue(ServiceLoader.load(Provider.class).stream()
                .anyMatch(p -> p.type() == DilithiumGpuProvider.class));
    }

    @Test
    void delayedProviderSelectionPicksThisProviderForItsKeys() throws Exception {
        Provider decoy = new DecoyProvider();
        Security.insertProviderAt(decoy, 1);
        Security.insertProviderAt(PROVIDER, 2);
        try {
            KeyPair kp = keyPair("ML-DSA-65");
            Signature signer = Signature.getInstance("ML-DSA-65");
            signer.initSign(kp.getPrivate());
            assertSame(PROVIDER, signer.getProvider());
            signer.update(new byte[] {1, 2, 3});
            byte[] sig = signer.sign();

            Signature verifier = Signature.getInstance("2.16.840.1.101.3.4.3.18");
            verifier.initVerify(kp.getPublic());
            assertSame(PROVIDER, verifier.getProvider());
            verifier.update(new byte[] {1, 2, 3});
            assertTrue(verifier.verify(sig));
            assertSame(PROVIDER, KeyFactory.getInstance("ML-DSA").getProvider());
        } finally {
            Security.removeProvider(decoy.getName());
            Security.removeProvider(PROVIDER.getName());
        }
    }

    /** A provider ahead of ours whose ML-DSA-65 Signature takes only RSA keys, and fails if tried. */
    private static final class DecoyProvider extends Provider {
        private static final long serialVersionUID = 1L;

        DecoyProvider() {
            super("DecoyForDelayedSelection", "1", "takes only RSA keys");
            putService(new Service(this, "Signature", "ML-DSA-65", RefusingSignature.class.getName(),
                    List.of("2.16.840.1.101.3.4.3.18"), Map.of("SupportedKeyClasses", "java.security.interfaces.RSAKey")));
        }
    }

    public static final class RefusingSignature extends SignatureSpi {
        @Override protected void engineInitVerify(PublicKey publicKey) { throw new AssertionError("decoy chosen"); }
        @Override protected void engineInitSign(PrivateKey privateKey) { throw new AssertionError("decoy chosen"); }
        @Override protected void engineUpdate(byte b) { throw new AssertionError(); }
        @Override protected void engineUpdate(byte[] b, int off, int len) { throw new AssertionError(); }
        @Override protected byte[] engineSign() { throw new AssertionError(); }
        @Override protected boolean engineVerify(byte[] sigBytes) { throw new AssertionError(); }
        @Override @Deprecated protected void engineSetParameter(String param, Object value) { throw new AssertionError(); }
        @Override @Deprecated protected Object engineGetParameter(String param) { throw new AssertionError(); }
    }

    private static List<String> concat(String first, List<String> rest) {
        List<String> all = new java.util.ArrayList<>(rest);
        all.add(0, first);
        return all;
    }
}
