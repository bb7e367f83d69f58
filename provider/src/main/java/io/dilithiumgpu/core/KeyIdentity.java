package io.dilithiumgpu.core;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Who a packed key is, for a cache that holds its expanded form elsewhere (the CUDA backend's
 * device key cache): SHA-256 of the whole packed key (every byte, so that a crafted private key
 * carrying another key's tr is another identity), bound to a copy of the bytes it was computed
 * from. Two identities are equal when their digests are: equal encodings share one.
 *
 * <p>A key cache ({@link PrivateKeyCache}, {@link PublicKeyCache}) computes its key's identity
 * once and hands it out only for the bytes it is bound to ({@link #matches}); a private key's
 * copy is secret: compared in constant time ({@link ConstantTime}) and zeroed by {@link #wipe()} (at the key's
 * {@code destroy()}), after which it matches nothing.
 *
 * <p>Thread-safe; the digest is public, the bytes are never exposed.
 */
public final class KeyIdentity {
    private final byte[] packed;
    private final byte[] digest;
    private final int hash;
    private final boolean secret;
    private volatile boolean wiped;

    private KeyIdentity(byte[] packed, boolean secret) {
        this.packed = packed;
        this.secret = secret;
        this.digest = sha256(packed);
        this.hash = ByteBuffer.wrap(digest).getInt();
    }

    /** The identity of {@code key[off .. off + length)}; {@code secret} for a private key. */
    public static KeyIdentity of(byte[] key, int off, int length, boolean secret) {
        return new KeyIdentity(Arrays.copyOfRange(key, off, off + length), secret);
    }

    /** The identity of {@code length} bytes of {@code key} at absolute offset {@code off}. */
    public static KeyIdentity of(ByteBuffer key, int off, int length, boolean secret) {
        byte[] copy = new byte[length];
        key.get(off, copy, 0, length);
        return new KeyIdentity(copy, secret);
    }

    /** Bytes of the key this identity is bound to. */
    public int length() {
        return packed.length;
    }

    /**
     * Whether {@code key[off ..]} holds exactly the bytes this identity was computed from (in
     * constant time for a private key); false once wiped.
     */
    public boolean matches(byte[] key, int off) {
        if (wiped || off < 0 || key.length - off < packed.length) {
            return false;
        }
        if (!secret) {
            return Arrays.equals(packed, 0, packed.length, key, off, off + packed.length);
        }
        return ConstantTime.equal(packed, 0, key, off, packed.length) && !wiped;
    }

    /** {@link #matches(byte[], int)} for the bytes of {@code key} at absolute offset {@code off}. */
    public boolean matches(ByteBuffer key, int off) {
        if (wiped || off < 0 || key.limit() - off < packed.length) {
            return false;
        }
        if (!secret) {
            return key.slice(off, packed.length).equals(ByteBuffer.wrap(packed));
        }
        return ConstantTime.equal(packed, key, off) && !wiped;
    }

    /** The SHA-256 digest of the key; a fresh copy. Public: it reveals nothing of a private key. */
    public byte[] digest() {
        return digest.clone();
    }

    /** Zeroes the copy of the key; the identity matches nothing afterwards. Idempotent. */
    public void wipe() {
        wiped = true;
        Arrays.fill(packed, (byte) 0);
    }

    /** Whether {@link #wipe()} was called. */
    public boolean isWiped() {
        return wiped;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyIdentity other && MessageDigest.isEqual(digest, other.digest);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return (secret ? "private" : "public") + " key identity";
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
