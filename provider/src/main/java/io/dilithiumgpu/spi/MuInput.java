package io.dilithiumgpu.spi;

import io.dilithiumgpu.core.MuHasher;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PreHash;

import java.security.SignatureException;

/**
 * How a Signature turns the bytes given to {@code update} into the 64-byte message representative μ.
 * Every variant consumes its input as it arrives, on the caller's thread, and keeps none of it.
 * {@link #mu()} ends a message; {@link #next()} gives the input for the next one.
 */
abstract class MuInput {
    abstract void update(byte[] in, int off, int len) throws SignatureException;

    abstract byte[] mu() throws SignatureException;

    /**
     * The input for the next message, with the same set, tr and parameters, forgetting whatever
     * this one was given: this instance restarted where that allocates nothing (pure signing), a
     * fresh one otherwise. This one is not used again.
     */
    abstract MuInput next();

    /** Pure signing (FIPS 204 Algorithms 2/3; round 3.1 with M′ = M): μ = H(tr ‖ M′). */
    static MuInput pure(ParameterSet p, byte[] tr, byte[] context) {
        MuHasher hasher = MuHasher.pure(p, tr, context);
        return new MuInput() {
            @Override
            void update(byte[] in, int off, int len) { hasher.update(in, off, len); }

            @Override
            byte[] mu() { return hasher.finish(); }

            @Override
            MuInput next() {
                hasher.restart();
                return this;
            }
        };
    }

    /** HashML-DSA (FIPS 204 Algorithms 4/5): PH(M) streamed, then μ from the digest. */
    static MuInput preHashed(ParameterSet p, byte[] tr, byte[] context, PreHash ph) {
        PreHash.Hasher digest = ph.hasher();
        return new MuInput() {
            @Override
            void update(byte[] in, int off, int len) { digest.update(in, off, len); }

            @Override
            byte[] mu() { return MuHasher.preHashed(p, tr, context, ph, digest.finish()); }

            @Override
            MuInput next() { return preHashed(p, tr, context, ph); }
        };
    }

    /** External μ: the caller gives μ itself, exactly {@link ParameterSet#MU_BYTES} bytes. */
    static MuInput external() {
        return new MuInput() {
            private final byte[] mu = new byte[ParameterSet.MU_BYTES];
            private int length;

            @Override
            void update(byte[] in, int off, int len) throws SignatureException {
                if (len > mu.length - length) {
                    length = mu.length + 1;
                    throw new SignatureException("external mu is " + ParameterSet.MU_BYTES
                            + " bytes; update() was given more");
                }
                System.arraycopy(in, off, mu, length, len);
                length += len;
            }

            @Override
            byte[] mu() throws SignatureException {
                if (length != mu.length) {
                    throw new SignatureException("external mu must be " + ParameterSet.MU_BYTES + " bytes, got "
                            + (length > mu.length ? "more" : String.valueOf(length)));
                }
                return mu;
            }

            @Override
            MuInput next() { return external(); }
        };
    }
}
