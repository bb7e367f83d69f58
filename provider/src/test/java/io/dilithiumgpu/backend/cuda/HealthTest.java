package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HealthTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final Health health = new Health(Duration.ofSeconds(30), now::get);

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void healthyUntilAFailure() {
        assertTrue(health.healthy());
        assertDoesNotThrow(health::checkMayOpen);
    }

    @Test
    void refusesDuringTheDelayNamingTheFailure() {
        BackendException cause = new BackendException("CUDA error CUDA_ERROR_ILLEGAL_ADDRESS in cuStreamSynchronize");
        health.markFailed(cause);
        assertFalse(health.healthy());
        advance(Duration.ofSeconds(29));
        BackendException refused = assertThrows(BackendException.class, health::checkMayOpen);
        assertTrue(refused.getMessage().contains("CUDA_ERROR_ILLEGAL_ADDRESS"), refused.getMessage());
        assertTrue(refused.getMessage().contains("next attempt in 1000 ms"), refused.getMessage());
        assertSame(cause, refused.getCause());
        advance(Duration.ofSeconds(1));
        assertDoesNotThrow(health::checkMayOpen);
    }

    @Test
    void failuresInARowDoubleTheDelayUpToSixteenTimes() {
        long[] expectedSeconds = {30, 60, 120, 240, 480, 480, 480};
        for (long seconds : expectedSeconds) {
            health.markFailed(new BackendException("reopen failed"));
            assertEquals(Duration.ofSeconds(seconds), health.currentDelay());
            advance(Duration.ofSeconds(seconds).minusMillis(1));
            assertThrows(BackendException.class, health::checkMayOpen);
            advance(Duration.ofMillis(1));
            assertDoesNotThrow(health::checkMayOpen);
        }
    }

    @Test
    void aSuccessfulOpenResetsTheDelay() {
        health.markFailed(new BackendException("one"));
        health.markFailed(new BackendException("two"));
        assertEquals(Duration.ofSeconds(60), health.currentDelay());
        health.markHealthy();
        assertTrue(health.healthy());
        health.markFailed(new BackendException("three"));
        assertEquals(Duration.ofSeconds(30), health.currentDelay());
    }
}
