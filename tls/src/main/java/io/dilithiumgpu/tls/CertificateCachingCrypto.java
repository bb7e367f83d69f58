package io.dilithiumgpu.tls;

import org.bouncycastle.tls.AlertDescription;
import org.bouncycastle.tls.CertificateType;
import org.bouncycastle.tls.TlsFatalAlert;
import org.bouncycastle.tls.crypto.TlsCertificate;
import org.bouncycastle.tls.crypto.impl.jcajce.JcaTlsCertificate;
import org.bouncycastle.tls.crypto.impl.jcajce.JcaTlsCrypto;
import org.bouncycastle.jcajce.util.JcaJceHelper;

import java.io.IOException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;

/**
 * BouncyCastle's JCA TLS crypto that parses each distinct peer certificate once per process:
 * servers present the same chain to every client, and BouncyCastle otherwise reads each
 * certificate of every handshake three times over (BER, DER re-encoding, X.509). The parsed
 * certificate is immutable and shared; every handshake still gets its own {@link JcaTlsCertificate}
 * and verifies every signature itself.
 */
final class CertificateCachingCrypto extends JcaTlsCrypto {
    private static final int CAPACITY = 1024;
    private static final BoundedCache<EncodedCertificate, X509Certificate> PARSED = new BoundedCache<>(CAPACITY);

    CertificateCachingCrypto(JcaJceHelper helper, SecureRandom keyRandom, SecureRandom nonceRandom) {
        super(helper, null, keyRandom, nonceRandom);
    }

    @Override
    public TlsCertificate createCertificate(short type, byte[] encoding) throws IOException {
        if (type != CertificateType.X509) {
            throw new TlsFatalAlert(AlertDescription.unsupported_certificate);
        }
        X509Certificate parsed = PARSED.get(new EncodedCertificate(encoding.clone()),
                e -> JcaTlsCertificate.parseCertificate(getHelper(), e.encoding()));
        return new JcaTlsCertificate(this, parsed);
    }
}
