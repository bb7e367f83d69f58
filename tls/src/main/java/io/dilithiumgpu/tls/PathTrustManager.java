package io.dilithiumgpu.tls;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.security.auth.x500.X500Principal;
import java.net.InetAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Checks a peer's chain against fixed trust anchors, verifying each certificate's signature exactly
 * once per check. (BouncyCastle's own trust manager builds a path and then validates it, verifying
 * the leaf twice: with ML-DSA those are two of the handshake's four signature operations.)
 *
 * <p>The path is the chain as the peer sent it, leaf first, each certificate issued by the next,
 * with trailing certificates that are themselves anchors dropped; the last one must be issued by an
 * anchor (name and signature). Every certificate of the path must be within its validity period and
 * carry no critical extension besides basic constraints, key usage, extended key usage and subject
 * alternative names; issuers must be CAs (basic constraints, path length, keyCertSign) and the leaf
 * may sign (digitalSignature) for the purpose (serverAuth or clientAuth). Where the connection asks
 * for endpoint identification ({@code HTTPS} or {@code LDAPS}), the leaf's subject alternative
 * names must match the peer's host name or address. There is no revocation checking. A leaf that
 * is itself an anchor is trusted as it is.
 *
 * <p>Signatures whose algorithm this provider offers (ML-DSA, by OID) are verified by it; others
 * by BouncyCastle. Anchor keys are turned into this provider's keys once, at construction. What a
 * certificate says (names, dates, extensions, signed bytes) is read once per distinct certificate
 * in the process ({@link CertificateFacts}); its signature is verified at every check.
 */
final class PathTrustManager extends X509ExtendedTrustManager {
    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
    private static final String ANY_EXTENDED_KEY_USAGE = "2.5.29.37.0";
    private static final Set<String> UNDERSTOOD_CRITICAL = Set.of(
            "2.5.29.15",   // key usage
            "2.5.29.17",   // subject alternative name
            "2.5.29.19",   // basic constraints
            "2.5.29.37");  // extended key usage
    private static final int SAN_DNS = 2;
    private static final int SAN_IP = 7;
    /** Distinct certificates whose facts are kept, over all trust managers of the process. */
    private static final int FACTS_CAPACITY = 1024;
    private static final BoundedCache<X509Certificate, CertificateFacts> FACTS = new BoundedCache<>(FACTS_CAPACITY);

    private record Anchor(X509Certificate certificate, X500Principal subject, PublicKey key) {}

    private final List<Anchor> anchors;
    private final Provider mlDsa;
    private final Provider everythingElse;

    PathTrustManager(Collection<X509Certificate> anchors, Provider mlDsa, Provider everythingElse) {
        this.mlDsa = mlDsa;
        this.everythingElse = everythingElse;
        List<Anchor> list = new ArrayList<>(anchors.size());
        for (X509Certificate c : anchors) {
            list.add(new Anchor(c, c.getSubjectX500Principal(), ownKey(c.getPublicKey(), mlDsa)));
        }
        this.anchors = List.copyOf(list);
    }

    /** This provider's key for {@code key} when it offers the algorithm, else the key as it is. */
    static PublicKey ownKey(PublicKey key, Provider mlDsa) {
        if (mlDsa.getService("KeyFactory", key.getAlgorithm()) == null) {
            return key;
        }
        try {
            return (PublicKey) KeyFactory.getInstance(key.getAlgorithm(), mlDsa).translateKey(key);
        } catch (GeneralSecurityException e) {
            return key;   // verification will say what is wrong with it
        }
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        X509Certificate[] out = new X509Certificate[anchors.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = anchors.get(i).certificate();
        }
        return out;
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain, CLIENT_AUTH, null, null);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain, SERVER_AUTH, null, null);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        check(chain, CLIENT_AUTH, null, null);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        String algorithm = socket instanceof SSLSocket s ? identification(s.getSSLParameters()) : null;
        SSLSession handshake = algorithm == null ? null : ((SSLSocket) socket).getHandshakeSession();
        check(chain, SERVER_AUTH, algorithm, handshake == null ? null : handshake.getPeerHost());
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain, CLIENT_AUTH, null, null);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        String algorithm = engine == null ? null : identification(engine.getSSLParameters());
        check(chain, SERVER_AUTH, algorithm, algorithm == null ? null : engine.getPeerHost());
    }

    private static String identification(SSLParameters p) {
        String a = p.getEndpointIdentificationAlgorithm();
        return a == null || a.isEmpty() ? null : a;
    }

    private void check(X509Certificate[] chain, String purpose, String identification, String host)
            throws CertificateException {
        if (chain == null || chain.length == 0) {
            throw new CertificateException("the peer sent no certificate");
        }
        X509Certificate leaf = chain[0];
        long now = System.currentTimeMillis();
        int length = chain.length;
        while (length > 1 && isAnchor(chain[length - 1])) {
            length--;
        }
        CertificateFacts leafFacts = facts(leaf);
        if (!(length == 1 && isAnchor(leaf))) {
            verifyPath(chain, length, now);
        } else {
            checkCommon(leafFacts, now);
        }
        checkLeaf(leafFacts, purpose);
        if (identification != null) {
            checkHost(leaf, host);
        }
    }

    private boolean isAnchor(X509Certificate c) {
        for (Anchor a : anchors) {
            if (a.certificate().equals(c)) {
                return true;
            }
        }
        return false;
    }

    /** The certificate's facts, read on its first check in this process. */
    private static CertificateFacts facts(X509Certificate c) throws CertificateException {
        return FACTS.get(c, k -> CertificateFacts.of(k, UNDERSTOOD_CRITICAL));
    }

    private void verifyPath(X509Certificate[] chain, int length, long now) throws CertificateException {
        X509Certificate top = chain[length - 1];
        CertificateFacts topFacts = facts(top);
        checkCommon(topFacts, now);
        verifyByAnchor(top, topFacts);
        for (int i = length - 2; i >= 0; i--) {
            X509Certificate cert = chain[i];
            CertificateFacts certFacts = facts(cert);
            CertificateFacts issuer = facts(chain[i + 1]);
            checkCommon(certFacts, now);
            checkIssuer(issuer, i);
            if (!certFacts.issuer().equals(issuer.subject())) {
                throw new CertificateException("certificate " + (i + 1) + " of the chain ("
                        + certFacts.subject() + ") is not issued by the next one (" + issuer.subject() + ")");
            }
            verifySignature(cert, certFacts, chain[i + 1].getPublicKey());
        }
    }

    private void verifyByAnchor(X509Certificate top, CertificateFacts topFacts) throws CertificateException {
        CertificateException last = null;
        for (Anchor a : anchors) {
            if (!a.subject().equals(topFacts.issuer())) {
                continue;
            }
            try {
                verifySignature(top, topFacts, a.key());
                return;
            } catch (CertificateException e) {
                last = e;
            }
        }
        if (last != null) {
            throw last;
        }
        throw new CertificateException("no trust anchor issued " + topFacts.subject() + " (issuer "
                + topFacts.issuer() + ")");
    }

    /** Validity and critical extensions, for every certificate of the path. */
    private static void checkCommon(CertificateFacts c, long now) throws CertificateException {
        if (now > c.notAfter()) {
            throw new CertificateExpiredException(c.subject() + " expired on " + new Date(c.notAfter()));
        }
        if (now < c.notBefore()) {
            throw new CertificateNotYetValidException(c.subject() + " is not valid before " + new Date(c.notBefore()));
        }
        if (c.unhandledCritical() != null) {
            throw new CertificateException(c.subject() + " has the critical extension " + c.unhandledCritical()
                    + ", which this trust manager does not process");
        }
    }

    /** An issuer {@code below} certificates above the leaf: a CA whose path length allows them. */
    private static void checkIssuer(CertificateFacts issuer, int below) throws CertificateException {
        if (issuer.pathLength() < 0) {
            throw new CertificateException(issuer.subject() + " issues certificates but is not a CA");
        }
        if (issuer.pathLength() < below) {
            throw new CertificateException(issuer.subject() + " allows " + issuer.pathLength()
                    + " intermediate CAs below it, the chain has " + below);
        }
        if (!issuer.mayCertify()) {
            throw new CertificateException(issuer.subject() + " may not sign certificates (key usage)");
        }
    }

    private static void checkLeaf(CertificateFacts leaf, String purpose) throws CertificateException {
        if (!leaf.maySign()) {
            throw new CertificateException(leaf.subject() + " may not sign (key usage)");
        }
        List<String> extended = leaf.extendedKeyUsage();
        if (extended != null && !extended.contains(purpose) && !extended.contains(ANY_EXTENDED_KEY_USAGE)) {
            throw new CertificateException(leaf.subject() + " is not for "
                    + (SERVER_AUTH.equals(purpose) ? "TLS servers" : "TLS clients") + " (extended key usage)");
        }
    }

    /** Verifies {@code cert}'s signature now: every check, every handshake (signatures are never cached). */
    private void verifySignature(X509Certificate cert, CertificateFacts facts, PublicKey issuerKey)
            throws CertificateException {
        String oid = facts.signatureOid();
        try {
            if (mlDsa.getService("Signature", oid) == null) {
                cert.verify(issuerKey, everythingElse);
                return;
            }
            if (facts.algorithmProblem() != null) {
                throw new CertificateException(facts.subject() + ": " + facts.algorithmProblem());
            }
            Signature verifier = Signature.getInstance(oid, mlDsa);
            verifier.initVerify(issuerKey);
            verifier.update(facts.tbs());
            if (!verifier.verify(facts.signature())) {
                throw new CertificateException(facts.subject() + ": the signature does not verify");
            }
        } catch (GeneralSecurityException e) {
            throw new CertificateException(facts.subject() + ": the signature cannot be verified: "
                    + e.getMessage(), e);
        }
    }

    private static void checkHost(X509Certificate leaf, String host) throws CertificateException {
        if (host == null || host.isEmpty()) {
            throw new CertificateException("endpoint identification is on, but the peer's host name is not known");
        }
        Collection<List<?>> names;
        try {
            names = leaf.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            throw new CertificateException("unreadable subject alternative names: " + e.getMessage(), e);
        }
        if (names != null) {
            boolean literal = isAddressLiteral(host);
            for (List<?> n : names) {
                int type = (Integer) n.get(0);
                String value = String.valueOf(n.get(1));
                if (literal ? type == SAN_IP && sameAddress(value, host) : type == SAN_DNS && dnsMatches(value, host)) {
                    return;
                }
            }
        }
        throw new CertificateException(leaf.getSubjectX500Principal() + " names no subject alternative name matching "
                + host);
    }

    private static boolean isAddressLiteral(String host) {
        return host.indexOf(':') >= 0 || host.chars().allMatch(ch -> ch == '.' || (ch >= '0' && ch <= '9'));
    }

    private static boolean sameAddress(String a, String b) {
        try {
            return InetAddress.getByName(a).equals(InetAddress.getByName(b));   // literals: no lookup
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** RFC 6125 §6.4: exact, or a wildcard as the whole leftmost label standing for one label. */
    static boolean dnsMatches(String pattern, String host) {
        String p = pattern.toLowerCase(Locale.ROOT);
        String h = host.toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        if (!p.startsWith("*.")) {
            return p.equals(h);
        }
        int dot = h.indexOf('.');
        return dot > 0 && p.substring(1).equals(h.substring(dot)) && p.indexOf('.', 2) > 0;
    }
}
