package io.dilithiumgpu.key;

import java.math.BigInteger;
import java.security.spec.InvalidKeySpecException;
import java.util.Arrays;

/**
 * A strict DER reader (X.690 §10) for the few types the key encodings use. The caller reads the
 * structure it expects, element by element; the reader enforces DER as it goes:
 * <ul>
 *   <li>one-byte tags only (all our types have tag numbers below 31), compared exactly, so a
 *       constructed string (tag 0x24 for an OCTET STRING) or a constructed implicit tag is a
 *       wrong tag, never a segmented value (DER strings are primitive: X.690 §10.2);</li>
 *   <li>definite lengths in the fewest bytes (§10.1), within the enclosing element;</li>
 *   <li>INTEGERs in the fewest bytes (§8.3.2), BIT STRINGs with their unused-bit count, OBJECT
 *       IDENTIFIERs with minimal subidentifiers (§8.19.2);</li>
 *   <li>{@link #end()}: nothing left over inside a constructed value or after the outermost one.</li>
 * </ul>
 * Every violation is an {@link InvalidKeySpecException} naming the structure and the field, never
 * the bytes. A reader covers one range of its array and never copies it; {@link #bytes} returns
 * the only copies made, which the caller owns.
 */
final class DerReader {
    static final int INTEGER = 0x02;
    static final int BIT_STRING = 0x03;
    static final int OCTET_STRING = 0x04;
    static final int NULL = 0x05;
    static final int OBJECT_IDENTIFIER = 0x06;
    static final int SEQUENCE = 0x30;
    static final int SET = 0x31;
    /** The constructed bit of an identifier octet (X.690 §8.1.2.5). */
    static final int CONSTRUCTED = 0x20;
    static final int CONTEXT = 0x80;

    /** The longest length a key encoding needs: four length octets (lengths below 2^31). */
    private static final int MAX_LENGTH_OCTETS = 4;

    private final byte[] der;
    private final int end;
    private final String what;
    private int pos;

    /**
     * A reader over all of {@code der}, which must hold exactly one value followed by nothing.
     *
     * @param what names the structure in error messages ("PKCS#8 private key", ...)
     */
    DerReader(byte[] der, String what) {
        this(der, 0, der.length, what);
    }

    private DerReader(byte[] der, int start, int end, String what) {
        this.der = der;
        this.pos = start;
        this.end = end;
        this.what = what;
    }

    /** Whether the range is read to its end. */
    boolean atEnd() {
        return pos == end;
    }

    /** The next element's tag (identifier octet), or -1 at the end; reads nothing. */
    int peekTag() {
        return pos < end ? der[pos] & 0xFF : -1;
    }

    /** Refuses anything left over in the range. */
    void end() throws InvalidKeySpecException {
        if (pos != end) {
            throw fail("has " + (end - pos) + " unexpected bytes after its last field");
        }
    }

    /** The contents of the next element, which must have tag {@code tag}, as a reader of their own. */
    DerReader read(int tag, String field) throws InvalidKeySpecException {
        int length = header(tag, field);
        DerReader contents = new DerReader(der, pos, pos + length, what);
        pos += length;
        return contents;
    }

    /** A SEQUENCE's contents. */
    DerReader sequence(String field) throws InvalidKeySpecException {
        return read(SEQUENCE, field);
    }

    /** An OCTET STRING's contents, read in place. */
    DerReader octetString(String field) throws InvalidKeySpecException {
        return read(OCTET_STRING, field);
    }

    /**
     * A BIT STRING that holds whole bytes, its contents after the unused-bits octet read in
     * place: a key is never a fraction of a byte.
     */
    DerReader wholeByteBitString(int tag, String field) throws InvalidKeySpecException {
        DerReader bits = read(tag, field);
        if (bits.atEnd()) {
            throw fail(field + " BIT STRING has no unused-bits octet");
        }
        if (bits.der[bits.pos] != 0) {
            throw fail(field + " BIT STRING has unused bits");
        }
        bits.pos++;
        return bits;
    }

    /** An INTEGER's value. */
    BigInteger integer(String field) throws InvalidKeySpecException {
        DerReader value = read(INTEGER, field);
        int n = value.end - value.pos;
        if (n == 0) {
            throw fail(field + " INTEGER is empty");
        }
        if (n > 1) {
            int first = value.der[value.pos];
            int second = value.der[value.pos + 1];
            if (first == 0 && second >= 0 || first == -1 && second < 0) {
                throw fail(field + " INTEGER is not in its shortest form (not DER)");
            }
        }
        return new BigInteger(value.der, value.pos, n);
    }

