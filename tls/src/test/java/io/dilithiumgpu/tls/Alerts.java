package io.dilithiumgpu.tls;

import org.bouncycastle.tls.TlsFatalAlert;
import org.bouncycastle.tls.TlsFatalAlertReceived;

/** The TLS alert behind a failed handshake, from BouncyCastle's exceptions in the cause chain. */
final class Alerts {
    static final short CERTIFICATE_UNKNOWN = 46;

    private Alerts() {}

    /** The alert this side sent, or -1. */
    static short sent(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof TlsFatalAlert a) {
                return a.getAlertDescription();
            }
        }
        return -1;
    }

    /** The alert this side received, or -1. */
    static short received(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof TlsFatalAlertReceived a) {
                return a.getAlertDescription();
            }
        }
        return -1;
    }
}
