package io.dilithiumgpu.backend.cuda;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChunkTest {

    @Test
    void chunksCoverTheBatchAndFitTheSlots() {
        int[] sizes = {1, 2, 7, 63, 64, 65, 1000, 4095, 4096, 4097, 100_000};
        for (int n : sizes) {
            for (int slotTasks : new int[] {1, 64, 4096}) {
                for (int slots : new int[] {1, 2, 8}) {
                    int[] b = Chunk.bounds(n, slotTasks, slots, 16);
                    assertEquals(0, b[0]);
                    assertEquals(n, b[b.length - 1]);
                    int min = Integer.MAX_VALUE;
                    int max = 0;
                    for (int i = 0; i + 1 < b.length; i++) {
                        int size = b[i + 1] - b[i];
                        assertTrue(size >= 1 && size <= slotTasks, n + "/" + slotTasks + ": " + size);
                        min = Math.min(min, size);
                        max = Math.max(max, size);
                    }
                    assertTrue(max - min <= 1, "unbalanced chunks for n = " + n);
                }
            }
        }
    }

    @Test
    void batchesSpreadOverSlotsOnlyWhileChunksStayLarge() {
        assertArrayEquals(new int[] {0, 100}, Chunk.bounds(100, 8192, 4, 1024));
        assertArrayEquals(new int[] {0, 1024, 2048}, Chunk.bounds(2048, 8192, 4, 1024));
        assertArrayEquals(new int[] {0, 2048, 4096, 6144, 8192}, Chunk.bounds(8192, 8192, 4, 1024));
        assertEquals(13 + 1, Chunk.bounds(100_000, 8192, 4, 1024).length);
    }

    @Test
    void noTasksNoChunks() {
        assertThrows(IllegalArgumentException.class, () -> Chunk.bounds(0, 8, 1, 1));
    }
}
