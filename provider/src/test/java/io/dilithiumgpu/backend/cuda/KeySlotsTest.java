package io.dilithiumgpu.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.backend.cuda.KeySlots.Claim;
import io.dilithiumgpu.backend.cuda.KeySlots.Route;
import io.dilithiumgpu.backend.cuda.KeySlots.State;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The device key cache's policy, without a device: LRU in bytes, admission, pins, wipe requests. */
class KeySlotsTest {
    private static final int SLOT = 256;

    /** Admits and readies {@code key} in one launch that holds it twice; returns its slot. */
    private static int fill(KeySlots<String> slots, String key) {
        Claim c = slots.claim(key, 2, false);
        assertEquals(Route.EXPAND, c.route(), key);
        assertEquals(-1, slots.expanded(key, true));
        assertEquals(List.of(), slots.release(List.of(key)));
        return c.slot();
    }

    @Test
    void boundInBytesGivesTheSlotCount() {
        assertEquals(3, new KeySlots<String>(SLOT, 3 * SLOT + SLOT - 1).capacity());
        assertEquals(0, new KeySlots<String>(SLOT, SLOT - 1).capacity());
        assertThrows(IllegalArgumentException.class, () -> new KeySlots<String>(0, 1024));
    }

    @Test
    void aKeySeenOnceIsNotAdmittedAndItsSecondSightingIs() {
        KeySlots<String> slots = new KeySlots<>(SLOT, 4 * SLOT);
        assertEquals(Claim.UNCACHED, slots.claim("a", 1, false));
        assertEquals(0, slots.bytesHeld());
        Claim second = slots.claim("a", 1, false);
        assertEquals(Route.EXPAND, second.route());
        assertFalse(second.wipeFirst());
        assertEquals(State.PENDING, slots.state("a"));
        assertEquals(SLOT, slots.bytesHeld());
        assertEquals(2, slots.misses());
        assertEquals(0, slots.hits());
    }

    @Test
    void aLaunchHoldingAKeyTwiceOrAKnownKeyObjectAdmitsAtOnce() {
        KeySlots<String> slots = new KeySlots<>(SLOT, 4 * SLOT);
        assertEquals(Route.EXPAND, slots.claim("twice", 2, false).route());
        assertEquals(Route.EXPAND, slots.claim("known", 1, true).route());
    }

    @Test
    void distinctKeysNeverTakeASlot() {
        KeySlots<String> slots = new KeySlots<>(SLOT, 4 * SLOT);
        for (int i = 0; i < 10_000; i++) {
            assertEquals(Claim.UNCACHED, slots.claim("k" + i, 1, false));
        }
        assertEquals(0, slots.bytesHeld());
        assertEquals(10_000, slots.misses());
    }

    @Test
    void aPendingSlotIsUsedOnlyByTheLaunchThatFillsIt() {
        KeySlots<String> slots = new KeySlots<>(SLOT, 4 * SLOT);
        Claim filling = slots.claim("a", 2, false);
        assertEquals(Claim.UNCACHED, slots.claim("a", 5, false));
        assertEquals(-1, slots.expanded("a", true));
        Claim hit = slots.claim("a", 1, false);
        assertEquals(new Claim(Route.HIT, filling.slot(), false), hit);
        assertEquals(1, slots.hits());
        assertEquals(2, slots.misses());
    }

    @Test
    void evictsTheLeastRecentlyUsedAndHandsItsSlotOverForAWipe() {
        KeySlots<String> slots = new KeySlots<>(SLOT, 2 * SLOT);
        int a = fill(slots, "a");
        int b = fill(slots, "b");
        // A hit makes "a" the most recent: "b" goes first.
        assertEquals(Route.HIT, slots.claim("a", 1, false).route());
        slots.release(List.of("a"));
        Claim c = slots.claim("c", 2, false);
        assertEquals(new Claim(Route.EXPAND, b, true), c);
        assertEquals(1, slots.evictions());
        assertNull(slots.state("b"));
        assertEquals(List.of("a", "c"), slots.keysByRecency());
        assertEquals(2 * SLOT, slots.bytesHeld());
        slots.expanded("c", true);
        slots.release(List.of("c"));
        Claim d = slots.claim("d", 2, false);
        assertEquals(new Claim(Route.EXPAND, a, true), d);
        assertEquals(2, slots.evictions());
    }

    @Test
    void pinnedSlotsAreNeverEvicted() {
        KeySlots<String> slots = new KeySlots<>(SLOT, SLOT);
        fill(slots, "a");
        assertEquals(Route.HIT, slots.claim("a", 1, false).route());
        assertEquals(Claim.UNCACHED, slots.claim("b", 2, false));
        assertEquals(0, slots.evictions());
        slots.release(List.of("a"));
        assertEquals(Route.EXPAND, slots.claim("b", 2, false).route());
    }

