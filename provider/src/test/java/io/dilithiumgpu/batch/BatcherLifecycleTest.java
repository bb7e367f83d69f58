package io.dilithiumgpu.batch;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.backend.cpu.CpuBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.security.ProviderException;
import java.security.SignatureException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static io.dilithiumgpu.batch.Fixtures.keys;
import static io.dilithiumgpu.batch.Fixtures.message;
import static io.dilithiumgpu.batch.Fixtures.mu;
import static io.dilithiumgpu.batch.Fixtures.rnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Shutdown, interrupts, cancellation and backpressure of {@link Batcher}. */
@Timeout(60)
class BatcherLifecycleTest {
    private static final Duration GENEROUS = Duration.ofMinutes(2);
    private static final ParameterSet P = ParameterSet.ML_DSA_44;

    @Test
    void closeWhileBusyCompletesEveryQueuedRequestThenReleasesEverything() {
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 16);
        Batcher b = new Batcher(BatchConfig.builder().maxInFlight(2).build(), spy, null);
        Fixtures.KeyPair kp = keys(P);
        assertTimeoutPreemptively(GENEROUS, () -> {
            spy.hold();
            int n = 100;
            List<CompletableFuture<byte[]>> signs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                signs.add(b.sign(P, kp.sk, mu(P, kp.tr, message(i)), rnd(P, i)));
            }
            assertTrue(spy.awaitEntered(2));
            Thread closer = new Thread(b::close, "closer");
            closer.start();
            awaitState(closer, Thread.State.WAITING);
            assertTrue(b.isClosed());
            CompletionException refused = assertThrows(CompletionException.class,
                    () -> b.sign(P, kp.sk, mu(P, kp.tr, message(0)), rnd(P, 0)).join());
            assertInstanceOf(ProviderException.class, refused.getCause());

            spy.release();
            closer.join();
            for (int i = 0; i < n; i++) {
                assertTrue(Fixtures.referenceVerifies(P, kp.pk, message(i), signs.get(i).join()));
            }
        });
        assertEquals(100, b.metrics().getOperationCount());
        assertFalse(b.threadsAlive());
        assertEquals(0, b.pooledBatches());
        assertTrue(spy.closed.get());
    }

    @Test
    void closeFromADependentStageDoesNotWaitForItself() {
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 16);
        Batcher b = new Batcher(BatchConfig.builder().build(), spy, null);
        Fixtures.KeyPair kp = keys(P);
        assertTimeoutPreemptively(GENEROUS, () -> {
            CompletableFuture<Void> closedInside = b.sign(P, kp.sk, mu(P, kp.tr, message(0)), rnd(P, 0))
                    .thenRun(b::close);
            closedInside.join();
            b.close();
            b.close();
        });
        assertFalse(b.threadsAlive());
        assertTrue(spy.closed.get());
    }

    @Test
    void aCallerInterruptedWhileWaitingForQueueRoomQueuesNothing() {
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 16);
        Batcher b = new Batcher(BatchConfig.builder().maxInFlight(1).queueCapacity(2).build(), spy, null);
        Fixtures.KeyPair kp = keys(P);
        assertTimeoutPreemptively(GENEROUS, () -> {
            spy.hold();
            List<CompletableFuture<byte[]>> accepted = new ArrayList<>();
            accepted.add(b.sign(P, kp.sk, mu(P, kp.tr, message(0)), rnd(P, 0)));
            assertTrue(spy.awaitEntered(1));
            accepted.add(b.sign(P, kp.sk, mu(P, kp.tr, message(1)), rnd(P, 1)));
            accepted.add(b.sign(P, kp.sk, mu(P, kp.tr, message(2)), rnd(P, 2)));
            assertEquals(2, b.metrics().getQueueDepth());

            AtomicReference<CompletableFuture<byte[]>> blocked = new AtomicReference<>();
            AtomicBoolean stillInterrupted = new AtomicBoolean();
            Thread caller = new Thread(() -> {
                blocked.set(b.sign(P, kp.sk, mu(P, kp.tr, message(3)), rnd(P, 3)));
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            });
            caller.start();
            awaitState(caller, Thread.State.WAITING);
            caller.interrupt();
            caller.join();
            assertTrue(stillInterrupted.get(), "the interrupt status is kept");
            CompletionException e = assertThrows(CompletionException.class, blocked.get()::join);
            assertInstanceOf(InterruptedException.class, e.getCause());
            assertEquals(2, b.metrics().getQueueDepth());

            spy.release();
            for (CompletableFuture<byte[]> f : accepted) {
                f.join();
            }
            b.close();
        });
        assertEquals(3, b.metrics().getOperationCount());
    }

    @Test
    void anInterruptedAwaitCancelsItsQueuedRequestWhichNeverRuns() {
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 16);
        Batcher b = new Batcher(BatchConfig.builder().maxInFlight(1).build(), spy, null);
        Fixtures.KeyPair kp = keys(P);
        assertTimeoutPreemptively(GENEROUS, () -> {
            spy.hold();
            CompletableFuture<byte[]> running = b.sign(P, kp.sk, mu(P, kp.tr, message(0)), rnd(P, 0));
            assertTrue(spy.awaitEntered(1));

            AtomicReference<Exception> thrown = new AtomicReference<>();
            AtomicBoolean stillInterrupted = new AtomicBoolean();
            Thread caller = new Thread(() -> {
                try {
                    Engines.await(b.sign(P, kp.sk, mu(P, kp.tr, message(1)), rnd(P, 1)), SignatureException::new);
                } catch (SignatureException e) {
                    thrown.set(e);
                }
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            });
            caller.start();
            awaitCondition(() -> b.metrics().getQueueDepth() == 1 && caller.getState() == Thread.State.WAITING);
            caller.interrupt();
            caller.join();
            assertInstanceOf(SignatureException.class, thrown.get());
            assertInstanceOf(InterruptedException.class, thrown.get().getCause());
            assertTrue(stillInterrupted.get(), "the interrupt status is kept");

            spy.release();
            running.join();
            b.close();
        });
        assertEquals(List.of(1), spy.batchSizes, "the cancelled request never reached the backend");
        assertEquals(1, b.metrics().getOperationCount());
        assertEquals(0, b.metrics().getFailedOperations());
    }

    @Test
    void aLoneRequestOnAnIdleBatcherIsNotHeldForTheDelay() {
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 64);
        Batcher b = new Batcher(BatchConfig.builder().maxDelayMicros(Integer.MAX_VALUE).build(), spy, null);
        Fixtures.KeyPair kp = keys(P);
        assertTimeoutPreemptively(GENEROUS, () -> {
            for (int i = 0; i < 3; i++) {
                byte[] sig = b.sign(P, kp.sk, mu(P, kp.tr, message(i)), rnd(P, i)).join();
                assertTrue(Fixtures.referenceVerifies(P, kp.pk, message(i), sig));
            }
            b.close();
        });
        assertEquals(List.of(1, 1, 1), spy.batchSizes);
    }

    private static void awaitState(Thread t, Thread.State state) throws InterruptedException {
        awaitCondition(() -> t.getState() == state);
    }

    /** Polls until the condition holds; the test's preemptive timeout bounds the wait. */
    private static void awaitCondition(BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            Thread.sleep(2);
        }
    }
}
