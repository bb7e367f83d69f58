package io.dilithiumgpu.kat;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * The AES-256 CTR_DRBG of the NIST PQC known-answer generator ({@code rng.c}:
 * {@code randombytes_init} and {@code randombytes}): NIST SP 800-90A §10.2.1 without a derivation
 * function and without prediction resistance, seeded with 48 bytes of entropy and no
 * personalization string.
 *
 * <p>Round-3.1 keys in {@code PQCsignKAT_*.rsp} are reproduced by seeding it with a record's
 * {@code seed} and drawing the 32-byte ζ of {@code crypto_sign_keypair} in one call.
 *
 * <p>Not thread-safe. {@link #close()} wipes the state (Key, V); the JCE copy of the AES key is
 * beyond our reach, which is acceptable for a test generator whose inputs are public vectors.
 */
public final class CtrDrbg implements AutoCloseable {
    /** Bytes of entropy input, and of the seed material (seedlen = keylen + blocklen). */
    public static final int SEED_BYTES = 48;

    private static final int KEY_BYTES = 32;
    private static final int BLOCK_BYTES = 16;

    private final byte[] key = new byte[KEY_BYTES];
    private final byte[] v = new byte[BLOCK_BYTES];
    private final Cipher aes;
    private boolean closed;

    /**
     * {@code randombytes_init(entropy, NULL, 256)}: Key = 0, V = 0, then CTR_DRBG_Update with the
     * entropy as provided data (SP 800-90A §10.2.1.3.1).
     *
     * @param entropy exactly {@value #SEED_BYTES} bytes; not kept
     */
    public CtrDrbg(byte[] entropy) {
        if (entropy.length != SEED_BYTES) {
            throw new IllegalArgumentException("CTR_DRBG entropy input must be " + SEED_BYTES
                    + " bytes, not " + entropy.length);
        }
        try {
            aes = Cipher.getInstance("AES/ECB/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java platform has AES/ECB/NoPadding", e);
        }
        update(entropy);
    }

    /**
     * {@code randombytes(out, len)}: len bytes of output blocks AES(Key, ++V), the last block
     * truncated, then CTR_DRBG_Update with no provided data (SP 800-90A §10.2.1.5.1).
     */
    public void nextBytes(byte[] out, int off, int len) {
        if (closed) {
            throw new IllegalStateException("CTR_DRBG is closed");
        }
        byte[] block = new byte[BLOCK_BYTES];
        try {
            rekey();
            for (int done = 0; done < len; done += BLOCK_BYTES) {
                increment(v);
                encrypt(v, block);
                System.arraycopy(block, 0, out, off + done, Math.min(BLOCK_BYTES, len - done));
            }
        } finally {
            Arrays.fill(block, (byte) 0);
        }
        update(null);
    }

    /** {@link #nextBytes(byte[], int, int)} into a new array. */
    public byte[] nextBytes(int len) {
        byte[] out = new byte[len];
        nextBytes(out, 0, len);
        return out;
    }

    /** Wipes Key and V; further output is refused. */
    @Override
    public void close() {
        Arrays.fill(key, (byte) 0);
        Arrays.fill(v, (byte) 0);
        closed = true;
    }

    /**
     * CTR_DRBG_Update: temp = AES(Key, ++V) ‖ AES(Key, ++V) ‖ AES(Key, ++V), XOR the 48 provided
     * bytes (none: zero), then Key = temp[0, 32) and V = temp[32, 48).
     */
    private void update(byte[] provided) {
        byte[] temp = new byte[SEED_BYTES];
        try {
            rekey();
            for (int i = 0; i < SEED_BYTES; i += BLOCK_BYTES) {
                increment(v);
                byte[] block = new byte[BLOCK_BYTES];
                encrypt(v, block);
                System.arraycopy(block, 0, temp, i, BLOCK_BYTES);
                Arrays.fill(block, (byte) 0);
            }
            if (provided != null) {
                for (int i = 0; i < SEED_BYTES; i++) {
                    temp[i] ^= provided[i];
                }
            }
            System.arraycopy(temp, 0, key, 0, KEY_BYTES);
            System.arraycopy(temp, KEY_BYTES, v, 0, BLOCK_BYTES);
        } finally {
            Arrays.fill(temp, (byte) 0);
        }
    }

    private void rekey() {
        try {
            aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-256 key rejected", e);
        }
    }

    private void encrypt(byte[] in, byte[] out) {
        try {
            aes.doFinal(in, 0, BLOCK_BYTES, out, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/ECB/NoPadding failed on one block", e);
        }
    }

    /** V = V + 1 mod 2^128, big-endian. */
    private static void increment(byte[] counter) {
        for (int i = counter.length - 1; i >= 0; i--) {
            if (++counter[i] != 0) {
                return;
            }
        }
    }
}
