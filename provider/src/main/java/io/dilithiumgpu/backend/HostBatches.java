package io.dilithiumgpu.backend;

import java.util.Arrays;

/**
 * {@link BatchRecords} in host buffers run by a backend that works on heap arrays: the input
 * records are copied into arrays, the heap records run, and the output records are copied back.
 * Copies of secrets (seeds, private keys, rnd) are wiped before returning.
 */
public final class HostBatches {
    private HostBatches() {}

    /**
     * Runs {@code records} (in host buffers) on {@code backend} through heap copies, with the
     * same caches; the listener is not told (every outcome is in the status bytes on return).
     */
    public static void run(Backend backend, BatchRecords records) {
        if (records.messages()) {
            MessageRecord.runOnMu(backend, records);
            return;
        }
        int n = records.count();
        int fields = records.fields();
        byte[][] arrays = new byte[fields][];
        // A one-key batch's key is its single record, on the heap already: used as it is, never wiped here.
        int from = records.oneKey() ? 1 : 0;
        try {
            for (int f = from; f < fields; f++) {
                arrays[f] = new byte[Math.multiplyExact(n, records.recordBytes(f))];
                if (records.input(f)) {
                    records.host(f).buffer().get(0, arrays[f]);
                }
            }
            byte[] status = records.status();
            BatchRecords heap = records.key() != null ? switch (records.op()) {
                case SIGN -> BatchRecords.sign(records.key(), n, arrays[1], arrays[2], arrays[3], status);
                case VERIFY -> BatchRecords.verify(records.key(), n, arrays[1], arrays[2], status);
                case KEYGEN -> throw new IllegalStateException("key generation has no one-key form");
            } : records.oneKey() ? switch (records.op()) {
                case SIGN -> BatchRecords.sign(records.privateKeyCaches()[0], records.array(0), n, arrays[1], arrays[2],
                        arrays[3], status);
                case VERIFY -> BatchRecords.verify(records.publicKeyCaches()[0], records.array(0), n, arrays[1],
                        arrays[2], status);
                case KEYGEN -> throw new IllegalStateException("key generation has no one-key form");
            } : switch (records.op()) {
                case KEYGEN -> BatchRecords.keyGen(records.params(), n, arrays[0], arrays[1], arrays[2], status);
                case SIGN -> BatchRecords.sign(records.params(), n, arrays[0], arrays[1], arrays[2], arrays[3], status)
                        .withCaches(records.privateKeyCaches(), records.keySources());
                case VERIFY -> BatchRecords.verify(records.params(), n, arrays[0], arrays[1], arrays[2], status)
                        .withCaches(records.publicKeyCaches(), records.keySources());
            };
            backend.run(heap);
            for (int f = 0; f < fields; f++) {
                if (!records.input(f)) {
                    records.host(f).buffer().put(0, arrays[f]);
                }
            }
        } finally {
            for (int f = from; f < fields; f++) {
                if (arrays[f] != null && records.secret(f)) {
                    Arrays.fill(arrays[f], (byte) 0);
                }
            }
        }
    }
}
