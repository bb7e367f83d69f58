package io.dilithiumgpu.batch;

import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.security.ProviderException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class CompletionTest {
    private static final ParameterSet P = ParameterSet.ML_DSA_44;

    private static VerifyBatch.Request request() {
        return new VerifyBatch.Request(new byte[P.publicKeyBytes()], new byte[ParameterSet.MU_BYTES],
                new byte[P.signatureBytes()]);
    }

    private static BatcherStats stats() {
        return new BatcherStats("test", BatchConfig.builder().build(), 1, () -> 0, () -> 0);
    }

    @Test
    void slicesOfAtLeastSliceTasksAndAtMostOnePerCore() {
        assertEquals(1, Completion.slicesOf(0, 16));
        assertEquals(1, Completion.slicesOf(1, 16));
        assertEquals(1, Completion.slicesOf(Completion.SLICE, 16));
        assertEquals(2, Completion.slicesOf(Completion.SLICE + 1, 16));
        assertEquals(7, Completion.slicesOf(400, 16));
        assertEquals(2, Completion.slicesOf(400, 2));
        assertEquals(1, Completion.slicesOf(400, 1));
    }

    @Test
    void everyTaskOfEverySliceIsDeliveredOnceAndTheBatchCountedOnceAtTheEnd() throws Exception {
        int n = 3 * Completion.SLICE + 5;
        VerifyBatch.Request[] tasks = new VerifyBatch.Request[n];
        for (int i = 0; i < n; i++) {
            tasks[i] = request();
            if (i == 7) {
                tasks[i].future.cancel(false);   // withdrawn by its caller before its batch ran: nothing staged
            } else if (i % 10 == 3) {
                tasks[i].fail(new ProviderException("task " + i));
            } else {
                tasks[i].succeed(i % 2 == 0);
            }
        }
        BatcherStats stats = stats();
        Completion c = new Completion(stats, tasks, System.nanoTime(), 0, 0, 0, 0, System.nanoTime(), 2, 0,
                Completion.slicesOf(n, 16));
        assertEquals(4, c.slices());
        for (int s = c.slices() - 1; s >= 0; s--) {
            assertEquals(0, stats.getDeliveredCount(), "counted only when the last slice ends");
            c.deliverSlice(s);
        }
        assertEquals(n - 1 + 2, stats.getDeliveredCount(), "every live task, plus the two delivered early");
        for (int i = 0; i < n; i++) {
            assertTrue(tasks[i].future.isDone());
            if (i == 7) {
                assertTrue(tasks[i].future.isCancelled());
            } else if (i % 10 == 3) {
                assertTrue(tasks[i].future.isCompletedExceptionally());
            } else {
                assertEquals(i % 2 == 0, tasks[i].future.join());
            }
        }
        assertFalse(tasks[0].future.isCompletedExceptionally());
        assertThrows(Exception.class, () -> tasks[3].future.get());
    }
}
