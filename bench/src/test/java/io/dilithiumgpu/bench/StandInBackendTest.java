package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class StandInBackendTest {
    private static final ParameterSet P = ParameterSet.ML_DSA_44;

    /** Runs n signing tasks on {@code backend} in host buffers, telling {@code told} of each as the backend says. */
    private static byte[] sign(StandInBackend backend, int n, AtomicIntegerArray told, List<Integer> order) {
        byte[] status = new byte[n];
        Arrays.fill(status, (byte) -1);
        try (HostBuffer sks = backend.allocateHost((long) n * P.privateKeyBytes());
             HostBuffer mus = backend.allocateHost((long) n * ParameterSet.MU_BYTES);
             HostBuffer rnds = backend.allocateHost((long) n * P.rndBytes());
             HostBuffer sigs = backend.allocateHost((long) n * P.signatureBytes())) {
            backend.run(BatchRecords.sign(P, n, sks, mus, rnds, sigs, status).withListener((task, code) -> {
                assertEquals(TaskStatus.OK, code);
                assertEquals(TaskStatus.OK, status[task], "the status is final when the task is told");
                told.incrementAndGet(task);
                order.add(task);
            }));
        }
        return status;
    }

    @Test
    void signingLoopsTellEachTaskOnceAsItEnds() {
        StandInBackend loops = StandInBackend.signingLoops(64, 4, 0, 1_000, 4.25, true);
        assertTrue(loops.prefersHostBuffers(), "its batches come in host buffers, with a listener");
        int n = 50;
        AtomicIntegerArray told = new AtomicIntegerArray(n);
        List<Integer> order = new ArrayList<>();
        byte[] status = sign(loops, n, told, order);
        for (int i = 0; i < n; i++) {
            assertEquals(TaskStatus.OK, status[i], "status of task " + i);
            assertEquals(1, told.get(i), "task " + i + " told once");
        }
        assertEquals(n, order.size());
    }

    @Test
    void untoldLoopsLeaveEveryOutcomeToTheStatusBytes() {
        StandInBackend untold = StandInBackend.signingLoops(64, 4, 0, 1_000, 4.25, false);
        int n = 20;
        AtomicIntegerArray told = new AtomicIntegerArray(n);
        byte[] status = sign(untold, n, told, new ArrayList<>());
        for (int i = 0; i < n; i++) {
            assertEquals(TaskStatus.OK, status[i], "status of task " + i);
            assertEquals(0, told.get(i), "task " + i + " never told");
        }
    }

    @Test
    void aFixedBatchTimeTellsNobodyAndTakesArrays() {
        StandInBackend fixed = new StandInBackend(64, 4, 1_000);
        assertFalse(fixed.prefersHostBuffers());
        int n = 5;
        byte[] status = new byte[n];
        fixed.run(BatchRecords.verify(P, n, new byte[n * P.publicKeyBytes()], new byte[n * ParameterSet.MU_BYTES],
                new byte[n * P.signatureBytes()], status));
        for (byte s : status) {
            assertEquals(TaskStatus.OK, s);
        }
    }

    @Test
    void aModelWithoutTimeOrAttemptsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> StandInBackend.signingLoops(64, 4, 0, 0, 4.25, true));
        assertThrows(IllegalArgumentException.class, () -> StandInBackend.signingLoops(64, 4, 0, 1_000, 0.5, true));
    }
}
