package io.dilithiumgpu.key;

import io.dilithiumgpu.core.ParameterSet;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;

import java.security.spec.InvalidKeySpecException;

/**
 * X.509 SubjectPublicKeyInfo of all six sets (RFC 5280 §4.1.2.7):
 * <pre>
 * SEQUENCE { SEQUENCE { OBJECT IDENTIFIER (see {@link Oids}) }, BIT STRING (raw public key) }
 * </pre>
 * The AlgorithmIdentifier parameters are absent (RFC 9881 §4 for ML-DSA; the same for round 3.1);
 * a NULL is accepted on input ({@link #algorithmOf}).
 * The BIT STRING holds pk = ρ ‖ t1 exactly as FIPS 204 Algorithm 22 (pkEncode) or the round 3.1
 * reference's {@code pack_pk} writes it.
 */
public final class Spki {
    private Spki() {}

    /** A decoded public key: the set and the raw pk bytes. */
    public static final class Decoded {
        private final ParameterSet params;
        private final byte[] publicKey;

        Decoded(ParameterSet params, byte[] publicKey) {
            this.params = params;
            this.publicKey = publicKey;
        }

        public ParameterSet params() { return params; }

        /** The raw pk; the array is the caller's. */
        public byte[] publicKey() { return publicKey; }
    }

    /** The DER SubjectPublicKeyInfo of a raw public key of {@link ParameterSet#publicKeyBytes()} bytes. */
    public static byte[] encode(ParameterSet p, byte[] publicKey) {
        if (publicKey.length != p.publicKeyBytes()) {
            throw new IllegalArgumentException(p + " public key must be " + p.publicKeyBytes()
                    + " bytes, not " + publicKey.length);
        }
        AlgorithmIdentifier algorithm = new AlgorithmIdentifier(new ASN1ObjectIdentifier(Oids.keyOid(p)));
        return Der.encode(new SubjectPublicKeyInfo(algorithm, publicKey));
    }

    /**
     * Decodes a DER SubjectPublicKeyInfo.
     *
     * @throws InvalidKeySpecException when the input is not DER, the OID is none of {@link Oids},
     *                                  parameters are present, or the key has the wrong length
     */
    public static Decoded decode(byte[] der) throws InvalidKeySpecException {
        DerReader outer = new DerReader(der, "SubjectPublicKeyInfo");
        DerReader info = outer.sequence("SubjectPublicKeyInfo");
        outer.end();
        ParameterSet p = algorithmOf(info, "SubjectPublicKeyInfo");
        DerReader key = info.wholeByteBitString(DerReader.BIT_STRING, "subjectPublicKey");
        info.end();
        if (key.remaining() != p.publicKeyBytes()) {
            throw new InvalidKeySpecException(p + " public key must be " + p.publicKeyBytes()
                    + " bytes, not " + key.remaining());
        }
        return new Decoded(p, key.bytes());
    }

    /**
     * Reads an AlgorithmIdentifier, {@code SEQUENCE { OBJECT IDENTIFIER }}, and returns the set
     * it names. Its parameters must be absent (RFC 9881), except that a NULL is accepted on input:
     * JDK 17 re-encodes keys of algorithms it does not know that way (its X.509 certificate parser
     * for every subject public key, its JKS key store for private keys). This provider never
     * writes one.
     */
    static ParameterSet algorithmOf(DerReader in, String where) throws InvalidKeySpecException {
        DerReader algorithm = in.sequence("algorithm");
        String oid = algorithm.objectIdentifier("algorithm");
        ParameterSet p = Oids.forKeyOid(oid);
        if (p == null) {
            throw new InvalidKeySpecException(where + " algorithm " + oid
                    + " is not ML-DSA or CRYSTALS-Dilithium round 3.1");
        }
        if (algorithm.peekTag() == DerReader.NULL && !algorithm.read(DerReader.NULL, "parameters").atEnd()) {
            throw new InvalidKeySpecException(where + " algorithm " + p + " has a NULL with contents");
        }
        if (!algorithm.atEnd()) {
            throw new InvalidKeySpecException(where + " algorithm " + p
                    + " must have absent parameters");
        }
        return p;
    }
}
