package io.dilithiumgpu.backend;

import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;

import java.util.Arrays;

/**
 * One-key {@link BatchRecords} run by a backend that wants a key record per task: the key copied
 * into a record per task, each task naming the key's cache, on the heap. For backends that keep
 * no key of their own (or not for this set); the copies of the key and of other secrets are wiped
 * before returning.
 */
public final class OneKeyRecords {
    private OneKeyRecords() {}

    /**
     * Runs one-key {@code records} ({@link BatchRecords#oneKey()}) on {@code backend} as per-task
     * records with the same outcomes; the listener is not told (every outcome is in the status
     * bytes on return).
     *
     * @throws IllegalArgumentException when the records are not one-key records
     */
    public static void runExpanded(Backend backend, BatchRecords records) {
        if (!records.oneKey()) {
            throw new IllegalArgumentException("not one-key records: " + records.op() + " of " + records.params());
        }
        int n = records.count();
        byte[] key = records.array(0);
        byte[] keys = new byte[Math.multiplyExact(n, key.length)];
        byte[][] fields = new byte[records.fields()][];
        try {
            for (int i = 0; i < n; i++) {
                System.arraycopy(key, 0, keys, i * key.length, key.length);
            }
            for (int f = 1; f < fields.length; f++) {
                fields[f] = records.inHost() ? new byte[Math.multiplyExact(n, records.recordBytes(f))] : records.array(f);
                if (records.inHost() && records.input(f)) {
                    records.host(f).buffer().get(0, fields[f]);
                }
            }
            byte[] status = records.status();
            if (records.op() == Operation.SIGN) {
                PrivateKeyCache[] caches = new PrivateKeyCache[n];
                Arrays.fill(caches, records.privateKeyCaches()[0]);
                backend.run(BatchRecords.sign(records.params(), n, keys, fields[1], fields[2], fields[3], status)
                        .withCaches(caches));
            } else {
                PublicKeyCache[] caches = new PublicKeyCache[n];
                Arrays.fill(caches, records.publicKeyCaches()[0]);
                backend.run(BatchRecords.verify(records.params(), n, keys, fields[1], fields[2], status)
                        .withCaches(caches));
            }
            for (int f = 1; f < fields.length; f++) {
                if (records.inHost() && !records.input(f)) {
                    records.host(f).buffer().put(0, fields[f]);
                }
            }
        } finally {
            Arrays.fill(keys, (byte) 0);
            for (int f = 1; f < fields.length; f++) {
                if (records.inHost() && fields[f] != null && records.secret(f)) {
                    Arrays.fill(fields[f], (byte) 0);
                }
            }
        }
    }
}
