package io.dilithiumgpu.key;

import io.dilithiumgpu.core.ParameterSet;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Object;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.DERTaggedObject;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;

import java.math.BigInteger;
import java.security.spec.InvalidKeySpecException;
import java.util.Arrays;

/**
 * PKCS#8 / OneAsymmetricKey (RFC 5958) of all six sets.
 *
 * <p>ML-DSA (RFC 9881 §6): the privateKey OCTET STRING holds the DER of {@code ML-DSA-PrivateKey} in
 * one of the three {@link PrivateKeyForm}s. Round 3.1: the privateKey OCTET STRING holds the raw
 * expanded key ρ ‖ K ‖ tr ‖ s1 ‖ s2 ‖ t0 of the reference's {@code pack_sk}, with no inner
 * structure. In both, the AlgorithmIdentifier has absent parameters (a NULL is accepted on input, as
 * {@link Spki#algorithmOf} says); this class writes version 0
 * without attributes or public key, and reads strict DER ({@link DerReader}): version 0 without a
 * public key or version 1 with one, no attributes (the public key is handed to the caller, who checks
 * that it matches).
 *
 * <p>Ownership: {@link #encode} returns a fresh array the caller owns; {@link #decode} never keeps
 * or alters its input, reads it in place, and returns a {@link Decoded} whose arrays (the only
 * copies it makes) the caller owns and must {@link Decoded#destroy() destroy}.
 */
public final class Pkcs8 {
    private Pkcs8() {}

    /** The contents of a decoded PKCS#8 private key. Not thread-safe; single owner. */
    public static final class Decoded {
        private final ParameterSet params;
        private final PrivateKeyForm form;
        private final byte[] seed;
        private final byte[] expanded;
        private final byte[] publicKey;

        Decoded(ParameterSet params, PrivateKeyForm form, byte[] seed, byte[] expanded, byte[] publicKey) {
            this.params = params;
            this.form = form;
            this.seed = seed;
            this.expanded = expanded;
            this.publicKey = publicKey;
        }

        public ParameterSet params() { return params; }

        /** The form found; always {@link PrivateKeyForm#EXPANDED} for round 3.1 keys. */
        public PrivateKeyForm form() { return form; }

        /** The 32-byte seed, or {@code null} in the expanded form. Not a copy. */
        public byte[] seed() { return seed; }

        /** The expanded key, or {@code null} in the seed form. Not a copy. */
        public byte[] expanded() { return expanded; }

        /** The raw public key of a version 1 OneAsymmetricKey, or {@code null}. */
        public byte[] publicKey() { return publicKey; }

        /** Zeroes the seed and the expanded key. */
        public void destroy() {
            wipe(seed);
            wipe(expanded);
        }
    }

    /**
     * Encodes a private key. {@code seed} may be {@code null} only with {@link PrivateKeyForm#EXPANDED};
     * the form is ignored for round 3.1 sets, which have only the expanded form.
     */
    public static byte[] encode(ParameterSet p, PrivateKeyForm form, byte[] seed, byte[] expanded) {
        if (expanded.length != p.privateKeyBytes()) {
            throw new IllegalArgumentException(p + " private key must be " + p.privateKeyBytes()
                    + " bytes, not " + expanded.length);
        }
        AlgorithmIdentifier algorithm = new AlgorithmIdentifier(new ASN1ObjectIdentifier(Oids.keyOid(p)));
        if (!p.isFips204()) {
            return Der.encode(new PrivateKeyInfo(algorithm, expanded, null, null));
        }
        if (form != PrivateKeyForm.EXPANDED && (seed == null || seed.length != ParameterSet.SEED_BYTES)) {
            throw new IllegalArgumentException(form + " form needs the 32-byte seed");
        }
        ASN1Object inner;
        switch (form) {
            case SEED:
                inner = new DERTaggedObject(false, 0, new DEROctetString(seed));
                break;
            case EXPANDED:
                inner = new DEROctetString(expanded);
                break;
            case BOTH:
                inner = new DERSequence(new ASN1Encodable[] {new DEROctetString(seed), new DEROctetString(expanded)});
                break;
            default:
                throw new AssertionError(form);
        }
        byte[] innerDer = Der.encode(inner);
        try {
            return Der.encode(new PrivateKeyInfo(algorithm, innerDer, null, null));
        } finally {
            wipe(innerDer);
        }
    }

