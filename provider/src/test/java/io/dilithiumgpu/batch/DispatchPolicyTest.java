package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The readiness rules of {@link DispatchPolicy}, one by one, at fixed instants. */
class DispatchPolicyTest {
    private static final long DELAY = 1_000_000;
    private static final long T0 = 5_000_000_000L;
    private final DispatchPolicy policy = new DispatchPolicy(DELAY, 2, 100);
    private final Lane sign = new Lane(Operation.SIGN, ParameterSet.ML_DSA_65, 4, 1);
    private final Lane verify = new Lane(Operation.VERIFY, ParameterSet.ML_DSA_65, 4, 1);
    private final Lane[] lanes = {sign, verify};

    private static void queue(Lane lane, long at, int count) {
        for (int i = 0; i < count; i++) {
            Task<Boolean> t = new VerifyBatch.Request(new byte[0], new byte[0], new byte[0]);
            t.enqueuedNanos = at;
            lane.add(t);
        }
    }

    @Test
    void nothingQueuedMeansNothingToDoAndNoDeadline() {
        assertNull(policy.next(lanes, T0, 0, 0, false));
        assertEquals(Long.MAX_VALUE, policy.nanosUntilDue(lanes, T0));
    }

    @Test
    void aRequestOnAnIdleProviderGoesAtOnce() {
        queue(sign, T0, 1);
        assertSame(sign, policy.next(lanes, T0, 0, 1, false));
    }

    @Test
    void anIdleLaneWaitsWhileAnotherLaneKeepsTheBackendBusy() {
        queue(sign, T0, 1);
        assertNull(policy.next(lanes, T0, 1, 1, false), "a free slot, but the provider is not idle");
        assertSame(sign, policy.next(lanes, T0 + DELAY, 1, 1, false), "due");
    }

    @Test
    void aHungryBackendTakesTheNextBatchAtOnce() {
        DispatchPolicy eight = new DispatchPolicy(DELAY, 8, 100);
        queue(sign, T0, 3);
        assertSame(sign, eight.next(lanes, T0, 3, 3, false), "3 of 8 in flight: hungry");
        assertNull(eight.next(lanes, T0, 4, 3, false), "4 of 8 in flight: waits until due or full");
        assertSame(sign, eight.next(lanes, T0 + DELAY, 4, 3, false), "due");
        assertNull(eight.next(lanes, T0 + DELAY, 8, 3, false), "no free slot");
    }

    @Test
    void aBusyLaneWaitsUntilFullOrDue() {
        queue(sign, T0, 3);
        assertNull(policy.next(lanes, T0 + DELAY - 1, 1, 3, false));
        assertEquals(1, policy.nanosUntilDue(lanes, T0 + DELAY - 1));
        assertSame(sign, policy.next(lanes, T0 + DELAY, 1, 3, false));
        queue(sign, T0 + 10, 1);
        assertSame(sign, policy.next(lanes, T0 + 10, 1, 4, false), "full");
    }

    @Test
    void noFreeSlotHoldsEverything() {
        queue(sign, T0, 4);
        queue(verify, T0, 1);
        assertNull(policy.next(lanes, T0 + 10 * DELAY, 2, 5, true));
    }

    @Test
    void backlogAndDrainingMakeEveryLaneReady() {
        queue(sign, T0, 1);
        assertNull(policy.next(lanes, T0, 1, 1, false));
        assertSame(sign, policy.next(lanes, T0, 1, 100, false), "backlog");
        assertSame(sign, policy.next(lanes, T0, 1, 1, true), "draining");
    }

    @Test
    void theOldestReadyLaneGoesFirst() {
        queue(sign, T0 + 5, 1);
        queue(verify, T0, 1);
        assertSame(verify, policy.next(lanes, T0 + 5, 0, 2, false));
        assertEquals(DELAY, policy.nanosUntilDue(lanes, T0));
    }
}
