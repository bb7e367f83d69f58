package io.dilithiumgpu.key;

import io.dilithiumgpu.core.ParameterSet;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Object;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.ASN1TaggedObject;
import org.bouncycastle.asn1.BERTags;
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
 * structure. In both, the AlgorithmIdentifier has absent parameters; this class writes version 0
 * without attributes or public key, and reads version 0 or 1 (attributes are ignored; a public key
 * is handed to the caller, who checks that it matches).
 *
 * <p>Ownership: {@link #encode} returns a fresh array the caller owns; {@link #decode} never keeps
 * or alters its input, wipes the copies of private bytes that BouncyCastle's parser made, and returns
 * a {@link Decoded} whose arrays the caller owns and must {@link Decoded#destroy() destroy}.
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
     * the both form it must check that the seed regenerates the expanded key.
     *
     * @throws InvalidKeySpecException when the input is not DER, the OID is unknown, parameters are
     *                                  present, the version is not 0 or 1, or a field has the wrong
     *                                  length or type
     */
    public static Decoded decode(byte[] der) throws InvalidKeySpecException {
        ASN1Primitive outer = Der.parse(der, "PKCS#8 private key");
        byte[] privateKeyOctets = null;
        try {
            PrivateKeyInfo info;
            try {
                info = PrivateKeyInfo.getInstance(outer);
            } catch (IllegalArgumentException e) {
                throw new InvalidKeySpecException("not a PKCS#8 PrivateKeyInfo: " + e.getMessage());
            }
            privateKeyOctets = info.getPrivateKey().getOctets();
            ParameterSet p = Spki.algorithmOf(info.getPrivateKeyAlgorithm(), "PKCS#8");
            byte[] publicKey = publicKeyOf(info, p);
            if (!p.isFips204()) {
                requireLength(p, "expanded private key", privateKeyOctets, p.privateKeyBytes());
                return new Decoded(p, PrivateKeyForm.EXPANDED, null, privateKeyOctets.clone(), publicKey);
            }
            return decodeMlDsaPrivateKey(p, privateKeyOctets, publicKey);
        } finally {
            wipe(privateKeyOctets);
        }
    }

    private static byte[] publicKeyOf(PrivateKeyInfo info, ParameterSet p) throws InvalidKeySpecException {
        BigInteger version = info.getVersion().getValue();
        if (version.equals(BigInteger.ZERO)) {
            if (info.hasPublicKey()) {
                throw new InvalidKeySpecException("PKCS#8 version 0 must not carry a public key");
            }
            return null;
        }
        if (!version.equals(BigInteger.ONE)) {
            throw new InvalidKeySpecException("PKCS#8 version must be 0 or 1, not " + version);
        }
        if (!info.hasPublicKey()) {
            return null;
        }
        if (info.getPublicKeyData().getPadBits() != 0) {
            throw new InvalidKeySpecException("PKCS#8 public key BIT STRING has unused bits");
        }
        byte[] pk = info.getPublicKeyData().getOctets().clone();
        requireLength(p, "public key", pk, p.publicKeyBytes());
        return pk;
    }

    /** The {@code ML-DSA-PrivateKey} CHOICE of RFC 9881 §6. */
    private static Decoded decodeMlDsaPrivateKey(ParameterSet p, byte[] octets, byte[] publicKey)
            throws InvalidKeySpecException {
        ASN1Primitive choice = Der.parse(octets, p + " private key");
        byte[] seed = null;
        byte[] expanded = null;
        try {
            if (choice instanceof ASN1TaggedObject) {
                ASN1TaggedObject tagged = (ASN1TaggedObject) choice;
                if (!tagged.hasContextTag(0) || tagged.isExplicit()) {
                    throw new InvalidKeySpecException(p + " private key: expected seed [0] IMPLICIT OCTET STRING");
                }
                seed = octetsOf(tagged.getBaseUniversal(false, BERTags.OCTET_STRING), p, "seed");
                requireLength(p, "seed", seed, ParameterSet.SEED_BYTES);
                return new Decoded(p, PrivateKeyForm.SEED, seed.clone(), null, publicKey);
            }
            if (choice instanceof ASN1OctetString) {
                expanded = ((ASN1OctetString) choice).getOctets();
                requireLength(p, "expanded private key", expanded, p.privateKeyBytes());
                return new Decoded(p, PrivateKeyForm.EXPANDED, null, expanded.clone(), publicKey);
            }
            if (choice instanceof ASN1Sequence && ((ASN1Sequence) choice).size() == 2) {
                ASN1Sequence both = (ASN1Sequence) choice;
                seed = octetsOf(both.getObjectAt(0), p, "seed");
                expanded = octetsOf(both.getObjectAt(1), p, "expanded private key");
                requireLength(p, "seed", seed, ParameterSet.SEED_BYTES);
                requireLength(p, "expanded private key", expanded, p.privateKeyBytes());
                return new Decoded(p, PrivateKeyForm.BOTH, seed.clone(), expanded.clone(), publicKey);
            }
            throw new InvalidKeySpecException(p + " private key is neither seed, expandedKey nor both (RFC 9881)");
        } finally {
            wipe(seed);
            wipe(expanded);
        }
    }

    private static byte[] octetsOf(ASN1Encodable value, ParameterSet p, String what)
            throws InvalidKeySpecException {
        if (!(value instanceof ASN1OctetString)) {
            throw new InvalidKeySpecException(p + " " + what + " must be an OCTET STRING");
        }
        return ((ASN1OctetString) value).getOctets();
    }

    private static void requireLength(ParameterSet p, String what, byte[] value, int expected)
            throws InvalidKeySpecException {
        if (value.length != expected) {
            throw new InvalidKeySpecException(p + " " + what + " must be " + expected + " bytes, not "
                    + value.length);
        }
    }

    static void wipe(byte[] secret) {
        if (secret != null) {
            Arrays.fill(secret, (byte) 0);
        }
    }
}
