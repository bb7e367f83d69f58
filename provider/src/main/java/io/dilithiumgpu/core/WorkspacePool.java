package io.dilithiumgpu.core;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The {@link Workspace}s of {@link Scheme}, lent for one operation at a time and kept between
 * operations up to a fixed number, rather than one per thread: a process with thousands of virtual
 * threads computes on no more threads at once than it has carriers and platform threads, and a
 * per-thread workspace would stay with every thread that ever signed.
 *
 * <p>{@link #acquire} takes an idle workspace or makes a new one; {@link #release} keeps it for
 * the next operation while a slot is free, else drops it to the collector. The caller wipes the
 * secret parts before it releases ({@link Workspace#wipeSecrets}), so that an idle workspace holds
 * only the public Â of its last key. A thread looks first in the slot its id hashes to, so that a
 * platform thread that signs again mostly gets its own workspace back, Â cache included.
 *
 * <p>Thread-safe and allocation-free once warm: each slot is taken and returned by one atomic
 * swap.
 */
final class WorkspacePool {
    private final AtomicReferenceArray<Workspace> slots;
    private final int mask;

    /** A pool that keeps at most {@code capacity} idle workspaces, rounded up to a power of two. */
    WorkspacePool(int capacity) {
        int size = capacity <= 1 ? 1 : Integer.highestOneBit(capacity - 1) << 1;
        this.slots = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
    }

    /** The pool of {@link Scheme}: twice the cores the process may use, at least 8. */
    static WorkspacePool forThisProcess() {
        return new WorkspacePool(Math.max(8, 2 * Runtime.getRuntime().availableProcessors()));
    }

    /** A workspace for the calling thread's sole use until it {@link #release}s it. */
    Workspace acquire() {
        int start = home();
        for (int i = 0; i <= mask; i++) {
            int slot = (start + i) & mask;
            if (slots.get(slot) != null) {
                Workspace ws = slots.getAndSet(slot, null);
                if (ws != null) {
                    return ws;
                }
            }
        }
        return new Workspace();
    }

    /** Returns a workspace whose secrets the caller has wiped; it is kept while a slot is free. */
    void release(Workspace ws) {
        int start = home();
        for (int i = 0; i <= mask; i++) {
            int slot = (start + i) & mask;
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, ws)) {
                return;
            }
        }
    }

    /** The idle workspaces now kept (for tests). */
    int idle() {
        int n = 0;
        for (int i = 0; i <= mask; i++) {
            n += slots.get(i) != null ? 1 : 0;
        }
        return n;
    }

    /** The most idle workspaces this pool keeps. */
    int capacity() {
        return mask + 1;
    }

    private static int home() {
        long id = Thread.currentThread().getId();
        return (int) (id ^ (id >>> 32)) * 0x9E3779B9 >>> 16;
    }
}
