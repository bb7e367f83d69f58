package io.dilithiumgpu.tls;

import java.util.Arrays;

/** A certificate's encoding as a map key: equal when the bytes are. The array is not copied; nobody writes it. */
final class EncodedCertificate {
    private final byte[] encoding;
    private final int hash;

    EncodedCertificate(byte[] encoding) {
        this.encoding = encoding;
        this.hash = Arrays.hashCode(encoding);
    }

    byte[] encoding() {
        return encoding;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EncodedCertificate e && e.hash == hash && Arrays.equals(e.encoding, encoding);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
