package io.dilithiumgpu.tls;

import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.Certificate;

import javax.security.auth.x500.X500Principal;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Set;

/**
 * What {@link PathTrustManager} reads from a certificate, read once: its names, validity period,
 * extensions and signed bytes. Certificate objects decode their dates and extensions again on
 * every call; a server's chain is the same for every handshake.
 *
 * @param subject          the subject name
 * @param issuer           the issuer name
 * @param notBefore        start of validity, ms since the epoch
 * @param notAfter         end of validity, ms since the epoch
 * @param unhandledCritical a critical extension the trust manager does not process, or null
 * @param pathLength       basic constraints: -1 for no CA, else the path length allowed
 * @param mayCertify       key usage allows keyCertSign (or there is no key usage)
 * @param maySign          key usage allows digitalSignature (or there is no key usage)
 * @param extendedKeyUsage the extended key usage OIDs, or null without the extension
 * @param tbs              the signed part (shared: never handed out or written)
 * @param signature        the signature (shared: never handed out or written)
 * @param signatureOid     the signature algorithm's OID
 * @param algorithmProblem what is wrong with the signature algorithm's encoding for ML-DSA
 *                         (present parameters, outer and signed algorithms differ), or null
 */
record CertificateFacts(X500Principal subject, X500Principal issuer, long notBefore, long notAfter,
                        String unhandledCritical, int pathLength, boolean mayCertify, boolean maySign,
                        List<String> extendedKeyUsage, byte[] tbs, byte[] signature, String signatureOid,
                        String algorithmProblem) {
    private static final int KEY_USAGE_DIGITAL_SIGNATURE = 0;
    private static final int KEY_USAGE_KEY_CERT_SIGN = 5;

    /**
     * Reads {@code c}.
     *
     * @throws CertificateException when it does not decode
     */
    static CertificateFacts of(X509Certificate c, Set<String> understoodCritical) throws CertificateException {
        String unhandled = null;
        Set<String> critical = c.getCriticalExtensionOIDs();
        if (critical != null) {
            for (String oid : critical) {
                if (!understoodCritical.contains(oid)) {
                    unhandled = oid;
                    break;
                }
            }
        }
        boolean[] usage = c.getKeyUsage();
        List<String> extended;
        try {
            extended = c.getExtendedKeyUsage();
        } catch (CertificateParsingException e) {
            throw new CertificateException(c.getSubjectX500Principal() + ": unreadable extended key usage: "
                    + e.getMessage(), e);
        }
        return new CertificateFacts(c.getSubjectX500Principal(), c.getIssuerX500Principal(),
                c.getNotBefore().getTime(), c.getNotAfter().getTime(), unhandled, c.getBasicConstraints(),
                usage == null || (usage.length > KEY_USAGE_KEY_CERT_SIGN && usage[KEY_USAGE_KEY_CERT_SIGN]),
                usage == null || (usage.length > KEY_USAGE_DIGITAL_SIGNATURE && usage[KEY_USAGE_DIGITAL_SIGNATURE]),
                extended == null ? null : List.copyOf(extended), c.getTBSCertificate(), c.getSignature(),
                c.getSigAlgOID(), algorithmProblem(c));
    }

    /**
     * RFC 9881: an ML-DSA AlgorithmIdentifier has absent parameters; RFC 5280 §4.1.1.2: the outer
     * signatureAlgorithm is the one inside the signed part. Null when both hold.
     */
    private static String algorithmProblem(X509Certificate cert) throws CertificateException {
        Certificate parsed;
        try {
            parsed = Certificate.getInstance(cert.getEncoded());
        } catch (IllegalArgumentException e) {
            throw new CertificateException(cert.getSubjectX500Principal() + " does not parse: " + e.getMessage(), e);
        }
        AlgorithmIdentifier outer = parsed.getSignatureAlgorithm();
        if (outer.getParameters() != null) {
            return "the signature algorithm " + outer.getAlgorithm() + " must have absent parameters";
        }
        if (!outer.equals(parsed.getTBSCertificate().getSignature())) {
            return "the signature algorithm differs from the one in the signed part";
        }
        return null;
    }
}
