package io.dilithiumgpu.tls;

import org.bouncycastle.jsse.BCSSLEngine;
import org.bouncycastle.jsse.BCSSLParameters;
import org.bouncycastle.jsse.BCSSLSocket;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import java.util.List;

/**
 * What {@link MlDsaTls} sets on every engine and socket of its contexts: TLS 1.3 only, the
 * signature schemes (the ML-DSA ones, which BouncyCastle leaves off by default, first), the key
 * exchange groups, and client authentication. BouncyCastle's JSSE reads its context-wide defaults
 * from system properties only; per connection it takes {@link BCSSLParameters}, which works on
 * JDK 17 as well ({@code SSLParameters.setSignatureSchemes} is JDK 19 and later).
 *
 * @param signatureSchemes in order of preference, by their TLS names ({@code mldsa65})
 * @param namedGroups      key exchange groups in order of preference, or null for BouncyCastle's
 * @param needClientAuth   whether a server demands a client certificate
 * @param cipherSuites     cipher suites in order of preference, which a server applies over its
 *                         client's order, or null for BouncyCastle's (client's order first)
 */
record ConnectionSettings(List<String> signatureSchemes, List<String> namedGroups, boolean needClientAuth,
                          List<String> cipherSuites) {
    static final String[] PROTOCOLS = {"TLSv1.3"};

    ConnectionSettings {
        signatureSchemes = List.copyOf(signatureSchemes);
        namedGroups = namedGroups == null ? null : List.copyOf(namedGroups);
        cipherSuites = cipherSuites == null ? null : List.copyOf(cipherSuites);
    }

    /** Settings applied to BouncyCastle's current parameters (the rest stays as it is). */
    BCSSLParameters applyTo(BCSSLParameters p) {
        p.setProtocols(PROTOCOLS);
        p.setSignatureSchemes(signatureSchemes.toArray(new String[0]));
        if (namedGroups != null) {
            p.setNamedGroups(namedGroups.toArray(new String[0]));
        }
        if (needClientAuth) {
            p.setNeedClientAuth(true);
        }
        if (cipherSuites != null) {
            p.setCipherSuites(cipherSuites.toArray(new String[0]));
            p.setUseCipherSuitesOrder(true);
        }
        return p;
    }

    SSLEngine configure(SSLEngine engine) {
        BCSSLEngine bc = (BCSSLEngine) engine;
        bc.setParameters(applyTo(bc.getParameters()));
        return engine;
    }

    SSLSocket configure(SSLSocket socket) {
        BCSSLSocket bc = (BCSSLSocket) socket;
        bc.setParameters(applyTo(bc.getParameters()));
        return socket;
    }
}
