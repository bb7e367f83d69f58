package io.dilithiumgpu.tls;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Test PKIs: a CA and server and client leaves of one ML-DSA set, made once per set and signer. */
record Pki(KeyPair caKeys, X509Certificate ca, KeyPair serverKeys, X509Certificate server,
           KeyPair clientKeys, X509Certificate client) {
    static final Duration VALIDITY = Duration.ofDays(1);
    private static final Map<String, Pki> MADE = new ConcurrentHashMap<>();

    /** Keys and certificates by this provider. */
    static Pki of(String set) {
        return MADE.computeIfAbsent(set, s -> make(s, MlDsaTls.provider()));
    }

    /** Keys and certificates by BouncyCastle's own ML-DSA. */
    static Pki bouncyCastle(String set) {
        return MADE.computeIfAbsent("bc " + set, s -> make(set, MlDsaTls.bouncyCastle()));
    }

    static KeyPair keys(String set, Provider provider) throws GeneralSecurityException {
        return KeyPairGenerator.getInstance(set, provider).generateKeyPair();
    }

    private static Pki make(String set, Provider p) {
        try {
            KeyPair ca = keys(set, p);
            X509Certificate caCert = MlDsaCertificates.certificateAuthority(ca, "CN=Test CA " + set, VALIDITY, p);
            KeyPair server = keys(set, p);
            X509Certificate serverCert = MlDsaCertificates.leaf(caCert, ca.getPrivate(), server.getPublic(),
                    "CN=localhost", List.of("localhost"), MlDsaCertificates.Purpose.SERVER, VALIDITY, p);
            KeyPair client = keys(set, p);
            X509Certificate clientCert = MlDsaCertificates.leaf(caCert, ca.getPrivate(), client.getPublic(),
                    "CN=client", List.of(), MlDsaCertificates.Purpose.CLIENT, VALIDITY, p);
            return new Pki(ca, caCert, server, serverCert, client, clientCert);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    List<X509Certificate> serverChain() {
        return List.of(server, ca);
    }

    List<X509Certificate> clientChain() {
        return List.of(client, ca);
    }
}
