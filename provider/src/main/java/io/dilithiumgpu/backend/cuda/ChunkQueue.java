package io.dilithiumgpu.backend.cuda;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The queue between backend calls and the slots' worker threads. A call that queues k chunks
 * wakes up to k idle workers itself, all at once. A {@code BlockingQueue} wakes one taker per
 * put, and each taker wakes the next only once it runs: the last of a batch's 8 chunks then
 * waited for 8 wake-ups in a row (on the H100 host a chunk's mean wait for its slot was 400 to
 * 650 µs on a slow machine).
 *
 * <p>Any number of threads may {@link #addAll} and {@link #take} at once.
 */
final class ChunkQueue {
    private final ConcurrentLinkedQueue<Chunk> chunks = new ConcurrentLinkedQueue<>();
    /** Workers that found the queue empty and park (or are about to). */
    private final ConcurrentLinkedQueue<Thread> idle = new ConcurrentLinkedQueue<>();

    /** Queues {@code added} in order, then wakes as many idle workers as there are chunks. */
    void addAll(List<Chunk> added) {
        chunks.addAll(added);
        for (int i = 0; i < added.size(); i++) {
            Thread t = idle.poll();
            if (t == null) {
                return;
            }
            LockSupport.unpark(t);
        }
    }

    /**
     * The next chunk, parking until there is one. A worker announces itself as idle before its
     * last look at the queue, so a chunk added after that look finds it there and wakes it.
     * Interruption is ignored (the workers are stopped by a chunk, never by interruption).
     */
    Chunk take() {
        Thread me = Thread.currentThread();
        while (true) {
            Chunk c = chunks.poll();
            if (c != null) {
                return c;
            }
            idle.add(me);
            c = chunks.poll();
            if (c != null) {
                idle.remove(me);
                return c;
            }
            LockSupport.park(this);
            idle.remove(me);
        }
    }

    /** Workers announced as idle and not yet woken by a caller: for tests. */
    int idleWorkers() {
        return idle.size();
    }
}
