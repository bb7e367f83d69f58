package io.dilithiumgpu.tls;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.net.ssl.SSLContext;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Handshakes between this provider's contexts and the stock BouncyCastle set-up with its own
 * ML-DSA (keys, certificates, signing and verifying), both ways; the counters show this provider
 * did exactly its side's ML-DSA operations.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InteropTest {

    /** This provider signs the CertificateVerify; BouncyCastle verifies it and the chain. */
    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"})
    void ourServerBouncyCastleClient(String set) throws Exception {
        Pki pki = Pki.of(set);
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain()).build();
        SSLContext client = MlDsaTls.client(List.of(pki.ca())).bouncyCastleOnly().build();

        ProviderWork work = ProviderWork.now();
        EnginePair.Outcome o = EnginePair.handshake(client, server);

        assertTrue(o.succeeded(), () -> "client: " + o.clientFailure() + ", server: " + o.serverFailure());
        assertEquals(1, work.since());
        // BouncyCastle's client lists ChaCha20-Poly1305 first; this server's order wins.
        assertEquals("TLS_AES_128_GCM_SHA256", o.client().getSession().getCipherSuite());
    }

    /** BouncyCastle signs with its key and certificates; this provider verifies the CertificateVerify and the leaf. */
    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"})
    void bouncyCastleServerOurClient(String set) throws Exception {
        Pki pki = Pki.bouncyCastle(set);
        assertTrue(pki.serverKeys().getPrivate().getClass().getName().startsWith("org.bouncycastle."));
        SSLContext server = MlDsaTls.server(pki.serverKeys().getPrivate(), pki.serverChain()).bouncyCastleOnly().build();
        SSLContext client = MlDsaTls.client(List.of(pki.ca())).build();

        ProviderWork work = ProviderWork.now();
        EnginePair.Outcome o = EnginePair.handshake(client, server);

        assertTrue(o.succeeded(), () -> "client: " + o.clientFailure() + ", server: " + o.serverFailure());
        assertEquals(2, work.since());
    }

    /** Mutual TLS across the two: each side signs and verifies with its own provider. */
    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-65"})
    void mutualTlsWithBouncyCastleClient(String set) throws Exception {
        Pki ours = Pki.of(set);
        Pki theirs = Pki.bouncyCastle(set);
        SSLContext server = MlDsaTls.server(ours.serverKeys().getPrivate(), ours.serverChain())
                .trust(List.of(theirs.ca())).needClientAuth().build();
        SSLContext client = MlDsaTls.client(List.of(ours.ca())).identity(theirs.clientKeys().getPrivate(),
                theirs.clientChain()).bouncyCastleOnly().build();

        ProviderWork work = ProviderWork.now();
        EnginePair.Outcome o = EnginePair.handshake(client, server);

        assertTrue(o.succeeded(), () -> "client: " + o.clientFailure() + ", server: " + o.serverFailure());
        assertEquals(3, work.since());   // server: signs its CertificateVerify, verifies the client's and its leaf
    }
}
