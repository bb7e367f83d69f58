package io.dilithiumgpu.core;

/**
 * The pre-hash functions of HashML-DSA (FIPS 204 §5.4, and the ones NIST's ACVP server tests),
 * with their DER-encoded OIDs (skeleton: the core issue fills in OIDs and digests).
 */
public enum PreHash {
    SHA2_224, SHA2_256, SHA2_384, SHA2_512, SHA2_512_224, SHA2_512_256,
    SHA3_224, SHA3_256, SHA3_384, SHA3_512, SHAKE_128, SHAKE_256;

    /** The ACVP name: {@code SHA2-256}, {@code SHA2-512/224}, {@code SHA3-384}, {@code SHAKE-128}, .... */
    public String acvpName() {
        throw new UnsupportedOperationException("core not yet merged");
    }

    /** Bytes of PH(M): the digest length; 32 for SHAKE-128 and 64 for SHAKE-256 (FIPS 204 §5.4.1). */
    public int digestBytes() {
        throw new UnsupportedOperationException("core not yet merged");
    }

    /** The full DER encoding of the hash function's OID (tag 06, length, value). */
    public byte[] oidDer() {
        throw new UnsupportedOperationException("core not yet merged");
    }

    /** PH(M) over a whole message. */
    public byte[] digest(byte[] message) {
        throw new UnsupportedOperationException("core not yet merged");
    }

    /** @throws IllegalArgumentException for an unknown name */
    public static PreHash forAcvpName(String name) {
        throw new UnsupportedOperationException("core not yet merged");
    }
}
