package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;

import static io.dilithiumgpu.batch.Fixtures.keys;
import static io.dilithiumgpu.batch.Fixtures.message;
import static io.dilithiumgpu.batch.Fixtures.mu;
import static io.dilithiumgpu.batch.Fixtures.rnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared engine (one per process, visible over JMX) and the backend policies. */
@Timeout(60)
class EnginesTest {

    @Test
    void theSharedEngineIsOneBatcherPublishedAsAnMBean() throws Exception {
        Engine e = Engines.shared();
        assertSame(e, Engines.shared());
        assertSame(e, Engines.sharedBatcher());
        ParameterSet p = ParameterSet.ML_DSA_87;
        Fixtures.KeyPair kp = keys(p);
        long before = Engines.sharedBatcher().metrics().getOperationCount();
        byte[] sig = e.sign(p, kp.sk, mu(p, kp.tr, message(5)), rnd(p, 5)).join();
        assertTrue(Fixtures.referenceVerifies(p, kp.pk, message(5), sig));

        ObjectName name = new ObjectName(Engines.MBEAN_NAME);
        assertEquals(Engines.sharedBatcher().metrics().getBackend(),
                ManagementFactory.getPlatformMBeanServer().getAttribute(name, "Backend"));
        long after = (Long) ManagementFactory.getPlatformMBeanServer().getAttribute(name, "OperationCount");
        assertEquals(before + 1, after);
    }

    @Test
    void cpuIsAlwaysTheCpuAndCudaFallsBackToItWithAReason() {
        for (BackendPolicy policy : BackendPolicy.values()) {
            BackendSelector.Selection s;
            try {
                s = BackendSelector.select(policy);
            } catch (BackendException strict) {
                assertEquals(BackendPolicy.CUDA_REQUIRED, policy, strict.getMessage());
                assertTrue(strict.getMessage().startsWith("dilithiumgpu.backend=cuda-required and CUDA is unavailable: "),
                        strict.getMessage());
                continue;
            }
            try {
                assertTrue(s.reason().startsWith("dilithiumgpu.backend=" + policy), s.reason());
                if (policy == BackendPolicy.CPU) {
                    assertEquals("cpu", s.primary().name());
                    assertFalse(s.degraded());
                } else if (s.primary().name().equals("cuda")) {
                    assertFalse(s.degraded());
                    assertNull(s.cudaUnavailable());
                    assertFalse(s.devices().isEmpty());
                    if (policy == BackendPolicy.CUDA_REQUIRED) {
                        assertNull(s.fallback(), "strict mode reruns nothing on the CPU");
                    } else {
                        assertNotNull(s.fallback(), "a GPU needs the CPU fallback");
                    }
                } else {
                    assertEquals("cpu", s.primary().name());
                    assertTrue(s.reason().contains("because CUDA is unavailable: "), s.reason());
                    assertEquals(policy == BackendPolicy.CUDA, s.degraded());
                    assertNull(s.fallback());
                    assertTrue(s.reason().endsWith(s.cudaUnavailable()), s.reason());
                }
            } finally {
                s.primary().close();
            }
        }
    }
}
