package io.dilithiumgpu.batch;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BatcherStatsTest {
    private static BatcherStats stats() {
        return new BatcherStats("test", BatchConfig.builder().build(), 1, () -> 0, () -> 0);
    }

    @Test
    void theFirstWakeUpsAllCountThenASampleWithTheSameMean() {
        BatcherStats s = stats();
        for (int i = 0; i < BatcherStats.EVERY_WAKE; i++) {
            s.callerWoke(100);
        }
        assertEquals(BatcherStats.EVERY_WAKE, s.getCallerWakeCount());
        assertEquals(100L * BatcherStats.EVERY_WAKE, s.getCallerWakeNanos());

        int more = 64_000;
        for (int i = 0; i < more; i++) {
            s.callerWoke(300);
        }
        long sampled = s.getCallerWakeCount() - BatcherStats.EVERY_WAKE;
        // Binomial(64,000, 1/16): mean 4,000, standard deviation 61; the bounds are 16 of them away.
        assertTrue(sampled > 3_000 && sampled < 5_000, "one in " + BatcherStats.WAKE_SAMPLE + " counted: " + sampled);
        assertEquals(300L * sampled, s.getCallerWakeNanos() - 100L * BatcherStats.EVERY_WAKE,
                "a counted wake-up adds its own time");
    }
}
