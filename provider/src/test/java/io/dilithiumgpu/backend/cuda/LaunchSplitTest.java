package io.dilithiumgpu.backend.cuda;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which threads launch a device's share of a call, without a GPU. */
class LaunchSplitTest {

    private static List<Integer> chunks(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    @Test
    void aShareOfFewChunksStaysOnOneThreadAsItIs() {
        for (int n = 1; n <= LaunchSplit.CHUNKS_PER_THREAD; n++) {
            List<Integer> share = chunks(n);
            List<List<Integer>> parts = LaunchSplit.deal(share, 32);
            assertEquals(1, parts.size());
            assertSame(share, parts.get(0), "no copy for a share one thread launches");
        }
    }

    @Test
    void aBulkSharesChunksAreDealtInTurn() {
        // 10,000 tasks on one GPU of 32 slots: 9 chunks; a one-key verification: 5.
        assertEquals(List.of(List.of(0, 3, 6), List.of(1, 4, 7), List.of(2, 5, 8)), LaunchSplit.deal(chunks(9), 32));
        assertEquals(List.of(List.of(0, 2, 4), List.of(1, 3)), LaunchSplit.deal(chunks(5), 32));
        assertEquals(List.of(List.of(0, 2), List.of(1, 3)), LaunchSplit.deal(chunks(4), 32));
    }

    @Test
    void noMoreThreadsThanTheDeviceHasSlots() {
        assertEquals(2, LaunchSplit.threads(20, 2));
        assertEquals(1, LaunchSplit.threads(9, 1));
        assertEquals(7, LaunchSplit.threads(20, 32));
        assertEquals(List.of(List.of(0, 2, 4), List.of(1, 3, 5)), LaunchSplit.deal(chunks(6), 2));
    }

    @Test
    void everyChunkOnceInPlanOrderTheFirstOnTheFirstThread() {
        for (int slots = 1; slots <= 8; slots++) {
            for (int n = 1; n <= 40; n++) {
                List<List<Integer>> parts = LaunchSplit.deal(chunks(n), slots);
                assertEquals(LaunchSplit.threads(n, slots), parts.size());
                assertTrue(parts.size() <= slots && parts.size() <= n);
                assertEquals(0, parts.get(0).get(0));
                List<Integer> all = new ArrayList<>();
                for (List<Integer> part : parts) {
                    assertTrue(!part.isEmpty(), n + " chunks, " + slots + " slots: an idle thread");
                    assertTrue(part.size() <= Math.max(LaunchSplit.CHUNKS_PER_THREAD, (n + slots - 1) / slots),
                            n + " chunks, " + slots + " slots: " + parts);
                    for (int i = 1; i < part.size(); i++) {
                        assertTrue(part.get(i - 1) < part.get(i), "plan order: " + part);
                    }
                    all.addAll(part);
                }
                all.sort(null);
                assertEquals(chunks(n), all);
            }
        }
    }

    @Test
    void refusesNothingToDeal() {
        assertThrows(IllegalArgumentException.class, () -> LaunchSplit.threads(0, 4));
        assertThrows(IllegalArgumentException.class, () -> LaunchSplit.threads(4, 0));
        assertThrows(IllegalArgumentException.class, () -> LaunchSplit.deal(List.of(), 4));
    }
}
