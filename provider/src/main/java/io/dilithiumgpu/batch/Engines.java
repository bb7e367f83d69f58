package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;

import java.security.ProviderException;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * Where the SPIs and the async API get their {@link Engine}, and how a blocking JCA call waits for
 * one of its results.
 */
public final class Engines {
    /** The JMX name of the shared batcher's {@link BatcherMXBean}. */
    public static final String MBEAN_NAME = "io.dilithiumgpu:type=Batcher";

    private static final ReentrantLock LOCK = new ReentrantLock();
    private static volatile Batcher shared;

    private Engines() {}

    /**
     * The process-wide engine every SPI instance uses: a {@link Batcher} configured from the system
     * properties ({@link BatchConfig}), opened on first use, with its MBean registered as
     * {@value #MBEAN_NAME} and a shutdown hook that {@link Batcher#close() closes} it at JVM exit
     * (queued operations complete first).
     *
     * @throws ProviderException when a {@code dilithiumgpu.*} property is invalid (the next call
     *                           tries again) or no backend opens
     */
    public static Engine shared() {
        return sharedBatcher();
    }

    /** The shared batcher if it is open, without opening it. */
    public static Optional<Batcher> openedBatcher() {
        return Optional.ofNullable(shared);
    }

    /** The shared engine as its batcher, for its {@link Batcher#metrics() metrics}. */
    public static Batcher sharedBatcher() {
        Batcher b = shared;
        if (b != null) {
            return b;
        }
        LOCK.lock();
        try {
            if (shared == null) {
                shared = openShared();
            }
            return shared;
        } finally {
            LOCK.unlock();
        }
    }

    /**
     * Opens the shared engine over {@code backend} instead of the backend the system properties
     * select (with their batcher configuration otherwise): every JCA service of the process then
     * batches there. For measuring the layers above a backend, with one that computes nothing. The
     * batcher owns the backend and closes it.
     *
     * @throws IllegalStateException when the shared engine is open already
     * @throws ProviderException     when a {@code dilithiumgpu.*} property is invalid
     */
    public static Batcher openShared(Backend backend) {
        LOCK.lock();
        try {
            if (shared != null) {
                throw new IllegalStateException("the shared engine is open already, on " + shared.metrics().getBackend());
            }
            Batcher b = Batcher.open(sharedConfig(), backend);
            closeAtExit(b);
            shared = b;
            return b;
        } finally {
            LOCK.unlock();
        }
    }

    private static BatchConfig sharedConfig() {
        try {
            return BatchConfig.builder(System.getProperties()).jmxName(MBEAN_NAME).build();
        } catch (IllegalArgumentException e) {
            throw new ProviderException("invalid dilithium-gpu configuration: " + e.getMessage(), e);
        }
    }

    private static Batcher openShared() {
        Batcher b = Batcher.open(sharedConfig());
        closeAtExit(b);
        return b;
    }

    private static void closeAtExit(Batcher b) {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(b::close, "dilithiumgpu-shutdown"));
        } catch (IllegalStateException e) {
            // First use while the JVM is already exiting: there is no hook to add, and the batcher's
            // threads are daemons that end with the JVM.
        }
    }

    /**
     * When the backend had a finished request's outcome ({@link System#nanoTime()}), before the
     * threads that complete it and wake its caller ran: a round trip measured to here is the
     * batcher's and the GPU's, not the wait of a woken thread for a core. 0 when unknown (not a
     * batcher's request, or not done).
     */
    public static long readyNanos(CompletableFuture<?> request) {
        return request instanceof TimedFuture<?> timed ? timed.readyNanos() : 0;
    }

    /** Counts the caller's wake-up when the request came from a batcher ({@link TimedFuture}). */
    private static void awoken(CompletableFuture<?> request) {
        if (request instanceof TimedFuture<?> timed) {
            timed.awoken();
        }
    }

    /**
     * Waits for an engine result on behalf of a blocking JCA call, and turns its failure into the
     * exception the call may throw.
     *
     * <ul>
     *   <li>Interrupted while waiting: the request is cancelled (if its batch has not formed it is
     *       never run, and its secret inputs are wiped), the thread's interrupt status is set
     *       again, and {@code checked} receives the {@link InterruptedException}.</li>
     *   <li>A {@link ProviderException} (the backends failed) is rethrown as a new
     *       {@code ProviderException} with the caller's stack, the original as its cause; any
     *       other unchecked failure becomes one too, and errors pass unchanged.</li>
     *   <li>A checked failure ({@link java.security.InvalidKeyException}, an interrupted wait for
     *       queue room) and a cancellation go to {@code checked}, for example
     *       {@code SignatureException::new} in {@code engineSign}.</li>
     * </ul>
     */
    public static <T, X extends Exception> T await(CompletableFuture<T> request,
                                                   Function<? super Exception, ? extends X> checked) throws X {
        try {
            T value = request.get();
            awoken(request);
            return value;
        } catch (InterruptedException e) {
            request.cancel(false);
            Thread.currentThread().interrupt();
            throw checked.apply(e);
        } catch (CancellationException e) {
            throw checked.apply(e);
        } catch (ExecutionException e) {
            awoken(request);
            Throwable cause = e.getCause();
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            if (cause instanceof RuntimeException) {
                throw new ProviderException(cause.getMessage(), cause);
            }
            if (cause instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw checked.apply(cause instanceof Exception ? (Exception) cause : e);
        }
    }
}
