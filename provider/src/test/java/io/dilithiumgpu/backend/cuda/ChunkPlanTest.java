package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Operation;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The plan of a call, decided without a GPU: its chunks' bounds and every mode. */
class ChunkPlanTest {
    /** 3 slots of 64 tasks, chunks of at least 8, adaptive waits. */
    private static final CudaConfig SMALL = CudaConfig.builder().streamsPerDevice(3).slotTasks(64).minChunkTasks(8)
            .copyThreads(1).build();

    @Test
    void chunksCoverTheBatchAndFitTheSlots() {
        int[] sizes = {1, 2, 7, 63, 64, 65, 1000, 4095, 4096, 4097, 100_000};
        for (int n : sizes) {
            for (int slotTasks : new int[] {1, 64, 4096}) {
                for (int slots : new int[] {1, 2, 8}) {
                    int[] b = ChunkPlan.bounds(n, slotTasks, slots, 16);
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
        assertArrayEquals(new int[] {0, 100}, ChunkPlan.bounds(100, 8192, 4, 1024));
        assertArrayEquals(new int[] {0, 1024, 2048}, ChunkPlan.bounds(2048, 8192, 4, 1024));
        assertArrayEquals(new int[] {0, 2048, 4096, 6144, 8192}, ChunkPlan.bounds(8192, 8192, 4, 1024));
        assertEquals(13 + 1, ChunkPlan.bounds(100_000, 8192, 4, 1024).length);
    }

    @Test
    void noTasksNoChunks() {
        assertThrows(IllegalArgumentException.class, () -> ChunkPlan.bounds(0, 8, 1, 1));
        assertThrows(IllegalArgumentException.class,
                () -> ChunkPlan.of(0, Operation.SIGN, false, false, SMALL, 3, 0));
    }

    @Test
    void heapRecordsAreStagedAndRegisteredOnesCopiedDirectlyOrPublished() {
        for (Operation op : Operation.values()) {
            assertEquals(ChunkPlan.Transfer.STAGED, ChunkPlan.of(10, op, false, false, SMALL, 3, 0).transfer());
            assertEquals(op == Operation.SIGN ? ChunkPlan.Transfer.PUBLISHED : ChunkPlan.Transfer.DIRECT,
                    ChunkPlan.of(10, op, true, false, SMALL, 3, 0).transfer(), op.toString());
        }
    }

    @Test
    void onlyPublishedSigningWithAListenerTellsTasksEarly() {
        assertTrue(ChunkPlan.of(10, Operation.SIGN, true, true, SMALL, 3, 0).tellsEarly());
        assertFalse(ChunkPlan.of(10, Operation.SIGN, true, false, SMALL, 3, 0).tellsEarly(), "no listener");
        assertFalse(ChunkPlan.of(10, Operation.SIGN, false, true, SMALL, 3, 0).tellsEarly(), "heap arrays");
        assertFalse(ChunkPlan.of(10, Operation.VERIFY, true, true, SMALL, 3, 0).tellsEarly(), "not published");
        assertThrows(IllegalArgumentException.class,
                () -> new ChunkPlan(new int[] {0, 1}, ChunkPlan.Transfer.DIRECT, true, false, false, false));
    }

    @Test
    void aCallOfSeveralChunksUploadsInOrderAndRunsOnItsCaller() {
        ChunkPlan bulk = ChunkPlan.of(3 * 64, Operation.KEYGEN, false, false, SMALL, 3, 5);
        assertEquals(3, bulk.chunks());
        assertTrue(bulk.ordered());
        assertTrue(bulk.onCaller());
        assertFalse(bulk.sleep(), "a bulk call waits as the context says, however busy the slots");
        assertEquals(64, bulk.first(1));
        assertEquals(64, bulk.count(2));
        ChunkPlan lone = ChunkPlan.of(10, Operation.KEYGEN, false, false, SMALL, 3, 0);
        assertEquals(1, lone.chunks());
        assertFalse(lone.ordered(), "a lone chunk copies on its own slot's stream");
        assertFalse(lone.onCaller(), "a lone key generation or signing chunk goes to the workers");
        assertTrue(ChunkPlan.of(10, Operation.VERIFY, false, false, SMALL, 3, 0).onCaller(),
                "a lone verification chunk runs on its caller");
    }

    @Test
    void aLoneChunkSleepsOnlyWhileOtherChunksAreInFlightUnderAdaptiveWaits() {
        assertFalse(ChunkPlan.of(10, Operation.SIGN, true, true, SMALL, 3, 0).sleep(), "idle devices: spin");
        assertTrue(ChunkPlan.of(10, Operation.SIGN, true, true, SMALL, 3, 1).sleep(), "busy devices: sleep");
        CudaConfig blocking = SMALL.toBuilder().sync(CudaConfig.Sync.BLOCKING).build();
        assertFalse(ChunkPlan.of(10, Operation.SIGN, true, true, blocking, 3, 1).sleep(),
                "other waits leave it to the context's flag");
    }

    @Test
    void thePlanIsAValue() {
        ChunkPlan a = ChunkPlan.of(100, Operation.SIGN, true, true, SMALL, 3, 0);
        ChunkPlan b = ChunkPlan.of(100, Operation.SIGN, true, true, SMALL, 3, 0);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        int[] bounds = a.bounds();
        bounds[0] = 7;
        assertEquals(0, a.first(0), "the plan keeps its own bounds");
    }
}
