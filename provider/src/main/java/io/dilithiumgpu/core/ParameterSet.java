package io.dilithiumgpu.core;

import java.util.Locale;

/**
 * The six parameter sets this provider implements: CRYSTALS-Dilithium round 3.1 (Dilithium2/3/5,
 * specification v3.1 of 2021-02-08, Table 2) and ML-DSA (FIPS 204, Table 1 and Table 2).
 *
 * <p>The two families share all lattice arithmetic. They differ only in
 * <ul>
 *   <li>the length of tr: 32 bytes in round 3.1, 64 bytes in FIPS 204;</li>
 *   <li>the length of c̃: always 32 bytes in round 3.1, λ/4 bytes (32/48/64) in FIPS 204;</li>
 *   <li>key generation: round 3.1 expands ζ with H(ζ); FIPS 204 Algorithm 6 expands H(ξ ‖ k ‖ ℓ);</li>
 *   <li>the private seed ρ′ of signing: round 3.1 uses H(K ‖ μ) or 64 random bytes;
 *       FIPS 204 Algorithm 7 uses H(K ‖ rnd ‖ μ) with a 32-byte rnd.</li>
 * </ul>
 * Every byte length is derived from the parameters; {@code ParameterSetTest} pins them to the
 * published sizes.
 */
public enum ParameterSet {
    DILITHIUM2("Dilithium2", false, 4, 4, 2, 39, 1 << 17, (Field.Q - 1) / 88, 80, 32),
    DILITHIUM3("Dilithium3", false, 6, 5, 4, 49, 1 << 19, (Field.Q - 1) / 32, 55, 32),
    DILITHIUM5("Dilithium5", false, 8, 7, 2, 60, 1 << 19, (Field.Q - 1) / 32, 75, 32),
    ML_DSA_44("ML-DSA-44", true, 4, 4, 2, 39, 1 << 17, (Field.Q - 1) / 88, 80, 32),
    ML_DSA_65("ML-DSA-65", true, 6, 5, 4, 49, 1 << 19, (Field.Q - 1) / 32, 55, 48),
    ML_DSA_87("ML-DSA-87", true, 8, 7, 2, 60, 1 << 19, (Field.Q - 1) / 32, 75, 64);

    /** Bytes of ρ, K, ζ and ξ. */
    public static final int SEED_BYTES = 32;
    /** Bytes of μ and of ρ′. */
    public static final int MU_BYTES = 64;
    /** Bit length of each coefficient of t1 (FIPS 204: bitlen(q−1) − d). */
    public static final int T1_BITS = 10;
    /** Dropped bits of t (d). */
    public static final int D = 13;
    /** Polynomial degree n. */
    public static final int N = 256;

    private final String algorithmName;
    private final boolean fips204;
    private final int k;
    private final int l;
    private final int eta;
    private final int tau;
    private final int gamma1;
    private final int gamma2;
    private final int omega;
    private final int cTildeBytes;

    ParameterSet(String algorithmName, boolean fips204, int k, int l, int eta, int tau,
                 int gamma1, int gamma2, int omega, int cTildeBytes) {
        this.algorithmName = algorithmName;
        this.fips204 = fips204;
        this.k = k;
        this.l = l;
        this.eta = eta;
        this.tau = tau;
        this.gamma1 = gamma1;
        this.gamma2 = gamma2;
        this.omega = omega;
        this.cTildeBytes = cTildeBytes;
    }

    /** The JCA name: {@code ML-DSA-44}, ..., {@code Dilithium2}, .... */
    public String algorithmName() { return algorithmName; }

    /** True for ML-DSA (FIPS 204), false for CRYSTALS-Dilithium round 3.1. */
    public boolean isFips204() { return fips204; }

    /** NIST security category: 2, 3 or 5. */
    public int level() { return k == 4 ? 2 : k == 6 ? 3 : 5; }

    public int k() { return k; }
    public int l() { return l; }
    public int eta() { return eta; }
    public int tau() { return tau; }
    public int gamma1() { return gamma1; }
    public int gamma2() { return gamma2; }
    public int omega() { return omega; }
    /** β = τ·η. */
    public int beta() { return tau * eta; }
    /** Bytes of the commitment hash c̃. */
    public int cTildeBytes() { return cTildeBytes; }
    /** Bytes of tr = H(pk). */
    public int trBytes() { return fips204 ? 64 : 32; }

    /**
     * Bytes of the per-signature randomness a backend takes: FIPS 204's rnd (32 bytes; zero for
     * deterministic signing), or round 3.1's ρ′ itself (64 bytes; H(K ‖ μ) for deterministic
     * signing, which {@link Scheme#deterministicRnd} computes).
     */
    public int rndBytes() { return fips204 ? 32 : 64; }

    /** Bytes of one coefficient of s1 and s2 packed: 3 bits (η = 2) or 4 bits (η = 4). */
    public int etaBits() { return eta == 2 ? 3 : 4; }
    /** Bits of one packed coefficient of z: 18 (γ1 = 2^17) or 20 (γ1 = 2^19). */
    public int zBits() { return gamma1 == (1 << 17) ? 18 : 20; }
    /** Bits of one packed coefficient of w1: 6 (γ2 = (q−1)/88) or 4 (γ2 = (q−1)/32). */
    public int w1Bits() { return gamma2 == (Field.Q - 1) / 88 ? 6 : 4; }

    public int polyEtaPackedBytes() { return N * etaBits() / 8; }
    public int polyZPackedBytes() { return N * zBits() / 8; }
    public int polyW1PackedBytes() { return N * w1Bits() / 8; }
    public static int polyT1PackedBytes() { return N * T1_BITS / 8; }
    public static int polyT0PackedBytes() { return N * D / 8; }

    /** pk = ρ ‖ t1. */
    public int publicKeyBytes() { return SEED_BYTES + k * polyT1PackedBytes(); }

    /** sk = ρ ‖ K ‖ tr ‖ s1 ‖ s2 ‖ t0. */
    public int privateKeyBytes() {
        return 2 * SEED_BYTES + trBytes() + (l + k) * polyEtaPackedBytes() + k * polyT0PackedBytes();
    }

    /** σ = c̃ ‖ z ‖ h. */
    public int signatureBytes() { return cTildeBytes + l * polyZPackedBytes() + omega + k; }

    /** Bytes of the encoded w1 that is hashed into c̃. */
    public int w1PackedBytes() { return k * polyW1PackedBytes(); }

    /**
     * Looks a set up by its JCA name, ignoring case and the separators of aliases such as
     * {@code MLDSA44} and {@code ML_DSA_44}.
     *
     * @throws IllegalArgumentException if no set has that name
     */
    public static ParameterSet forName(String name) {
        String wanted = canonical(name);
        for (ParameterSet p : values()) {
            if (canonical(p.algorithmName).equals(wanted)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown Dilithium/ML-DSA parameter set: " + name);
    }

    private static String canonical(String name) {
        return name.toUpperCase(Locale.ROOT).replace("-", "").replace("_", "");
    }

    @Override
    public String toString() { return algorithmName; }
}
