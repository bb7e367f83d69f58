package io.dilithiumgpu.tls;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The trust manager's checks besides signatures: host names, purposes, CA flags. */
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
