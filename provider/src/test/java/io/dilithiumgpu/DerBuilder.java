package io.dilithiumgpu;

import java.io.ByteArrayOutputStream;

/** DER written by hand for tests that need exact bytes, including ones no encoder would write. */
public final class DerBuilder {
    private DerBuilder() {}

    /** A TLV with a minimal definite length (contents below 65,536 bytes). */
    public static byte[] tlv(int tag, byte[] contents) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = contents.length;
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n);
        }
        out.writeBytes(contents);
        return out.toByteArray();
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** The contents octets of an OBJECT IDENTIFIER given in dotted form. */
    public static byte[] oidContents(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(40 * Integer.parseInt(arcs[0]) + Integer.parseInt(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            long arc = Long.parseLong(arcs[i]);
            int groups = 1;
            while (arc >>> (7 * groups) != 0) {
                groups++;
            }
            for (int g = groups - 1; g >= 0; g--) {
                out.write((int) (arc >>> (7 * g)) & 0x7f | (g > 0 ? 0x80 : 0));
            }
        }
        return out.toByteArray();
    }

    /**
     * {@code OneAsymmetricKey} (RFC 5958) with the given version, key OID, NULL parameters or none,
     * privateKey contents, and public key (a BIT STRING [1] without unused bits) or none.
     */
    public static byte[] oneAsymmetricKey(int version, String oid, boolean nullParameters, byte[] privateKey,
                                          byte[] publicKey) {
        byte[] algorithm = tlv(0x30, concat(tlv(0x06, oidContents(oid)),
                nullParameters ? new byte[] {0x05, 0x00} : new byte[0]));
        return tlv(0x30, concat(new byte[] {0x02, 0x01, (byte) version}, algorithm, tlv(0x04, privateKey),
                publicKey == null ? new byte[0] : tlv(0x81, concat(new byte[] {0}, publicKey))));
    }
}
