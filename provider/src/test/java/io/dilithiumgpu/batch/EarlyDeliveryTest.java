package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBatches;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.TaskListener;
import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.security.InvalidKeyException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static io.dilithiumgpu.batch.Fixtures.keys;
import static io.dilithiumgpu.batch.Fixtures.message;
import static io.dilithiumgpu.batch.Fixtures.mu;
import static io.dilithiumgpu.batch.Fixtures.rnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Callers whose tasks a backend reports as they end ({@link TaskListener}) get their results
 * while the batch still runs; the rest of the batch, reruns after a backend failure and the stats
 * treat them as delivered once.
 */
@Timeout(120)
class EarlyDeliveryTest {
    private static final Duration GENEROUS = Duration.ofMinutes(2);
    private static final ParameterSet P = ParameterSet.ML_DSA_44;
    private static final int TASKS = 8;

    private final List<Batcher> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(Batcher::close);
    }

    /**
     * Signs on the CPU through host buffers; its first call blocks until {@link #first} opens (so
     * that the next requests queue into one batch); its second call then reports the even tasks
     * early, waits for {@link #release}, and returns or fails as configured.
     */
    private static final class ReportingBackend implements Backend {
        final CpuBackend cpu = new CpuBackend();
        final CountDownLatch first = new CountDownLatch(1);
        final CountDownLatch reported = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger calls = new AtomicInteger();
        final List<TaskListener> listeners = new ArrayList<>();
        boolean failAfterReporting;
        /** Whether the reports end with a scan's end ({@link TaskListener#scanned}), as the CUDA backend's do. */
        boolean scanEnds = true;

        @Override
        public String name() {
            return "cuda";
        }

        @Override
        public int preferredBatchSize(ParameterSet params, io.dilithiumgpu.backend.Operation op) {
            return TASKS;
        }

        @Override
        public boolean prefersHostBuffers() {
            return true;
        }

        /** Heap records run on the CPU; signing records in host buffers report and wait as the class says. */
        @Override
        public void run(BatchRecords r) {
            if (!r.inHost() || r.op() != io.dilithiumgpu.backend.Operation.SIGN) {
                if (r.inHost()) {
                    HostBatches.run(this, r);
                } else {
                    cpu.run(r);
                }
                return;
            }
            TaskListener early = r.listener();
            int n = r.count();
            byte[] status = r.status();
            synchronized (listeners) {
                listeners.add(early);
            }
            int call = calls.incrementAndGet();
            HostBatches.run(this, r);
            if (call == 1) {
                await(first);
                return;
            }
            if (early != null) {
                for (int i = 0; i < n; i += 2) {
                    early.finished(i, status[i]);
                    early.finished(i, status[i]);  // a second report of a task is ignored
                }
                if (scanEnds) {
                    early.scanned();
                }
            }
            reported.countDown();
            await(release);
            if (failAfterReporting) {
                throw new BackendException("CUDA_ERROR_LAUNCH_FAILED after reporting half the tasks");
            }
        }

        @Override
        public void close() {
            cpu.close();
        }

        private static void await(CountDownLatch latch) {
            try {
                if (!latch.await(2, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("test latch never opened");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private Batcher open(BatchConfig config, ReportingBackend backend, Supplier<Backend> fallback) {
        Batcher b = new Batcher(config, backend, fallback);
        opened.add(b);
        return b;
    }

    /** A blocker call, then TASKS sign requests queued behind it (task 2's key does not decode). */
    private static List<CompletableFuture<byte[]>> submit(Batcher b, ReportingBackend backend) throws Exception {
        Fixtures.KeyPair kp = keys(P);
        CompletableFuture<byte[]> blocker = b.sign(P, kp.sk, mu(P, kp.tr, message(99)), rnd(P, 99));
        while (backend.calls.get() == 0) {
            Thread.sleep(1);
        }
        List<CompletableFuture<byte[]>> futures = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            byte[] sk = i == 2 ? Fixtures.malformedPrivateKey(P) : kp.sk;
            futures.add(b.sign(P, sk, mu(P, kp.tr, message(i)), rnd(P, i)));
        }
        backend.first.countDown();
        assertTrue(Fixtures.referenceVerifies(P, kp.pk, message(99), blocker.join()));
        return futures;
    }

    private static void assertSigned(List<CompletableFuture<byte[]>> futures) {
        Fixtures.KeyPair kp = keys(P);
        for (int i = 0; i < TASKS; i++) {
            if (i == 2) {
                CompletionException e = assertThrows(CompletionException.class, futures.get(i)::join);
                assertInstanceOf(InvalidKeyException.class, e.getCause());
            } else {
                assertTrue(Fixtures.referenceVerifies(P, kp.pk, message(i), futures.get(i).join()), "task " + i);
            }
        }
    }

    @Test
    void reportedTasksCompleteWhileTheirBatchStillRuns() {
        ReportingBackend backend = new ReportingBackend();
        Batcher b = open(BatchConfig.builder().maxInFlight(1).maxSize(TASKS).build(), backend, null);
        assertTimeoutPreemptively(GENEROUS, () -> {
            List<CompletableFuture<byte[]>> futures = submit(b, backend);
            assertTrue(backend.reported.await(2, TimeUnit.MINUTES));
            for (int i = 0; i < TASKS; i += 2) {
                awaitDone(futures.get(i));  // completed on a virtual thread, where the JDK has them
            }
            for (int i = 0; i < TASKS; i++) {
                assertEquals(i % 2 == 0, futures.get(i).isDone(), "task " + i + " done while its batch runs");
            }
            backend.release.countDown();
            assertSigned(futures);
        });
        BatcherMXBean m = b.metrics();
        awaitDelivered(m, TASKS + 1);
        assertEquals(TASKS + 1, m.getOperationCount());
        assertEquals(TASKS + 1, m.getDeliveredCount(), "every task delivered once, early or not");
        assertEquals(1, m.getFailedOperations(), "the bad key, reported early, counts as one failure");
        assertEquals(0, m.getFallbackCount());
    }

    @Test
    void aBackendFailureAfterEarlyReportsRerunsTheBatchAndKeepsTheEarlyResults() {
        ReportingBackend backend = new ReportingBackend();
        backend.failAfterReporting = true;
        Batcher b = open(BatchConfig.builder().maxInFlight(1).maxSize(TASKS).build(), backend, CpuBackend::new);
        assertTimeoutPreemptively(GENEROUS, () -> {
            List<CompletableFuture<byte[]>> futures = submit(b, backend);
            assertTrue(backend.reported.await(2, TimeUnit.MINUTES));
            byte[] early = futures.get(0).join();
            backend.release.countDown();
            assertSigned(futures);
            assertTrue(early == futures.get(0).join(), "the rerun did not replace an early result");
        });
        BatcherMXBean m = b.metrics();
        awaitDelivered(m, TASKS + 1);
        assertEquals(TASKS, m.getFallbackCount(), "the failed batch reran whole on the CPU");
        assertEquals(TASKS + 1, m.getDeliveredCount());
        assertEquals(1, m.getFailedOperations());
    }

    /** A backend that tells of tasks but never of a scan's end: they reach their callers as its call ends. */
    @Test
    void tasksToldWithoutAScansEndAreDeliveredBeforeTheBatchMovesOn() {
        ReportingBackend backend = new ReportingBackend();
        backend.scanEnds = false;
        Batcher b = open(BatchConfig.builder().maxInFlight(1).maxSize(TASKS).build(), backend, null);
        assertTimeoutPreemptively(GENEROUS, () -> {
            List<CompletableFuture<byte[]>> futures = submit(b, backend);
            assertTrue(backend.reported.await(2, TimeUnit.MINUTES));
            backend.release.countDown();
            assertSigned(futures);
        });
        BatcherMXBean m = b.metrics();
        awaitDelivered(m, TASKS + 1);
        assertEquals(TASKS + 1, m.getDeliveredCount(), "every task delivered once, early or not");
        assertEquals(1, m.getFailedOperations());
    }

    private static void awaitDone(CompletableFuture<?> f) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (!f.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
    }

    @Test
    void earlyDeliveryCanBeTurnedOff() {
        ReportingBackend backend = new ReportingBackend();
        Batcher b = open(BatchConfig.builder().maxInFlight(1).maxSize(TASKS).earlyDelivery(false).build(), backend,
                null);
        assertTimeoutPreemptively(GENEROUS, () -> {
            List<CompletableFuture<byte[]>> futures = submit(b, backend);
            assertTrue(backend.reported.await(2, TimeUnit.MINUTES));
            for (CompletableFuture<byte[]> f : futures) {
                assertFalse(f.isDone(), "nothing completes before its batch without early delivery");
            }
            backend.release.countDown();
            assertSigned(futures);
        });
        synchronized (backend.listeners) {
            for (TaskListener l : backend.listeners) {
                assertNull(l);
            }
        }
    }

    private static void awaitDelivered(BatcherMXBean m, long n) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (m.getDeliveredCount() < n && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }
}
