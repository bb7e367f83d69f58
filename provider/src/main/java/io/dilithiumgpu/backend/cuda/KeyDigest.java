package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.core.KeyIdentity;

import java.nio.ByteBuffer;
import java.security.MessageDigest;

/**
 * What a {@link DeviceKeyCache} remembers a key by: its identity's SHA-256 digest alone. The
 * policy keeps keys long after their objects are gone (entries, keys seen once, rejected keys),
 * so it holds no {@link KeyIdentity}, whose copy of the key's bytes is secret for a private key.
 */
final class KeyDigest {
    private final byte[] sha256;
    private final int hash;

    private KeyDigest(byte[] sha256) {
        this.sha256 = sha256;
        this.hash = ByteBuffer.wrap(sha256).getInt();
    }

    static KeyDigest of(KeyIdentity id) {
        return new KeyDigest(id.digest());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyDigest d && MessageDigest.isEqual(sha256, d.sha256);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return "key digest";
    }
}
