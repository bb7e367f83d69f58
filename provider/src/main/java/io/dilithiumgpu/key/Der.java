package io.dilithiumgpu.key;

import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Object;
import org.bouncycastle.asn1.ASN1Primitive;

import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.spec.InvalidKeySpecException;
import java.util.Arrays;

/**
 * DER through BouncyCastle's ASN.1 classes, with two additions: decoding is strict (the input must
 * be exactly the DER re-encoding of what was parsed, so BER forms, non-minimal lengths and trailing
 * bytes are refused), and encoding goes through a buffer that wipes every array it outgrows, so an
 * encoded private key leaves no stray copies behind.
 */
final class Der {
    private Der() {}

    /**
     * Parses one DER value that spans all of {@code der}.
     *
     * @param what names the structure in error messages ("SubjectPublicKeyInfo", ...)
     */
    static ASN1Primitive parse(byte[] der, String what) throws InvalidKeySpecException {
        ASN1Primitive value;
        try {
            value = ASN1Primitive.fromByteArray(der);
        } catch (IOException | RuntimeException e) {
            throw new InvalidKeySpecException(what + " is not valid ASN.1: " + e.getMessage());
        }
        if (value == null) {
            throw new InvalidKeySpecException(what + " is empty");
        }
        byte[] again = null;
        try {
            again = encode(value);
            if (!MessageDigest.isEqual(again, der)) {
                throw new InvalidKeySpecException(what + " is not in DER (distinguished) form");
            }
        } finally {
            if (again != null) {
                Arrays.fill(again, (byte) 0);
            }
        }
        return value;
    }

    /** The DER encoding of {@code value}; the caller owns (and, for private keys, wipes) the result. */
    static byte[] encode(ASN1Object value) {
        WipingBuffer out = new WipingBuffer();
        try {
            value.encodeTo(out, ASN1Encoding.DER);
            return out.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("DER encoding into memory failed", e);
        } finally {
            out.wipe();
        }
    }

    /** A growable byte sink that zeroes each buffer it replaces. */
    private static final class WipingBuffer extends OutputStream {
        private byte[] buf = new byte[256];
        private int size;

        @Override
        public void write(int b) {
            ensure(1);
            buf[size++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, size, len);
            size += len;
        }

        private void ensure(int more) {
            if (buf.length - size >= more) {
                return;
            }
            byte[] bigger = Arrays.copyOf(buf, Math.max(2 * buf.length, size + more));
            Arrays.fill(buf, (byte) 0);
            buf = bigger;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buf, size);
        }

        void wipe() {
            Arrays.fill(buf, (byte) 0);
            size = 0;
        }
    }
}
