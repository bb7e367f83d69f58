package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.MessageRecord;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Shake;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The {@link MessageRecord}s of a batch's requests that gave a short message and their key's tr
 * instead of μ, beside the batch's μ records: handed to a backend that hashes them
 * ({@link #withMessages}), or hashed here into the μ records ({@link #hash}), on the batch thread.
 * Messages are public: nothing here is wiped. Owned by its batch, as its records are.
 */
final class Messages {
    private final Records records;
    private final Records mus;
    /** Whether the request in each slot gave a message record (not yet hashed into its μ record). */
    private final boolean[] given;
    /** The key's tr of each slot's message; null elsewhere. */
    private final byte[][] trs;
    private final byte[] mu = new byte[ParameterSet.MU_BYTES];
    private int count;
    private Shake shake;

    /** @param records room for the batch's message records; {@code mus} its μ records */
    Messages(int capacity, Records records, Records mus) {
        this.records = records;
        this.mus = mus;
        this.given = new boolean[capacity];
        this.trs = new byte[capacity][];
    }

    /** Copies a request's message record into slot {@code slot}; tr is kept by reference. */
    void put(int slot, byte[] tr, byte[] message) {
        records.put(slot, message);
        given[slot] = true;
        trs[slot] = tr;
        count++;
    }

    /** Whether some request of the batch gave a message not hashed yet. */
    boolean any() {
        return count > 0;
    }

    /**
     * Hashes each message record of slots {@code [0, n)} into its μ record, for a backend that
     * takes μ; the records then count as μ (a rerun hashes nothing again).
     */
    void hash(int n) {
        if (count == 0) {
            return;
        }
        if (shake == null) {
            shake = Shake.shake256();
        }
        ByteBuffer view = records.view();
        for (int i = 0; i < n; i++) {
            if (given[i]) {
                MessageRecord.mu(trs[i], view, i * MessageRecord.BYTES, shake, mu, 0);
                mus.put(i, mu);
                given[i] = false;
                trs[i] = null;
            }
        }
        count = 0;
    }

    /**
     * One-key records {@code r} of slots {@code [0, n)} with the message records in place of μ,
     * for a backend that hashes them: the requests that gave μ have it copied into theirs.
     */
    BatchRecords withMessages(BatchRecords r, int n) {
        if (count < n) {
            ByteBuffer view = records.view();
            ByteBuffer muView = mus.view();
            for (int i = 0; i < n; i++) {
                if (!given[i]) {
                    muView.get(i * ParameterSet.MU_BYTES, mu);
                    MessageRecord.putMu(view, i * MessageRecord.BYTES, mu, 0);
                }
            }
        }
        return records.inHost() ? r.withMessages(records.host()) : r.withMessages(records.array());
    }

    /** Forgets slots {@code [0, n)}. */
    void clear(int n) {
        Arrays.fill(given, 0, n, false);
        Arrays.fill(trs, 0, n, null);
        count = 0;
    }
}
