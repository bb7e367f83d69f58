package io.dilithiumgpu.kat;

import io.dilithiumgpu.core.ParameterSet;

import java.util.Optional;

/**
 * The argument checks the provider's JCA layer makes on the caller's thread before a task reaches
 * a {@code Backend}. A backend only ever sees fixed-size records, so these inputs can never be
 * handed to one; the runners apply the same rules and count a refusal here as the provider's
 * answer:
 * <ul>
 *   <li>a key-generation seed (ζ or ξ) of other than 32 bytes is refused
 *       ({@code InvalidKeySpecException}/{@code InvalidParameterException});</li>
 *   <li>a private key of other than {@link ParameterSet#privateKeyBytes()} bytes is refused
 *       ({@code InvalidKeyException}): the signature is not produced;</li>
 *   <li>a public key of other than {@link ParameterSet#publicKeyBytes()} bytes is refused
 *       ({@code InvalidKeyException}): nothing verifies under it;</li>
 *   <li>a signature of other than {@link ParameterSet#signatureBytes()} bytes does not verify
 *       ({@code Signature.verify} returns false, FIPS 204 Algorithm 3 on a malformed σ);</li>
 *   <li>a context longer than 255 bytes, or any context or pre-hash with a round-3.1 set, is
 *       refused ({@code InvalidAlgorithmParameterException}; FIPS 204 Algorithms 2–5 return ⊥);</li>
 *   <li>an external μ of other than 64 bytes, or a signing rnd of other than
 *       {@link ParameterSet#rndBytes()} bytes, is refused.</li>
 * </ul>
 * Each method answers why the provider refuses, or empty when the task goes to the backend.
 */
public final class FrontEnd {
    /** The longest context string FIPS 204 allows (its length is encoded in one byte). */
    public static final int MAX_CONTEXT_BYTES = 255;

    private FrontEnd() {}

    /** Key generation from a seed. */
    public static Optional<String> keyGenRejection(byte[] seed) {
        if (seed.length != ParameterSet.SEED_BYTES) {
            return Optional.of("seed of " + seed.length + " bytes, not " + ParameterSet.SEED_BYTES);
        }
        return Optional.empty();
    }

    /** Signing with an expanded private key. */
    public static Optional<String> signRejection(ParameterSet params, byte[] privateKey,
                                                 MessageInput message) {
        if (privateKey.length != params.privateKeyBytes()) {
            return Optional.of("private key of " + privateKey.length + " bytes, not "
                    + params.privateKeyBytes());
        }
        return messageRejection(params, message);
    }

    /** The signing randomness supplied by a vector. */
    public static Optional<String> rndRejection(ParameterSet params, byte[] rnd) {
        if (rnd.length != params.rndBytes()) {
            return Optional.of("rnd of " + rnd.length + " bytes, not " + params.rndBytes());
        }
        return Optional.empty();
    }

    /** Verification. */
    public static Optional<String> verifyRejection(ParameterSet params, byte[] publicKey,
                                                   byte[] signature, MessageInput message) {
        if (publicKey.length != params.publicKeyBytes()) {
            return Optional.of("public key of " + publicKey.length + " bytes, not "
                    + params.publicKeyBytes());
        }
        if (signature.length != params.signatureBytes()) {
            return Optional.of("signature of " + signature.length + " bytes, not "
                    + params.signatureBytes());
        }
        return messageRejection(params, message);
    }

    private static Optional<String> messageRejection(ParameterSet params, MessageInput message) {
        int ctx = message.context().length;
        if (ctx > MAX_CONTEXT_BYTES) {
            return Optional.of("context of " + ctx + " bytes, over " + MAX_CONTEXT_BYTES);
        }
        if (ctx > 0 && !params.isFips204()) {
            return Optional.of("a context with round-3.1 " + params);
        }
        if (message instanceof MessageInput.PreHashed && !params.isFips204()) {
            return Optional.of("HashML-DSA with round-3.1 " + params);
        }
        if (message instanceof MessageInput.ExternalMu external
                && external.mu().length != ParameterSet.MU_BYTES) {
            return Optional.of("external mu of " + external.mu().length + " bytes, not "
                    + ParameterSet.MU_BYTES);
        }
        return Optional.empty();
    }
}
