package io.dilithiumgpu.batch;

import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link BatchConfig} from properties, and {@link BackendPolicy} parsing. */
class BatchConfigTest {

    @Test
    void defaultsWhenNothingIsSet() {
        BatchConfig c = BatchConfig.fromProperties(new Properties());
        assertEquals(BackendPolicy.AUTO, c.backend());
        assertEquals(0, c.maxSize());
        assertEquals(BatchConfig.DEFAULT_MAX_DELAY_MICROS, c.maxDelayMicros());
        assertEquals(BatchConfig.DEFAULT_QUEUE_CAPACITY, c.queueCapacity());
        assertEquals(BatchConfig.DEFAULT_MAX_IN_FLIGHT, c.maxInFlight());
        assertTrue(c.hostBuffers());
        assertTrue(c.earlyDelivery());
        assertTrue(c.virtualCompletion());
        assertNull(c.jmxName());
    }

    @Test
    void everyPropertyIsRead() {
        Properties p = new Properties();
        p.setProperty("dilithiumgpu.backend", " CPU ");
        p.setProperty("dilithiumgpu.batch.maxSize", "512");
        p.setProperty("dilithiumgpu.batch.maxDelayMicros", "750");
        p.setProperty("dilithiumgpu.batch.queueCapacity", "4096");
        p.setProperty("dilithiumgpu.batch.maxInFlight", "8");
        BatchConfig c = BatchConfig.fromProperties(p);
        assertEquals(BackendPolicy.CPU, c.backend());
        assertEquals(512, c.maxSize());
        assertEquals(750, c.maxDelayMicros());
        assertEquals(4096, c.queueCapacity());
        assertEquals(8, c.maxInFlight());
    }

    /** What only benchmarks and tests change has no property: a stray one changes nothing. */
    @Test
    void internalSettingsComeFromTheBuilderOnly() {
        Properties p = new Properties();
        p.setProperty("dilithiumgpu.batch.hostBuffers", "false");
        p.setProperty("dilithiumgpu.batch.earlyDelivery", "false");
        p.setProperty("dilithiumgpu.batch.virtualCompletion", "false");
        BatchConfig c = BatchConfig.fromProperties(p);
        assertTrue(c.hostBuffers());
        assertTrue(c.earlyDelivery());
        assertTrue(c.virtualCompletion());
        BatchConfig built = BatchConfig.builder().hostBuffers(false).earlyDelivery(false).virtualCompletion(false)
                .build();
        assertFalse(built.hostBuffers());
        assertFalse(built.earlyDelivery());
        assertFalse(built.virtualCompletion());
    }

    @Test
    void invalidValuesNameTheirProperty() {
        for (String[] bad : new String[][] {
                {"dilithiumgpu.backend", "opencl"},
                {"dilithiumgpu.batch.maxSize", "-1"},
                {"dilithiumgpu.batch.maxDelayMicros", "soon"},
                {"dilithiumgpu.batch.queueCapacity", "0"},
                {"dilithiumgpu.batch.maxInFlight", "99999999999"}}) {
            Properties p = new Properties();
            p.setProperty(bad[0], bad[1]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> BatchConfig.fromProperties(p));
            assertTrue(e.getMessage().contains(bad[0]), e.getMessage());
        }
    }

    @Test
    void policiesPrintAsTheirPropertyValues() {
        for (BackendPolicy policy : BackendPolicy.values()) {
            assertEquals(policy, BackendPolicy.parse(policy.toString()));
        }
        assertEquals(BackendPolicy.CUDA_REQUIRED, BackendPolicy.parse(" CUDA-Required "));
        assertEquals("cuda-required", BackendPolicy.CUDA_REQUIRED.toString());
    }
}
