package io.dilithiumgpu.key;

import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Object;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * DER encoding through BouncyCastle's ASN.1 classes, into a buffer that wipes every array it
 * outgrows, so that an encoded private key leaves no stray copies behind. Decoding is
 * {@link DerReader}'s.
 */
final class Der {
    private Der() {}

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
