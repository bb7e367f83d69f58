package io.dilithiumgpu.tls;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/**
 * One private key and its certificate chain, offered for every key type that names the key's
 * algorithm. BouncyCastle's JSSE picks the TLS signer by {@link PrivateKey#getAlgorithm()}
 * ({@code ML-DSA-65}), so the key is handed over exactly as it was given: {@link MlDsaTls} has
 * already turned another provider's ML-DSA key into this provider's once, which keeps the expanded
 * key and its decoded vectors cached across handshakes.
 */
final class IdentityKeyManager extends X509ExtendedKeyManager {
    static final String ALIAS = "identity";

    private final PrivateKey key;
    private final X509Certificate[] chain;

    IdentityKeyManager(PrivateKey key, X509Certificate[] chain) {
        this.key = key;
        this.chain = chain.clone();
    }

    private boolean serves(String keyType) {
        return keyType != null && keyType.equalsIgnoreCase(key.getAlgorithm());
    }

    private String aliasFor(String[] keyTypes) {
        if (keyTypes != null) {
            for (String t : keyTypes) {
                if (serves(t)) {
                    return ALIAS;
                }
            }
        }
        return null;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return serves(keyType) ? new String[] {ALIAS} : null;
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        return aliasFor(keyTypes);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
        return aliasFor(keyTypes);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return serves(keyType) ? new String[] {ALIAS} : null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return serves(keyType) ? ALIAS : null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return serves(keyType) ? ALIAS : null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return ALIAS.equals(alias) ? chain.clone() : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return ALIAS.equals(alias) ? key : null;
    }
}
