package io.dilithiumgpu.tls;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.math.BigInteger;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The trust manager's checks besides signatures: host names, purposes, CA flags, validity periods. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PathTrustManagerTest {

    @Test
    void dnsNamesMatchExactlyOrByOneLeftmostWildcardLabel() {
        assertTrue(PathTrustManager.dnsMatches("example.org", "EXAMPLE.org"));
        assertTrue(PathTrustManager.dnsMatches("example.org", "example.org."));
        assertTrue(PathTrustManager.dnsMatches("*.example.org", "www.example.org"));
        assertFalse(PathTrustManager.dnsMatches("*.example.org", "example.org"));
        assertFalse(PathTrustManager.dnsMatches("*.example.org", "a.b.example.org"));
        assertFalse(PathTrustManager.dnsMatches("*.org", "example.org"));
        assertFalse(PathTrustManager.dnsMatches("www.example.org", "example.org"));
    }

    @Test
    void endpointIdentificationChecksTheServersNames() throws Exception {
        Pki pki = Pki.of("ML-DSA-44");
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain()).build();
        SSLContext client = MlDsaTls.client(List.of(pki.ca())).build();

        assertTrue(handshakeAs(client, server, "localhost").succeeded());
        EnginePair.Outcome wrongHost = handshakeAs(client, server, "example.org");
        assertEquals(Alerts.CERTIFICATE_UNKNOWN, Alerts.sent(wrongHost.clientFailure()));
    }

    @Test
    void clientCertificateIsRefusedAsServerAndALeafCannotIssue() throws Exception {
        Pki pki = Pki.of("ML-DSA-44");
        PathTrustManager tm = new PathTrustManager(List.of(pki.ca()), MlDsaTls.provider(), MlDsaTls.bouncyCastle());
        tm.checkServerTrusted(new X509Certificate[] {pki.server(), pki.ca()}, "UNKNOWN");
        tm.checkClientTrusted(new X509Certificate[] {pki.client(), pki.ca()}, "UNKNOWN");

        assertThrows(CertificateException.class,
                () -> tm.checkServerTrusted(new X509Certificate[] {pki.client(), pki.ca()}, "UNKNOWN"));
        // A certificate "issued" under the server leaf's name by the server's key: the leaf is no CA.
        X509Certificate underLeaf = MlDsaCertificates.leaf(pki.server(), pki.serverKeys().getPrivate(),
                pki.clientKeys().getPublic(), "CN=client", List.of(), MlDsaCertificates.Purpose.CLIENT, Pki.VALIDITY);
        CertificateException e = assertThrows(CertificateException.class,
                () -> tm.checkClientTrusted(new X509Certificate[] {underLeaf, pki.server(), pki.ca()}, "UNKNOWN"));
        assertTrue(e.getMessage().contains("not a CA"), e.getMessage());
        assertThrows(CertificateException.class, () -> tm.checkServerTrusted(new X509Certificate[0], "UNKNOWN"));
    }

    /** Validity is checked at every check, against the time then (the certificate's dates are read once). */
    @Test
    void certificatesOutsideTheirValidityAreRefused() throws Exception {
        Pki pki = Pki.of("ML-DSA-44");
        PathTrustManager tm = new PathTrustManager(List.of(pki.ca()), MlDsaTls.provider(), MlDsaTls.bouncyCastle());
        Instant now = Instant.now();
        Duration hour = Duration.ofHours(1);
        X509Certificate current = leafValid(pki, now.minus(hour), now.plus(hour));
        X509Certificate expired = leafValid(pki, now.minus(hour.multipliedBy(2)), now.minus(hour));
        X509Certificate future = leafValid(pki, now.plus(hour), now.plus(hour.multipliedBy(2)));

        for (int i = 0; i < 2; i++) {   // the second time from the facts read the first
            tm.checkServerTrusted(new X509Certificate[] {current, pki.ca()}, "UNKNOWN");
            assertThrows(CertificateExpiredException.class,
                    () -> tm.checkServerTrusted(new X509Certificate[] {expired, pki.ca()}, "UNKNOWN"));
            assertThrows(CertificateNotYetValidException.class,
                    () -> tm.checkServerTrusted(new X509Certificate[] {future, pki.ca()}, "UNKNOWN"));
        }
    }

    /** A server leaf of {@code pki}'s CA valid from {@code notBefore} to {@code notAfter}. */
    private static X509Certificate leafValid(Pki pki, Instant notBefore, Instant notAfter) throws Exception {
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                X500Name.getInstance(pki.ca().getSubjectX500Principal().getEncoded()), BigInteger.valueOf(notBefore.toEpochMilli()),
                Date.from(notBefore), Date.from(notAfter), new X500Name("CN=localhost"), pki.serverKeys().getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
        return new JcaX509CertificateConverter().setProvider(MlDsaTls.bouncyCastle()).getCertificate(b.build(
                new JcaContentSignerBuilder("ML-DSA-44").setProvider(MlDsaTls.provider()).build(pki.caKeys().getPrivate())));
    }

    private static EnginePair.Outcome handshakeAs(SSLContext clientContext, SSLContext serverContext, String host)
            throws Exception {
        SSLEngine client = clientContext.createSSLEngine(host, 443);
        client.setUseClientMode(true);
        SSLParameters p = client.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        client.setSSLParameters(p);
        SSLEngine server = serverContext.createSSLEngine();
        server.setUseClientMode(false);
        return EnginePair.handshake(client, server);
    }
}
