package io.dilithiumgpu.backend;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Native host memory that holds a batch's records, for callers that keep their batches outside
 * the Java heap: a backend that transfers to a device can copy straight between it and the
 * device, without the two copies through its own staging memory that {@code byte[]} batches
 * need. {@link Backend#allocateHost(long)} gives memory suited to a backend (the CUDA backend
 * page-locks it); {@link #allocate(long)} gives plain native memory, which every backend accepts.
 *
 * <p>The records are laid out as in {@code byte[]} batches: task {@code i}'s record of size
 * {@code s} occupies bytes {@code [i·s, (i+1)·s)}. Read and write them through {@link #buffer()}.
 *
 * <p>Ownership: the memory belongs to the caller. A backend reads and writes it only during a
 * call and keeps no reference to it afterwards; the caller must not touch the records of a call
 * in flight, nor close the buffer then. {@link #close()} zeroes the whole buffer (private keys,
 * seeds and rnd are secrets) and releases what the backend holds for it; the memory itself goes
 * back when the buffer is unreachable. Thread safety: {@link #close()} and {@link #wipe()} may be
 * called from any thread; the records are the caller's to coordinate.
 */
public class HostBuffer implements AutoCloseable {
    /** Alignment of the first record: a page, as page-locking wants. */
    public static final int PAGE_BYTES = 4096;
    /** The largest buffer: whole pages, one page spare, within a {@link ByteBuffer}'s reach. */
    public static final long MAX_BYTES = ((long) Integer.MAX_VALUE / PAGE_BYTES - 1) * PAGE_BYTES;
    private static final byte[] ZEROS = new byte[1 << 16];

    private final ByteBuffer memory;
    private boolean closed;

    /**
     * Allocates {@code bytes} of native memory, page-aligned and zeroed.
     *
     * @throws IllegalArgumentException when {@code bytes} is negative or over {@link #MAX_BYTES}
     */
    protected HostBuffer(long bytes) {
        if (bytes < 0 || bytes > MAX_BYTES) {
            throw new IllegalArgumentException("a host buffer holds 0 to " + MAX_BYTES + " bytes, not " + bytes);
        }
        long pages = (bytes + PAGE_BYTES - 1) / PAGE_BYTES;
        // alignedSlice rounds both ends inwards to pages: one page more leaves room for the rounding.
        ByteBuffer raw = ByteBuffer.allocateDirect((int) ((pages + 1) * PAGE_BYTES));
        this.memory = raw.alignedSlice(PAGE_BYTES).limit((int) bytes).slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Plain native memory of {@code bytes} bytes, zeroed: accepted by every backend. */
    public static HostBuffer allocate(long bytes) {
        return new HostBuffer(bytes);
    }

    /** Capacity in bytes. */
    public final long bytes() {
        return memory.capacity();
    }

    /**
     * A view of the whole buffer (position 0, limit {@link #bytes()}, little-endian), independent
     * of other views: use absolute or bulk gets and puts.
     *
     * @throws IllegalStateException once closed
     */
    public final ByteBuffer buffer() {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("host buffer is closed");
            }
        }
        return memory.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The memory itself, for backends: valid while the buffer is open. */
    protected final ByteBuffer memory() {
        return memory;
    }

    /** Zeroes the whole buffer. */
    public final void wipe() {
        zero(0, bytes());
    }

    /**
     * Zeroes bytes {@code [offset, offset + length)}.
     *
     * @throws IndexOutOfBoundsException when the range is not inside the buffer
     */
    public final void zero(long offset, long length) {
        ByteBuffer b = memory.duplicate();
        int at = Math.toIntExact(offset);
        long left = length;
        while (left > 0) {
            int n = (int) Math.min(left, ZEROS.length);
            b.put(at, ZEROS, 0, n);
            at += n;
            left -= n;
        }
    }

    /** Whether {@link #close()} has been called. */
    public final synchronized boolean isClosed() {
        return closed;
    }

    /**
     * Whether this buffer holds at least {@code n} records of {@code recordBytes} bytes.
     *
     * @throws IllegalArgumentException when it does not, naming {@code what}
     * @throws IllegalStateException    once closed
     */
    public final void requireRecords(String what, int n, int recordBytes) {
        if (n < 0) {
            throw new IllegalArgumentException("negative task count " + n);
        }
        if (isClosed()) {
            throw new IllegalStateException(what + ": host buffer is closed");
        }
        long needed = (long) n * recordBytes;
        if (bytes() < needed) {
            throw new IllegalArgumentException(what + " holds " + bytes() + " bytes; " + n + " tasks of "
                    + recordBytes + " need " + needed);
        }
    }

    /** Zeroes the buffer and releases what a backend holds for it. Idempotent. */
    @Override
    public final void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        wipe();
        released();
    }

    /** Called once by {@link #close()}, after the wipe: a backend releases what it holds. */
    protected void released() {}
}
