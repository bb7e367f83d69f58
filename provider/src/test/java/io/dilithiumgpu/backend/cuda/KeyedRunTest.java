package io.dilithiumgpu.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.backend.Operation;

import org.junit.jupiter.api.Test;

/** Which chunks that reach the device key cache launch on it, and which sign as plain chunks. */
class KeyedRunTest {

    /** Tasks 0..5: keys x, y, x, none, y, x (y uncached where {@code ySlot} is -1). */
    private static KeyedTasks tasks(int xSlot, int ySlot) {
        Object x = new Object();
        Object y = new Object();
        KeyGroups g = KeyGroups.of(new Object[] {x, y, x, xSlot >= 0 && ySlot >= 0 ? x : null, y, x}, 0, 6);
        return g.keyOf(new int[] {xSlot, ySlot}, g.launchOrder());
    }

    @Test
    void aSigningChunkWithAnUncachedTaskSignsPlain() {
        assertTrue(KeyedRun.signsPlain(Operation.SIGN, false, tasks(3, -1)), "a key uncached");
        assertTrue(KeyedRun.signsPlain(Operation.SIGN, false, tasks(-1, -1)), "every key uncached");
    }

    @Test
    void aTaskWithoutAKeyObjectMakesTheChunkMixed() {
        Object x = new Object();
        KeyGroups g = KeyGroups.of(new Object[] {x, null, x}, 0, 3);
        assertTrue(KeyedRun.signsPlain(Operation.SIGN, false, g.keyOf(new int[] {0}, g.launchOrder())));
    }

    @Test
    void aSigningChunkWhoseTasksAllReadSlotsStaysKeyed() {
        assertFalse(KeyedRun.signsPlain(Operation.SIGN, false, tasks(3, 5)));
    }

    @Test
    void verificationStaysKeyedMixedOrNot() {
        assertFalse(KeyedRun.signsPlain(Operation.VERIFY, false, tasks(3, -1)));
        assertFalse(KeyedRun.signsPlain(Operation.VERIFY, false, tasks(3, 5)));
    }

    /** One-key records carry no key per task: an uncached one-key chunk signs keyed from one packed record. */
    @Test
    void aOneKeyChunkNeverSignsPlain() {
        KeyGroups one = KeyGroups.one(4);
        assertFalse(KeyedRun.signsPlain(Operation.SIGN, true, one.keyOf(new int[] {-1})));
        assertFalse(KeyedRun.signsPlain(Operation.SIGN, true, one.keyOf(new int[] {2})));
    }
}
