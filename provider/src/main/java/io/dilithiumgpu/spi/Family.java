package io.dilithiumgpu.spi;

import io.dilithiumgpu.core.ParameterSet;

/**
 * The two algorithm families a service belongs to. A service either fixes one parameter set or, for
 * the generic names ({@code ML-DSA}, {@code HASH-ML-DSA}, {@code Dilithium}), accepts every set of its
 * family: a Signature takes the set from the key, a KeyPairGenerator defaults to category 3.
 */
public enum Family {
    /** FIPS 204 ML-DSA-44/65/87, pure and pre-hash. */
    ML_DSA("ML-DSA", ParameterSet.ML_DSA_65),
    /** CRYSTALS-Dilithium round 3.1: Dilithium2/3/5. */
    DILITHIUM("Dilithium", ParameterSet.DILITHIUM3);

    private final String familyName;
    private final ParameterSet defaultSet;

    Family(String familyName, ParameterSet defaultSet) {
        this.familyName = familyName;
        this.defaultSet = defaultSet;
    }

    /** The generic JCA name: {@code ML-DSA} or {@code Dilithium}. */
    public String familyName() { return familyName; }

    /** The set a generic KeyPairGenerator uses until initialized: security category 3. */
    public ParameterSet defaultSet() { return defaultSet; }

    public boolean contains(ParameterSet p) { return p.isFips204() == (this == ML_DSA); }

    /** The family's set of NIST security category 2, 3 or 5, or {@code null} for another number. */
    public ParameterSet forLevel(int level) {
        for (ParameterSet p : ParameterSet.values()) {
            if (contains(p) && p.level() == level) {
                return p;
            }
        }
        return null;
    }

    /**
     * Why a service of this family that fixes {@code fixed} (or, when {@code null}, takes any set of
     * the family) cannot take a key of set {@code p}, or {@code null} when it can.
     */
    String refusal(ParameterSet fixed, ParameterSet p, String service) {
        if (fixed != null ? fixed == p : contains(p)) {
            return null;
        }
        return (fixed != null ? fixed.algorithmName() : familyName) + " " + service
                + " does not take a " + p + " key";
    }
}
