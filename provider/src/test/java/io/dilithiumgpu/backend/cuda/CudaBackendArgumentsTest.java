package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Argument checks and the closed state, which come before any device is touched (no GPU needed). */
class CudaBackendArgumentsTest {
    private static final ParameterSet P = ParameterSet.ML_DSA_44;

    private static CudaBackend unopened() {
        return new CudaBackend(CudaConfig.defaults(), System::nanoTime);
    }

    @Test
    void shortArraysAreRejectedNamingTheArray() {
        CudaBackend b = unopened();
        int n = 3;
        byte[] status = new byte[n];
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.run(BatchRecords.sign(P, n,
                new byte[n * P.privateKeyBytes()], new byte[n * 64], new byte[n * P.rndBytes() - 1],
                new byte[n * P.signatureBytes()], status)));
        assertTrue(e.getMessage().startsWith("rnds holds"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.run(BatchRecords.verify(P, n,
                new byte[n * P.publicKeyBytes()],
                new byte[n * 64], new byte[n * P.signatureBytes()], new byte[n - 1])));
        assertTrue(e.getMessage().startsWith("status holds"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.run(BatchRecords.keyGen(P, n, new byte[n * 32],
                new byte[n * P.publicKeyBytes()], new byte[1], status)));
        assertTrue(e.getMessage().startsWith("privateKeys holds"), e.getMessage());
    }

    @Test
    void negativeCountsAreRejected() {
        CudaBackend b = unopened();
        assertThrows(IllegalArgumentException.class, () -> b.run(BatchRecords.keyGen(P, -1, new byte[0], new byte[0],
                new byte[0], new byte[0])));
    }

    @Test
    void anEmptyBatchNeedsNoDevice() {
        CudaBackend b = unopened();
        assertDoesNotThrow(() -> b.run(BatchRecords.verify(P, 0, new byte[0], new byte[0], new byte[0], new byte[0])));
        assertEquals("cuda", b.name());
    }

    @Test
    void aClosedBackendRefusesWork() {
        CudaBackend b = unopened();
        b.close();
        b.close();
        BackendException e = assertThrows(BackendException.class, () -> b.run(BatchRecords.keyGen(P, 1, new byte[32],
                new byte[P.publicKeyBytes()], new byte[P.privateKeyBytes()], new byte[1])));
        assertEquals("CUDA backend closed", e.getMessage());
        assertEquals("closed", b.description());
    }
}
