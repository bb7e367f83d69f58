package io.dilithiumgpu.tls;

import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLServerSocketFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * BouncyCastle's server socket factory, its server sockets wrapped so that every accepted socket
 * gets the context's {@link ConnectionSettings} before its handshake starts.
 */
final class ConfiguredServerSocketFactory extends SSLServerSocketFactory {
    private final SSLServerSocketFactory delegate;
    private final ConnectionSettings settings;

    ConfiguredServerSocketFactory(SSLServerSocketFactory delegate, ConnectionSettings settings) {
        this.delegate = delegate;
        this.settings = settings;
    }

    private ServerSocket wrap(ServerSocket s) throws IOException {
        return new ConfiguredServerSocket((SSLServerSocket) s, settings);
    }

    @Override
    public String[] getDefaultCipherSuites() {
        return delegate.getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
        return delegate.getSupportedCipherSuites();
    }

    @Override
    public ServerSocket createServerSocket() throws IOException {
        return wrap(delegate.createServerSocket());
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
        return wrap(delegate.createServerSocket(port));
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog) throws IOException {
        return wrap(delegate.createServerSocket(port, backlog));
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog, InetAddress bindAddress) throws IOException {
        return wrap(delegate.createServerSocket(port, backlog, bindAddress));
    }
}
