package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the arrays of a launch of the key cache's entry points (CACHE_ABI) lie in a slot's memory
 * block, as {@link BatchLayout} does for the plain ones: inputs first, then outputs, the status
 * bytes last, each array on a {@value BatchLayout#ALIGNMENT}-byte boundary. Unlike a plain layout
 * the arrays hold different record counts: a launch on cached keys carries the packed records of
 * its uncached keys only ({@link #launch}); an expansion carries one record per key
 * ({@link #expand}). The slot array itself lives in the device cache's region, not in the block.
 */
final class KeyedLayout {

    /**
     * One array.
     *
     * @param records     records it holds
     * @param recordBytes bytes of one record
     */
    record Part(String name, long offset, int records, int recordBytes, boolean input, boolean secret) {
        long bytes() {
            return (long) records * recordBytes;
        }

        long end() {
            return offset + bytes();
        }
    }

    private final int tasks;
    private final List<Part> parts;

    private KeyedLayout(int tasks, List<Part> parts) {
        this.tasks = tasks;
        this.parts = parts;
    }

    /**
     * The layout of {@code sign_keyed_*} or {@code verify_keyed_*} for {@code tasks} tasks of which
     * {@code uncached} packed keys are uploaded: keys ({@code privateKeys} or {@code publicKeys}),
     * {@code keyOf} (int32 per task), {@code mus} (or {@code messages}, {@link
     * io.dilithiumgpu.backend.MessageRecord}s, when {@code messages}), then {@code rnds} and
     * {@code signatures} (out) for signing or {@code signatures} (in) for verification, and
     * {@code status}.
     */
    static KeyedLayout launch(ParameterSet p, Operation op, int tasks, int uncached, boolean messages) {
        return launch(p, op, tasks, uncached, messages, false, false);
    }

    /**
     * As above, for a signing launch on registered host memory: {@code published}, its kernel writes
     * the signatures into the caller's memory, so the block holds none; {@code inPlace}, it also
     * reads μ (or the messages) and the rnds there ({@code KeyedRun.Inputs.IN_PLACE}, cached keys
     * only), so the block holds only the key references and the statuses. Those arrays are there,
     * empty. A published launch thus needs at most {@link #publishedTaskBytes} a task, which lets one
     * launch hold a whole one-key call ({@code ChunkPlan}).
     */
    static KeyedLayout launch(ParameterSet p, Operation op, int tasks, int uncached, boolean messages,
                              boolean published, boolean inPlace) {
        if (tasks < 1 || uncached < 0 || uncached > tasks || ((published || inPlace) && op != Operation.SIGN)
                || (inPlace && (!published || uncached > 0))) {
            throw new IllegalArgumentException(tasks + " tasks, " + uncached + " uncached keys"
                    + (published ? ", published" : "") + (inPlace ? ", in place" : ""));
        }
        int inputs = inPlace ? 0 : tasks;
        Builder b = new Builder();
        switch (op) {
            case SIGN -> {
                b.add("privateKeys", uncached, p.privateKeyBytes(), true, true);
                b.add("keyOf", tasks, 4, true, false);
                addMus(b, inputs, messages);
                b.add("rnds", inputs, p.rndBytes(), true, true);
                b.add("signatures", published ? 0 : tasks, p.signatureBytes(), false, false);
            }
            case VERIFY -> {
                b.add("publicKeys", uncached, p.publicKeyBytes(), true, false);
                b.add("keyOf", tasks, 4, true, false);
                addMus(b, tasks, messages);
                b.add("signatures", tasks, p.signatureBytes(), true, false);
            }
            case KEYGEN -> throw new IllegalArgumentException("key generation reads no cached key");
        }
        b.add("status", tasks, 1, false, false);
        return new KeyedLayout(tasks, List.copyOf(b.parts));
    }

    private static void addMus(Builder b, int tasks, boolean messages) {
        if (messages) {
            b.add("messages", tasks, BatchAbi.MESSAGE_BYTES, true, false);
        } else {
            b.add("mus", tasks, BatchAbi.MU_BYTES, true, false);
        }
    }

    /**
     * The layout of {@code expand_sk_*} ({@code secret}) or {@code expand_pk_*} for {@code keys}
     * keys: the packed keys, {@code slotOf} (int32 per key) and {@code status}.
     */
    static KeyedLayout expand(ParameterSet p, boolean secret, int keys) {
        if (keys < 1) {
            throw new IllegalArgumentException(keys + " keys to expand");
        }
        Builder b = new Builder();
        b.add("keys", keys, secret ? p.privateKeyBytes() : p.publicKeyBytes(), true, secret);
        b.add("slotOf", keys, 4, true, false);
        b.add("status", keys, 1, false, false);
        return new KeyedLayout(keys, List.copyOf(b.parts));
    }

    /** The largest block a keyed launch or expansion of up to {@code tasks} tasks needs, over all sets. */
    static long capacityBytes(int tasks) {
        long max = 0;
        for (ParameterSet p : ParameterSet.values()) {
            for (boolean messages : new boolean[] {false, true}) {
                max = Math.max(max, launch(p, Operation.SIGN, tasks, tasks, messages).totalBytes());
                max = Math.max(max, launch(p, Operation.VERIFY, tasks, tasks, messages).totalBytes());
            }
            max = Math.max(max, expand(p, true, tasks).totalBytes());
            max = Math.max(max, expand(p, false, tasks).totalBytes());
        }
        return max;
    }

    /**
     * Bytes a task of a published signing launch may take in the block, over all sets: its key
     * reference, message record, rnd and status (the largest of each).
     */
    static int publishedTaskBytes() {
        int rnd = 0;
        for (ParameterSet p : ParameterSet.values()) {
            rnd = Math.max(rnd, p.rndBytes());
        }
        return 4 + Math.max(BatchAbi.MU_BYTES, BatchAbi.MESSAGE_BYTES) + rnd + 1;
    }

    /**
     * The most tasks of a published one-key signing launch a block of {@code blockBytes} holds,
     * whichever set, whether its key is cached or goes packed: the packed key and each array's
     * alignment set aside.
     */
    static int publishedTasks(long blockBytes) {
        long keys = 0;
        for (ParameterSet p : ParameterSet.values()) {
            keys = Math.max(keys, p.privateKeyBytes());
        }
        long room = blockBytes - keys - 6L * BatchLayout.ALIGNMENT;
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, room / publishedTaskBytes()));
    }

    /** Tasks (keys, for an expansion): the record count of the status array. */
    int tasks() {
        return tasks;
    }

    List<Part> parts() {
        return parts;
    }

    /** The array named {@code name}. */
    Part part(String name) {
        for (Part part : parts) {
            if (part.name().equals(name)) {
                return part;
            }
        }
        throw new IllegalArgumentException("no array " + name);
    }

    Part status() {
        return parts.get(parts.size() - 1);
    }

    /** Bytes from the block's start to the end of the last input array. */
    long inputBytes() {
        long end = 0;
        for (Part part : parts) {
            if (part.input()) {
                end = part.end();
            }
        }
        return end;
    }

    /** Offset of the first output array. */
    long outputOffset() {
        for (Part part : parts) {
            if (!part.input()) {
                return part.offset();
            }
        }
        throw new IllegalStateException("a layout without outputs");
    }

    long totalBytes() {
        return status().end();
    }

    private static final class Builder {
        private final ArrayList<Part> parts = new ArrayList<>();
        private long next;

        void add(String name, int records, int recordBytes, boolean input, boolean secret) {
            long offset = BatchLayout.align(next);
            parts.add(new Part(name, offset, records, recordBytes, input, secret));
            next = offset + (long) records * recordBytes;
        }
    }
}
