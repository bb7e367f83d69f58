package io.dilithiumgpu.core;

import java.util.Arrays;

/**
 * Streaming computation of the message representative μ = H(tr ‖ M′, 64) (FIPS 204 Algorithm 7
 * step 6 and Algorithm 8 step 7; Dilithium r3.1 {@code crypto_sign_signature} with M′ = M).
 *
 * <p>After {@link #finish()} the hasher takes no more input until {@link #restart()}, which starts
 * the next message from the same prefix (tr, and for pure signing the context header) without
 * absorbing it again or allocating, from the second restart on: the first keeps the state after
 * the prefix, so that a hasher used for one message only (a {@code Signature} per call) pays for
 * one sponge, not two. Not thread-safe. μ is not secret; the hasher keeps no reference to the
 * caller's arrays.
 */
public final class MuHasher {
    private final Shake shake = Shake.shake256();
    /** The prefix's bytes, until the first {@link #restart()} absorbs them into {@link #prefix}. */
    private byte[] header;
    /** The state after the prefix, which {@link #restart()} returns to; null before the first restart. */
    private Shake prefix;
    private boolean finished;

    /** A hasher that has absorbed {@code header}, its prefix. */
    private MuHasher(byte[] header) {
        this.header = header;
        shake.update(header, 0, header.length);
    }

    /** tr ‖ {@code extra} bytes, tr checked against the set. */
    private static byte[] header(ParameterSet p, byte[] tr, int extra) {
        if (tr.length != p.trBytes()) {
            throw new IllegalArgumentException(
                    "tr must be " + p.trBytes() + " bytes for " + p + ", got " + tr.length);
        }
        return Arrays.copyOf(tr, tr.length + extra);
    }

    /** μ = H(tr ‖ M′), the caller feeding M′ (FIPS 204 internal interface; round 3.1 with M′ = M). */
    public static MuHasher internal(ParameterSet p, byte[] tr) {
        return new MuHasher(header(p, tr, 0));
    }

    /**
     * Pure signing and verification: FIPS 204 Algorithms 2/3 with M′ = 0 ‖ |ctx| ‖ ctx ‖ M; for round
     * 3.1 sets ctx must be empty and M′ = M.
     *
     * @throws IllegalArgumentException when ctx is longer than 255 bytes, or non-empty for round 3.1
     */
    public static MuHasher pure(ParameterSet p, byte[] tr, byte[] ctx) {
        checkContext(p, ctx);
        if (!p.isFips204()) {
            return internal(p, tr);
        }
        byte[] header = header(p, tr, 2 + ctx.length);
        // header[tr.length] = 0: pure, not HashML-DSA
        header[tr.length + 1] = (byte) ctx.length;
        System.arraycopy(ctx, 0, header, tr.length + 2, ctx.length);
        return new MuHasher(header);
    }

    /**
     * HashML-DSA (FIPS 204 Algorithms 4/5): μ = H(tr ‖ 1 ‖ |ctx| ‖ ctx ‖ OID(ph) ‖ PH(M)), given
     * {@code digest} = PH(M).
     *
     * @throws IllegalArgumentException when ctx is longer than 255 bytes, p is a round 3.1 set, or
     *                                  the digest length is not ph's
     */
    public static byte[] preHashed(ParameterSet p, byte[] tr, byte[] ctx, PreHash ph, byte[] digest) {
        if (!p.isFips204()) {
            throw new IllegalArgumentException("HashML-DSA is defined for ML-DSA only, not " + p);
        }
        checkContext(p, ctx);
        if (digest.length != ph.digestBytes()) {
            throw new IllegalArgumentException(
                    ph.acvpName() + " digest must be " + ph.digestBytes() + " bytes, got " + digest.length);
        }
        MuHasher hasher = new MuHasher(header(p, tr, 0));
        hasher.shake.update((byte) 1);
        hasher.shake.update((byte) ctx.length);
        hasher.shake.update(ctx, 0, ctx.length);
        byte[] oid = ph.oidDer();
        hasher.shake.update(oid, 0, oid.length);
        hasher.shake.update(digest, 0, digest.length);
        return hasher.finish();
    }

    /**
     * @throws IllegalArgumentException when ctx is longer than 255 bytes, or non-empty for round 3.1
     */
    public static void checkContext(ParameterSet p, byte[] ctx) {
        if (ctx.length > 255) {
            throw new IllegalArgumentException("context longer than 255 bytes: " + ctx.length);
        }
        if (!p.isFips204() && ctx.length != 0) {
            throw new IllegalArgumentException(p + " (round 3.1) takes no context");
        }
    }

    public MuHasher update(byte[] in, int off, int len) {
        if (finished) {
            throw new IllegalStateException("MuHasher already finished");
        }
        shake.update(in, off, len);
        return this;
    }

    public MuHasher update(byte[] in) {
        return update(in, 0, in.length);
    }

    /**
     * Forgets the message given since construction or the last restart, finished or not, and
     * starts the next one after the same prefix. Allocates nothing after the first restart.
     */
    public MuHasher restart() {
        if (prefix == null) {
            prefix = Shake.shake256();
            prefix.update(header, 0, header.length);
            header = null;
        }
        shake.copyFrom(prefix);
        finished = false;
        return this;
    }

    /** The 64-byte μ. */
    public byte[] finish() {
        if (finished) {
            throw new IllegalStateException("MuHasher already finished");
        }
        finished = true;
        byte[] mu = new byte[ParameterSet.MU_BYTES];
        shake.digest(mu, 0, mu.length);
        return mu;
    }
}
