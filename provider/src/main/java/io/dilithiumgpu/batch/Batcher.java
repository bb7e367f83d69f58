package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.MessageRecord;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.ProviderThreads;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;

import java.lang.management.ManagementFactory;
import java.security.InvalidKeyException;
import java.security.ProviderException;
import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The {@link Engine} that coalesces single operations into backend batches.
 *
 * <h2>Flow</h2>
 * A call copies its arguments into a task and queues it in the {@link Lane} of its (operation,
 * parameter set). One dispatcher thread turns queued tasks into batches by the rule of
 * {@link DispatchPolicy} (full, due after {@code maxDelayMicros}, or at once while fewer than half
 * of {@code maxInFlight} batches run) and hands each batch to a batch thread, at most
 * {@code maxInFlight} at a time; the next batches keep forming meanwhile, so a GPU backend can
 * pipeline copies and kernels. The batch thread copies the tasks into pooled arrays, runs the
 * backend, stages each task's outcome, gives the arrays back (secrets zeroed), frees its slot, and
 * only then completes the futures. A backend that reports tasks as they end
 * ({@link io.dilithiumgpu.backend.TaskListener}: CUDA signing, whose rejection loops differ in
 * length) has those tasks' futures completed at once, on its thread, unless
 * {@code earlyDelivery} is off: the caller waits for its own task, not for the batch's slowest.
 *
 * <h2>Backpressure</h2>
 * At most {@code queueCapacity} tasks wait in the lanes (those in running batches are bounded by
 * {@code maxInFlight × maxSize}). A caller that finds the queue full blocks in the call until
 * there is room. The wait is on a {@link Semaphore}, never inside {@code synchronized}, so a
 * virtual thread waiting here unmounts instead of pinning its carrier. Callers queue without a
 * lock (a permit, then the lane's concurrent queue): one lock per call capped the batcher alone,
 * whatever the backend, well below what the callers of a many-core host offer
 * (docs/performance.md). If the caller is interrupted while it waits, nothing is queued: the
 * returned future has failed with an {@link InterruptedException} and the thread's interrupt
 * status is set again.
 *
 * <h2>Cancellation</h2>
 * Cancelling a returned future (as {@link Engines#await} does when its caller is interrupted)
 * withdraws the task: if its batch has not formed yet it is skipped, never run, and its secret
 * inputs are wiped; if it is already running, its result is dropped (and wiped, for key pairs).
 *
 * <h2>Failures</h2>
 * Every task gets its own status: one invalid key or bad signature fails alone. When the backend
 * throws {@link BackendException} for a batch (the GPU failed), the whole batch reruns on the CPU
 * backend; each distinct cause is logged once at WARNING and the rerun tasks are counted in
 * {@link BatcherMXBean#getFallbackCount()}. When no backend can run a batch, its tasks fail with
 * a {@link ProviderException} naming the cause.
 *
 * <h2>Threads and shutdown</h2>
 * The dispatcher and batch threads are daemon threads; batch threads are started on demand and
 * end after a minute idle. {@link #close()} refuses new calls, runs every queued task to
 * completion, ends the threads, drops the pooled arrays, closes the backends and unregisters the
 * MBean. Dependent stages attached to the futures without an executor run on batch threads (on
 * a virtual thread per batch with {@link BatchConfig#virtualCompletion()}), and for tasks delivered
 * early on a virtual thread per scan of the backend's statuses (or without virtual completion on the
 * backend's threads): keep them short, or use the {@code *Async} variants. A batch
 * whose futures are being completed has left its slot, but beyond {@code maxInFlight} such batches
 * each holds one back: slow stages slow the batcher down rather than start a thread per batch (at
 * most twice {@code maxInFlight} batch threads are busy).
 *
 * <p>The batcher owns the backends it is given and closes them.
 */
public final class Batcher implements Engine, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Batcher.class.getName());
    /** Distinct fallback causes remembered for log-once; beyond this, new causes are not logged. */
    private static final int MAX_LOGGED_CAUSES = 64;
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final BatchConfig config;
    private final Backend primary;
    private final Supplier<Backend> fallbackFactory;
    private final Lane[] lanes;
    private final DispatchPolicy policy;
    private final BatcherStats stats;
    private final ThreadPoolExecutor workers;
    /** Completes finished batches' futures on virtual threads ({@link BatchConfig#virtualCompletion()}); null: the batch thread does. */
    private final ExecutorService completions;
    /** The batcher whose futures the current (virtual) thread completes, if any. */
    private static final ThreadLocal<Batcher> COMPLETING = new ThreadLocal<>();
    private final Thread dispatcher;
    private final ObjectName mbeanName;
    private final Set<String> loggedCauses = ConcurrentHashMap.newKeySet();

    /**
     * Guards {@link #inFlight}, which the dispatcher and the batch threads share. Callers never take it: they queue lock-free (see {@link #submit}).
     */
    private final ReentrantLock lock = new ReentrantLock();
    /**
     * Room in the queue: one permit per task that may still be queued (backpressure). The only
     * counter over all lanes that a call touches; the dispatcher sums the lanes' sizes instead.
     */
    private final Semaphore room;
    private volatile boolean closed;
    // Guarded by lock:
    private int inFlight;
    /**
     * Batches out of their slot whose futures are still being completed (dependent stages attached
     * without an executor run there). Beyond maxInFlight of them, each counts against the slots
     * ({@link #busy()}): slow stages then hold back new batches instead of multiplying batch threads.
     */
    private int completing;
    private final ReentrantLock fallbackLock = new ReentrantLock();
    /** The CPU backend for reruns, opened on first need; guarded by fallbackLock. */
    private Backend fallback;
    private final Choice choice;

    /**
     * Opens a batcher on the backend the configuration's policy selects, logging the choice and
     * its reason once (WARNING when CUDA was asked for and not found, INFO otherwise).
     */
    public static Batcher open(BatchConfig config) {
        BackendSelector.Selection s;
        try {
            s = BackendSelector.select(config.backend());
        } catch (BackendException e) {
            LOG.log(System.Logger.Level.ERROR, "dilithium-gpu: {0} ({1})", e.getMessage(), config);
            throw e;
        }
        LOG.log(s.degraded() ? System.Logger.Level.WARNING : System.Logger.Level.INFO,
                "dilithium-gpu: {0} ({1})", s.reason(), config);
        return new Batcher(config, s.primary(), s.fallback(), new Choice(s.reason(), s.cudaUnavailable(), s.devices()));
    }

    /**
     * How the backend was chosen.
     *
     * @param reason          the policy, the backend and why, as logged
     * @param cudaUnavailable why CUDA is not used, or null when it is
     * @param devices         the GPUs in use, one description each
     */
    public record Choice(String reason, String cudaUnavailable, List<String> devices) {}

    /**
     * How this batcher's backend was chosen; for a batcher opened on a caller's backend, a reason
     * that says so.
     */
    public Choice choice() {
        return choice;
    }

    /**
     * Opens a batcher on a backend the caller supplies (a custom accelerator, or a benchmark's
     * stand-in), with no fallback: a batch it fails with {@link BackendException} fails. The
     * configuration's backend policy is ignored. The batcher owns the backend and closes it.
     */
    public static Batcher open(BatchConfig config, Backend backend) {
        return new Batcher(config, backend, null);
    }

    /**
     * A batcher over given backends.
     *
     * @param primary         runs every batch
     * @param fallbackFactory opens the backend that reruns a batch {@code primary} failed; null
     *                        for none (then such a batch fails)
     */
    Batcher(BatchConfig config, Backend primary, Supplier<Backend> fallbackFactory) {
        this(config, primary, fallbackFactory, new Choice(primary.name() + " backend supplied by the caller",
                primary.name() + " backend supplied by the caller", List.of()));
    }

    private Batcher(BatchConfig config, Backend primary, Supplier<Backend> fallbackFactory, Choice choice) {
        this.choice = choice;
        this.config = Objects.requireNonNull(config);
        this.primary = Objects.requireNonNull(primary);
        this.fallbackFactory = fallbackFactory;
        int id = INSTANCES.incrementAndGet();
        int inFlightLimit = config.maxInFlight() > 0 ? config.maxInFlight()
                : Math.max(1, primary.preferredBatchesInFlight());
        LongFunction<HostBuffer> hostBuffers = config.hostBuffers() && primary.prefersHostBuffers()
                ? primary::allocateHost : null;
        this.lanes = new Lane[Operation.values().length * ParameterSet.values().length];
        for (Operation op : Operation.values()) {
            for (ParameterSet p : ParameterSet.values()) {
                int size = config.maxSize() > 0 ? config.maxSize() : primary.preferredBatchSize(p, op);
                size = Math.max(1, Math.min(size, config.queueCapacity()));
                lanes[laneIndex(op, p)] = new Lane(op, p, size, inFlightLimit + 1, hostBuffers);
            }
        }
        this.room = new Semaphore(config.queueCapacity());
        this.policy = new DispatchPolicy(TimeUnit.MICROSECONDS.toNanos(config.maxDelayMicros()),
                inFlightLimit, config.queueCapacity());
        this.stats = new BatcherStats(primary.name(), config, inFlightLimit, this::queueDepth, this::batchesInFlight);
        this.workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
                new SynchronousQueue<>(), new OwnThreads("dilithiumgpu-batch-" + id + "-"));
        this.completions = config.virtualCompletion() ? VirtualThreads.newPerTaskExecutor() : null;
        if (config.virtualCompletion() && completions == null) {
            LOG.log(System.Logger.Level.INFO,
                    "virtual completion needs virtual threads (JDK 21 or later): batch threads complete the futures");
        }
        this.dispatcher = new OwnThreads("dilithiumgpu-dispatch-" + id).newThread(this::dispatchLoop);
        this.mbeanName = register(config.jmxName(), stats);
        dispatcher.start();
    }

    /** The counters also published over JMX when the configuration names an MBean. */
    public BatcherMXBean metrics() {
        return stats;
    }

    /** The configuration this batcher runs with. */
    public BatchConfig config() {
        return config;
    }

    /** The largest batch of an operation on a set: maxSize or the backend's preferred size. */
    public int maxBatchSize(ParameterSet params, Operation op) {
        return lane(op, params).maxBatch;
    }

    @Override
    public CompletableFuture<byte[][]> keyGen(ParameterSet params, byte[] seed) {
        requireLength(seed, ParameterSet.SEED_BYTES, "seed");
        return submit(lane(Operation.KEYGEN, params), new KeyGenBatch.Request(seed));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A private key of the wrong length fails the future with {@link InvalidKeyException}
     * without queueing.
     *
     * @throws IllegalArgumentException when μ or rnd has the wrong length
     */
    @Override
    public CompletableFuture<byte[]> sign(ParameterSet params, byte[] privateKey, byte[] mu, byte[] rnd) {
        return sign(params, privateKey, null, mu, rnd);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The cache travels with the task; a CPU backend signs through it, the CUDA backend ignores
     * it. A private key of the wrong length fails the future with {@link InvalidKeyException}
     * without queueing.
     *
     * @throws IllegalArgumentException when μ or rnd has the wrong length
     */
    @Override
    public CompletableFuture<byte[]> sign(ParameterSet params, byte[] privateKey, PrivateKeyCache cache,
                                          byte[] mu, byte[] rnd) {
        return sign(params, privateKey, cache, mu, rnd, true);
    }

    /**
     * {@inheritDoc} The arrays are read when the task's batch loads, and the key and rnd then
     * zeroed; a task cancelled before (or refused, or of a key of the wrong length) has them
     * zeroed when it is dropped.
     */
    @Override
    public CompletableFuture<byte[]> signInPlace(ParameterSet params, byte[] privateKey, PrivateKeyCache cache,
                                                 byte[] mu, byte[] rnd) {
        return sign(params, privateKey, cache, mu, rnd, false);
    }

    /**
     * {@inheritDoc} The key is copied into the task's record when its batch loads; rnd is zeroed
     * then, or when the task is dropped.
     *
     * @throws IllegalArgumentException when μ or rnd has the wrong length
     */
    @Override
    public CompletableFuture<byte[]> signInPlace(ParameterSet params, SigningKey key, PrivateKeyCache cache,
                                                 byte[] mu, byte[] rnd) {
        requireLength(mu, ParameterSet.MU_BYTES, "mu");
        requireLength(rnd, params.rndBytes(), "rnd");
        return submit(lane(Operation.SIGN, params), new SignBatch.Request(Objects.requireNonNull(key, "key"), cache,
                mu, rnd));
    }

    /**
     * {@inheritDoc} The rnd is drawn with the other rnds of the request's batch, on the batch
     * thread, when the batch loads.
     *
     * @throws IllegalArgumentException when μ has the wrong length
     */
    @Override
    public CompletableFuture<byte[]> signDrawing(ParameterSet params, SigningKey key, PrivateKeyCache cache,
                                                 byte[] mu, Consumer<byte[]> random) {
        requireLength(mu, ParameterSet.MU_BYTES, "mu");
        return submit(lane(Operation.SIGN, params), new SignBatch.Request(Objects.requireNonNull(key, "key"), cache,
                mu, Objects.requireNonNull(random, "random")));
    }

    /** {@inheritDoc} Where the backend hashes messages, one-key batches hand it theirs. */
    @Override
    public boolean takesMessages(ParameterSet params, Operation op) {
        return primary.hashesMessages(params, op);
    }

    /**
     * {@inheritDoc} The record is read in place, as μ is by {@link #signDrawing}; a batch hashes
     * it with {@code tr} itself where its backend does not ({@link SignBatch}).
     *
     * @throws IllegalArgumentException when the record or tr has the wrong length
     */
    @Override
    public CompletableFuture<byte[]> signMessageDrawing(ParameterSet params, SigningKey key, PrivateKeyCache cache,
                                                        byte[] tr, byte[] message, Consumer<byte[]> random) {
        requireMessage(params, tr, message);
        return submit(lane(Operation.SIGN, params), new SignBatch.Request(Objects.requireNonNull(key, "key"), cache,
                tr, message, null, Objects.requireNonNull(random, "random")));
    }

    /** {@inheritDoc} As {@link #signMessageDrawing}, rnd handed over as to {@link #signInPlace}. */
    @Override
    public CompletableFuture<byte[]> signMessageInPlace(ParameterSet params, SigningKey key, PrivateKeyCache cache,
                                                        byte[] tr, byte[] message, byte[] rnd) {
        requireMessage(params, tr, message);
        requireLength(rnd, params.rndBytes(), "rnd");
        return submit(lane(Operation.SIGN, params), new SignBatch.Request(Objects.requireNonNull(key, "key"), cache,
                tr, message, rnd, null));
    }

    /**
     * {@inheritDoc} As {@link #verifyInPlace}, the record read in place, as by {@link #signMessageDrawing}.
     *
     * @throws IllegalArgumentException when the record or tr has the wrong length
     */
    @Override
    public CompletableFuture<Boolean> verifyMessageInPlace(ParameterSet params, byte[] publicKey, PublicKeyCache cache,
                                                           byte[] tr, byte[] message, byte[] signature) {
        requireMessage(params, tr, message);
        CompletableFuture<Boolean> unqueued = unqueued(params, publicKey, signature);
        return unqueued != null ? unqueued
                : submit(lane(Operation.VERIFY, params), new VerifyBatch.Request(publicKey, cache, tr, message, signature));
    }

    private static void requireMessage(ParameterSet params, byte[] tr, byte[] message) {
        requireLength(message, MessageRecord.BYTES, "message record");
        requireLength(tr, params.trBytes(), "tr");
    }

    private CompletableFuture<byte[]> sign(ParameterSet params, byte[] privateKey, PrivateKeyCache cache,
                                           byte[] mu, byte[] rnd, boolean copy) {
        requireLength(mu, ParameterSet.MU_BYTES, "mu");
        requireLength(rnd, params.rndBytes(), "rnd");
        if (privateKey.length != params.privateKeyBytes()) {
            if (!copy) {
                Arrays.fill(privateKey, (byte) 0);
                Arrays.fill(rnd, (byte) 0);
            }
            return CompletableFuture.failedFuture(new InvalidKeyException(params + " private key must be "
                    + params.privateKeyBytes() + " bytes, not " + privateKey.length));
        }
        return submit(lane(Operation.SIGN, params), new SignBatch.Request(privateKey, cache, mu, rnd, copy));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A public key of the wrong length fails the future with {@link InvalidKeyException}; a
     * signature of the wrong length completes it with false; neither is queued.
     *
     * @throws IllegalArgumentException when μ has the wrong length
     */
    @Override
    public CompletableFuture<Boolean> verify(ParameterSet params, byte[] publicKey, byte[] mu, byte[] signature) {
        return verify(params, publicKey, null, mu, signature);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The cache travels with the task; a CPU backend verifies through it, the CUDA backend
     * ignores it. A public key of the wrong length fails the future with
     * {@link InvalidKeyException}; a signature of the wrong length completes it with false;
     * neither is queued.
     *
     * @throws IllegalArgumentException when μ has the wrong length
     */
    @Override
    public CompletableFuture<Boolean> verify(ParameterSet params, byte[] publicKey, PublicKeyCache cache,
                                             byte[] mu, byte[] signature) {
        return verify(params, publicKey, cache, mu, signature, true);
    }

    /** {@inheritDoc} The arrays are read when the task's batch loads. */
    @Override
    public CompletableFuture<Boolean> verifyInPlace(ParameterSet params, byte[] publicKey, PublicKeyCache cache,
                                                    byte[] mu, byte[] signature) {
        return verify(params, publicKey, cache, mu, signature, false);
    }

    private CompletableFuture<Boolean> verify(ParameterSet params, byte[] publicKey, PublicKeyCache cache,
                                              byte[] mu, byte[] signature, boolean copy) {
        requireLength(mu, ParameterSet.MU_BYTES, "mu");
        CompletableFuture<Boolean> unqueued = unqueued(params, publicKey, signature);
        return unqueued != null ? unqueued
                : submit(lane(Operation.VERIFY, params), new VerifyBatch.Request(publicKey, cache, mu, signature, copy));
    }

    /**
     * The outcome of a verification that is never queued: a public key of the wrong length fails
     * with {@link InvalidKeyException}, a signature of the wrong length is false; else null.
     */
    private static CompletableFuture<Boolean> unqueued(ParameterSet params, byte[] publicKey, byte[] signature) {
        if (publicKey.length != params.publicKeyBytes()) {
            return CompletableFuture.failedFuture(new InvalidKeyException(params + " public key must be "
                    + params.publicKeyBytes() + " bytes, not " + publicKey.length));
        }
        return signature.length != params.signatureBytes() ? CompletableFuture.completedFuture(Boolean.FALSE) : null;
    }

    /**
     * Refuses new calls, completes every queued and running task, then ends the threads, drops
     * the pooled arrays, closes the backends and unregisters the MBean. Blocks until all that is
     * done, uninterruptibly (an interrupt is kept for the caller); idempotent. Called from a
     * dependent stage running on a batch thread or a completing virtual thread, it starts the
     * shutdown and returns at once.
     */
    @Override
    public void close() {
        closed = true;
        // Callers blocked for room wake, see the batcher closed and are refused.
        room.release(config.queueCapacity());
        LockSupport.unpark(dispatcher);
        if (Thread.currentThread() instanceof OwnThread && ((OwnThread) Thread.currentThread()).owner == this
                || COMPLETING.get() == this) {
            return;
        }
        boolean interrupted = false;
        while (true) {
            try {
                dispatcher.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** For tests: whether any thread of this batcher is still alive. */
    boolean threadsAlive() {
        return dispatcher.isAlive() || workers.getPoolSize() > 0;
    }

    /** For tests: idle batches held by the pools of all lanes. */
    int pooledBatches() {
        int n = 0;
        for (Lane lane : lanes) {
            n += lane.pool.idleCount();
        }
        return n;
    }

    /** True once {@link #close()} has been called. */
    public boolean isClosed() {
        return closed;
    }

    // ---- callers' side

    /**
     * Queues a task without taking a lock: a permit of {@link #room} (blocking, interruptibly,
     * while the queue is full), then the lane's concurrent queue. The dispatcher is woken only
     * when this arrival can change its decision: the lane was empty, is now full, or the queue is.
     * A task queued while the batcher closes is withdrawn and refused unless the dispatcher has
     * already taken it (then it runs).
     */
    private <T> CompletableFuture<T> submit(Lane lane, Task<T> task) {
        if (closed) {
            return refuseClosed(task);
        }
        if (!room.tryAcquire()) {
            try {
                room.acquire();
            } catch (InterruptedException e) {
                task.wipe();
                task.future.completeExceptionally(
                        new InterruptedException("interrupted while waiting for room in the batch queue"));
                Thread.currentThread().interrupt();
                return task.future;
            }
        }
        if (closed) {
            return refuseClosed(task);
        }
        task.enqueuedNanos = System.nanoTime();
        int laneSize = lane.add(task);
        if (laneSize == 1 || laneSize == lane.maxBatch || room.availablePermits() == 0) {
            LockSupport.unpark(dispatcher);
        }
        if (closed && lane.remove(task)) {
            // Closed under us; the dispatcher may have drained and gone. Withdrawn, so refused.
            return refuseClosed(task);
        }
        return task.future;
    }

    private <T> CompletableFuture<T> refuseClosed(Task<T> task) {
        task.wipe();
        task.future.completeExceptionally(new ProviderException("dilithium-gpu batcher is closed"));
        return task.future;
    }

    // ---- dispatcher thread

    private void dispatchLoop() {
        try {
            while (true) {
                Lane lane;
                Task<?>[] tasks = null;
                long wait = 0;
                lock.lock();
                try {
                    long now = System.nanoTime();
                    boolean closing = closed;
                    int busy = busy();
                    lane = policy.next(lanes, now, busy, queueDepth(), closing);
                    if (lane != null) {
                        tasks = lane.take();
                        if (tasks.length > 0) {
                            inFlight++;
                        }
                    } else if (closing && queueDepth() == 0 && inFlight == 0) {
                        return;
                    } else {
                        wait = busy < policy.maxInFlight() ? policy.nanosUntilDue(lanes, now) : Long.MAX_VALUE;
                    }
                } finally {
                    lock.unlock();
                }
                if (tasks != null) {
                    if (tasks.length > 0) {
                        room.release(tasks.length);
                        handOff(lane, tasks, System.nanoTime());
                    }
                    continue;
                }
                // Woken by a caller (a lane became non-empty or full), a finished batch, or close;
                // an unpark before this park makes it return at once, so no wake-up is lost.
                if (wait == Long.MAX_VALUE) {
                    LockSupport.park(this);
                } else {
                    LockSupport.parkNanos(this, wait);
                }
                Thread.interrupted();  // nobody interrupts the dispatcher on purpose
            }
        } finally {
            shutDown();
        }
    }

    private void handOff(Lane lane, Task<?>[] tasks, long formedNanos) {
        try {
            workers.execute(() -> runBatch(lane, tasks, formedNanos));
        } catch (RejectedExecutionException | OutOfMemoryError e) {
            // No thread to run it: fail the batch rather than lose it.
            ProviderException failure = new ProviderException("cannot start a batch thread", e);
            for (Task<?> t : tasks) {
                t.wipe();
                t.fail(failure);
            }
            finishBatch(tasks, formedNanos, 0, 0, 0, 0, 0, null);
        }
    }

    /**
     * After the drain: ends the batch threads (then the completing virtual threads, which only
     * batch threads start) and releases pools, backends and the MBean.
     */
    private void shutDown() {
        boolean interrupted = awaitEnd(workers);
        if (completions != null) {
            interrupted |= awaitEnd(completions);
        }
        for (Lane lane : lanes) {
            lane.pool.clear();
        }
        closeQuietly(primary);
        Backend fb;
        fallbackLock.lock();
        try {
            fb = fallback;
            fallback = null;
        } finally {
            fallbackLock.unlock();
        }
        if (fb != null) {
            closeQuietly(fb);
        }
        unregister(mbeanName);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- batch threads

    /**
     * Runs one batch on this (batch) thread and times its stages for {@link BatcherMXBean}: the
     * hand-off from the dispatcher, loading, the backend call, and completion (outcomes staged,
     * arrays wiped and pooled, callers' futures completed).
     */
    private void runBatch(Lane lane, Task<?>[] tasks, long formedNanos) {
        long started = System.nanoTime();
        long queueWait = 0;
        long loaded = started;
        long ran = started;
        Batch batch = null;
        EarlyDeliveries early = config.earlyDelivery() ? new EarlyDeliveries(formedNanos) : null;
        try {
            batch = lane.pool.take(tasks.length);
            for (Task<?> t : tasks) {
                queueWait += formedNanos - t.enqueuedNanos;
                if (t.future.isDone()) {
                    t.wipe();
                } else {
                    batch.add(t);
                }
            }
            loaded = System.nanoTime();
            ran = loaded;
            if (batch.size() > 0) {
                runOnBackends(lane, batch, early);
                ran = System.nanoTime();
                batch.collectAll();
            }
        } catch (RuntimeException | Error e) {
            String what = lane + " batch of " + tasks.length + " failed on every backend: " + e;
            logOnce(e, what);
            ProviderException failure = new ProviderException(what, e);
            for (Task<?> t : tasks) {
                t.wipe();
                t.fail(failure);
            }
        } finally {
            if (batch != null) {
                batch.clear();
                lane.pool.give(batch);
            }
            finishBatch(tasks, formedNanos, queueWait, started - formedNanos, loaded - started, ran - loaded, ran,
                    early);
        }
    }

    /**
     * Completes tasks a backend reports as they end, and sums them for the batch's stats. With
     * {@link BatchConfig#virtualCompletion()} the tasks of one scan of the backend's statuses
     * ({@link io.dilithiumgpu.backend.TaskListener#scanned}) are completed together on a virtual
     * thread, not one by one on the backend's thread: a caller woken from a platform thread is an
     * external submission to the virtual threads' scheduler, each signalling an idle carrier (on 64
     * cores the CUDA slot threads' wake-ups took 16 % of the process's CPU at 4,096 signing callers,
     * and the carriers they woke, finding little to do, another half spinning for work), where the
     * wake-ups of one virtual thread go to its carrier's own queue. Every task handed over is
     * completed before the backend call's batch moves on ({@link #awaitDelivered}).
     */
    private final class EarlyDeliveries implements Batch.Delivery {
        private final long formedNanos;
        private final AtomicInteger delivered = new AtomicInteger();
        private final AtomicInteger failed = new AtomicInteger();
        private final AtomicLong batchedNanos = new AtomicLong();
        /** Tasks told since the last scan ended, to complete together. */
        private final ConcurrentLinkedQueue<Task<?>> told = new ConcurrentLinkedQueue<>();
        /** Tasks handed to virtual threads and not completed yet. */
        private final AtomicInteger outstanding = new AtomicInteger();
        /** The batch thread waiting in {@link #awaitDelivered}, or null. */
        private volatile Thread waiter;

        EarlyDeliveries(long formedNanos) {
            this.formedNanos = formedNanos;
        }

        @Override
        public void deliver(Task<?> task) {
            if (task.failurePending()) {
                failed.incrementAndGet();
            }
            if (completions == null) {
                complete(task);
            } else {
                told.add(task);
            }
        }

        @Override
        public void flush() {
            List<Task<?>> tasks = new ArrayList<>();
            for (Task<?> t; (t = told.poll()) != null; ) {
                tasks.add(t);
            }
            if (tasks.isEmpty()) {
                return;
            }
            int n = tasks.size();
            outstanding.addAndGet(n);
            try {
                completions.execute(() -> {
                    try {
                        for (Task<?> t : tasks) {
                            complete(t);
                        }
                    } finally {
                        done(n);
                    }
                });
            } catch (RejectedExecutionException e) {
                // Shut down under us (cannot happen before the batch threads have ended): complete here.
                for (Task<?> t : tasks) {
                    complete(t);
                }
                done(n);
            }
        }

        private void complete(Task<?> task) {
            long at = task.deliver(stats, 0);
            if (at != 0) {
                batchedNanos.addAndGet(at - formedNanos);
                delivered.incrementAndGet();
            }
        }

        private void done(int n) {
            if (outstanding.addAndGet(-n) == 0) {
                Thread w = waiter;
                if (w != null) {
                    LockSupport.unpark(w);
                }
            }
        }

        /**
         * Completes what is still gathered and waits until every task handed over is completed:
         * the batch then fails, reruns or finishes its tasks with none of them still in a
         * virtual thread's hands.
         */
        void awaitDelivered() {
            flush();
            if (outstanding.get() == 0) {
                return;
            }
            waiter = Thread.currentThread();
            try {
                while (outstanding.get() > 0) {
                    LockSupport.parkNanos(this, 1_000_000);
                }
            } finally {
                waiter = null;
            }
        }
    }

    /**
     * Runs a loaded batch on the primary backend, or on the CPU when the primary fails (tasks it
     * delivered early stand; the rest rerun).
     */
    private void runOnBackends(Lane lane, Batch batch, EarlyDeliveries early) {
        int n = batch.size();
        try {
            try {
                batch.runLoaded(primary, early);
            } finally {
                if (early != null) {
                    early.awaitDelivered();
                }
            }
        } catch (BackendException e) {
            Backend cpu = fallback();
            if (cpu == null) {
                throw e;
            }
            logOnce(e, primary.name() + " backend failed a " + lane + " batch; rerunning such batches on "
                    + cpu.name() + ": " + e.getMessage());
            stats.fellBack(n);
            batch.runLoaded(cpu, null);
        }
        stats.batchRan(n);
    }

    /**
     * Frees the batch's slot, counts the failures, completes the futures, then adds the batch to
     * the stats in one step: its stage times (completion runs from {@code ranNanos} to now; an
     * untimed batch passes zeros) and each task's time since its batch formed at
     * {@code formedNanos}, those delivered {@code early} (null for none) included.
     */
    private void finishBatch(Task<?>[] tasks, long formedNanos, long queueWait, long handOff, long load,
            long backend, long ranNanos, EarlyDeliveries early) {
        lock.lock();
        try {
            inFlight--;
            completing++;
        } finally {
            lock.unlock();
        }
        LockSupport.unpark(dispatcher);
        int failures = early == null ? 0 : early.failed.get();
        for (Task<?> t : tasks) {
            if (t.failurePending()) {
                failures++;
            }
        }
        if (failures > 0) {
            stats.failed(failures);
        }
        long batched = early == null ? 0 : early.batchedNanos.get();
        int delivered = early == null ? 0 : early.delivered.get();
        Completion completion = new Completion(stats, tasks, formedNanos, queueWait, handOff, load, backend,
                ranNanos, delivered, batched, completions == null ? 1 : Completion.slicesOf(tasks.length));
        if (completions != null) {
            int slice = 0;
            try {
                for (; slice < completion.slices(); slice++) {
                    int s = slice;
                    completions.execute(() -> {
                        // A dependent stage that closes the batcher from here must not wait for itself.
                        COMPLETING.set(this);
                        deliverSlice(completion, s);
                    });
                }
                return;
            } catch (RejectedExecutionException e) {
                // Shut down under us (cannot happen before the batch threads have ended): deliver here.
            }
            for (; slice < completion.slices(); slice++) {
                deliverSlice(completion, slice);
            }
            return;
        }
        deliverSlice(completion, 0);
    }

    /** Delivers a slice; after the batch's last, the batch no longer counts as completing. */
    private void deliverSlice(Completion completion, int slice) {
        if (completion.deliverSlice(slice)) {
            completed();
        }
    }

    /** A batch's completion ended; wakes the dispatcher if that frees a slot ({@link #busy()}). */
    private void completed() {
        boolean heldASlot;
        lock.lock();
        try {
            heldASlot = completing-- > policy.maxInFlight();
        } finally {
            lock.unlock();
        }
        if (heldASlot) {
            LockSupport.unpark(dispatcher);
        }
    }

    /** Batches that take a slot: those running, and those completing beyond maxInFlight. Under lock. */
    private int busy() {
        return inFlight + Math.max(0, completing - policy.maxInFlight());
    }

    /** Shuts {@code executor} down and waits for its tasks, uninterruptibly; true when interrupted meanwhile. */
    private static boolean awaitEnd(ExecutorService executor) {
        executor.shutdown();
        boolean interrupted = false;
        while (true) {
            try {
                if (executor.awaitTermination(1, TimeUnit.DAYS)) {
                    return interrupted;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }

    private Backend fallback() {
        if (fallbackFactory == null) {
            return null;
        }
        fallbackLock.lock();
        try {
            if (fallback == null) {
                fallback = fallbackFactory.get();
            }
            return fallback;
        } finally {
            fallbackLock.unlock();
        }
    }

    /**
     * Logs at WARNING unless the same root cause was logged before. The root, not the exception
     * itself, decides: a backend that refuses calls after a failure names that failure as the
     * cause of every refusal, with a message that changes (the time left).
     */
    private void logOnce(Throwable failure, String message) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String key = root.getClass().getName() + ": " + root.getMessage();
        if (loggedCauses.size() < MAX_LOGGED_CAUSES && loggedCauses.add(key)) {
            LOG.log(System.Logger.Level.WARNING, message, failure);
        }
    }

    // ---- helpers

    private Lane lane(Operation op, ParameterSet params) {
        return lanes[laneIndex(op, Objects.requireNonNull(params, "params"))];
    }

    private static int laneIndex(Operation op, ParameterSet params) {
        return op.ordinal() * ParameterSet.values().length + params.ordinal();
    }

    /** Tasks queued over all lanes. */
    private int queueDepth() {
        int n = 0;
        for (Lane lane : lanes) {
            n += lane.size();
        }
        return n;
    }

    private int batchesInFlight() {
        lock.lock();
        try {
            return inFlight;
        } finally {
            lock.unlock();
        }
    }

    private static void requireLength(byte[] a, int length, String what) {
        if (a.length != length) {
            throw new IllegalArgumentException(what + " must be " + length + " bytes, not " + a.length);
        }
    }

    private static void closeQuietly(Backend b) {
        try {
            b.close();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the " + b.name() + " backend failed", e);
        }
    }

    private static ObjectName register(String name, BatcherMXBean bean) {
        if (name == null) {
            return null;
        }
        try {
            ObjectName on = new ObjectName(name);
            ManagementFactory.getPlatformMBeanServer().registerMBean(bean, on);
            return on;
        } catch (JMException e) {
            LOG.log(System.Logger.Level.WARNING, "batcher MBean not registered as " + name + ": " + e);
            return null;
        }
    }

    private static void unregister(ObjectName name) {
        if (name == null) {
            return;
        }
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
        } catch (JMException e) {
            LOG.log(System.Logger.Level.DEBUG, "batcher MBean " + name + " already gone: " + e);
        }
    }

    /** A thread of this batcher: close() called on one must not wait for itself. */
    private final class OwnThread extends Thread {
        final Batcher owner = Batcher.this;

        OwnThread(Runnable r, String name) {
            super(r, name);
            setDaemon(true);
        }
    }

    private final class OwnThreads implements ThreadFactory {
        private final String prefix;
        private final AtomicInteger count = new AtomicInteger();
        private final boolean numbered;

        /** Threads named {@code prefix} + 1, 2, ... when prefix ends in '-', else {@code prefix}. */
        OwnThreads(String prefix) {
            this.prefix = prefix;
            this.numbered = prefix.endsWith("-");
        }

        @Override
        public Thread newThread(Runnable r) {
            return ProviderThreads.register(new OwnThread(r, numbered ? prefix + count.incrementAndGet() : prefix));
        }
    }
}
