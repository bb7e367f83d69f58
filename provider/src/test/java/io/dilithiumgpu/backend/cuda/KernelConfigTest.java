package io.dilithiumgpu.backend.cuda;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KernelConfigTest {

    @Test
    void decodesTheWordsInAbiOrder() {
        KernelConfig c = KernelConfig.fromWords(new int[] {128, 4, 50_000, 2, 9000});
        assertEquals(new KernelConfig(128, 4, 50_000, 2, 9000), c);
        assertTrue(c.needsSharedOptIn());
        assertEquals(9000L * 7, c.workspaceBytes(7, 132));
    }

    @Test
    void sharedOptInStartsAbove48KiB() {
        assertFalse(new KernelConfig(32, 1, 48 * 1024, 0, 0).needsSharedOptIn());
        assertTrue(new KernelConfig(32, 1, 48 * 1024 + 1, 0, 0).needsSharedOptIn());
    }

    @Test
    void rejectsImpossibleConfigurations() {
        assertThrows(IllegalArgumentException.class, () -> KernelConfig.fromWords(new int[] {1, 1, 0, 0}));
        assertThrows(IllegalArgumentException.class, () -> new KernelConfig(0, 1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new KernelConfig(1025, 1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new KernelConfig(32, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new KernelConfig(32, 1, -1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new KernelConfig(32, 1, 0, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new KernelConfig(32, 1, 0, 0, -1));
    }

    @Test
    void oneBlockPerTasksPerBlockWithoutPersistence() {
        KernelConfig c = new KernelConfig(256, 4, 0, 0, 0);
        assertEquals(1, c.gridFor(1, 132));
        assertEquals(1, c.gridFor(4, 132));
        assertEquals(2, c.gridFor(5, 132));
        assertEquals(25_000, c.gridFor(100_000, 132));
    }

    @Test
    void persistentGridsStopAtKPerMultiprocessor() {
        KernelConfig c = new KernelConfig(128, 1, 0, 3, 0);
        assertEquals(10, c.gridFor(10, 132));
        assertEquals(396, c.gridFor(396, 132));
        assertEquals(396, c.gridFor(100_000, 132));
        assertEquals(3, c.gridFor(1_000, 1));
        assertThrows(IllegalArgumentException.class, () -> c.gridFor(0, 132));
        assertThrows(IllegalArgumentException.class, () -> c.gridFor(1, 0));
    }

    @Test
    void workspaceCoversOnlyTheWorkersALaunchHas() {
        KernelConfig c = new KernelConfig(128, 4, 0, 4, 1000);
        assertEquals(3, c.workersFor(3, 132));
        assertEquals(4 * 132 * 4, c.workersFor(100_000, 132));
        assertEquals(4L * 132 * 4 * 1000, c.workspaceBytes(100_000, 132));
        KernelConfig unbounded = new KernelConfig(128, 4, 0, 0, 1000);
        assertEquals(100_000, unbounded.workersFor(100_000, 132));
    }

    @Test
    void largeBatchesDoNotOverflow() {
        KernelConfig c = new KernelConfig(32, 1, 0, 0, Integer.MAX_VALUE);
        assertEquals(Integer.MAX_VALUE, c.gridFor(Integer.MAX_VALUE, 1));
        assertEquals(2L * Integer.MAX_VALUE, c.workspaceBytes(2, 1));
    }
}
