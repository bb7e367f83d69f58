package io.dilithiumgpu.interop;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dilithiumgpu.ProviderTestSupport.ScriptedRandom;
import io.dilithiumgpu.TestVectors;
import io.dilithiumgpu.TestVectors.AcvpCase;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.spec.MLDSAParameterSpec;
import io.dilithiumgpu.spec.RawPrivateKeySpec;
import io.dilithiumgpu.spec.RawPublicKeySpec;
import io.dilithiumgpu.spec.SeedPrivateKeySpec;
import org.bouncycastle.crypto.digests.SHAKEDigest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.List;
import java.util.stream.Stream;

/**
 * FIPS 204 known answers from NIST's ACVP server through the JCA surface alone: key generation from
 * the seed ξ given by a fixed SecureRandom, signature generation (pure and HashML-DSA with contexts,
 * external μ, the internal interface, deterministic and with rnd from a fixed SecureRandom, keys given
 * expanded or as seeds) and signature verification, for the first cases of every test group.
 */
class AcvpKnownAnswerTest {
    private static final int PER_GROUP = 2;

    static List<AcvpCase> keyGen() { return TestVectors.acvp("ML-DSA-keyGen-FIPS204", 3); }

    static Stream<AcvpCase> sigGen() {
        return Stream.concat(TestVectors.acvp("ML-DSA-sigGen-FIPS204", PER_GROUP).stream(),
                TestVectors.acvp("ML-DSA-sigGen-FIPS204-tr1", PER_GROUP).stream());
    }

    static List<AcvpCase> sigVer() { return TestVectors.acvp("ML-DSA-sigVer-FIPS204", 3); }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keyGen")
    void keyGenFromAFixedSeed(AcvpCase c) throws Exception {
        String set = c.text("parameterSet");
        ScriptedRandom random = ScriptedRandom.of(c.bytes("seed"));
        KeyPairGenerator g = KeyPairGenerator.getInstance(set, PROVIDER);
        g.initialize(new java.security.spec.NamedParameterSpec(set), random);
        KeyPair kp = g.generateKeyPair();
        random.assertExhausted();
        assertArrayEquals(c.bytes("pk"), ((DilithiumPublicKey) kp.getPublic()).getRawKey());
        assertArrayEquals(c.bytes("sk"), ((DilithiumPrivateKey) kp.getPrivate()).getExpandedKey());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sigGen")
    void sigGen(AcvpCase c) throws Exception {
        String set = c.text("parameterSet");
        KeyFactory kf = KeyFactory.getInstance(set, PROVIDER);
        DilithiumPrivateKey key = (DilithiumPrivateKey) (c.has("seed")
                ? kf.generatePrivate(new SeedPrivateKeySpec(set, c.bytes("seed")))
                : kf.generatePrivate(new RawPrivateKeySpec(set, c.bytes("sk"))));
        boolean deterministic = c.flag("deterministic");

        Signature s = Signature.getInstance(algorithm(c), PROVIDER);
        s.setParameter(parameters(c).deterministic(deterministic).build());
        ScriptedRandom random = deterministic ? ScriptedRandom.of() : ScriptedRandom.of(c.bytes("rnd"));
        s.initSign(key, random);
        s.update(message(c, key.getTr()));
        assertArrayEquals(c.bytes("signature"), s.sign());
        random.assertExhausted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sigVer")
    void sigVer(AcvpCase c) throws Exception {
        String set = c.text("parameterSet");
        PublicKey key = KeyFactory.getInstance(set, PROVIDER).generatePublic(new RawPublicKeySpec(set, c.bytes("pk")));
        Signature s = Signature.getInstance(algorithm(c), PROVIDER);
        s.setParameter(parameters(c).build());
        s.initVerify(key);
        s.update(message(c, ((DilithiumPublicKey) key).getTr()));
        assertEquals(c.flag("testPassed"), s.verify(c.bytes("signature")));
    }

    private static String algorithm(AcvpCase c) {
        return "preHash".equals(c.fields.path("preHash").asText()) ? "HASH-ML-DSA" : c.text("parameterSet");
    }

    /**
     * The external interface takes the context (and for HashML-DSA the pre-hash); the internal
     * interface is signing on μ: external μ as given, or μ = H(tr ‖ M′) for the M′ given.
     */
    private static MLDSAParameterSpec.Builder parameters(AcvpCase c) {
        MLDSAParameterSpec.Builder b = MLDSAParameterSpec.builder();
        if ("internal".equals(c.text("signatureInterface"))) {
            return b.externalMu(true);
        }
        b.context(c.bytes("context"));
        return c.has("hashAlg") && !"none".equals(c.text("hashAlg")) ? b.preHash(c.text("hashAlg")) : b;
    }

    private static byte[] message(AcvpCase c, byte[] tr) {
        if ("external".equals(c.text("signatureInterface"))) {
            return c.bytes("message");
        }
        if (c.flag("externalMu")) {
            return c.bytes("mu");
        }
        byte[] m = c.bytes("message");
        SHAKEDigest shake = new SHAKEDigest(256);
        shake.update(tr, 0, tr.length);
        shake.update(m, 0, m.length);
        byte[] mu = new byte[64];
        shake.doFinal(mu, 0, mu.length);
        return mu;
    }
}
