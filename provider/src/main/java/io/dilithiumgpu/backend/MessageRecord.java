package io.dilithiumgpu.backend;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Shake;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A task's μ as a record that a backend hashes itself ({@code ABI_MESSAGE_BYTES} of
 * {@code batch_abi.h}): the message M′ (FIPS 204 Algorithms 2/3: {@code 0 ‖ |ctx| ‖ ctx ‖ M};
 * round 3.1: M) of at most {@value #MAX_MESSAGE} bytes, or μ itself, then a tag byte: 0 for μ,
 * else M′'s length plus one. The backend computes μ = H(tr ‖ M′, 64) with its key's tr; tr ‖ M′
 * is one SHAKE256 block, so a short message costs one Keccak-f on the device instead of one on
 * the caller's thread.
 */
public final class MessageRecord {
    /** Bytes of one record. */
    public static final int BYTES = 72;
    /** The longest M′ a record holds. */
    public static final int MAX_MESSAGE = BYTES - 1;
    private static final int TAG = BYTES - 1;

    private MessageRecord() {}

    /** The bytes of M′ before M: 0 ‖ |ctx| ‖ ctx for pure ML-DSA (FIPS 204 Algorithms 2/3), none for round 3.1. */
    public static int headerBytes(boolean fips204, int contextLength) {
        return fips204 ? 2 + contextLength : 0;
    }

    /** Writes M′'s header ({@link #headerBytes}) at the start of {@code record}, which must hold it. */
    public static void putHeader(byte[] record, boolean fips204, byte[] context) {
        if (fips204) {
            record[0] = 0;  // pure, not HashML-DSA
            record[1] = (byte) context.length;
            System.arraycopy(context, 0, record, 2, context.length);
        }
    }

    /** Marks a record whose first {@code length} bytes are M′: writes its tag. */
    public static void tag(byte[] record, int length) {
        Objects.checkIndex(length, MAX_MESSAGE + 1);
        record[TAG] = (byte) (length + 1);
    }

    /** Writes μ (64 bytes of {@code mu} at {@code off}) as record {@code at} of {@code records}. */
    public static void putMu(ByteBuffer records, int at, byte[] mu, int off) {
        records.put(at, mu, off, ParameterSet.MU_BYTES);
        records.put(at + TAG, (byte) 0);
    }

    /**
     * μ of record {@code at} of {@code records} into {@code mu} at {@code muOff}: copied when it
     * holds μ, else H(tr ‖ M′, 64) with {@code shake}, a SHAKE256 instance left reset.
     *
     * @throws IllegalArgumentException when the tag names more than {@value #MAX_MESSAGE} bytes
     */
    public static void mu(byte[] tr, ByteBuffer records, int at, Shake shake, byte[] mu, int muOff) {
        int tag = records.get(at + TAG) & 0xFF;
        if (tag == 0) {
            records.get(at, mu, muOff, ParameterSet.MU_BYTES);
            return;
        }
        if (tag - 1 > MAX_MESSAGE) {
            throw new IllegalArgumentException("message record tag " + tag + " names more than " + MAX_MESSAGE
                    + " bytes");
        }
        byte[] message = new byte[tag - 1];
        records.get(at, message);
        shake.update(tr, 0, tr.length);
        shake.update(message, 0, message.length);
        shake.digest(mu, muOff, ParameterSet.MU_BYTES);
    }

    /** μ of {@code record} (one record) with tr, in a new array. */
    public static byte[] mu(byte[] tr, byte[] record) {
        byte[] mu = new byte[ParameterSet.MU_BYTES];
        mu(tr, ByteBuffer.wrap(record), 0, Shake.shake256(), mu, 0);
        return mu;
    }

    /**
     * tr of a key record: a private key's own (ρ ‖ K ‖ tr ‖ ...), or H(pk) of a public key's; so
     * that records in which nothing else names tr can be hashed on the host.
     */
    static byte[] trOf(ParameterSet p, boolean secret, byte[] key) {
        byte[] tr = new byte[p.trBytes()];
        if (secret) {
            System.arraycopy(key, 2 * ParameterSet.SEED_BYTES, tr, 0, tr.length);
        } else {
            Shake h = Shake.shake256();
            h.update(key, 0, key.length);
            h.digest(tr, 0, tr.length);
        }
        return tr;
    }

    /**
     * Runs one-key records that carry message records ({@link BatchRecords#messages()}) on
     * {@code backend} as records of μ, computed here from the key's tr: for a backend that does not
     * hash messages itself ({@link Backend#hashesMessages}). The listener is kept.
     */
    public static void runOnMu(Backend backend, BatchRecords records) {
        if (!records.messages()) {
            throw new IllegalArgumentException("records of μ, not of messages: " + records.op() + " of "
                    + records.params());
        }
        int n = records.count();
        ParameterSet p = records.params();
        byte[] tr = trOf(p, records.op() == Operation.SIGN, records.array(0));
        ByteBuffer in = records.inHost() ? records.host(1).buffer() : ByteBuffer.wrap(records.array(1));
        Shake shake = Shake.shake256();
        byte[] mus = new byte[Math.multiplyExact(n, ParameterSet.MU_BYTES)];
        for (int i = 0; i < n; i++) {
            mu(tr, in, i * BYTES, shake, mus, i * ParameterSet.MU_BYTES);
        }
        if (!records.inHost()) {
            backend.run(records.withMus(mus));
            return;
        }
        try (HostBuffer host = HostBuffer.allocate(mus.length)) {
            host.buffer().put(0, mus);
            backend.run(records.withMus(host));
        }
    }
}
