package io.dilithiumgpu.spi;

import static io.dilithiumgpu.ProviderTestSupport.ALL_SETS;
import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.ProviderTestSupport.ScriptedRandom;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidParameterException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.NamedParameterSpec;
import java.util.List;

class KeyPairGeneratorTest {
    static List<String> allSets() { return ALL_SETS; }

    @ParameterizedTest
    @MethodSource("allSets")
    void drawsExactlyOne32ByteSeedAndKeepsIt(String set) throws Exception {
        byte[] seed = new byte[32];
        for (int i = 0; i < seed.length; i++) {
            seed[i] = (byte) (i * 7 + 1);
        }
        ScriptedRandom random = ScriptedRandom.of(seed);
        KeyPairGenerator g = KeyPairGenerator.getInstance(set, PROVIDER);
        g.initialize(new NamedParameterSpec(set), random);
        KeyPair kp = g.generateKeyPair();
        random.assertExhausted();
        assertEquals(List.of(32), random.requests());

        ParameterSet p = ParameterSet.forName(set);
        DilithiumPublicKey pub = (DilithiumPublicKey) kp.getPublic();
        DilithiumPrivateKey priv = (DilithiumPrivateKey) kp.getPrivate();
        assertEquals(set, pub.getAlgorithm());
        assertEquals(set, priv.getAlgorithm());
        assertEquals(p.publicKeyBytes(), pub.getRawKey().length);
        assertEquals(p.privateKeyBytes(), priv.getExpandedKey().length);
        assertArrayEquals(seed, priv.getSeed());
        assertArrayEquals(pub.getTr(), priv.getTr(), "tr = H(pk) inside sk");

        KeyPair again = KeyPairGenerator.getInstance(set, PROVIDER).generateKeyPair();
        assertNotEquals(kp.getPublic(), again.getPublic(), "the default random is not fixed");
        KeyPairGenerator same = KeyPairGenerator.getInstance(set, PROVIDER);
        same.initialize(new NamedParameterSpec(set), ScriptedRandom.of(seed));
        KeyPair replay = same.generateKeyPair();
        assertEquals(kp.getPublic(), replay.getPublic());
        assertEquals(kp.getPrivate(), replay.getPrivate());
    }

    @Test
    void genericGeneratorsDefaultToCategoryThree() throws Exception {
        assertEquals("ML-DSA-65", KeyPairGenerator.getInstance("ML-DSA", PROVIDER).generateKeyPair().getPublic().getAlgorithm());
        assertEquals("ML-DSA-65", KeyPairGenerator.getInstance("HASH-ML-DSA", PROVIDER).generateKeyPair().getPublic().getAlgorithm());
        assertEquals("Dilithium3", KeyPairGenerator.getInstance("Dilithium", PROVIDER).generateKeyPair().getPublic().getAlgorithm());
        assertEquals("ML-DSA-44",
                KeyPairGenerator.getInstance("ML-DSA-44-WITH-SHA512", PROVIDER).generateKeyPair().getPublic().getAlgorithm(),
                "HashML-DSA key pairs are plain ML-DSA key pairs");
    }

    @ParameterizedTest
    @CsvSource({"ML-DSA,ML-DSA-44", "ML-DSA,MLDSA87", "ML-DSA,ml_dsa_65", "Dilithium,Dilithium2", "Dilithium,DILITHIUM5",
            "ML-DSA-44,ML-DSA-44"})
    void namedParameterSpecChoosesTheSet(String generator, String name) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance(generator, PROVIDER);
        g.initialize(new NamedParameterSpec(name));
        assertEquals(ParameterSet.forName(name).algorithmName(), g.generateKeyPair().getPublic().getAlgorithm());
    }

    @ParameterizedTest
    @CsvSource({"ML-DSA,2,ML-DSA-44", "ML-DSA,3,ML-DSA-65", "ML-DSA,5,ML-DSA-87",
            "Dilithium,2,Dilithium2", "Dilithium,3,Dilithium3", "Dilithium,5,Dilithium5", "ML-DSA-87,5,ML-DSA-87"})
    void keySizeIsTheSecurityCategory(String generator, int category, String expected) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance(generator, PROVIDER);
        g.initialize(category);
        assertEquals(expected, g.generateKeyPair().getPublic().getAlgorithm());
    }

    @Test
    void refusesOtherSetsAndSpecs() throws Exception {
        KeyPairGenerator fixed = KeyPairGenerator.getInstance("ML-DSA-44", PROVIDER);
        assertThrows(InvalidAlgorithmParameterException.class, () -> fixed.initialize(new NamedParameterSpec("ML-DSA-65")));
        assertThrows(InvalidParameterException.class, () -> fixed.initialize(3));
        KeyPairGenerator mlDsa = KeyPairGenerator.getInstance("ML-DSA", PROVIDER);
        assertThrows(InvalidAlgorithmParameterException.class, () -> mlDsa.initialize(new NamedParameterSpec("Dilithium2")));
        assertThrows(InvalidAlgorithmParameterException.class, () -> mlDsa.initialize(new NamedParameterSpec("Ed25519")));
        assertThrows(InvalidAlgorithmParameterException.class, () -> mlDsa.initialize(new ECGenParameterSpec("secp256r1")));
        assertThrows(InvalidAlgorithmParameterException.class, () -> mlDsa.initialize(null));
        InvalidParameterException size = assertThrows(InvalidParameterException.class, () -> mlDsa.initialize(2048));
        assertTrue(size.getMessage().contains("2048"), size.getMessage());
        KeyPairGenerator dilithium = KeyPairGenerator.getInstance("Dilithium", PROVIDER);
        assertThrows(InvalidAlgorithmParameterException.class, () -> dilithium.initialize(new NamedParameterSpec("ML-DSA-65")));
    }
}
