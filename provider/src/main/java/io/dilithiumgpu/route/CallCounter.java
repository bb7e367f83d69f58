package io.dilithiumgpu.route;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A count of calls that thousands of threads add to at once (the router's calls started and
 * ended), striped over cells by the adding thread: each add an atomic add to its cell, never a
 * retry; a read sums the cells.
 *
 * <p>Why not {@link java.util.concurrent.atomic.LongAdder}: it keeps at most a cell per core and
 * picks one by a probe of the adding thread, moved on a collision. With virtual-thread callers each
 * thread has a probe of its own, so a collision moves one caller of thousands and the next meets
 * it again: a batch's callers, woken together on every carrier, end their calls on a few cells at
 * once and retry (profiles of thousands of callers show it under the ends, not under the starts,
 * which come spread out; docs/performance.md). Four cells per core, each on its own cache lines,
 * make two carriers on one cell rare, and an add that meets another waits for the line instead of
 * failing.
 */
final class CallCounter {
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);
    /** Longs per cell: 128 bytes, so that no two cells share a cache line or its prefetched pair. */
    private static final int STRIDE = 16;

    private final long[] cells;
    private final int mask;

    /** @param cores the cores the process may use: four cells each, a power of two in all */
    CallCounter(int cores) {
        int n = Integer.highestOneBit(Math.max(1, 4 * cores - 1)) << 1;
        // one cell's room more: the first cell sits a stride after the array's header
        this.cells = new long[(n + 1) * STRIDE];
        this.mask = n - 1;
    }

    void increment() {
        CELL.getAndAdd(cells, cellOf(Thread.currentThread()), 1L);
    }

    long sum() {
        long sum = 0;
        for (int i = STRIDE; i < cells.length; i += STRIDE) {
            sum += (long) CELL.getVolatile(cells, i);
        }
        return sum;
    }

    /** The sum, each cell emptied as it is read (an add racing the read counts in the next sum). */
    long sumThenReset() {
        long sum = 0;
        for (int i = STRIDE; i < cells.length; i += STRIDE) {
            sum += (long) CELL.getAndSet(cells, i, 0L);
        }
        return sum;
    }

    @SuppressWarnings("deprecation")  // Thread.threadId() is JDK 19+; the provider runs on 17
    private int cellOf(Thread t) {
        long id = t.getId();
        int h = (int) ((id * 0x9E3779B97F4A7C15L) >>> 32);
        return ((h & mask) + 1) * STRIDE;
    }
}
