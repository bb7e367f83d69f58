package io.dilithiumgpu.interop;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The AES-256 CTR_DRBG of the NIST PQC known-answer generator ({@code rng.c}: randombytes_init with
 * a 48-byte entropy input, no personalization, and randombytes), as a SecureRandom. Every
 * {@code nextBytes} call is one randombytes call, which ends with a DRBG update, so a caller
 * reproduces a .rsp record only when it asks for its bytes in the reference's calls exactly: key
 * generation takes ζ in one 32-byte call.
 */
final class NistKatRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;

    private final byte[] key = new byte[32];
    private final byte[] v = new byte[16];

    /** randombytes_init(seed, NULL, 256). */
    NistKatRandom(byte[] seed) {
        if (seed.length != 48) {
            throw new IllegalArgumentException("the KAT DRBG seed is 48 bytes");
        }
        update(seed);
    }

    /** randombytes(out, out.length). */
    @Override
    public synchronized void nextBytes(byte[] out) {
        byte[] block = new byte[16];
        for (int off = 0; off < out.length; off += 16) {
            increment();
            encrypt(v, block);
            System.arraycopy(block, 0, out, off, Math.min(16, out.length - off));
        }
        update(null);
    }

    /** AES256_CTR_DRBG_Update: three counter blocks, XORed with the provided data, become Key ‖ V. */
    private void update(byte[] provided) {
        byte[] temp = new byte[48];
        byte[] block = new byte[16];
        for (int i = 0; i < 3; i++) {
            increment();
            encrypt(v, block);
            System.arraycopy(block, 0, temp, 16 * i, 16);
        }
        if (provided != null) {
            for (int i = 0; i < 48; i++) {
                temp[i] ^= provided[i];
            }
        }
        System.arraycopy(temp, 0, key, 0, 32);
        System.arraycopy(temp, 32, v, 0, 16);
        Arrays.fill(temp, (byte) 0);
    }

    /** V = V + 1, big-endian. */
    private void increment() {
        for (int j = 15; j >= 0; j--) {
            if (++v[j] != 0) {
                break;
            }
        }
    }

    private void encrypt(byte[] in, byte[] out) {
        try {
            Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
            aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
            aes.doFinal(in, 0, 16, out, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-256 is unavailable", e);
        }
    }
}
