package io.dilithiumgpu.core;

/**
 * The three algorithms of both families on raw byte encodings (skeleton: the core issue fills in
 * the bodies; the signatures are the contract other packages code against).
 */
public final class Scheme {
    private Scheme() {}

    /**
     * Key generation from a 32-byte seed: ζ for round 3.1 ({@code crypto_sign_keypair} after
     * {@code randombytes}), ξ for FIPS 204 (Algorithm 6, ML-DSA.KeyGen_internal).
     */
    public static void keyGen(ParameterSet p, byte[] seed, int seedOff,
                              byte[] pk, int pkOff, byte[] sk, int skOff) {
        throw new UnsupportedOperationException("core not yet merged");
    }

    /**
     * Signs μ with an expanded private key (FIPS 204 Algorithm 7 from step 6; round 3.1 after μ).
     * {@code rnd} is {@link ParameterSet#rndBytes()} long: FIPS 204 rnd, or round 3.1 ρ′.
     *
     * @return {@code TaskStatus.OK}, or {@code TaskStatus.INVALID_KEY} when sk does not decode
     */
    public static byte sign(ParameterSet p, byte[] sk, int skOff, byte[] mu, int muOff,
                            byte[] rnd, int rndOff, byte[] sig, int sigOff) {
        throw new UnsupportedOperationException("core not yet merged");
    }

    /** Verifies a signature of exactly {@link ParameterSet#signatureBytes()} bytes on μ. */
    public static boolean verify(ParameterSet p, byte[] pk, int pkOff, byte[] mu, int muOff,
                                 byte[] sig, int sigOff) {
        throw new UnsupportedOperationException("core not yet merged");
    }

    /** tr = H(pk, trBytes). */
    public static byte[] tr(ParameterSet p, byte[] pk, int pkOff) {
        throw new UnsupportedOperationException("core not yet merged");
    }

    /**
     * The rnd a backend takes for deterministic signing: 32 zero bytes (FIPS 204), or round 3.1's
     * ρ′ = H(K ‖ μ, 64) with K read from sk.
     */
    public static byte[] deterministicRnd(ParameterSet p, byte[] sk, int skOff, byte[] mu, int muOff) {
        throw new UnsupportedOperationException("core not yet merged");
    }
}
