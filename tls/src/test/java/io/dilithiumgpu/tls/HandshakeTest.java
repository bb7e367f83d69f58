package io.dilithiumgpu.tls;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TLS 1.3 handshakes with ML-DSA certificates between contexts of {@link MlDsaTls}, each checking
 * from the batcher's counters that this provider did every ML-DSA operation, and no more: per
 * certificate authenticated, one CertificateVerify signed, one verified and one certificate verified.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandshakeTest {
    /** CertificateVerify signed and verified, the leaf's signature verified. */
    private static final int OPERATIONS_PER_AUTHENTICATION = 3;
    private static final java.util.Map<String, String> SIGNATURE_OIDS = java.util.Map.of(
            "ML-DSA-44", "2.16.840.1.101.3.4.3.17", "ML-DSA-65", "2.16.840.1.101.3.4.3.18",
            "ML-DSA-87", "2.16.840.1.101.3.4.3.19");

    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"})
    void serverAuthenticatedHandshake(String set) throws Exception {
        Pki pki = Pki.of(set);
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain()).build();
        SSLContext client = MlDsaTls.client(List.of(pki.ca())).build();

        ProviderWork work = ProviderWork.now();
        EnginePair.Outcome o = EnginePair.handshake(client, server);

        assertTrue(o.succeeded(), () -> "client: " + o.clientFailure() + ", server: " + o.serverFailure());
        assertEquals(OPERATIONS_PER_AUTHENTICATION, work.since());
        assertEquals("TLSv1.3", o.client().getSession().getProtocol());
        assertEquals(MlDsaTls.CIPHER_SUITES.get(0), o.client().getSession().getCipherSuite());
        X509Certificate leaf = (X509Certificate) o.client().getSession().getPeerCertificates()[0];
        assertEquals(SIGNATURE_OIDS.get(set), leaf.getSigAlgOID());
    }

    /**
     * The contexts' handshakes draw from the JDK's DRBG at 256-bit strength, which reseeds only when
     * due, not from BouncyCastle's process-wide generator that reseeds on every call under one lock.
     */
    @Test
    void handshakesDrawFromADrbgOf256Bits() throws Exception {
        java.security.SecureRandom random = MlDsaTls.handshakeRandom();
        assertEquals("DRBG", random.getAlgorithm());
        java.security.DrbgParameters.Instantiation p = (java.security.DrbgParameters.Instantiation) random.getParameters();
        assertEquals(256, p.getStrength());
        assertEquals(java.security.DrbgParameters.Capability.RESEED_ONLY, p.getCapability());
        byte[] a = new byte[32];
        byte[] b = new byte[32];
        random.nextBytes(a);
        random.nextBytes(b);
        assertFalse(java.util.Arrays.equals(a, b));
    }

    /**
     * A server's chain, the same in every handshake, is parsed once per process: the client's
     * second handshake gets the same certificate objects, and still verifies every signature.
     */
    @Test
    void peerCertificatesAreParsedOnceAndVerifiedEveryTime() throws Exception {
        Pki pki = Pki.of("ML-DSA-44");
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain()).build();
        SSLContext client = MlDsaTls.client(List.of(pki.ca())).build();

        EnginePair.Outcome first = EnginePair.handshake(client, server);
        first.client().getSession().invalidate();
        ProviderWork work = ProviderWork.now();
        EnginePair.Outcome second = EnginePair.handshake(client, server);

        assertTrue(first.succeeded() && second.succeeded());
        assertEquals(OPERATIONS_PER_AUTHENTICATION, work.since());
        assertSame(first.client().getSession().getPeerCertificates()[0],
                second.client().getSession().getPeerCertificates()[0]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"})
    void mutualTls(String set) throws Exception {
        Pki pki = Pki.of(set);
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain())
                .trust(List.of(pki.ca())).needClientAuth().build();
        SSLContext client = MlDsaTls.client(List.of(pki.ca()))
                .identity(pki.clientKeys().getPrivate(), pki.clientChain()).build();

        ProviderWork work = ProviderWork.now();
        EnginePair.Outcome o = EnginePair.handshake(client, server);

        assertTrue(o.succeeded(), () -> "client: " + o.clientFailure() + ", server: " + o.serverFailure());
        assertEquals(2 * OPERATIONS_PER_AUTHENTICATION, work.since());
        assertEquals(pki.client(), o.server().getSession().getPeerCertificates()[0]);
    }

    @Test
    void clientWithoutCertificateIsRefusedWhenOneIsNeeded() throws Exception {
        Pki pki = Pki.of("ML-DSA-65");
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain())
                .trust(List.of(pki.ca())).needClientAuth().build();
        SSLContext client = MlDsaTls.client(List.of(pki.ca())).build();

        EnginePair.Outcome o = EnginePair.handshake(client, server);

        assertNotNull(o.serverFailure());
        assertNotNull(o.clientFailure());
    }

    @Test
    void hybridKeyExchangeX25519MlKem768() throws Exception {
        Pki pki = Pki.of("ML-DSA-65");
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain())
                .namedGroups("X25519MLKEM768").build();
        SSLContext client = MlDsaTls.client(List.of(pki.ca())).namedGroups("X25519MLKEM768").build();

        ProviderWork work = ProviderWork.now();
        EnginePair.Outcome o = EnginePair.handshake(client, server);

        assertTrue(o.succeeded(), () -> "client: " + o.clientFailure() + ", server: " + o.serverFailure());
        assertEquals(OPERATIONS_PER_AUTHENTICATION, work.since());
    }

    /** A default client, whose first key share is X25519, meets a server that takes only the hybrid. */
    @Test
    void defaultGroupsOfferTheHybrid() throws Exception {
        Pki pki = Pki.of("ML-DSA-65");
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain())
                .namedGroups("X25519MLKEM768").build();
        SSLContext client = MlDsaTls.client(List.of(pki.ca())).build();

        EnginePair.Outcome o = EnginePair.handshake(client, server);

        assertTrue(o.succeeded(), () -> "client: " + o.clientFailure() + ", server: " + o.serverFailure());
        assertEquals("x25519", MlDsaTls.NAMED_GROUPS.get(0));
    }

    /** The groups are really applied: a client offering only the hybrid cannot meet a server with only x25519. */
    @Test
    void keyExchangeGroupsAreEnforced() throws Exception {
        Pki pki = Pki.of("ML-DSA-65");
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain())
                .namedGroups("x25519").build();
        SSLContext client = MlDsaTls.client(List.of(pki.ca())).namedGroups("X25519MLKEM768").build();

        EnginePair.Outcome o = EnginePair.handshake(client, server);

        assertFalse(o.succeeded());
    }

    /**
     * The ML-DSA schemes come from the context, not from system properties: a stock BouncyCastle
     * client context, which leaves them off, finds no scheme for this server.
     */
    @Test
    void schemesAreEnabledPerContext() throws Exception {
        assertEquals(null, System.getProperty("jdk.tls.client.SignatureSchemes"));
        assertEquals(null, System.getProperty("jdk.tls.server.SignatureSchemes"));
        Pki pki = Pki.of("ML-DSA-65");
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain()).build();
        SSLContext stock = SSLContext.getInstance("TLSv1.3",
                new org.bouncycastle.jsse.provider.BouncyCastleJsseProvider(MlDsaTls.bouncyCastle()));
        stock.init(null, new javax.net.ssl.TrustManager[] {
                new PathTrustManager(List.of(pki.ca()), MlDsaTls.provider(), MlDsaTls.bouncyCastle())}, null);

        EnginePair.Outcome o = EnginePair.handshake(stock, server);

        assertFalse(o.succeeded());
    }

    /** Sockets of the contexts' factories get the same settings (accepted sockets included). */
    @Test
    void socketsOverLoopback() throws Exception {
        Pki pki = Pki.of("ML-DSA-44");
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain())
                .trust(List.of(pki.ca())).needClientAuth().build();
        SSLContext client = MlDsaTls.client(List.of(pki.ca()))
                .identity(pki.clientKeys().getPrivate(), pki.clientChain()).build();
        ProviderWork work = ProviderWork.now();
        try (SSLServerSocket listener = (SSLServerSocket) server.getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Integer> served = CompletableFuture.supplyAsync(() -> {
                try (SSLSocket s = (SSLSocket) listener.accept(); InputStream in = s.getInputStream();
                     OutputStream out = s.getOutputStream()) {
                    int b = in.read();
                    out.write(b + 1);
                    out.flush();
                    return b;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (SSLSocket s = (SSLSocket) client.getSocketFactory()
                    .createSocket(InetAddress.getLoopbackAddress(), listener.getLocalPort())) {
                s.getOutputStream().write(41);
                s.getOutputStream().flush();
                assertEquals(42, s.getInputStream().read());
                assertEquals("TLSv1.3", s.getSession().getProtocol());
            }
            assertEquals(41, served.get(30, TimeUnit.SECONDS));
        }
        assertEquals(2 * OPERATIONS_PER_AUTHENTICATION, work.since());
    }
}
