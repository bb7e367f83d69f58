package io.dilithiumgpu.spi;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dilithiumgpu.ProviderTestSupport.ScriptedRandom;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.route.RouteSetting;
import io.dilithiumgpu.route.Router;
import io.dilithiumgpu.spec.MLDSAParameterSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Security;
import java.security.Signature;
import java.security.SignatureException;
import java.security.spec.X509EncodedKeySpec;

/**
 * Signing through the JDK's own ML-DSA ({@code dilithiumgpu.route=jdk}, Java 24 and later): which
 * calls go there and which stay with the core, the randomness drawn, the message kept for the JDK
 * and the one too long for it, and a key destroyed under a signer.
 */
class JdkSigningTest {
    private static final byte[] MESSAGE = "signed by whichever engine the route names".getBytes();

    @BeforeEach
    void requireJdkMlDsa() {
        assumeTrue(JdkSigning.available(), "this Java " + Runtime.version().feature() + " has no ML-DSA of its own");
        System.setProperty(RouteSetting.PROPERTY, "jdk");
    }

    @AfterEach
    void unpin() {
        System.clearProperty(RouteSetting.PROPERTY);
    }

    private static long jdkCalls() {
        return Router.shared().getJdkCount();
    }

    @Test
    void pureSigningGoesToTheJdkDrawingOneRndOf32BytesAndVerifiesEverywhere() throws Exception {
        KeyPair kp = keyPair("ML-DSA-65");
        long before = jdkCalls();
        Signature s = Signature.getInstance("ML-DSA-65", PROVIDER);
        ScriptedRandom random = ScriptedRandom.of(new byte[32]);
        s.initSign(kp.getPrivate(), random);
        s.update(MESSAGE);
        byte[] viaJdk = s.sign();
        random.assertExhausted();
        assertEquals(before + 1, jdkCalls());

        // rnd = 0³² is deterministic signing, which the core computes: the same signature
        System.setProperty(RouteSetting.PROPERTY, "direct");
        Signature det = Signature.getInstance("ML-DSA-65", PROVIDER);
        det.setParameter(MLDSAParameterSpec.builder().deterministic(true).build());
        det.initSign(kp.getPrivate());
        det.update(MESSAGE);
        assertEquals(java.util.HexFormat.of().formatHex(det.sign()), java.util.HexFormat.of().formatHex(viaJdk));

        PublicKey sunKey = KeyFactory.getInstance("ML-DSA-65", Security.getProvider("SUN"))
                .generatePublic(new X509EncodedKeySpec(kp.getPublic().getEncoded()));
        Signature v = Signature.getInstance("ML-DSA-65", Security.getProvider("SUN"));
        v.initVerify(sunKey);
        v.update(MESSAGE);
        assertTrue(v.verify(viaJdk));
    }

    @Test
    void contextsHashMlDsaDeterministicSigningAndExternalMuStayWithTheCore() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        long before = jdkCalls();
        MLDSAParameterSpec[] specs = {
            MLDSAParameterSpec.builder().context(new byte[] {1}).build(),
            MLDSAParameterSpec.builder().deterministic(true).build(),
        };
        for (MLDSAParameterSpec spec : specs) {
            Signature s = Signature.getInstance("ML-DSA-44", PROVIDER);
            s.setParameter(spec);
            s.initSign(kp.getPrivate());
            s.update(MESSAGE);
            byte[] sig = s.sign();
            Signature v = Signature.getInstance("ML-DSA-44", PROVIDER);
            v.setParameter(spec);
            v.initVerify(kp.getPublic());
            v.update(MESSAGE);
            assertTrue(v.verify(sig));
        }
        Signature hash = Signature.getInstance("ML-DSA-44-WITH-SHA512", PROVIDER);
        hash.initSign(kp.getPrivate());
        hash.update(MESSAGE);
        hash.sign();
        KeyPair round3 = keyPair("Dilithium2");
        Signature r3 = Signature.getInstance("Dilithium2", PROVIDER);
        r3.initSign(round3.getPrivate(), new java.security.SecureRandom());
        r3.update(MESSAGE);
        r3.sign();
        assertEquals(before, jdkCalls());
    }

    @Test
    void aMessageLongerThanTheJdkIsGivenStreamsIntoMuInstead() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        byte[] longMessage = new byte[DilithiumSignature.JDK_MESSAGE_LIMIT + 1];
        long before = jdkCalls();
        Signature s = Signature.getInstance("ML-DSA-44", PROVIDER);
        s.initSign(kp.getPrivate());
        s.update(longMessage, 0, 1000);
        s.update(longMessage, 1000, longMessage.length - 1000);
        byte[] sig = s.sign();
        assertEquals(before, jdkCalls());
        s.update(MESSAGE);
        byte[] next = s.sign();
        assertEquals(before + 1, jdkCalls(), "the next message goes to the JDK again");

        Signature v = Signature.getInstance("ML-DSA-44", PROVIDER);
        v.initVerify(kp.getPublic());
        v.update(longMessage);
        assertTrue(v.verify(sig));
        v.update(MESSAGE);
        assertTrue(v.verify(next));
    }

    @Test
    void aKeyDestroyedAfterInitSignIsRefusedAndItsJdkCopyDestroyed() throws Exception {
        KeyPair kp = keyPair("ML-DSA-87");
        Signature s = Signature.getInstance("ML-DSA-87", PROVIDER);
        s.initSign(kp.getPrivate());
        s.update(MESSAGE);
        s.sign();
        DilithiumPrivateKey key = (DilithiumPrivateKey) kp.getPrivate();
        PrivateKey jdkCopy = key.jdkCopy(k -> null);
        assertNotNull(jdkCopy, "the first signature made the JDK's copy of the key");
        s.update(MESSAGE);
        key.destroy();
        assertTrue(jdkCopy.isDestroyed());
        assertNull(key.jdkCopy(k -> jdkCopy), "a destroyed key keeps no copy");
        SignatureException e = assertThrows(SignatureException.class, s::sign);
        assertTrue(e.getMessage().contains("destroyed"), e.getMessage());
    }

    @Test
    void theSignerIsReadyForTheNextMessageAfterEachSignature() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        Signature s = Signature.getInstance("ML-DSA-44", PROVIDER);
        s.initSign(kp.getPrivate());
        Signature v = Signature.getInstance("ML-DSA-44", PROVIDER);
        v.initVerify(kp.getPublic());
        for (int i = 0; i < 3; i++) {
            byte[] m = (i + " " + new String(MESSAGE)).getBytes();
            s.update(m);
            byte[] sig = s.sign();
            v.update(m);
            assertTrue(v.verify(sig), "message " + i);
        }
        s.setParameter(null);  // discards nothing begun; the next message still signs
        s.update(MESSAGE);
        byte[] sig = s.sign();
        v.update(MESSAGE);
        assertTrue(v.verify(sig));
    }
}
