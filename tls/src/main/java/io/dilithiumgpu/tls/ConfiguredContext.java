package io.dilithiumgpu.tls;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import java.security.KeyManagementException;
import java.security.SecureRandom;

/**
 * An initialized BouncyCastle {@link SSLContext} whose engines and sockets all start with the same
 * {@link ConnectionSettings}: the per-context configuration that BouncyCastle's JSSE otherwise
 * offers only through system properties.
 */
final class ConfiguredContext extends SSLContext {

    ConfiguredContext(SSLContext initialized, ConnectionSettings settings) {
        super(new Spi(initialized, settings), initialized.getProvider(), initialized.getProtocol());
    }

    private static final class Spi extends SSLContextSpi {
        private final SSLContext delegate;
        private final ConnectionSettings settings;

        Spi(SSLContext delegate, ConnectionSettings settings) {
            this.delegate = delegate;
            this.settings = settings;
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random)
                throws KeyManagementException {
            throw new KeyManagementException("this context is initialized by MlDsaTls and cannot be initialized again");
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return new ConfiguredSocketFactory(delegate.getSocketFactory(), settings);
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return new ConfiguredServerSocketFactory(delegate.getServerSocketFactory(), settings);
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return settings.configure(delegate.createSSLEngine());
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return settings.configure(delegate.createSSLEngine(host, port));
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return delegate.getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return delegate.getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            SSLParameters p = delegate.getDefaultSSLParameters();
            p.setProtocols(ConnectionSettings.PROTOCOLS.clone());
            return p;
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return delegate.getSupportedSSLParameters();
        }
    }
}
