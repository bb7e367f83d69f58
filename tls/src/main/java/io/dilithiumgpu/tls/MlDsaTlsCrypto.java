package io.dilithiumgpu.tls;

import org.bouncycastle.jcajce.util.JcaJceHelper;
import org.bouncycastle.tls.crypto.impl.jcajce.JcaTlsCrypto;
import org.bouncycastle.tls.crypto.impl.jcajce.JcaTlsCryptoProvider;

import java.security.Provider;
import java.security.SecureRandom;

/**
 * BouncyCastle's JCA-based TLS crypto with each primitive from its fastest provider, ML-DSA from
 * this one ({@link MlDsaRoutingHelper}), and each distinct peer certificate parsed once
 * ({@link CertificateCachingCrypto}).
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

    @Override
    public JcaTlsCrypto create(SecureRandom keyRandom, SecureRandom nonceRandom) {
        return new CertificateCachingCrypto(getHelper(), keyRandom, nonceRandom);
    }
}
