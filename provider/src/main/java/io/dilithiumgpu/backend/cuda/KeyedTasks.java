package io.dilithiumgpu.backend.cuda;

import java.nio.IntBuffer;
import java.util.Arrays;

/**
 * The key references of one keyed launch ({@code sign_keyed_*}, {@code verify_keyed_*}), as the
 * kernels read them (CACHE_ABI): the task at launch position j uses slot {@code keyOf[j]} when it
 * is 0 or more, else the packed key record {@code -keyOf[j] - 1} of the launch's uncached keys,
 * which hold, in order, the keys of tasks {@code records[0], records[1], ...} (task indices within
 * the chunk).
 *
 * <p>A launch whose every task reads one slot ({@link #oneSlot}: a one-key call on a cached key)
 * keeps that slot, not an array of it: its references are written straight into the launch's
 * block ({@link #writeKeyOf}).
 */
final class KeyedTasks {
    /** Ints of the fill that {@link #writeKeyOf} writes a one-slot launch's references from. */
    private static final int FILL = 256;

    /** Per launch position, or null when every task reads {@link #slot}. */
    private final int[] keyOf;
    private final int slot;
    private final int tasks;
    private final int[] records;
    private final int cached;

    /**
     * @param keyOf   per launch position: a slot, or an uncached record as {@code -record - 1}
     * @param records per uncached record: the task whose packed key it is
     * @param cached  tasks that read a slot
     */
    KeyedTasks(int[] keyOf, int[] records, int cached) {
        this(keyOf, -1, keyOf.length, records, cached);
    }

    private KeyedTasks(int[] keyOf, int slot, int tasks, int[] records, int cached) {
        this.keyOf = keyOf;
        this.slot = slot;
        this.tasks = tasks;
        this.records = records;
        this.cached = cached;
    }

    /** Every one of {@code tasks} tasks reads slot {@code slot}. */
    static KeyedTasks oneSlot(int slot, int tasks) {
        if (slot < 0) {
            throw new IllegalArgumentException("slot " + slot);
        }
        return new KeyedTasks(null, slot, tasks, new int[0], tasks);
    }

    /** Tasks of the launch. */
    int tasks() {
        return tasks;
    }

    /** Packed key records the launch uploads. */
    int uncachedRecords() {
        return records.length;
    }

    /** Per uncached record: the task whose packed key it is. */
    int[] records() {
        return records;
    }

    /** Tasks that read a slot. */
    int cached() {
        return cached;
    }

    /** The references per launch position, as a new array. */
    int[] keyOf() {
        if (keyOf != null) {
            return keyOf.clone();
        }
        int[] all = new int[tasks];
        Arrays.fill(all, slot);
        return all;
    }

    /** Writes the references per launch position at {@code to}'s position, and advances it. */
    void writeKeyOf(IntBuffer to) {
        if (keyOf != null) {
            to.put(keyOf);
            return;
        }
        int[] fill = new int[Math.min(tasks, FILL)];
        Arrays.fill(fill, slot);
        for (int left = tasks; left > 0; left -= fill.length) {
            to.put(fill, 0, Math.min(left, fill.length));
        }
    }
}