    /**
     * An OBJECT IDENTIFIER in dotted form. Arcs are read up to 2^63 − 1; a larger one cannot be
     * an OID this provider knows and is refused as malformed.
     */
    String objectIdentifier(String field) throws InvalidKeySpecException {
        DerReader oid = read(OBJECT_IDENTIFIER, field);
        if (oid.atEnd()) {
            throw fail(field + " OBJECT IDENTIFIER is empty");
        }
        StringBuilder dotted = new StringBuilder();
        boolean first = true;
        while (!oid.atEnd()) {
            if ((oid.der[oid.pos] & 0xFF) == 0x80) {
                throw fail(field + " OBJECT IDENTIFIER has a subidentifier not in its shortest form");
            }
            long arc = 0;
            int b;
            do {
                if (oid.atEnd()) {
                    throw fail(field + " OBJECT IDENTIFIER ends inside a subidentifier");
                }
                if (arc >>> 56 != 0) {
                    throw fail(field + " OBJECT IDENTIFIER has an arc too large for any known algorithm");
                }
                b = oid.der[oid.pos++] & 0xFF;
                arc = arc << 7 | (b & 0x7F);
            } while ((b & 0x80) != 0);
            if (first) {
                // The first subidentifier packs two arcs: 40·X + Y (X.690 §8.19.4).
                long x = Math.min(arc / 40, 2);
                dotted.append(x).append('.').append(arc - 40 * x);
                first = false;
            } else {
                dotted.append('.').append(arc);
            }
        }
        return dotted.toString();
    }

    /** A copy of the range's remaining bytes, which the caller owns; the range is then read. */
    byte[] bytes() {
        byte[] copy = Arrays.copyOfRange(der, pos, end);
        pos = end;
        return copy;
    }

    /** Bytes left in the range. */
    int remaining() {
        return end - pos;
    }

    /** An exception naming the structure: "{what} {problem}". */
    InvalidKeySpecException fail(String problem) {
        return new InvalidKeySpecException(what + " " + problem);
    }

    /**
     * Reads an identifier octet, which must be {@code tag}, and a DER length that fits the range;
     * leaves pos at the contents and returns their length.
     */
    private int header(int tag, String field) throws InvalidKeySpecException {
        if (pos >= end) {
            throw fail("ends where " + field + " was expected");
        }
        int found = der[pos] & 0xFF;
        if (found != tag) {
            throw fail(wrongTag(tag, found, field));
        }
        pos++;
        if (pos >= end) {
            throw fail(field + " has no length");
        }
        int first = der[pos++] & 0xFF;
        long length;
        if (first < 0x80) {
            length = first;
        } else if (first == 0x80) {
            throw fail(field + " has an indefinite length (BER, not DER)");
        } else {
            int octets = first & 0x7F;
            if (octets > MAX_LENGTH_OCTETS || octets > end - pos) {
                throw fail(field + " has a length longer than its enclosing value");
            }
            if (der[pos] == 0) {
                throw fail(field + " length has leading zero octets (not DER)");
            }
            length = 0;
            for (int i = 0; i < octets; i++) {
                length = length << 8 | (der[pos++] & 0xFF);
            }
            if (length < 0x80) {
                throw fail(field + " length is in the long form where the short one fits (not DER)");
            }
        }
        if (length > end - pos) {
            throw fail(field + " is longer than its enclosing value");
        }
        return (int) length;
    }

    private static String wrongTag(int expected, int found, String field) {
        if (found == (expected | CONSTRUCTED) && (expected & CONSTRUCTED) == 0) {
            return field + " is constructed; DER requires it primitive (X.690 §10.2)";
        }
        return field + ": expected " + tagName(expected) + ", found " + tagName(found);
    }

    /** Names a tag for messages: "OCTET STRING", "[0] constructed", "tag 0x1f". */
    static String tagName(int tag) {
        switch (tag) {
            case INTEGER: return "INTEGER";
            case BIT_STRING: return "BIT STRING";
            case OCTET_STRING: return "OCTET STRING";
            case NULL: return "NULL";
            case OBJECT_IDENTIFIER: return "OBJECT IDENTIFIER";
            case SEQUENCE: return "SEQUENCE";
            case SET: return "SET";
            default:
                if ((tag & 0xC0) == CONTEXT && (tag & 0x1F) != 0x1F) {
                    return "[" + (tag & 0x1F) + "]" + ((tag & CONSTRUCTED) != 0 ? " constructed" : " primitive");
                }
                return String.format("tag 0x%02x", tag);
        }
    }
}
