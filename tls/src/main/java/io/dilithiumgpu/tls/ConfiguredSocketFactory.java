package io.dilithiumgpu.tls;

import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;

/** BouncyCastle's socket factory, each socket given the context's {@link ConnectionSettings}. */
final class ConfiguredSocketFactory extends SSLSocketFactory {
    private final SSLSocketFactory delegate;
    private final ConnectionSettings settings;

    ConfiguredSocketFactory(SSLSocketFactory delegate, ConnectionSettings settings) {
        this.delegate = delegate;
        this.settings = settings;
    }

    private Socket configure(Socket s) {
        return settings.configure((SSLSocket) s);
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
    public Socket createSocket() throws IOException {
        return configure(delegate.createSocket());
    }

    @Override
    public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
        return configure(delegate.createSocket(s, host, port, autoClose));
    }

    @Override
    public Socket createSocket(Socket s, InputStream consumed, boolean autoClose) throws IOException {
        return configure(delegate.createSocket(s, consumed, autoClose));
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return configure(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return configure(delegate.createSocket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return configure(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return configure(delegate.createSocket(address, port, localAddress, localPort));
    }
}
