package io.dilithiumgpu.kat;

import io.dilithiumgpu.core.MuHasher;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PreHash;

/**
 * What a vector signs or verifies, and how it becomes the 64-byte μ a {@code Backend} takes. The
 * four shapes are the four ways in of FIPS 204: pure ML-DSA with a context (Algorithms 2/3), HashML-DSA
 * (Algorithms 4/5), the internal interface on M′ as given (Algorithms 7/8), and an externally
 * computed μ. Round-3.1 vectors use {@link Internal} with M′ = M.
 *
 * <p>Instances keep the vector's arrays; they are public test data.
 */
public sealed interface MessageInput {

    /**
     * μ for the key whose tr is given (tr from sk when signing, H(pk) when verifying).
     *
     * @throws IllegalArgumentException when μ cannot be formed: a context over 255 bytes, or an
     *                                  unknown pre-hash name
     */
    byte[] mu(ParameterSet params, byte[] tr);

    /** The context string the JCA layer checks; empty for the internal and external-μ shapes. */
    byte[] context();

    /** FIPS 204 Algorithms 2/3: M′ = 0 ‖ |ctx| ‖ ctx ‖ M. */
    record Pure(byte[] context, byte[] message) implements MessageInput {
        @Override
        public byte[] mu(ParameterSet params, byte[] tr) {
            return MuHasher.pure(params, tr, context).update(message).finish();
        }
    }

    /** FIPS 204 Algorithms 4/5: M′ = 1 ‖ |ctx| ‖ ctx ‖ OID(PH) ‖ PH(M), PH named as ACVP names it. */
    record PreHashed(byte[] context, String hashAlg, byte[] message) implements MessageInput {
        @Override
        public byte[] mu(ParameterSet params, byte[] tr) {
            PreHash ph = PreHash.forAcvpName(hashAlg);
            return MuHasher.preHashed(params, tr, context, ph, ph.digest(message));
        }
    }

    /** FIPS 204 Algorithms 7/8 on M′ as given; round 3.1 with M′ = M. */
    record Internal(byte[] messagePrime) implements MessageInput {
        @Override
        public byte[] mu(ParameterSet params, byte[] tr) {
            return MuHasher.internal(params, tr).update(messagePrime).finish();
        }

        @Override
        public byte[] context() {
            return new byte[0];
        }
    }

    /** μ computed by the caller (FIPS 204 "external μ"). */
    record ExternalMu(byte[] mu) implements MessageInput {
        @Override
        public byte[] mu(ParameterSet params, byte[] tr) {
            return mu.clone();
        }

        @Override
        public byte[] context() {
            return new byte[0];
        }
    }
}
