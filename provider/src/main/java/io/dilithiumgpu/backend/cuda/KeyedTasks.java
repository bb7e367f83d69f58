package io.dilithiumgpu.backend.cuda;

/**
 * The key references of one keyed launch ({@code sign_keyed_*}, {@code verify_keyed_*}), as the
 * kernels read them (CACHE_ABI): the task at launch position j uses slot {@code keyOf[j]} when it
 * is 0 or more, else the packed key record {@code -keyOf[j] - 1} of the launch's uncached keys,
 * which hold, in order, the keys of tasks {@code records[0], records[1], ...} (task indices within
 * the chunk).
 *
 * @param keyOf   per launch position: a slot, or an uncached record as {@code -record - 1}
 * @param records per uncached record: the task whose packed key it is
 * @param cached  tasks that read a slot
 */
record KeyedTasks(int[] keyOf, int[] records, int cached) {

    /** Tasks of the launch. */
    int tasks() {
        return keyOf.length;
    }

    /** Packed key records the launch uploads. */
    int uncachedRecords() {
        return records.length;
    }
}
