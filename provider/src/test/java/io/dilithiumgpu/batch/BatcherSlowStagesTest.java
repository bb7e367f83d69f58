package io.dilithiumgpu.batch;

import static io.dilithiumgpu.batch.Fixtures.keys;
import static io.dilithiumgpu.batch.Fixtures.message;
import static io.dilithiumgpu.batch.Fixtures.mu;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Scheme;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Dependent stages attached without an executor run where the futures complete. When they are
 * slow, the batcher must not start a thread for every further batch: batches being completed
 * beyond {@code maxInFlight} of them hold back the next batch (issue 21: 378 batch threads with
 * {@code maxInFlight} 4 on JDK 17).
 */
class BatcherSlowStagesTest {
    private static final int MAX_IN_FLIGHT = 2;
    /** Batches running plus batches completing: maxInFlight each. */
    private static final int BOUND = 2 * MAX_IN_FLIGHT;
    private static final int TASKS = 16;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    @Timeout(120)
    void slowDependentStagesHoldBackNewBatchesInsteadOfMultiplyingThreads(boolean virtualCompletion)
            throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_44;
        Fixtures.KeyPair kp = keys(p);
        byte[] sig = new byte[p.signatureBytes()];
        byte[] rnd = new byte[p.rndBytes()];
        byte[] mu = mu(p, kp.tr, message(0));
        assertTrue(Scheme.sign(p, kp.sk, 0, mu, 0, rnd, 0, sig, 0));

        SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 1);
        Set<Thread> before = dispatchers();
        Batcher b = new Batcher(BatchConfig.builder().maxInFlight(MAX_IN_FLIGHT).maxSize(1)
                .virtualCompletion(virtualCompletion).build(), spy, null);
        Thread dispatcher = only(dispatchers(), before);
        Semaphore proceed = new Semaphore(0);
        try {
            AtomicInteger running = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            AtomicInteger finished = new AtomicInteger();
            // Every future gets its stage before any can complete: the backend holds the first batches.
            spy.hold();
            List<CompletableFuture<Void>> stages = new ArrayList<>();
            for (int i = 0; i < TASKS; i++) {
                stages.add(b.verify(p, kp.pk, mu, sig).thenAccept(valid -> {
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    proceed.acquireUninterruptibly();
                    running.decrementAndGet();
                    finished.incrementAndGet();
                }));
            }
            assertTrue(spy.awaitEntered(1));
            spy.release();

            while (finished.get() < TASKS) {
                int left = TASKS - finished.get();
                // Wait until the batcher can start nothing more: the stages it may run are all
                // blocked and, while tasks still queue, its dispatcher parks with no batch running.
                while (most.get() <= BOUND && !(running.get() == Math.min(BOUND, left)
                        && (left <= BOUND || stalled(b, dispatcher)))) {
                    Thread.onSpinWait();
                }
                assertTrue(most.get() <= BOUND, most.get() + " stages ran at once; at most " + BOUND
                        + " batches may be completing or running");
                int done = finished.get();
                proceed.release();
                while (finished.get() == done) {
                    Thread.onSpinWait();
                }
            }
            for (CompletableFuture<Void> stage : stages) {
                stage.join();
            }
            assertEquals(BOUND, most.get(), "the bound is reached, not undershot");
        } finally {
            proceed.release(TASKS);  // close() waits for every stage
            b.close();
        }
    }

    /** Tasks queue, no batch runs, and the dispatcher parks without a deadline. */
    private static boolean stalled(Batcher b, Thread dispatcher) {
        return dispatcher.getState() == Thread.State.WAITING && b.metrics().getQueueDepth() > 0
                && b.metrics().getBatchesInFlight() == 0;
    }

    private static Set<Thread> dispatchers() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("dilithiumgpu-dispatch-"))
                .collect(Collectors.toSet());
    }

    private static Thread only(Set<Thread> after, Set<Thread> before) {
        List<Thread> fresh = after.stream().filter(t -> !before.contains(t)).collect(Collectors.toList());
        assertEquals(1, fresh.size(), "one new dispatcher thread: " + fresh);
        return fresh.get(0);
    }
}
