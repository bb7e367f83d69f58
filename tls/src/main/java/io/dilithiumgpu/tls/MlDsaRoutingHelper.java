package io.dilithiumgpu.tls;

import org.bouncycastle.jcajce.util.ProviderJcaJceHelper;

import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Signature;

/**
 * The JCA services BouncyCastle's TLS code asks for: every {@code Signature} this provider offers
 * (ML-DSA, by name or OID) from this provider, everything else (digests, ciphers, key exchange,
 * other signatures, certificate parsing) from BouncyCastle. This provider alone cannot serve TLS:
 * it has no SHA-512, AES or X25519.
 */
final class MlDsaRoutingHelper extends ProviderJcaJceHelper {
    private final Provider mlDsa;

    MlDsaRoutingHelper(Provider everythingElse, Provider mlDsa) {
        super(everythingElse);
        this.mlDsa = mlDsa;
    }

    @Override
    public Signature createSignature(String algorithm) throws NoSuchAlgorithmException {
        if (mlDsa.getService("Signature", algorithm) != null) {
            return Signature.getInstance(algorithm, mlDsa);
        }
        return super.createSignature(algorithm);
    }
}