    /**
     * Decodes a DER PKCS#8 private key. For the seed form the caller must still expand the seed; for
     * the both form it must check that the seed regenerates the expanded key; for the expanded form
     * it must check the key's consistency (docs/encodings.md, Reading).
     *
     * @throws InvalidKeySpecException when the input is not DER, the OID is unknown, parameters are
     *                                  present, the version is not 0 or 1, version 1 comes without a
     *                                  public key or version 0 with one, attributes are present, or
     *                                  a field has the wrong length or type
     */
    public static Decoded decode(byte[] der) throws InvalidKeySpecException {
        DerReader outer = new DerReader(der, "PKCS#8 private key");
        DerReader info = outer.sequence("OneAsymmetricKey");
        outer.end();
        BigInteger version = info.integer("version");
        boolean v2 = version.equals(BigInteger.ONE);
        if (!v2 && version.signum() != 0) {
            throw new InvalidKeySpecException("PKCS#8 version must be 0 (v1) or 1 (v2), not "
                    + (version.bitLength() < 32 ? version.toString() : "a number of " + version.bitLength() + " bits"));
        }
        ParameterSet p = Spki.algorithmOf(info, "PKCS#8");
        DerReader privateKey = info.octetString("privateKey");
        int tag = info.peekTag();
        if (tag == (DerReader.CONTEXT | 0) || tag == (DerReader.CONTEXT | DerReader.CONSTRUCTED | 0)) {
            throw new InvalidKeySpecException("PKCS#8 attributes are not accepted (RFC 9881 defines none)");
        }
        byte[] publicKey = null;
        if (tag == (DerReader.CONTEXT | 1) || tag == (DerReader.CONTEXT | DerReader.CONSTRUCTED | 1)) {
            DerReader pk = info.wholeByteBitString(DerReader.CONTEXT | 1, "publicKey [1]");
            requireLength(p, "public key", pk.remaining(), p.publicKeyBytes());
            publicKey = pk.bytes();
        }
        info.end();
        if (!v2 && publicKey != null) {
            throw new InvalidKeySpecException("PKCS#8 version 0 (v1) must not carry a public key");
        }
        if (v2 && publicKey == null) {
            throw new InvalidKeySpecException("PKCS#8 version 1 (v2) must carry a public key (RFC 5958)");
        }
        if (!p.isFips204()) {
            requireLength(p, "expanded private key", privateKey.remaining(), p.privateKeyBytes());
            return new Decoded(p, PrivateKeyForm.EXPANDED, null, privateKey.bytes(), publicKey);
        }
        return decodeMlDsaPrivateKey(p, privateKey, publicKey);
    }

    /** The {@code ML-DSA-PrivateKey} CHOICE of RFC 9881 §6, the whole of {@code in}. */
    private static Decoded decodeMlDsaPrivateKey(ParameterSet p, DerReader in, byte[] publicKey)
            throws InvalidKeySpecException {
        int tag = in.peekTag();
        if (tag == (DerReader.CONTEXT | 0) || tag == (DerReader.CONTEXT | DerReader.CONSTRUCTED | 0)) {
            DerReader seed = in.read(DerReader.CONTEXT | 0, "seed [0]");
            in.end();
            requireLength(p, "seed", seed.remaining(), ParameterSet.SEED_BYTES);
            return new Decoded(p, PrivateKeyForm.SEED, seed.bytes(), null, publicKey);
        }
        if (tag == DerReader.OCTET_STRING || tag == (DerReader.OCTET_STRING | DerReader.CONSTRUCTED)) {
            DerReader expanded = in.octetString("expandedKey");
            in.end();
            requireLength(p, "expanded private key", expanded.remaining(), p.privateKeyBytes());
            return new Decoded(p, PrivateKeyForm.EXPANDED, null, expanded.bytes(), publicKey);
        }
        if (tag == DerReader.SEQUENCE) {
            DerReader both = in.sequence("both");
            in.end();
            DerReader seed = both.octetString("both.seed");
            DerReader expanded = both.octetString("both.expandedKey");
            both.end();
            requireLength(p, "seed", seed.remaining(), ParameterSet.SEED_BYTES);
            requireLength(p, "expanded private key", expanded.remaining(), p.privateKeyBytes());
            return new Decoded(p, PrivateKeyForm.BOTH, seed.bytes(), expanded.bytes(), publicKey);
        }
        throw new InvalidKeySpecException(p + " private key is neither seed, expandedKey nor both (RFC 9881 §6)");
    }

    private static void requireLength(ParameterSet p, String what, int length, int expected)
            throws InvalidKeySpecException {
        if (length != expected) {
            throw new InvalidKeySpecException(p + " " + what + " must be " + expected + " bytes, not " + length);
        }
    }

    static void wipe(byte[] secret) {
        if (secret != null) {
            Arrays.fill(secret, (byte) 0);
        }
    }
}
