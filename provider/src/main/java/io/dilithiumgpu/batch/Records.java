package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.HostBuffer;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.LongFunction;

/**
 * One array of fixed-size records of a {@link Batch}: a heap {@code byte[]}, or a backend's
 * {@link HostBuffer} (for the CUDA backend, page-locked memory the device copies straight from
 * and to, so that a batch's records cross host memory once instead of three times).
 *
 * <p>Ownership: like the batch that holds it, touched by one batch thread at a time.
 */
final class Records {
    private final int recordBytes;
    private final byte[] array;
    private final HostBuffer host;
    private final ByteBuffer view;

    private Records(int recordBytes, byte[] array, HostBuffer host) {
        this.recordBytes = recordBytes;
        this.array = array;
        this.host = host;
        this.view = host == null ? ByteBuffer.wrap(array) : host.buffer();
    }

    /**
     * Room for {@code capacity} records of {@code recordBytes} bytes: in a host buffer from
     * {@code allocator}, or on the heap when it is null.
     */
    static Records of(int capacity, int recordBytes, LongFunction<HostBuffer> allocator) {
        long bytes = (long) capacity * recordBytes;
        return allocator == null ? new Records(recordBytes, new byte[Math.toIntExact(bytes)], null)
                : new Records(recordBytes, null, allocator.apply(bytes));
    }

    /** Whether the records are in a host buffer ({@link #host()}) rather than an array ({@link #array()}). */
    boolean inHost() {
        return host != null;
    }

    byte[] array() {
        return array;
    }

    HostBuffer host() {
        return host;
    }

    /** The records as one buffer (the array's or the host buffer's), for absolute reads and writes. */
    ByteBuffer view() {
        return view;
    }

    /** Copies {@code record} (exactly one record long) into record {@code slot}. */
    void put(int slot, byte[] record) {
        put(slot, record, 0);
    }

    /** Copies one record's bytes of {@code from}, at {@code offset}, into record {@code slot}. */
    void put(int slot, byte[] from, int offset) {
        if (array != null) {
            System.arraycopy(from, offset, array, slot * recordBytes, recordBytes);
        } else {
            view.put(slot * recordBytes, from, offset, recordBytes);
        }
    }

    /**
     * Copies a signing key into record {@code slot}, straight from where the key lives.
     *
     * @return false when the key could not be read (the record is then zero)
     */
    boolean put(int slot, SigningKey key) {
        return key.copyTo(view, slot * recordBytes);
    }

    /** A copy of record {@code slot}. */
    byte[] copy(int slot) {
        if (array != null) {
            return Arrays.copyOfRange(array, slot * recordBytes, (slot + 1) * recordBytes);
        }
        byte[] out = new byte[recordBytes];
        view.get(slot * recordBytes, out);
        return out;
    }

    /** Zeroes records {@code [0, n)}. */
    void zero(int n) {
        if (array != null) {
            Arrays.fill(array, 0, n * recordBytes, (byte) 0);
        } else {
            host.zero(0, (long) n * recordBytes);
        }
    }

    /** Releases a host buffer (zeroing it whole); nothing for an array. */
    void release() {
        if (host != null) {
            host.close();
        }
    }
}
