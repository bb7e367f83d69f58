package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class GpuTimeModelTest {
    private static final long MS = 1_000_000;

    @Test
    void anUnseenKernelGetsNoNap() {
        GpuTimeModel m = new GpuTimeModel();
        assertEquals(0, m.napNanos(ParameterSet.ML_DSA_44, Operation.SIGN, 1000, 0));
        m.record(ParameterSet.ML_DSA_44, Operation.SIGN, 1000, 4 * MS);
        assertEquals(0, m.napNanos(ParameterSet.ML_DSA_65, Operation.SIGN, 1000, 0));
        assertEquals(0, m.napNanos(ParameterSet.ML_DSA_44, Operation.VERIFY, 1000, 0));
    }

    @Test
    void napsHalfTheExpectedTimeLessWhatHasPassed() {
        GpuTimeModel m = new GpuTimeModel();
        m.record(ParameterSet.ML_DSA_44, Operation.SIGN, 1000, 4 * MS);
        assertEquals(2 * MS, m.napNanos(ParameterSet.ML_DSA_44, Operation.SIGN, 1000, 0));
        assertEquals(MS + MS / 2, m.napNanos(ParameterSet.ML_DSA_44, Operation.SIGN, 1000, MS / 2));
        // Smaller chunks nap in proportion, larger ones no longer than the average chunk.
        assertEquals(MS, m.napNanos(ParameterSet.ML_DSA_44, Operation.SIGN, 500, 0));
        assertEquals(2 * MS, m.napNanos(ParameterSet.ML_DSA_44, Operation.SIGN, 4000, 0));
    }

    @Test
    void shortNapsAreNotTaken() {
        GpuTimeModel m = new GpuTimeModel();
        m.record(ParameterSet.ML_DSA_87, Operation.VERIFY, 300, 150_000);
        assertEquals(0, m.napNanos(ParameterSet.ML_DSA_87, Operation.VERIFY, 300, 0));
        m.record(ParameterSet.ML_DSA_87, Operation.KEYGEN, 300, 4 * MS);
        assertEquals(0, m.napNanos(ParameterSet.ML_DSA_87, Operation.KEYGEN, 300, 2 * MS - 50_000));
    }

    @Test
    void theAverageFollowsRecentChunks() {
        GpuTimeModel m = new GpuTimeModel();
        m.record(ParameterSet.DILITHIUM2, Operation.SIGN, 1000, 8 * MS);
        for (int i = 0; i < 40; i++) {
            m.record(ParameterSet.DILITHIUM2, Operation.SIGN, 1000, 2 * MS);
        }
        long nap = m.napNanos(ParameterSet.DILITHIUM2, Operation.SIGN, 1000, 0);
        assertEquals(MS, nap, 1000);
    }
}
