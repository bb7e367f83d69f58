package io.dilithiumgpu.tls;

import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.net.ssl.SSLContext;
import java.io.ByteArrayInputStream;
import java.security.KeyPair;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Servers whose certificates must not be trusted: the client's trust manager refuses them, and the
 * handshake ends in a {@code certificate_unknown} alert on both sides (BouncyCastle's JSSE maps
 * every trust manager refusal to that alert), never in another exception.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RejectionTest {
    private static final String SET = "ML-DSA-65";

    @Test
    void certificateSignedByTheWrongKey() throws Exception {
        Pki pki = Pki.of(SET);
        KeyPair impostor = Pki.keys(SET, MlDsaTls.provider());
        X509Certificate forged = MlDsaCertificates.leaf(pki.ca(), impostor.getPrivate(), pki.serverKeys().getPublic(),
                "CN=localhost", List.of("localhost"), MlDsaCertificates.Purpose.SERVER, Pki.VALIDITY);

        ProviderWork work = ProviderWork.now();
        EnginePair.Outcome o = handshakeWith(pki, forged);

        assertRefusedByClient(o);
        assertEquals(2, work.since());   // the server signed its CertificateVerify; the client verified the leaf
    }

    /** Ways to spoil a certificate's signature field while it still parses. */
    enum Malformation {
        TRUNCATED(c -> reSigned(c, c.getSignatureAlgorithm(), Arrays.copyOf(sig(c), sig(c).length - 1))),
        EXTENDED(c -> reSigned(c, c.getSignatureAlgorithm(), Arrays.copyOf(sig(c), sig(c).length + 1))),
        EMPTY(c -> reSigned(c, c.getSignatureAlgorithm(), new byte[0])),
        FLIPPED_BIT(c -> {
            byte[] s = sig(c);
            s[s.length / 2] ^= 1;
            return reSigned(c, c.getSignatureAlgorithm(), s);
        }),
        ALL_ONES(c -> {
            byte[] s = sig(c);
            Arrays.fill(s, (byte) 0xff);
            return reSigned(c, c.getSignatureAlgorithm(), s);
        }),
        NULL_PARAMETERS(c -> reSigned(c, new AlgorithmIdentifier(c.getSignatureAlgorithm().getAlgorithm(),
                DERNull.INSTANCE), sig(c))),
        OTHER_SET_OUTSIDE(c -> reSigned(c, new AlgorithmIdentifier(new ASN1ObjectIdentifier("2.16.840.1.101.3.4.3.17")),
                sig(c)));

        final UnaryOperator<Certificate> spoil;

        Malformation(UnaryOperator<Certificate> spoil) {
            this.spoil = spoil;
        }

        private static byte[] sig(Certificate c) {
            return c.getSignature().getOctets();
        }

        private static Certificate reSigned(Certificate c, AlgorithmIdentifier outer, byte[] signature) {
            return Certificate.getInstance(new DERSequence(new ASN1Encodable[] {
                    c.getTBSCertificate(), outer, new DERBitString(signature)}));
        }
    }

    @ParameterizedTest
    @EnumSource(Malformation.class)
    void malformedCertificateSignature(Malformation m) throws Exception {
        Pki pki = Pki.of(SET);
        Certificate spoiled = m.spoil.apply(Certificate.getInstance(pki.server().getEncoded()));
        X509Certificate leaf = (X509Certificate) CertificateFactory.getInstance("X.509", MlDsaTls.bouncyCastle())
                .generateCertificate(new ByteArrayInputStream(spoiled.getEncoded()));

        EnginePair.Outcome o = handshakeWith(pki, leaf);

        assertRefusedByClient(o);
        // The provider still serves the next handshake.
        assertTrue(EnginePair.handshake(MlDsaTls.client(List.of(pki.ca())).build(),
                MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain()).build()).succeeded());
    }

    @Test
    void leafIssuedForClientsIsRefusedAsServer() throws Exception {
        Pki pki = Pki.of(SET);
        assertRefusedByClient(handshakeWith(pki, MlDsaCertificates.leaf(pki.ca(), pki.caKeys().getPrivate(),
                pki.serverKeys().getPublic(), "CN=localhost", List.of("localhost"), MlDsaCertificates.Purpose.CLIENT,
                Pki.VALIDITY)));
    }

    @Test
    void untrustedCa() throws Exception {
        Pki pki = Pki.of(SET);
        Pki other = Pki.of("ML-DSA-44");
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain()).build();
        SSLContext client = MlDsaTls.client(List.of(other.ca())).build();
        assertRefusedByClient(EnginePair.handshake(client, server));
    }

    private static EnginePair.Outcome handshakeWith(Pki pki, X509Certificate leaf) throws Exception {
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), List.of(leaf, pki.ca())).build();
        SSLContext client = MlDsaTls.client(List.of(pki.ca())).build();
        return EnginePair.handshake(client, server);
    }

    private static void assertRefusedByClient(EnginePair.Outcome o) {
        assertFalse(o.succeeded());
        assertNotNull(o.clientFailure());
        assertEquals(Alerts.CERTIFICATE_UNKNOWN, Alerts.sent(o.clientFailure()), () -> String.valueOf(o.clientFailure()));
        assertNotNull(o.serverFailure(), "the server heard no alert");
        assertEquals(Alerts.CERTIFICATE_UNKNOWN, Alerts.received(o.serverFailure()), () -> String.valueOf(o.serverFailure()));
    }
}
