package io.dilithiumgpu.backend.cuda;

import java.util.ArrayList;
import java.util.List;

/**
 * How one device's share of a call (its chunks, in plan order) is dealt to the threads that
 * launch it: a thread per up to {@value #CHUNKS_PER_THREAD} chunks, no more threads than the
 * device has slots (each slot has one worker). Why: a chunk's host work (packing into pinned
 * memory, the driver calls, the waits, unpacking) runs on the thread that launches it, so one
 * thread launching a whole share one chunk after another sets the pace of copy-bound stages;
 * each further thread costs a hand-off to a worker. A share of one chunk stays on one thread.
 *
 * <p>Dealt round-robin (thread t gets chunks t, t + k, t + 2k, …), so that the threads' launches
 * reach the device's upload lane roughly in plan order and a short last chunk stays last.
 */
final class LaunchSplit {
    /** The most chunks one thread of a share launches, where the device has workers to spare. */
    static final int CHUNKS_PER_THREAD = 3;

    private LaunchSplit() {
    }

    /**
     * The threads that launch a share of {@code chunks} chunks on a device of {@code slots} slots.
     *
     * @throws IllegalArgumentException when either is below 1
     */
    static int threads(int chunks, int slots) {
        if (chunks < 1 || slots < 1) {
            throw new IllegalArgumentException(chunks + " chunks on " + slots + " slots");
        }
        return Math.min(slots, (chunks + CHUNKS_PER_THREAD - 1) / CHUNKS_PER_THREAD);
    }

    /**
     * {@code share} dealt to {@link #threads} threads: each list is one thread's chunks, in plan
     * order; the first is the share's first chunk's. A share for one thread is returned as it is.
     */
    static <T> List<List<T>> deal(List<T> share, int slots) {
        int k = threads(share.size(), slots);
        if (k == 1) {
            return List.of(share);
        }
        List<List<T>> parts = new ArrayList<>(k);
        for (int t = 0; t < k; t++) {
            List<T> part = new ArrayList<>((share.size() + k - 1) / k);
            for (int i = t; i < share.size(); i += k) {
                part.add(share.get(i));
            }
            parts.add(part);
        }
        return parts;
    }
}
