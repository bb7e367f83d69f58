package io.dilithiumgpu.tls;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

/**
 * Issues X.509 v3 certificates signed with ML-DSA by this provider (bcpkix builds and encodes
 * them): a self-signed CA, and TLS leaf certificates for servers and clients. The signature
 * algorithm is the issuer key's set ({@code ML-DSA-65} for an ML-DSA-65 key; RFC 9881: parameters
 * absent). Serial numbers are 128 random bits; validity starts an hour back, for clock skew.
 */
public final class MlDsaCertificates {
    private static final Duration SKEW = Duration.ofHours(1);
    private static final SecureRandom SERIALS = new SecureRandom();

    /** What a leaf certificate is for (its extended key usage). */
    public enum Purpose {
        SERVER(KeyPurposeId.id_kp_serverAuth), CLIENT(KeyPurposeId.id_kp_clientAuth);

        private final KeyPurposeId id;

        Purpose(KeyPurposeId id) {
            this.id = id;
        }
    }

    private MlDsaCertificates() {}

    /**
     * A self-signed CA certificate: basic constraints CA (critical), key usage keyCertSign and
     * cRLSign (critical), a subject key identifier.
     *
     * @param subject an X.500 name such as {@code "CN=Test CA"}
     */
    public static X509Certificate certificateAuthority(KeyPair ca, String subject, Duration validity)
            throws GeneralSecurityException {
        return certificateAuthority(ca, subject, validity, MlDsaTls.provider());
    }

    /**
     * As {@link #certificateAuthority(KeyPair, String, Duration)}, signed by {@code signer}'s ML-DSA
     * (BouncyCastle's, say, to compare with it).
     */
    public static X509Certificate certificateAuthority(KeyPair ca, String subject, Duration validity, Provider signer)
            throws GeneralSecurityException {
        X500Name name = new X500Name(subject);
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        X509v3CertificateBuilder b = builder(name, name, ca.getPublic(), validity);
        try {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(ca.getPublic()));
        } catch (CertIOException e) {
            throw new GeneralSecurityException("certificate extension does not encode", e);
        }
        return sign(b, ca.getPrivate(), signer);
    }

    /**
     * A leaf certificate for {@code subjectKey}, signed by the CA: basic constraints not a CA and key
     * usage digitalSignature (both critical), the purpose's extended key usage, the DNS names as
     * subject alternative names (none: no extension), and both key identifiers.
     */
    public static X509Certificate leaf(X509Certificate caCertificate, PrivateKey caKey, PublicKey subjectKey,
                                       String subject, List<String> dnsNames, Purpose purpose, Duration validity)
            throws GeneralSecurityException {
        return leaf(caCertificate, caKey, subjectKey, subject, dnsNames, purpose, validity, MlDsaTls.provider());
    }

    /** As {@link #leaf(X509Certificate, PrivateKey, PublicKey, String, List, Purpose, Duration)}, signed by {@code signer}. */
    public static X509Certificate leaf(X509Certificate caCertificate, PrivateKey caKey, PublicKey subjectKey, String subject,
                                List<String> dnsNames, Purpose purpose, Duration validity, Provider signer)
            throws GeneralSecurityException {
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        X509v3CertificateBuilder b = builder(X500Name.getInstance(caCertificate.getSubjectX500Principal().getEncoded()),
                new X500Name(subject), subjectKey, validity);
        try {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose.id));
            if (!dnsNames.isEmpty()) {
                GeneralName[] names = dnsNames.stream().map(n -> new GeneralName(GeneralName.dNSName, n))
                        .toArray(GeneralName[]::new);
                b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
            }
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(subjectKey));
            b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(caCertificate));
        } catch (CertIOException e) {
            throw new GeneralSecurityException("certificate extension does not encode", e);
        }
        return sign(b, caKey, signer);
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, PublicKey key,
                                                    Duration validity) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, new BigInteger(128, SERIALS).setBit(127),
                Date.from(now.minus(SKEW)), Date.from(now.plus(validity)), subject, key);
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey issuerKey, Provider provider)
            throws GeneralSecurityException {
        PrivateKey key = provider == MlDsaTls.provider() ? MlDsaTls.ownKey(issuerKey, provider) : issuerKey;
        ContentSigner signer;
        try {
            signer = new JcaContentSignerBuilder(key.getAlgorithm()).setProvider(provider).build(key);
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("no " + key.getAlgorithm() + " signer: " + e.getMessage(), e);
        }
        return new JcaX509CertificateConverter().setProvider(MlDsaTls.bouncyCastle()).getCertificate(b.build(signer));
    }
}
