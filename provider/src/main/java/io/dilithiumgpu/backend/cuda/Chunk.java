package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskListener;
import io.dilithiumgpu.core.ParameterSet;
import jcuda.Pointer;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * Tasks {@code [first, first + count)} of one backend call: the unit a slot runs as one launch,
 * as its call's {@link ChunkPlan} says. {@code arrays} are the caller's arrays in
 * {@link BatchLayout} region order (status last); the chunk reads and writes only its own records
 * of them. A chunk of a call on registered host memory has {@code pinned} set: the records'
 * addresses and views in region order (none for the status, which stays {@code arrays}' last
 * entry; the other entries of {@code arrays} are then null). {@link #done} completes, normally or
 * with a {@link io.dilithiumgpu.backend.BackendException}, after the slot has stopped touching
 * them.
 */
final class Chunk {
    final ParameterSet params;
    final Operation op;
    final ChunkPlan plan;
    final int first;
    final int count;
    final byte[][] arrays;
    /** Registered host memory per region (null for the status), or null for a chunk of arrays. */
    final Pointer[] pinned;
    /** Views of {@link #pinned}, for clearing the records of failed tasks; null with it. */
    final ByteBuffer[] views;
    /** Told of each task as it ends (its index in the call) when the plan {@link ChunkPlan#tellsEarly}; else null. */
    final TaskListener early;
    /**
     * The call's key objects, one per task ({@link io.dilithiumgpu.core.PrivateKeyCache}s for
     * signing, {@link io.dilithiumgpu.core.PublicKeyCache}s for verification, null entries for
     * tasks without one), or null: the chunk then never uses the device key cache ({@link KeyedRun}).
     */
    final Object[] keys;
    /**
     * Where each task's key record was copied from, or null ({@link
     * io.dilithiumgpu.backend.BatchRecords#keySources()}): tasks of one source and one key object
     * hold equal key bytes.
     */
    final Object[] keySources;
    /**
     * Whether the μ field holds {@link io.dilithiumgpu.backend.MessageRecord}s, which only the
     * keyed entry points hash ({@link KeyedRun}); only a one-key call's chunks do.
     */
    final boolean messages;
    final CompletableFuture<Void> done = new CompletableFuture<>();
    /** {@link System#nanoTime()} when queued for a slot, or claimed by its caller. */
    long queuedNanos;

    /**
     * Chunk {@code index} of {@code plan}.
     *
     * @param pinned null for a call on heap arrays
     * @param early  the call's listener, kept only when the plan tells tasks early
     */
    Chunk(ParameterSet params, Operation op, ChunkPlan plan, int index, byte[][] arrays, Pointer[] pinned,
          ByteBuffer[] views, TaskListener early) {
        this(params, op, plan, index, arrays, pinned, views, early, null, null, false);
    }

    /**
     * As above, with the call's key objects ({@link #keys}) and their records' sources ({@link
     * #keySources}), or nulls, and whether its μ are {@link #messages}.
     */
    Chunk(ParameterSet params, Operation op, ChunkPlan plan, int index, byte[][] arrays, Pointer[] pinned,
          ByteBuffer[] views, TaskListener early, Object[] keys, Object[] keySources, boolean messages) {
        this.params = params;
        this.op = op;
        this.plan = plan;
        this.first = plan.first(index);
        this.count = plan.count(index);
        this.arrays = arrays;
        this.pinned = pinned;
        this.views = views;
        this.early = plan.tellsEarly() ? early : null;
        this.keys = keys;
        this.keySources = keySources;
        this.messages = messages;
    }
}
