package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskListener;
import io.dilithiumgpu.core.ParameterSet;

import java.security.ProviderException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongFunction;

/**
 * The flat record arrays of one backend call (the layout of {@link Backend}), with the tasks
 * loaded into them. Pooled by {@link BufferPool}: one object serves batch after batch of its lane,
 * up to {@link #capacity} tasks each.
 *
 * <p>Ownership: only the batch thread that took a batch from the pool touches it until it gives
 * it back. Arrays that held secrets are zeroed by {@link #clear()} before the batch goes back, so
 * no secret outlives the batch that needed it.
 */
abstract class Batch {
    /** Written into every status slot before a backend runs: a slot still holding it was skipped. */
    static final byte UNWRITTEN = (byte) 0xFF;

    final ParameterSet params;
    final int capacity;
    final byte[] status;
    private final Task<?>[] tasks;
    /** Tasks delivered while the backend still ran; {@link #collectAll} leaves them alone. */
    private final boolean[] deliveredEarly;
    private final LongFunction<HostBuffer> allocator;
    private final List<Records> records = new ArrayList<>();
    private int size;

    /** @param allocator host buffers for the records, or null for heap arrays */
    Batch(ParameterSet params, int capacity, LongFunction<HostBuffer> allocator) {
        this.params = params;
        this.capacity = capacity;
        this.status = new byte[capacity];
        this.tasks = new Task<?>[capacity];
        this.deliveredEarly = new boolean[capacity];
        this.allocator = allocator;
    }

    /**
     * Room for one record of {@code recordBytes} per task, released with the batch. When the
     * allocator fails, the records made so far are released and the failure is thrown.
     */
    final Records records(int recordBytes) {
        try {
            Records r = Records.of(capacity, recordBytes, allocator);
            records.add(r);
            return r;
        } catch (RuntimeException | OutOfMemoryError e) {
            release();
            throw e;
        }
    }

    /**
     * Gives back the batch's host buffers (zeroed): called once the pool drops it. Heap arrays go
     * with the garbage.
     */
    final void release() {
        records.forEach(Records::release);
    }

    abstract Operation operation();

    /**
     * Copies the task's inputs into record {@code slot}.
     *
     * @return false when an input could not be read (a destroyed key): the task's failure is then
     *         staged, and the record holds nothing of it
     */
    abstract boolean load(int slot, Task<?> task);

    /**
     * Runs records {@code [0, n)} on the backend, which writes outputs and {@link #status}, and
     * may tell {@code early} (when not null) of tasks as they end.
     */
    abstract void run(Backend backend, int n, TaskListener early);

    /** Stages task {@code slot}'s outcome from its status and outputs. */
    abstract void collect(int slot, Task<?> task);

    /** Zeroes records {@code [0, n)} of every array that holds secrets; drops their key caches. */
    abstract void wipeSecrets(int n);

    /**
     * Adds a task: copies its inputs into the next record and wipes the task's own secret copies.
     * A task whose inputs cannot be read takes no record: its failure is staged, to be delivered
     * with the batch's outcomes, and the others run.
     *
     * @throws IllegalStateException when the batch is full
     */
    final void add(Task<?> task) {
        if (size == capacity) {
            throw new IllegalStateException("batch full: " + capacity);
        }
        boolean loaded = load(size, task);
        task.wipe();
        if (loaded) {
            tasks[size++] = task;
        }
    }

    final int size() {
        return size;
    }

    final Task<?> task(int slot) {
        return tasks[slot];
    }

    /** Hands a task's staged outcome to its caller while its batch still runs. */
    interface Delivery {
        void deliver(Task<?> task);

        /** The backend told of a scan's tasks: those handed over since may go to their callers together. */
        default void flush() {
        }
    }

    /**
     * Runs the loaded tasks, every status slot first marked {@link #UNWRITTEN}. A task the backend
     * reports as it ends ({@link TaskListener}) is collected and handed to {@code early} at once,
     * on the backend's thread; a later rerun (on the CPU, after a backend failure) and
     * {@link #collectAll} leave such a task alone.
     *
     * @param early delivers tasks early, or null to collect every outcome after the run
     */
    final void runLoaded(Backend backend, Delivery early) {
        Arrays.fill(status, 0, size, UNWRITTEN);
        run(backend, size, early == null ? null : new TaskListener() {
            @Override
            public void finished(int slot, byte code) {
                if (slot < 0 || slot >= size || deliveredEarly[slot]) {
                    return;
                }
                status[slot] = code;
                collect(slot, tasks[slot]);
                deliveredEarly[slot] = true;
                early.deliver(tasks[slot]);
            }

            @Override
            public void scanned() {
                early.flush();
            }
        });
    }

    /** Stages the outcome of every loaded task not delivered early. */
    final void collectAll() {
        for (int i = 0; i < size; i++) {
            if (!deliveredEarly[i]) {
                collect(i, tasks[i]);
            }
        }
    }

    /** Wipes the secrets, forgets the tasks, and leaves the batch empty for reuse. */
    final void clear() {
        wipeSecrets(size);
        Arrays.fill(tasks, 0, size, null);
        Arrays.fill(deliveredEarly, 0, size, false);
        size = 0;
    }

    /**
     * Creates an empty batch for an operation.
     *
     * @param allocator host buffers for its records (a backend's {@link Backend#allocateHost}),
     *                  or null for heap arrays
     */
    static Batch create(Operation op, ParameterSet params, int capacity, LongFunction<HostBuffer> allocator) {
        switch (op) {
            case KEYGEN:
                return new KeyGenBatch(params, capacity, allocator);
            case SIGN:
                return new SignBatch(params, capacity, allocator);
            case VERIFY:
                return new VerifyBatch(params, capacity, allocator);
            default:
                throw new AssertionError(op);
        }
    }

    /**
     * Whether the requests of records {@code [0, n)}, two or more, all name one key source and one
     * key cache, neither null: the batch may then run them as one-key records, reading the key once.
     * One source: the same object, or an equal one (a key handle's, made per call).
     */
    static boolean ofOneKey(Object[] keySources, Object[] caches, int n) {
        Object source = keySources[0];
        Object cache = caches[0];
        boolean one = n >= 2 && source != null && cache != null;
        for (int i = 1; i < n && one; i++) {
            one = (keySources[i] == source || source.equals(keySources[i])) && caches[i] == cache;
        }
        return one;
    }

    /** The failure a task gets for a status code its operation does not define. */
    final ProviderException unexpectedStatus(int slot) {
        byte code = status[slot];
        return new ProviderException(code == UNWRITTEN
                ? "backend wrote no status for " + operation() + " task " + slot + " of " + params
                : "backend wrote unknown status " + code + " for " + operation() + " of " + params);
    }
}
