package io.dilithiumgpu.spec;

import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import java.util.Objects;

/**
 * Signature parameters for the {@code DilithiumGPU} provider's ML-DSA, HashML-DSA and round 3.1
 * {@link java.security.Signature}s, given with {@code Signature.setParameter}.
 *
 * <ul>
 *   <li>{@code context}: the context string ctx of FIPS 204 Algorithms 2–5; at most 255 bytes, and
 *       empty for round 3.1 sets. Default: empty.</li>
 *   <li>{@code deterministic}: sign with rnd = {0}<sup>32</sup> (FIPS 204 §3.4) or, for round 3.1,
 *       with ρ′ = H(K ‖ μ), whatever {@code SecureRandom} {@code initSign} was given. Default: false,
 *       which means hedged signing for ML-DSA and, for round 3.1, deterministic signing unless
 *       {@code initSign} was given a {@code SecureRandom}.</li>
 *   <li>{@code externalMu}: {@code update} takes the 64-byte message representative μ itself
 *       (FIPS 204 Algorithm 7 from step 6, "external μ"), and nothing else. Not with HashML-DSA.
 *       Default: false.</li>
 *   <li>{@code preHash}: the pre-hash function of HashML-DSA by its ACVP name ({@code SHA2-256},
 *       {@code SHA3-512}, {@code SHAKE-128}, ...). Only for HashML-DSA signatures, whose registered
 *       names fix SHA2-512, the default.</li>
 * </ul>
 * The spec checks nothing itself: the {@code Signature} that is given it refuses a context longer
 * than 255 bytes, or an option its algorithm does not have, with an
 * {@link java.security.InvalidAlgorithmParameterException}.
 *
 * <p>Immutable; the context is copied in and out.
 */
public final class MLDSAParameterSpec implements AlgorithmParameterSpec {
    /** Empty context, hedged (or, for round 3.1, the default deterministic) signing, whole messages. */
    public static final MLDSAParameterSpec DEFAULT = builder().build();

    private final byte[] context;
    private final boolean deterministic;
    private final boolean externalMu;
    private final String preHash;

    private MLDSAParameterSpec(Builder b) {
        this.context = b.context.clone();
        this.deterministic = b.deterministic;
        this.externalMu = b.externalMu;
        this.preHash = b.preHash;
    }

    public static Builder builder() { return new Builder(); }

    /** A builder that starts from this spec's values. */
    public Builder toBuilder() {
        return builder().context(context).deterministic(deterministic).externalMu(externalMu).preHash(preHash);
    }

    /** The context string; a fresh copy. */
    public byte[] getContext() { return context.clone(); }

    public int getContextLength() { return context.length; }

    public boolean isDeterministic() { return deterministic; }

    public boolean isExternalMu() { return externalMu; }

    /** The HashML-DSA pre-hash by ACVP name, or {@code null} for the algorithm's default. */
    public String getPreHash() { return preHash; }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof MLDSAParameterSpec)) {
            return false;
        }
        MLDSAParameterSpec other = (MLDSAParameterSpec) o;
        return deterministic == other.deterministic && externalMu == other.externalMu
                && Arrays.equals(context, other.context) && Objects.equals(preHash, other.preHash);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(context), deterministic, externalMu, preHash);
    }

    @Override
    public String toString() {
        return "MLDSAParameterSpec[context=" + context.length + " bytes, deterministic=" + deterministic
                + ", externalMu=" + externalMu + (preHash != null ? ", preHash=" + preHash : "") + "]";
    }

    /** Builds a {@link MLDSAParameterSpec}. Not thread-safe. */
    public static final class Builder {
        private byte[] context = new byte[0];
        private boolean deterministic;
        private boolean externalMu;
        private String preHash;

        private Builder() {}

        /** The context string ctx (copied); {@code null} means empty. */
        public Builder context(byte[] context) {
            this.context = context == null ? new byte[0] : context.clone();
            return this;
        }

        public Builder deterministic(boolean deterministic) {
            this.deterministic = deterministic;
            return this;
        }

        public Builder externalMu(boolean externalMu) {
            this.externalMu = externalMu;
            return this;
        }

        /** The HashML-DSA pre-hash by ACVP name; {@code null} for the algorithm's default. */
        public Builder preHash(String acvpName) {
            this.preHash = acvpName;
            return this;
        }

        public MLDSAParameterSpec build() { return new MLDSAParameterSpec(this); }
    }
}
