package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskListener;
import io.dilithiumgpu.core.ParameterSet;
import jcuda.Pointer;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * Tasks {@code [first, first + count)} of one backend call: the unit a slot runs as one launch.
 * {@code arrays} are the caller's arrays in {@link BatchLayout} region order (status last); the
 * chunk reads and writes only its own records of them. A chunk of a call on {@link PinnedBuffer}s
 * has {@code pinned} set: the buffers' addresses and views in region order (none for the status,
 * which stays {@code arrays}' last entry; the other entries of {@code arrays} are then null), and
 * the slot copies the records straight between them and the device. {@link #done} completes, normally or with
 * a {@link io.dilithiumgpu.backend.BackendException}, after the slot has stopped touching them.
 */
final class Chunk {
    final ParameterSet params;
    final Operation op;
    final int first;
    final int count;
    final byte[][] arrays;
    /** Registered host memory per region (null for the status), or null for a chunk of arrays. */
    final Pointer[] pinned;
    /** Views of {@link #pinned}, for clearing the records of failed tasks; null with it. */
    final ByteBuffer[] views;
    final CompletableFuture<Void> done = new CompletableFuture<>();
    /** Whether the slot sleeps while it waits for this chunk's GPU work ({@link CudaConfig.Sync#ADAPTIVE}). */
    boolean sleep;
    /**
     * Told of each task as it ends (its index in the call), or null: set only for signing on
     * {@link #pinned} memory, whose kernels then write signatures and statuses into host memory.
     */
    TaskListener early;
    /**
     * Whether the kernel writes the outputs and statuses into host memory (signing on
     * {@link #pinned} memory) instead of the slot downloading them.
     */
    boolean publish;
    /**
     * Whether the chunk's inputs go through its device's {@link UploadLane}, behind those of the
     * chunks launched before it: set for the chunks of a call of several, whose launches start in
     * the order their copies end. A lone chunk (each of the batcher's) copies on its slot's own
     * stream and takes no lock shared with other slots' threads.
     */
    boolean ordered;
    /** {@link System#nanoTime()} when queued for a slot. */
    long queuedNanos;

    Chunk(ParameterSet params, Operation op, int first, int count, byte[][] arrays) {
        this(params, op, first, count, arrays, null, null);
    }

    Chunk(ParameterSet params, Operation op, int first, int count, byte[][] arrays, Pointer[] pinned,
          ByteBuffer[] views) {
        this.params = params;
        this.op = op;
        this.first = first;
        this.count = count;
        this.arrays = arrays;
        this.pinned = pinned;
        this.views = views;
    }

    /**
     * Cuts {@code n} tasks into balanced chunks: enough that none exceeds {@code slotTasks}, and
     * as many as {@code slots} when each keeps at least {@code minChunkTasks} tasks, so that a
     * batch that fills several slots spreads over them (and over the GPUs).
     *
     * @return the start of each chunk, followed by {@code n}
     */
    static int[] bounds(int n, int slotTasks, int slots, int minChunkTasks) {
        if (n < 1) {
            throw new IllegalArgumentException("no tasks to cut");
        }
        int bySize = (int) ((n + (long) slotTasks - 1) / slotTasks);
        int bySpread = Math.min(slots, n / minChunkTasks);
        int chunks = Math.max(1, Math.max(bySize, bySpread));
        int[] bounds = new int[chunks + 1];
        for (int i = 0; i <= chunks; i++) {
            bounds[i] = HostCopier.bound(n, chunks, i);
        }
        return bounds;
    }
}
