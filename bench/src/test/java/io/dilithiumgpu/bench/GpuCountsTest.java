package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.cuda.CudaConfig;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GpuCountsTest {

    @Test
    void countsAndAllInTheOrderGiven() {
        GpuCounts c = GpuCounts.parse("1, all");
        assertEquals(List.of(1, GpuCounts.ALL), c.counts());
        assertEquals("1,all", c.toString());
        assertEquals(List.of(1, 2, 4), GpuCounts.parse("1,2,4").counts());
        assertEquals(List.of(GpuCounts.ALL), GpuCounts.parse("ALL").counts());
    }

    @Test
    void eachCountOpensTheFirstGpusAndAllOpensEvery() {
        GpuCounts c = GpuCounts.parse("1,all,3");
        CudaConfig base = CudaConfig.builder().streamsPerDevice(4).build();
        assertEquals(base.toBuilder().devices(List.of(0)).build(), c.config(0, base));
        assertEquals(base, c.config(1, base));
        assertEquals(List.of(0, 1, 2), c.config(2, base).devices());
        assertEquals(4, c.config(2, base).streamsPerDevice(), "the rest of the configuration is kept");
    }

    @Test
    void labels() {
        assertEquals("1 GPU", GpuCounts.label(1));
        assertEquals("2 GPUs", GpuCounts.label(2));
    }

    @Test
    void whatIsNoGpuCountIsRefusedByName() {
        for (String bad : new String[] {"0", "-1", "two", "", "1,,2", "99999"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GpuCounts.parse(bad), bad);
            assertTrue(e.getMessage().contains("not a GPU count"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> GpuCounts.parse("1,all,1"));
        assertThrows(IllegalArgumentException.class, () -> new GpuCounts(List.of()));
    }
}
