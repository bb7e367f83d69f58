package io.dilithiumgpu.key;

import io.dilithiumgpu.core.ParameterSet;

/**
 * The object identifiers of the six parameter sets.
 *
 * <ul>
 *   <li>ML-DSA (FIPS 204): id-ml-dsa-44/65/87, 2.16.840.1.101.3.4.3.17/18/19 (NIST CSOR; RFC 9881
 *       uses them in SubjectPublicKeyInfo and OneAsymmetricKey).</li>
 *   <li>HashML-DSA with SHA-512: id-hash-ml-dsa-44/65/87-with-sha512,
 *       2.16.840.1.101.3.4.3.32/33/34. These name signature algorithms; a key encoded under one of
 *       them is decoded as the plain ML-DSA key of the same set.</li>
 *   <li>CRYSTALS-Dilithium round 3.1: the IBM arc used by the Open Quantum Safe project and
 *       BouncyCastle, 1.3.6.1.4.1.2.267.7.4.4 (Dilithium2), .7.6.5 (Dilithium3) and .7.8.7
 *       (Dilithium5).</li>
 * </ul>
 */
public final class Oids {
    public static final String ML_DSA_44 = "2.16.840.1.101.3.4.3.17";
    public static final String ML_DSA_65 = "2.16.840.1.101.3.4.3.18";
    public static final String ML_DSA_87 = "2.16.840.1.101.3.4.3.19";
    public static final String HASH_ML_DSA_44_WITH_SHA512 = "2.16.840.1.101.3.4.3.32";
    public static final String HASH_ML_DSA_65_WITH_SHA512 = "2.16.840.1.101.3.4.3.33";
    public static final String HASH_ML_DSA_87_WITH_SHA512 = "2.16.840.1.101.3.4.3.34";
    public static final String DILITHIUM2 = "1.3.6.1.4.1.2.267.7.4.4";
    public static final String DILITHIUM3 = "1.3.6.1.4.1.2.267.7.6.5";
    public static final String DILITHIUM5 = "1.3.6.1.4.1.2.267.7.8.7";

    private Oids() {}

    /** The OID this provider writes into SubjectPublicKeyInfo and PKCS#8 for keys of {@code p}. */
    public static String keyOid(ParameterSet p) {
        switch (p) {
            case ML_DSA_44: return ML_DSA_44;
            case ML_DSA_65: return ML_DSA_65;
            case ML_DSA_87: return ML_DSA_87;
            case DILITHIUM2: return DILITHIUM2;
            case DILITHIUM3: return DILITHIUM3;
            case DILITHIUM5: return DILITHIUM5;
            default: throw new AssertionError(p);
        }
    }

    /**
     * The HashML-DSA-with-SHA-512 signature OID of an ML-DSA set.
     *
     * @throws IllegalArgumentException for a round 3.1 set, which has no pre-hash variant
     */
    public static String hashMlDsaWithSha512Oid(ParameterSet p) {
        switch (p) {
            case ML_DSA_44: return HASH_ML_DSA_44_WITH_SHA512;
            case ML_DSA_65: return HASH_ML_DSA_65_WITH_SHA512;
            case ML_DSA_87: return HASH_ML_DSA_87_WITH_SHA512;
            default: throw new IllegalArgumentException(p + " has no HashML-DSA variant");
        }
    }

    /**
     * The set whose keys an encoding under {@code oid} carries: a key OID, or a HashML-DSA-with-SHA-512
     * OID (same key format as the plain ML-DSA set).
     *
     * @return the set, or {@code null} if the OID is none of the nine above
     */
    public static ParameterSet forKeyOid(String oid) {
        switch (oid) {
            case ML_DSA_44: case HASH_ML_DSA_44_WITH_SHA512: return ParameterSet.ML_DSA_44;
            case ML_DSA_65: case HASH_ML_DSA_65_WITH_SHA512: return ParameterSet.ML_DSA_65;
            case ML_DSA_87: case HASH_ML_DSA_87_WITH_SHA512: return ParameterSet.ML_DSA_87;
            case DILITHIUM2: return ParameterSet.DILITHIUM2;
            case DILITHIUM3: return ParameterSet.DILITHIUM3;
            case DILITHIUM5: return ParameterSet.DILITHIUM5;
            default: return null;
        }
    }
}
