package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When the dispatcher runs without callers waking it for every arrival: a first task on an idle
 * batcher leaves at once, and a lane that fills while other batches run leaves when full, not
 * when due (here half an hour away, so a missed full lane fails by the timeout).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DispatcherWakeTest {
    private static final ParameterSet P = ParameterSet.ML_DSA_44;

    private static byte[] seed(int i) {
        byte[] s = new byte[ParameterSet.SEED_BYTES];
        s[0] = (byte) i;
        s[1] = (byte) (i >>> 8);
        return s;
    }

    @Test
    void aFullLaneLeavesWhileAnotherBatchRunsAndALoneTaskLeavesAtOnce() throws Exception {
        SpyBackend spy = new SpyBackend(new CpuBackend(1), "cpu", 8);
        Batcher b = new Batcher(BatchConfig.builder().maxInFlight(2).maxDelayMicros(Integer.MAX_VALUE)
                .build(), spy, null);
        try {
            spy.hold();
            CompletableFuture<byte[][]> lone = b.keyGen(P, seed(0));
            assertTrue(spy.awaitEntered(1), "a lone task on an idle batcher leaves at once");

            // One batch of two slots runs (held): the next is neither hungry nor due for half an hour.
            List<CompletableFuture<byte[][]>> full = new ArrayList<>();
            List<Thread> callers = new ArrayList<>();
            for (int i = 1; i <= 8; i++) {
                int n = i;
                Thread t = new Thread(() -> {
                    synchronized (full) {
                        full.add(b.keyGen(P, seed(n)));
                    }
                });
                t.start();
                callers.add(t);
            }
            for (Thread t : callers) {
                t.join();
            }
            assertTrue(spy.awaitEntered(1), "the full lane left before its due time");
            assertEquals(List.of(1, 8), spy.batchSizes);
            spy.release();
            assertEquals(2, lone.join().length);
            for (CompletableFuture<byte[][]> f : full) {
                assertEquals(2, f.join().length);
            }
        } finally {
            spy.release();
            b.close();
        }
    }
}
