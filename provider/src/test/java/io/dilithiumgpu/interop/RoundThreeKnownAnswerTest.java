package io.dilithiumgpu.interop;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static io.dilithiumgpu.ProviderTestSupport.ROUND3_SETS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.TestVectors;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.spec.RawPrivateKeySpec;
import io.dilithiumgpu.spec.RawPublicKeySpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CRYSTALS-Dilithium round 3.1 through the JCA surface against the reference's NIST KAT files
 * (dilithium-r31/PQCsignKAT_Dilithium{2,3,5}.rsp): key generation from the KAT DRBG, deterministic
 * signatures byte for byte, and verification, for the first records of each set.
 */
class RoundThreeKnownAnswerTest {
    private static final int RECORDS = 3;

    static Stream<Arguments> records() {
        return ROUND3_SETS.stream().flatMap(set -> TestVectors.rsp("dilithium-r31/PQCsignKAT_" + set + ".rsp", RECORDS)
                .stream().map(r -> Arguments.of(set, r.get("count"), r)));
    }

    @ParameterizedTest(name = "{0} count {1}")
    @MethodSource("records")
    void keyGenerationFromTheKatDrbg(String set, String count, Map<String, String> record) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("Dilithium", PROVIDER);
        g.initialize(new NamedParameterSpec(set), new NistKatRandom(TestVectors.hex(record.get("seed"))));
        KeyPair kp = g.generateKeyPair();
        assertArrayEquals(TestVectors.hex(record.get("pk")), ((DilithiumPublicKey) kp.getPublic()).getRawKey());
        assertArrayEquals(TestVectors.hex(record.get("sk")), ((DilithiumPrivateKey) kp.getPrivate()).getExpandedKey());
    }

    @ParameterizedTest(name = "{0} count {1}")
    @MethodSource("records")
    void deterministicSignatureAndVerification(String set, String count, Map<String, String> record) throws Exception {
        KeyFactory kf = KeyFactory.getInstance(set, PROVIDER);
        PrivateKey sk = kf.generatePrivate(new RawPrivateKeySpec(set, TestVectors.hex(record.get("sk"))));
        PublicKey pk = kf.generatePublic(new RawPublicKeySpec(set, TestVectors.hex(record.get("pk"))));
        byte[] msg = TestVectors.hex(record.get("msg"));
        byte[] expected = Arrays.copyOf(TestVectors.hex(record.get("sm")), ParameterSet.forName(set).signatureBytes());

        for (String name : new String[] {set, "Dilithium"}) {
            Signature signer = Signature.getInstance(name, PROVIDER);
            signer.initSign(sk);
            signer.update(msg);
            assertArrayEquals(expected, signer.sign(), name);

            Signature verifier = Signature.getInstance(name, PROVIDER);
            verifier.initVerify(pk);
            verifier.update(msg);
            assertTrue(verifier.verify(expected), name);
            byte[] forged = expected.clone();
            forged[forged.length / 2] ^= 4;
            verifier.update(msg);
            assertFalse(verifier.verify(forged), name);
        }
    }
}
