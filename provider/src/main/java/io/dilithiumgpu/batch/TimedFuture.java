package io.dilithiumgpu.batch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A request's future, with two additions for the thread that blocks on it (a JCA call, through
 * {@link Engines#await}):
 *
 * <ul>
 *   <li><b>A direct waiter.</b> {@link #get()} parks the first thread that waits in a field of
 *       its own, and every completing method wakes it: no wait node is allocated and pushed onto
 *       the future's stack per call. A second thread waiting at once, and the timed and
 *       uninterruptible waits ({@code get(long, TimeUnit)}, {@code join}), take the
 *       {@link CompletableFuture}'s own path.</li>
 *   <li><b>A delivery time.</b> It knows when its batch thread completed it, so that the waiter
 *       can report how long it took to run again: the wake-up of its thread, which with thousands
 *       of virtual-thread callers is a stage of its own ({@link BatcherMXBean#getCallerWakeNanos()}).
 *       The stamp is written before the future completes and read after {@link #get()} returns,
 *       so the completion orders the two.</li>
 * </ul>
 */
final class TimedFuture<T> extends CompletableFuture<T> {
    private static final VarHandle WAITER;

    static {
        try {
            WAITER = MethodHandles.lookup().findVarHandle(TimedFuture.class, "waiter", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private BatcherStats stats;
    private long deliveredNanos;
    private volatile long readyNanos;
    /** The thread parked in {@link #get()}, if any. */
    private volatile Thread waiter;

    /**
     * Called by the thread that completes this future, just before: {@code nanos} is now,
     * {@code readyNanos} when the backend had the outcome (its batch's end, or the task's own).
     */
    void stamp(BatcherStats stats, long nanos, long readyNanos) {
        this.stats = stats;
        this.deliveredNanos = nanos;
        this.readyNanos = readyNanos;
    }

    /**
     * When the backend had this task's outcome ({@link System#nanoTime()}), before the threads that
     * complete the future and wake its caller ran; 0 while not done.
     */
    long readyNanos() {
        return readyNanos;
    }

    /** Called by the thread that waited, once it runs again; counts its wake-up. */
    void awoken() {
        BatcherStats s = stats;
        if (s != null) {
            s.callerWoke(System.nanoTime() - deliveredNanos);
        }
    }

    /**
     * Waits for the result as {@link CompletableFuture#get()} does. The waiter publishes itself
     * and then reads the result, and a completer writes the result and then reads the waiter
     * (both volatile), so one of them sees the other: no wake-up is lost.
     */
    @Override
    public T get() throws InterruptedException, ExecutionException {
        if (!isDone()) {
            if (WAITER.compareAndSet(this, null, Thread.currentThread())) {
                try {
                    while (!isDone()) {
                        if (Thread.interrupted()) {
                            throw new InterruptedException();
                        }
                        LockSupport.park(this);
                    }
                } finally {
                    waiter = null;
                }
            }
        }
        return super.get();
    }

    private void wakeWaiter() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    @Override
    public boolean complete(T value) {
        boolean done = super.complete(value);
        wakeWaiter();
        return done;
    }

    @Override
    public boolean completeExceptionally(Throwable failure) {
        boolean done = super.completeExceptionally(failure);
        wakeWaiter();
        return done;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        wakeWaiter();
        return cancelled;
    }

    @Override
    public void obtrudeValue(T value) {
        super.obtrudeValue(value);
        wakeWaiter();
    }

    @Override
    public void obtrudeException(Throwable failure) {
        super.obtrudeException(failure);
        wakeWaiter();
    }

    /** As {@link CompletableFuture}'s, completing through this class's methods so that the waiter wakes. */
    @Override
    public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier, Executor executor) {
        if (supplier == null || executor == null) {
            throw new NullPointerException();
        }
        executor.execute(() -> {
            if (isDone()) {
                return;
            }
            T value;
            try {
                value = supplier.get();
            } catch (Throwable t) {
                completeExceptionally(t instanceof CompletionException ? t : new CompletionException(t));
                return;
            }
            complete(value);
        });
        return this;
    }
}
