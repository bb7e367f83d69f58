package io.dilithiumgpu.spi;

import io.dilithiumgpu.backend.MessageRecord;
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
     * Ends the message as a {@link MessageRecord} of M′ for an engine that hashes μ itself, or
     * returns null, having ended nothing, when this input has none (the message did not fit one,
     * or this is not pure signing): {@link #mu()} then ends it.
     */
    byte[] record() {
        return null;
    }

    /** Whether {@link #record()} would give a record now. */
    boolean holdsRecord() {
        return false;
    }

    /**
     * The input for the next message, with the same set, tr and parameters, forgetting whatever
     * this one was given: this instance restarted where that allocates nothing (pure signing), a
     * fresh one otherwise. This one is not used again.
     */
    abstract MuInput next();

    /**
     * Pure signing (FIPS 204 Algorithms 2/3; round 3.1 with M′ = M): μ = H(tr ‖ M′). M′ is kept in
     * a {@link MessageRecord} while it fits one ({@link #record()}); a longer one streams into the
     * hash from the update that does not fit.
     */
    static MuInput pure(ParameterSet p, byte[] tr, byte[] context) {
        MuHasher.checkContext(p, context);
        return new Pure(p, tr, context);
    }

    private static final class Pure extends MuInput {
        private final ParameterSet p;
        private final byte[] tr;
        private final byte[] context;
        /** M′'s bytes before M: 0 ‖ |ctx| ‖ ctx for ML-DSA, none for round 3.1. */
        private final int headerBytes;
        /** M′ so far while it fits a record, in a new array per message (an engine may still read the last); else null. */
        private byte[] record;
        private int length;
        /** The hash of a message that did not fit, restarted for each such message; null before the first. */
        private MuHasher hasher;

        Pure(ParameterSet p, byte[] tr, byte[] context) {
            this.p = p;
            this.tr = tr;
            this.context = context;
            this.headerBytes = MessageRecord.headerBytes(p.isFips204(), context.length);
            start();
        }

        private void start() {
            if (headerBytes > MessageRecord.MAX_MESSAGE) {
                record = null;  // a long context: M′ never fits
                hasher = hasher == null ? MuHasher.pure(p, tr, context) : hasher.restart();
                return;
            }
            record = new byte[MessageRecord.BYTES];
            MessageRecord.putHeader(record, p.isFips204(), context);
            length = headerBytes;
        }

        /** Moves the kept message into the hash, which takes the rest. */
        private void spill() {
            hasher = hasher == null ? MuHasher.pure(p, tr, context) : hasher.restart();
            hasher.update(record, headerBytes, length - headerBytes);
            record = null;
        }

        @Override
        void update(byte[] in, int off, int len) {
            if (record != null) {
                if (len <= MessageRecord.MAX_MESSAGE - length) {
                    System.arraycopy(in, off, record, length, len);
                    length += len;
                    return;
                }
                spill();
            }
            hasher.update(in, off, len);
        }

        @Override
        boolean holdsRecord() {
            return record != null;
        }

        @Override
        byte[] record() {
            if (record == null) {
                return null;
            }
            MessageRecord.tag(record, length);
            byte[] r = record;
            record = null;
            return r;
        }

        @Override
        byte[] mu() {
            if (record != null) {
                spill();
            }
            return hasher.finish();
        }

        @Override
        MuInput next() {
            start();
            return this;
        }
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