    @Test
    void anInvalidKeyIsWipedAndNeverAdmittedAgain() {
        KeySlots<String> slots = new KeySlots<>(SLOT, 2 * SLOT);
        Claim c = slots.claim("bad", 2, false);
        assertEquals(c.slot(), slots.expanded("bad", false));
        assertEquals(0, slots.bytesHeld());
        assertEquals(List.of(), slots.release(List.of("bad")));
        assertEquals(Claim.UNCACHED, slots.claim("bad", 2, true));
        // The slot is free only once wiped.
        Claim other = slots.claim("good", 2, false);
        assertFalse(other.slot() == c.slot());
        slots.wiped(c.slot());
        slots.expanded("good", true);
        slots.release(List.of("good"));
        assertEquals(c.slot(), slots.claim("third", 2, false).slot());
        assertThrows(IllegalStateException.class, () -> slots.wiped(c.slot()));
    }

    @Test
    void aDestroyedKeyLeavesAtOnceWhenUnpinned() {
        KeySlots<String> slots = new KeySlots<>(SLOT, 2 * SLOT);
        int a = fill(slots, "a");
        assertEquals(a, slots.forget("a"));
        assertNull(slots.state("a"));
        assertEquals(0, slots.bytesHeld());
        assertEquals(-1, slots.forget("a"));
        slots.wiped(a);
        // Forgotten as seen too: a first sighting again.
        assertEquals(Claim.UNCACHED, slots.claim("a", 1, false));
    }

    @Test
    void aDestroyedKeyInUseLeavesAtItsLastRelease() {
        KeySlots<String> slots = new KeySlots<>(SLOT, 2 * SLOT);
        int a = fill(slots, "a");
        slots.claim("a", 1, false);
        slots.claim("a", 1, false);
        assertEquals(-1, slots.forget("a"));
        assertEquals(Claim.UNCACHED, slots.claim("a", 3, true));
        assertEquals(List.of(), slots.release(List.of("a")));
        assertEquals(List.of(a), slots.release(List.of("a")));
        assertNull(slots.state("a"));
    }

    @Test
    void aDestroyedKeyBeingExpandedIsWipedWhenTheExpansionEnds() {
        KeySlots<String> slots = new KeySlots<>(SLOT, 2 * SLOT);
        Claim c = slots.claim("a", 2, false);
        assertEquals(-1, slots.forget("a"));
        assertEquals(c.slot(), slots.expanded("a", true));
        assertEquals(List.of(), slots.release(List.of("a")));
    }

    @Test
    void anExpansionNeverReportedIsWipedAtRelease() {
        KeySlots<String> slots = new KeySlots<>(SLOT, 2 * SLOT);
        Claim c = slots.claim("a", 2, false);
        assertEquals(List.of(c.slot()), slots.release(List.of("a")));
        assertNull(slots.state("a"));
        slots.wiped(c.slot());
        assertEquals(Route.EXPAND, slots.claim("a", 2, false).route());
    }

    @Test
    void closingStopsHitsAndAdmissions() {
        KeySlots<String> slots = new KeySlots<>(SLOT, 2 * SLOT);
        fill(slots, "a");
        fill(slots, "b");
        slots.claim("b", 1, false);
        slots.close();
        assertEquals(1, slots.pinned());
        assertEquals(Claim.UNCACHED, slots.claim("a", 2, true));
        assertEquals(Claim.UNCACHED, slots.claim("c", 2, true));
        assertEquals(1, slots.release(List.of("b")).size());
        assertEquals(0, slots.pinned());
        assertEquals(0, slots.bytesHeld());
    }

    @Test
    void slotsStayDistinctUnderChurn() {
        KeySlots<String> slots = new KeySlots<>(SLOT, 8 * SLOT);
        for (int round = 0; round < 50; round++) {
            for (int k = 0; k < 12; k++) {
                String key = "k" + ((k * 7 + round) % 20);
                Claim c = slots.claim(key, 2, false);
                if (c.route() == Route.EXPAND) {
                    slots.expanded(key, true);
                }
                slots.release(List.of(key));
            }
            Set<Integer> used = new HashSet<>();
            for (String key : slots.keysByRecency()) {
                int s = slots.slotOf(key);
                assertTrue(s >= 0 && s < slots.capacity(), key + " in slot " + s);
                assertTrue(used.add(s), "slot " + s + " given twice");
            }
            assertTrue(slots.bytesHeld() <= 8L * SLOT);
        }
        assertTrue(slots.evictions() > 0);
    }
}
