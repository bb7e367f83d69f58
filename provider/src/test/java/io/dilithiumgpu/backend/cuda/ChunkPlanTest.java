package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Operation;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

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
    private static final CudaConfig DEFAULTS = CudaConfig.defaults();

    /** One device of 3 slots with {@code inFlight} chunks of other calls. */
    private static DeviceLoads oneDevice(int inFlight) {
        return new DeviceLoads(new int[] {3}, new int[] {inFlight}, 0);
    }

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
                    int[] t = ChunkPlan.bounds(n, slotTasks, slots, 16, true);
                    assertEquals(b.length, t.length, "a short tail keeps the count of chunks");
                    assertEquals(n, t[t.length - 1]);
                    assertTrue(t.length == 2 || isShortTail(t, slotTasks) || Arrays.equals(b, t),
                            n + "/" + slotTasks + "/" + slots + ": " + Arrays.toString(t));
                }
            }
        }
    }

    /**
     * Whether chunks {@code b} are balanced but for a last chunk of half the others' tasks (twice
     * it is within [0, 2] of each other chunk), all of them within {@code slotTasks}.
     */
    private static boolean isShortTail(int[] b, int slotTasks) {
        int chunks = b.length - 1;
        int last = b[chunks] - b[chunks - 1];
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (int i = 0; i < chunks - 1; i++) {
            int size = b[i + 1] - b[i];
            if (size > slotTasks || 2 * last - size < 0 || 2 * last - size > 2) {
                return false;
            }
            min = Math.min(min, size);
            max = Math.max(max, size);
        }
        return b[0] == 0 && last >= 1 && max - min <= 1;
    }

    @Test
    void aVerificationsLastChunkIsHalfTheOthers() {
        ChunkPlan verify = ChunkPlan.of(10_000, Operation.VERIFY, true, false, DEFAULTS, DeviceLoads.idle(32));
        ChunkPlan sign = ChunkPlan.of(10_000, Operation.SIGN, true, false, DEFAULTS, DeviceLoads.idle(32));
        assertArrayEquals(new int[] {0, 1176, 2352, 3529, 4705, 5882, 7058, 8235, 9411, 10_000}, verify.bounds());
        assertTrue(isShortTail(verify.bounds(), DEFAULTS.slotTasks()));
        assertEquals(9, sign.chunks());
        for (int c = 0; c < sign.chunks(); c++) {
            assertTrue(sign.count(c) == 1_111 || sign.count(c) == 1_112, "signing keeps equal chunks: " + sign);
        }
        assertArrayEquals(new int[] {0, 1_000}, ChunkPlan.of(1_000, Operation.VERIFY, true, false, DEFAULTS,
                DeviceLoads.idle(32)).bounds(), "one chunk: no tail");
        // 4 slots, chunks of 2,048 at most: 3 of 2,341 would not fit the slots, so the chunks stay equal.
        assertArrayEquals(ChunkPlan.bounds(8_192, 2_048, 4, 1_024), ChunkPlan.bounds(8_192, 2_048, 4, 1_024, true));
        assertTrue(isShortTail(ChunkPlan.bounds(7_000, 2_048, 32, 1_024, true), 2_048));
    }

    @Test
    void aOneKeySigningCallOnRegisteredMemoryIsOneChunkPerDevice() {
        ChunkPlan one = ChunkPlan.of(10_000, Operation.SIGN, true, false, DEFAULTS, DeviceLoads.idle(32), true);
        assertArrayEquals(new int[] {0, 10_000}, one.bounds(), "more tasks than a slot, in one launch");
        assertEquals(ChunkPlan.Transfer.PUBLISHED, one.transfer());
        ChunkPlan twoGpus = ChunkPlan.of(20_000, Operation.SIGN, true, false, DEFAULTS, DeviceLoads.idle(32, 32), true);
        assertArrayEquals(new int[] {0, 10_000, 20_000}, twoGpus.bounds());
        assertArrayEquals(new int[] {0, 1}, twoGpus.devices(), "a chunk per GPU");
        int most = KeyedLayout.publishedTasks(BatchLayout.capacityBytes(DEFAULTS.slotTasks()));
        assertTrue(most >= 16 * DEFAULTS.slotTasks(), most + " tasks in a slot's block");
        ChunkPlan huge = ChunkPlan.of(2 * most + 1, Operation.SIGN, true, false, DEFAULTS, DeviceLoads.idle(32), true);
        assertEquals(3, huge.chunks(), "cut only where a slot's block cannot hold the statuses and inputs");
        for (int c = 0; c < huge.chunks(); c++) {
            assertTrue(huge.count(c) <= most, "chunk " + c + ": " + huge.count(c));
            assertFalse(huge.aloneOnDevice(huge.first(c)), "chunk " + c + " shares its device");
        }
        assertTrue(one.aloneOnDevice(0));
        assertTrue(twoGpus.aloneOnDevice(0) && twoGpus.aloneOnDevice(10_000), "each GPU's whole share");
        assertThrows(IllegalArgumentException.class, () -> one.aloneOnDevice(1));
        assertEquals(9, ChunkPlan.of(10_000, Operation.SIGN, true, false, DEFAULTS, DeviceLoads.idle(32)).chunks(),
                "signing with a key per task: slot-sized chunks");
    }

    @Test
    void aOneKeyVerificationIsCutIntoWholeSlots() {
        ChunkPlan one = ChunkPlan.of(10_000, Operation.VERIFY, true, false, DEFAULTS, DeviceLoads.idle(32), true);
        assertArrayEquals(new int[] {0, 2_000, 4_000, 6_000, 8_000, 10_000}, one.bounds());
        ChunkPlan fourGpus = ChunkPlan.of(40_000, Operation.VERIFY, true, false, DEFAULTS,
                DeviceLoads.idle(32, 32, 32, 32), true);
        assertEquals(20, fourGpus.chunks());
        for (int c = 0; c < fourGpus.chunks(); c++) {
            assertEquals(2_000, fourGpus.count(c));
            assertEquals(c / 5, fourGpus.device(c), "five chunks per GPU, each GPU's adjacent");
        }
        assertEquals(9, ChunkPlan.of(10_000, Operation.SIGN, false, false, DEFAULTS, DeviceLoads.idle(32), true)
                .chunks(), "one-key signing on heap arrays, staged through the slots: its chunks stay as they were");
        assertArrayEquals(new int[] {0, 1_500}, ChunkPlan.of(1_500, Operation.VERIFY, true, false, DEFAULTS,
                DeviceLoads.idle(32), true).bounds());
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
                () -> ChunkPlan.of(0, Operation.SIGN, false, false, SMALL, oneDevice(0)));
    }

    @Test
    void heapRecordsAreStagedAndRegisteredOnesCopiedDirectlyOrPublished() {
        for (Operation op : Operation.values()) {
            assertEquals(ChunkPlan.Transfer.STAGED, ChunkPlan.of(10, op, false, false, SMALL, oneDevice(0)).transfer());
            assertEquals(op == Operation.SIGN ? ChunkPlan.Transfer.PUBLISHED : ChunkPlan.Transfer.DIRECT,
                    ChunkPlan.of(10, op, true, false, SMALL, oneDevice(0)).transfer(), op.toString());
        }
    }

    @Test
    void onlyPublishedSigningWithAListenerTellsTasksEarly() {
        assertTrue(ChunkPlan.of(10, Operation.SIGN, true, true, SMALL, oneDevice(0)).tellsEarly());
        assertFalse(ChunkPlan.of(10, Operation.SIGN, true, false, SMALL, oneDevice(0)).tellsEarly(), "no listener");
        assertFalse(ChunkPlan.of(10, Operation.SIGN, false, true, SMALL, oneDevice(0)).tellsEarly(), "heap arrays");
        assertFalse(ChunkPlan.of(10, Operation.VERIFY, true, true, SMALL, oneDevice(0)).tellsEarly(), "not published");
        assertThrows(IllegalArgumentException.class,
                () -> new ChunkPlan(new int[] {0, 1}, new int[] {0}, ChunkPlan.Transfer.DIRECT, true, false, false));
    }

    @Test
    void aCallOfSeveralChunksUploadsInOrder() {
        ChunkPlan bulk = ChunkPlan.of(3 * 64, Operation.KEYGEN, false, false, SMALL, oneDevice(5));
        assertEquals(3, bulk.chunks());
        assertTrue(bulk.ordered());
        assertFalse(bulk.sleep(), "a bulk call waits as the context says, however busy the slots");
        assertEquals(64, bulk.first(1));
        assertEquals(64, bulk.count(2));
        ChunkPlan lone = ChunkPlan.of(10, Operation.KEYGEN, false, false, SMALL, oneDevice(0));
        assertEquals(1, lone.chunks());
        assertFalse(lone.ordered(), "a lone chunk copies on its own slot's stream");
    }

    @Test
    void aLoneChunkSleepsOnlyWhileOtherChunksAreInFlightUnderAdaptiveWaits() {
        assertFalse(ChunkPlan.of(10, Operation.SIGN, true, true, SMALL, oneDevice(0)).sleep(), "idle devices: spin");
        assertTrue(ChunkPlan.of(10, Operation.SIGN, true, true, SMALL, oneDevice(1)).sleep(), "busy devices: sleep");
        CudaConfig blocking = SMALL.toBuilder().sync(CudaConfig.Sync.BLOCKING).build();
        assertFalse(ChunkPlan.of(10, Operation.SIGN, true, true, blocking, oneDevice(1)).sleep(),
                "other waits leave it to the context's flag");
    }

    @Test
    void thePlanIsAValue() {
        ChunkPlan a = ChunkPlan.of(100, Operation.SIGN, true, true, SMALL, oneDevice(0));
        ChunkPlan b = ChunkPlan.of(100, Operation.SIGN, true, true, SMALL, oneDevice(0));
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        int[] bounds = a.bounds();
        bounds[0] = 7;
        assertEquals(0, a.first(0), "the plan keeps its own bounds");
    }

    /** Tasks of {@code plan} per device, indexed by device. */
    private static int[] tasksPerDevice(ChunkPlan plan, int devices) {
        int[] tasks = new int[devices];
        for (int c = 0; c < plan.chunks(); c++) {
            tasks[plan.device(c)] += plan.count(c);
        }
        return tasks;
    }

    @Test
    void aBulkCallGivesEveryDeviceWhatOneDeviceGetsAlone() {
        ChunkPlan alone = ChunkPlan.of(10_000, Operation.VERIFY, true, false, DEFAULTS, DeviceLoads.idle(32));
        ChunkPlan both = ChunkPlan.of(20_000, Operation.VERIFY, true, false, DEFAULTS, DeviceLoads.idle(32, 32));
        assertEquals(9, alone.chunks());
        assertEquals(2 * alone.chunks(), both.chunks());
        assertArrayEquals(new int[] {10_000, 10_000}, tasksPerDevice(both, 2));
        for (int c = 0; c < alone.chunks(); c++) {
            assertEquals(alone.count(c), both.count(c), "chunk " + c);
            assertEquals(alone.count(c), both.count(alone.chunks() + c), "chunk " + c + " of the second device");
            assertEquals(both.device(0), both.device(c));
            assertEquals(both.device(alone.chunks()), both.device(alone.chunks() + c));
        }
        assertTrue(both.device(0) != both.device(alone.chunks()), "both devices used");
        assertTrue(both.ordered());
    }

    @Test
    void aBatchSplitOverTwoDevicesIsSplitEvenly() {
        ChunkPlan split = ChunkPlan.of(10_000, Operation.KEYGEN, true, false, DEFAULTS, DeviceLoads.idle(32, 32));
        assertArrayEquals(new int[] {5_000, 5_000}, tasksPerDevice(split, 2));
        assertEquals(8, split.chunks());
        for (int c = 0; c < split.chunks(); c++) {
            assertEquals(1_250, split.count(c));
        }
        int odd = 10_001;
        assertArrayEquals(new int[] {odd - odd / 2, odd / 2},
                tasksPerDevice(ChunkPlan.of(odd, Operation.KEYGEN, true, false, DEFAULTS,
                        new DeviceLoads(new int[] {32, 32}, new int[] {0, 0}, 1)), 2),
                "the rotation's device takes the first share");
    }

    @Test
    void everyPlanCoversTheCallWithEachDevicesChunksAdjacentAndSharesEven() {
        for (int devices = 1; devices <= 4; devices++) {
            for (int slots : new int[] {1, 3, 32}) {
                int[] perDevice = new int[devices];
                java.util.Arrays.fill(perDevice, slots);
                for (int n : new int[] {1, 7, 8, 15, 16, 64, 65, 100, 191, 192, 1000, 4097}) {
                    for (int rotation = 0; rotation < devices; rotation++) {
                        ChunkPlan plan = ChunkPlan.of(n, Operation.SIGN, true, false, SMALL,
                                new DeviceLoads(perDevice, new int[devices], rotation));
                        String what = n + " tasks on " + devices + " devices of " + slots + " slots: " + plan;
                        assertEquals(0, plan.first(0), what);
                        assertEquals(n, plan.first(plan.chunks() - 1) + plan.count(plan.chunks() - 1), what);
                        boolean[] done = new boolean[devices];
                        int min = Integer.MAX_VALUE;
                        int max = 0;
                        for (int c = 0; c < plan.chunks(); c++) {
                            assertTrue(plan.count(c) >= 1 && plan.count(c) <= SMALL.slotTasks(), what);
                            int d = plan.device(c);
                            if (c > 0 && plan.device(c - 1) != d) {
                                assertFalse(done[d], "chunks of device " + d + " not adjacent: " + what);
                                done[plan.device(c - 1)] = true;
                            }
                        }
                        int used = 0;
                        for (int tasks : tasksPerDevice(plan, devices)) {
                            if (tasks > 0) {
                                used++;
                                min = Math.min(min, tasks);
                                max = Math.max(max, tasks);
                            }
                        }
                        assertTrue(max - min <= 1, "uneven shares: " + what);
                        assertEquals(Math.min(devices, plan.chunks()), used, "devices used: " + what);
                    }
                }
            }
        }
    }

    @Test
    void aLoneChunkGoesToTheLeastLoadedDevice() {
        ChunkPlan lone = ChunkPlan.of(100, Operation.SIGN, true, true, DEFAULTS,
                new DeviceLoads(new int[] {32, 32, 32}, new int[] {4, 1, 2}, 0));
        assertArrayEquals(new int[] {1}, lone.devices());
        assertTrue(lone.sleep(), "other chunks are in flight");
        for (int rotation = 0; rotation < 6; rotation++) {
            ChunkPlan idle = ChunkPlan.of(100, Operation.SIGN, true, true, DEFAULTS,
                    new DeviceLoads(new int[] {32, 32, 32}, new int[3], rotation));
            assertArrayEquals(new int[] {rotation % 3}, idle.devices(), "equally loaded: taken in turn");
            assertFalse(idle.sleep());
        }
    }

    @Test
    void aCallOfFewerChunksThanDevicesTakesTheLeastLoadedOnes() {
        ChunkPlan plan = ChunkPlan.of(3_072, Operation.VERIFY, true, false, DEFAULTS,
                new DeviceLoads(new int[] {32, 32, 32, 32}, new int[] {0, 9, 1, 0}, 0));
        assertArrayEquals(new int[] {0, 3, 2}, plan.devices());
        assertArrayEquals(new int[] {1_024, 0, 1_024, 1_024}, tasksPerDevice(plan, 4));
    }

    @Test
    void concurrentLoneCallsSpreadOverEveryDevice() {
        // Calls that start together see the same loads; their rotations still send them to every
        // device in turn. Calls that start later see the earlier ones in flight.
        int devices = 4;
        int[] inFlight = new int[devices];
        int rotation = 0;
        for (int wave = 0; wave < 16; wave++) {
            int[] seen = inFlight.clone();
            for (int call = 0; call < devices; call++) {
                ChunkPlan plan = ChunkPlan.of(500, Operation.SIGN, true, true, DEFAULTS,
                        new DeviceLoads(new int[] {32, 32, 32, 32}, seen, rotation++));
                inFlight[plan.device(0)]++;
            }
        }
        assertArrayEquals(new int[] {16, 16, 16, 16}, inFlight);
    }
}
