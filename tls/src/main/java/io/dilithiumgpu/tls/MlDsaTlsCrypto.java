package io.dilithiumgpu.tls;

import org.bouncycastle.jcajce.util.JcaJceHelper;
import org.bouncycastle.tls.crypto.impl.jcajce.JcaTlsCryptoProvider;

import java.security.Provider;

/**
 * BouncyCastle's JCA-based TLS crypto with ML-DSA signing and verification (CertificateVerify)
 * routed to this provider ({@link MlDsaRoutingHelper}).
 */
final class MlDsaTlsCrypto extends JcaTlsCryptoProvider {
    private final JcaJceHelper helper;

    MlDsaTlsCrypto(Provider everythingElse, Provider mlDsa) {
        this.helper = new MlDsaRoutingHelper(everythingElse, mlDsa);
    }

    @Override
    public JcaJceHelper getHelper() {
        return helper;
    }

    @Override
    public JcaJceHelper getAltHelper() {
        return null;
    }
}
