package io.dilithiumgpu.tls;

import org.junit.jupiter.api.Test;

import java.security.Provider;
import java.security.Security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Which provider serves each primitive of a handshake. */
class MlDsaRoutingHelperTest {
    private static final Provider BC = MlDsaTls.bouncyCastle();
    private static final Provider OURS = MlDsaTls.provider();

    @Test
    void eachPrimitiveComesFromItsProvider() throws Exception {
        MlDsaRoutingHelper h = new MlDsaRoutingHelper(BC, OURS);
        assertSame(OURS, h.createSignature("ML-DSA-65").getProvider());
        assertSame(OURS, h.createSignature("2.16.840.1.101.3.4.3.18").getProvider());
        assertSame(BC, h.createSignature("Ed25519").getProvider());
        assertEquals("SUN", h.createMessageDigest("SHA-256").getProvider().getName());
        assertEquals("SUN", h.createDigest("SHA-384").getProvider().getName());
        assertSame(BC, h.createMessageDigest("SHA-512").getProvider());
        assertEquals("SunJCE", h.createMac("HmacSHA256").getProvider().getName());
        assertEquals("SunJCE", h.createMac("HmacSHA384").getProvider().getName());
        assertSame(BC, h.createMac("Poly1305").getProvider());
        assertEquals("SunJCE", h.createCipher("AES/GCM/NoPadding").getProvider().getName());
        assertSame(BC, h.createCipher("ChaCha7539").getProvider());
        assertSame(BC, h.createKeyAgreement("X25519").getProvider());
        assertSame(BC, h.createKeyPairGenerator("X25519").getProvider());
    }

    /** Without the JDK's providers (removed, or a restricted JDK), BouncyCastle serves their part. */
    @Test
    void bouncyCastleServesWhatTheJdkDoesNotOffer() throws Exception {
        MlDsaRoutingHelper h = new MlDsaRoutingHelper(BC, OURS, null, null);
        assertSame(BC, h.createMessageDigest("SHA-256").getProvider());
        assertSame(BC, h.createMac("HmacSHA256").getProvider());
        assertSame(BC, h.createCipher("AES/GCM/NoPadding").getProvider());
        MlDsaRoutingHelper withOther = new MlDsaRoutingHelper(BC, OURS, OURS, Security.getProvider("SUN"));
        assertSame(BC, withOther.createMessageDigest("SHA-256").getProvider());
        assertSame(BC, withOther.createMac("HmacSHA256").getProvider());
    }
}
