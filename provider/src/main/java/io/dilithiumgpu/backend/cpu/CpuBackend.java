package io.dilithiumgpu.backend.cpu;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.MessageRecord;
import io.dilithiumgpu.backend.HostBatches;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.ProviderThreads;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;
import io.dilithiumgpu.core.Scheme;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The pure-Java backend: runs each task of a batch with {@link Scheme} and spreads the batch over
 * a fixed pool of daemon threads, one per core by default. The calling thread works too, so a
 * batch of one never leaves it and a batch of n uses at most n threads.
 *
 * <p>Work is shared dynamically: each participating thread claims the next chunk of task
 * indices from a shared counter, so that signing's variable number of rejection rounds does not
 * leave threads idle. Chunks are small enough (about an eighth of a thread's share) to balance,
 * and large enough that the counter is touched rarely next to a task's whole key generation,
 * signature or verification.
 *
 * <p>Ownership and secrets: as {@link Backend} says, the input arrays are read and the outputs
 * written only during the call, and the call returns only after every worker has finished with
 * them. The backend makes no copies of private keys (a key's cache, below, belongs to the key and
 * is wiped by its {@code destroy}); {@link Scheme} wipes its per-thread secret
 * temporaries before each task returns. The CUDA backend reuses this class as its fallback.
 *
 * <p>Key caches: given them, each task signs or verifies through its key's {@link PrivateKeyCache}
 * or {@link PublicKeyCache}, so a key's decoded vectors are computed (from its second use on) and
 * read on the worker thread that runs the task.
 */
public final class CpuBackend implements Backend {
    /** Tasks per thread in {@link #preferredBatchSize}: enough to even out the rejection loop. */
    private static final int TASKS_PER_THREAD = 4;
    /** Each thread claims roughly its share of a batch divided by this. */
    private static final int CHUNKS_PER_THREAD = 8;

    private static final AtomicInteger POOL_NUMBER = new AtomicInteger();

    private final int threads;
    private final ThreadPoolExecutor pool;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** A backend with one thread per available processor. */
    public CpuBackend() {
        this(Runtime.getRuntime().availableProcessors());
    }

    /**
     * A backend with {@code threads} threads in all, the caller's included (so threads − 1 pool
     * threads).
     *
     * @throws IllegalArgumentException when threads &lt; 1
     */
    public CpuBackend(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1: " + threads);
        }
        this.threads = threads;
        this.pool = threads == 1 ? null : newPool(threads - 1);
    }

    private static ThreadPoolExecutor newPool(int size) {
        int poolNumber = POOL_NUMBER.incrementAndGet();
        AtomicInteger threadNumber = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread t = ProviderThreads.register(new Thread(runnable,
                    "dilithium-cpu-" + poolNumber + "-" + threadNumber.incrementAndGet()));
            t.setDaemon(true);
            return t;
        };
        return new ThreadPoolExecutor(size, size, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), factory);
    }

    /** The number of threads a batch can use, the caller's included. */
    public int threads() {
        return threads;
    }

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public int preferredBatchSize(ParameterSet params, Operation op) {
        return threads * TASKS_PER_THREAD;
    }

    /**
     * Runs the records' tasks on up to {@link #threads()} threads; signing and verification
     * through each task's key cache, if any, on the worker thread that runs it. Records in host
     * buffers go through heap copies ({@link HostBatches}); nobody is told early.
     */
    @Override
    public void run(BatchRecords r) {
        if (r.messages()) {
            MessageRecord.runOnMu(this, r);  // not given by the batcher: this backend hashes nothing itself
            return;
        }
        if (r.inHost()) {
            HostBatches.run(this, r);
            return;
        }
        ParameterSet params = r.params();
        byte[] status = r.status();
        switch (r.op()) {
            case KEYGEN -> {
                byte[] seeds = r.array(0);
                byte[] publicKeys = r.array(1);
                byte[] privateKeys = r.array(2);
                int seedBytes = ParameterSet.SEED_BYTES;
                int pkBytes = params.publicKeyBytes();
                int skBytes = params.privateKeyBytes();
                run(r.count(), i -> {
                    Scheme.keyGen(params, seeds, i * seedBytes, publicKeys, i * pkBytes, privateKeys, i * skBytes);
                    status[i] = TaskStatus.OK;
                });
            }
            case SIGN -> {
                byte[] privateKeys = r.array(0);
                byte[] mus = r.array(1);
                byte[] rnds = r.array(2);
                byte[] signatures = r.array(3);
                PrivateKeyCache[] caches = r.privateKeyCaches();
                // A one-key batch: every task reads record 0 and its cache.
                int skBytes = r.oneKey() ? 0 : params.privateKeyBytes();
                int cacheStep = r.oneKey() ? 0 : 1;
                int muBytes = ParameterSet.MU_BYTES;
                int rndBytes = params.rndBytes();
                int sigBytes = params.signatureBytes();
                run(r.count(), i -> status[i] = Scheme.sign(params, privateKeys, i * skBytes,
                        caches == null ? null : caches[i * cacheStep], mus, i * muBytes, rnds, i * rndBytes, signatures,
                        i * sigBytes) ? TaskStatus.OK : TaskStatus.INVALID_KEY);
            }
            case VERIFY -> {
                byte[] publicKeys = r.array(0);
                byte[] mus = r.array(1);
                byte[] signatures = r.array(2);
                PublicKeyCache[] caches = r.publicKeyCaches();
                int pkBytes = r.oneKey() ? 0 : params.publicKeyBytes();
                int cacheStep = r.oneKey() ? 0 : 1;
                int muBytes = ParameterSet.MU_BYTES;
                int sigBytes = params.signatureBytes();
                run(r.count(), i -> status[i] = Scheme.verify(params, publicKeys, i * pkBytes,
                        caches == null ? null : caches[i * cacheStep], mus, i * muBytes, signatures, i * sigBytes)
                        ? TaskStatus.OK : TaskStatus.REJECTED);
            }
        }
    }

    /** Shuts the pool down; batches already running finish. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && pool != null) {
            pool.shutdown();
        }
    }

    @Override
    public String toString() {
        return "CpuBackend[threads=" + threads + (closed.get() ? ", closed]" : "]");
    }

    /** One task of a batch, by index. */
    @FunctionalInterface
    private interface Task {
        void run(int index);
    }

    /** Runs tasks 0..n−1 on up to {@code threads} threads, the caller's included, and waits for all. */
    private void run(int n, Task task) {
        if (closed.get()) {
            throw new BackendException("CPU backend is closed");
        }
        if (n == 0) {
            return;
        }
        int workers = Math.min(threads, n);
        int chunk = Math.max(1, n / (workers * CHUNKS_PER_THREAD));
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable worker = () -> {
            try {
                int start;
                while ((start = next.getAndAdd(chunk)) < n && failure.get() == null) {
                    int end = Math.min(n, start + chunk);
                    for (int i = start; i < end; i++) {
                        task.run(i);
                    }
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        };

        int helpers = workers - 1;
        CountDownLatch done = new CountDownLatch(helpers);
        Runnable[] submitted = new Runnable[helpers];
        int count = 0;
        for (; count < helpers; count++) {
            Runnable helper = () -> {
                try {
                    worker.run();
                } finally {
                    done.countDown();
                }
            };
            try {
                pool.execute(helper);
            } catch (RejectedExecutionException e) {
                // closed concurrently: the caller's own worker below takes the remaining tasks
                break;
            }
            submitted[count] = helper;
        }
        for (int i = count; i < helpers; i++) {
            done.countDown();
        }
        worker.run();
        // Helpers still queued behind other batches have nothing left to do: withdraw them.
        for (int i = 0; i < count; i++) {
            if (pool.remove(submitted[i])) {
                done.countDown();
            }
        }
        awaitUninterruptibly(done);

        Throwable t = failure.get();
        if (t != null) {
            throw new BackendException("CPU backend task failed: " + t, t);
        }
    }

    /** Waits for the helpers, which may still be writing the caller's arrays; keeps the interrupt. */
    private static void awaitUninterruptibly(CountDownLatch done) {
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
