package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBatches;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test backend around a real one: it can hold batches at a gate, fail them with
 * {@link BackendException} (after scribbling over their outputs, as a dying GPU might), record
 * every batch's size, and keep the secret arrays it was handed so a test can check they were
 * zeroed afterwards.
 */
final class SpyBackend implements Backend {
    private final Backend delegate;
    private final String name;
    private final int preferred;
    /** Released once each time a batch enters the backend. */
    final Semaphore entered = new Semaphore(0);
    final List<Integer> batchSizes = new CopyOnWriteArrayList<>();
    /** The key sources of every signing and verification batch run on arrays (its first count entries), or null entries. */
    final List<Object[]> keySources = new CopyOnWriteArrayList<>();
    /** Whether each signing and verification batch run on arrays came as one-key records. */
    final List<Boolean> oneKey = new CopyOnWriteArrayList<>();
    /** Private-key, seed and rnd arrays of every batch, as handed in. */
    final List<byte[]> secretArrays = new CopyOnWriteArrayList<>();
    final AtomicBoolean closed = new AtomicBoolean();
    /** Batches still to fail; each failure throws with the next message of {@link #faults}. */
    final AtomicInteger failuresLeft = new AtomicInteger();
    private volatile String[] faults = {"device lost"};
    private volatile BackendException rootCause;
    private final AtomicInteger faultIndex = new AtomicInteger();
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private volatile boolean prefersHost;
    private volatile boolean hashes;
    /** The size of every batch handed over as message records ({@link BatchRecords#messages()}). */
    final List<Integer> messageBatches = new CopyOnWriteArrayList<>();
    /** Views of every host buffer {@link #allocateHost} handed out, while it poses as preferring them. */
    final List<ByteBuffer> hostViews = new CopyOnWriteArrayList<>();
    final List<HostBuffer> hostBuffers = new CopyOnWriteArrayList<>();
    /** Views of the private-key, seed and rnd host buffers of every batch, as handed in. */
    final List<ByteBuffer> secretHostViews = new CopyOnWriteArrayList<>();

    /**
     * @param name      what {@link #name()} reports ({@code cuda} to pose as a GPU)
     * @param preferred the preferred batch size for every operation and set
     */
    SpyBackend(Backend delegate, String name, int preferred) {
        this.delegate = delegate;
        this.name = name;
        this.preferred = preferred;
    }

    /** Poses as a backend whose batches run best in its host buffers (as the CUDA backend's do). */
    SpyBackend preferHostBuffers() {
        prefersHost = true;
        return this;
    }

    @Override
    public boolean prefersHostBuffers() {
        return prefersHost;
    }

    /** Poses as a backend that hashes message records itself (as the CUDA backend's keyed kernels do). */
    SpyBackend hashMessages() {
        hashes = true;
        return this;
    }

    @Override
    public boolean hashesMessages(ParameterSet params, Operation op) {
        return hashes && op != Operation.KEYGEN;
    }

    @Override
    public HostBuffer allocateHost(long bytes) {
        HostBuffer b = HostBuffer.allocate(bytes);
        hostBuffers.add(b);
        hostViews.add(b.buffer());
        return b;
    }

    /** Makes later batches wait in the backend until {@link #release()}. */
    void hold() {
        gate = new CountDownLatch(1);
    }

    void release() {
        gate.countDown();
    }

    /** Fails the next {@code batches} batches, cycling through the given messages. */
    void fail(int batches, String... messages) {
        faults = messages;
        rootCause = null;
        failuresLeft.set(batches);
    }

    /**
     * Fails the next {@code batches} batches as a backend that refuses calls after an earlier
     * failure does: each time with a new message, always caused by {@code root}.
     */
    void refuse(int batches, BackendException root) {
        rootCause = root;
        failuresLeft.set(batches);
    }

    /** Waits until {@code batches} more batches have entered; false after 30 s. */
    boolean awaitEntered(int batches) throws InterruptedException {
        return entered.tryAcquire(batches, 30, TimeUnit.SECONDS);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int preferredBatchSize(ParameterSet params, Operation op) {
        return preferred;
    }

    /**
     * Records in host buffers: their secret buffers' views are kept, and they run through heap
     * copies (back into this method). Heap records: enter, maybe fail, else run on the delegate.
     */
    @Override
    public void run(BatchRecords r) {
        if (r.messages()) {
            messageBatches.add(r.count());  // hashed on the way to the delegate (HostBatches, CpuBackend)
        }
        if (r.inHost()) {
            for (int f = 0; f < r.fields(); f++) {
                if (r.secret(f) && r.host(f) != null) {  // a one-key batch's key is on the heap
                    secretHostViews.add(r.host(f).buffer());
                }
            }
            HostBatches.run(this, r);
            return;
        }
        List<byte[]> secrets = new ArrayList<>();
        for (int f = 0; f < r.fields(); f++) {
            if (r.secret(f)) {
                secrets.add(r.array(f));
            }
        }
        if (r.op() != Operation.KEYGEN) {
            keySources.add(r.keySources() == null ? new Object[0] : java.util.Arrays.copyOf(r.keySources(), r.count()));
            oneKey.add(r.oneKey());
        }
        enter(r.count(), secrets.toArray(new byte[0][]));
        byte[] output = switch (r.op()) {
            case KEYGEN -> r.array(2);
            case SIGN -> r.array(3);
            case VERIFY -> r.status();
        };
        maybeFail(output, r.status());
        delegate.run(r);
    }

    @Override
    public void close() {
        closed.set(true);
        delegate.close();
    }

    private void enter(int n, byte[]... secrets) {
        batchSizes.add(n);
        secretArrays.addAll(List.of(secrets));
        entered.release();
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException("test gate interrupted", e);
        }
    }

    private void maybeFail(byte[] output, byte[] status) {
        if (failuresLeft.getAndUpdate(f -> Math.max(0, f - 1)) > 0) {
            java.util.Arrays.fill(output, (byte) 0x5A);
            java.util.Arrays.fill(status, (byte) 0);
            int k = faultIndex.getAndIncrement();
            BackendException root = rootCause;
            if (root != null) {
                throw new BackendException("unhealthy after: " + root.getMessage() + "; next attempt in "
                        + (1000 - k) + " ms", root);
            }
            String[] f = faults;
            throw new BackendException(f[Math.floorMod(k, f.length)]);
        }
    }
}
