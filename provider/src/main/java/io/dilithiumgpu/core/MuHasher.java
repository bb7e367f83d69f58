package io.dilithiumgpu.core;

/**
 * Streaming computation of the message representative μ = H(tr ‖ M′, 64) (skeleton: the core
 * issue fills in the bodies; the signatures are the contract).
 *
 * <p>Single use: after {@link #finish()} the hasher is spent.
 */
public final class MuHasher {
    private MuHasher() {}

    /** μ = H(tr ‖ M′), the caller feeding M′ (FIPS 204 internal interface; round 3.1 with M′ = M). */
    public static MuHasher internal(ParameterSet p, byte[] tr) {
        throw new UnsupportedOperationException("core not yet merged");
    }

    /**
     * Pure signing and verification: FIPS 204 Algorithms 2/3 with M′ = 0 ‖ |ctx| ‖ ctx ‖ M; for round
     * 3.1 sets ctx must be empty and M′ = M.
     *
     * @throws IllegalArgumentException when ctx is longer than 255 bytes, or non-empty for round 3.1
     */
    public static MuHasher pure(ParameterSet p, byte[] tr, byte[] ctx) {
        throw new UnsupportedOperationException("core not yet merged");
    }

    /**
     * HashML-DSA (FIPS 204 Algorithms 4/5): μ = H(tr ‖ 1 ‖ |ctx| ‖ ctx ‖ OID(ph) ‖ PH(M)), given
     * {@code digest} = PH(M).
     *
     * @throws IllegalArgumentException when ctx is longer than 255 bytes, p is a round 3.1 set, or
     *                                  the digest length is not ph's
     */
    public static byte[] preHashed(ParameterSet p, byte[] tr, byte[] ctx, PreHash ph, byte[] digest) {
        throw new UnsupportedOperationException("core not yet merged");
    }

    public MuHasher update(byte[] in, int off, int len) {
        throw new UnsupportedOperationException("core not yet merged");
    }

    public MuHasher update(byte[] in) {
        return update(in, 0, in.length);
    }

    /** The 64-byte μ. */
    public byte[] finish() {
        throw new UnsupportedOperationException("core not yet merged");
    }
}
