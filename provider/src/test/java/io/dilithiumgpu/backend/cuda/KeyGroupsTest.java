package io.dilithiumgpu.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Grouping a launch's tasks by key object and key identity, and the keyOf the kernels read. */
class KeyGroupsTest {

    @Test
    void groupsByReferenceNotByEquality() {
        String a = new String("k");
        String b = new String("k");
        Object[] refs = {a, b, a, null, b, a};
        KeyGroups g = KeyGroups.of(refs, 0, refs.length);
        assertEquals(2, g.groups());
        assertEquals(List.of(0, 1, 0, -1, 1, 0), groupList(g));
        assertEquals(3, g.tasks(0));
        assertEquals(2, g.tasks(1));
        assertEquals(0, g.firstTask(0));
        assertEquals(1, g.firstTask(1));
    }

    @Test
    void readsOnlyTheChunksRange() {
        Object x = new Object();
        Object y = new Object();
        Object[] refs = {x, x, y, x, y, y};
        KeyGroups g = KeyGroups.of(refs, 2, 3);
        assertEquals(List.of(0, 1, 0), groupList(g));
        assertEquals(2, g.groups());
    }

    @Test
    void manyDistinctObjectsGrowTheGroups() {
        Object[] refs = new Object[100];
        for (int i = 0; i < refs.length; i++) {
            refs[i] = new Object();
        }
        KeyGroups g = KeyGroups.of(refs, 0, refs.length);
        assertEquals(100, g.groups());
        assertEquals(57, g.firstTask(57));
    }

    @Test
    void aDetachedTaskRunsAloneAndTheGroupKeepsAFirstTask() {
        Object x = new Object();
        KeyGroups g = KeyGroups.of(new Object[] {x, x, x}, 0, 3);
        g.detach(0);
        assertEquals(-1, g.groupOf(0));
        assertEquals(1, g.firstTask(0));
        assertEquals(2, g.tasks(0));
        g.detach(1);
        g.detach(2);
        assertEquals(0, g.tasks(0));
        List<String> merged = new ArrayList<>();
        KeyGroups byKey = g.byKey(Arrays.asList("id"), merged);
        assertEquals(0, byKey.groups(), "an emptied group drops out");
        assertEquals(List.of(), merged);
    }

    @Test
    void equalIdentitiesOfDifferentObjectsMerge() {
        Object x = new Object();
        Object y = new Object();
        Object z = new Object();
        Object w = new Object();
        Object[] refs = {x, y, z, x, w, y};
        KeyGroups g = KeyGroups.of(refs, 0, refs.length);
        List<String> merged = new ArrayList<>();
        // x and z are equal encodings; w's key was not hashed (null): its task runs alone.
        KeyGroups byKey = g.byKey(Arrays.asList("A", "B", "A", null), merged);
        assertEquals(List.of("A", "B"), merged);
        assertEquals(List.of(0, 1, 0, 0, -1, 1), groupList(byKey));
        assertEquals(3, byKey.tasks(0));
        assertEquals(0, byKey.firstTask(0));
        assertThrows(IllegalArgumentException.class, () -> g.byKey(List.of("A"), new ArrayList<>()));
    }

    @Test
    void keyOfPointsAtSlotsOrAtOneRecordPerUncachedKey() {
        Object x = new Object();
        Object y = new Object();
        Object z = new Object();
        Object[] refs = {x, y, null, x, z, y, null, z};
        KeyGroups g = KeyGroups.of(refs, 0, refs.length);
        // x cached in slot 7, y uncached, z cached in slot 0.
        KeyedTasks t = g.keyOf(new int[] {7, -1, 0});
        assertArrayEquals(new int[] {7, -1, -2, 7, 0, -1, -3, 0}, t.keyOf());
        // Record 0: y's key (task 1); records 1 and 2: the lone tasks 2 and 6.
        assertArrayEquals(new int[] {1, 2, 6}, t.records());
        assertEquals(4, t.cached());
        assertEquals(3, t.uncachedRecords());
        assertEquals(8, t.tasks());
    }

    @Test
    void aOneKeyLaunchIsOneGroup() {
        KeyGroups g = KeyGroups.one(5);
        assertEquals(1, g.groups());
        KeyedTasks t = g.keyOf(new int[] {3});
        assertArrayEquals(new int[] {3, 3, 3, 3, 3}, t.keyOf());
        assertEquals(0, t.uncachedRecords());
        KeyedTasks u = g.keyOf(new int[] {-1});
        assertArrayEquals(new int[] {-1, -1, -1, -1, -1}, u.keyOf());
        assertArrayEquals(new int[] {0}, u.records());
    }

    @Test
    void aOneKeyLaunchWritesItsSlotForEveryTaskWithoutAnArrayOfIt() {
        // Past the writer's fill of 256, and a remainder: 600 tasks.
        KeyGroups g = KeyGroups.one(600);
        List<String> merged = new ArrayList<>();
        KeyGroups b = g.byKey(List.of("id"), merged);
        assertEquals(600, b.tasks());
        assertEquals(600, b.tasks(0));
        KeyedTasks t = b.keyOf(new int[] {9});
        assertEquals(600, t.tasks());
        assertEquals(600, t.cached());
        assertEquals(0, t.uncachedRecords());
        java.nio.IntBuffer to = java.nio.IntBuffer.allocate(602);
        to.put(-7);
        t.writeKeyOf(to);
        assertEquals(601, to.position(), "the writer advances by the tasks");
        to.put(-8);
        int[] written = to.array();
        assertEquals(-7, written[0]);
        assertEquals(-8, written[601]);
        for (int j = 1; j <= 600; j++) {
            assertEquals(9, written[j], "position " + (j - 1));
        }
        int[] expected = new int[600];
        Arrays.fill(expected, 9);
        assertArrayEquals(expected, t.keyOf());
        assertArrayEquals(new int[] {0, 1, 2, 3}, KeyGroups.one(4).launchOrder());
        assertThrows(IllegalArgumentException.class, () -> KeyedTasks.oneSlot(-1, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> g.groupOf(600));
    }

    @Test
    void aTaskDetachedFromAOneKeyLaunchRunsAloneAndTheOthersKeepTheGroup() {
        KeyGroups g = KeyGroups.one(4);
        g.detach(0);
        assertEquals(List.of(-1, 0, 0, 0), groupList(g));
        assertEquals(3, g.tasks(0));
        assertEquals(1, g.firstTask(0), "the group's first task moves to the next one in it");
        KeyedTasks t = g.keyOf(new int[] {5});
        assertArrayEquals(new int[] {-1, 5, 5, 5}, t.keyOf());
        assertArrayEquals(new int[] {0}, t.records());
        java.nio.IntBuffer to = java.nio.IntBuffer.allocate(4);
        t.writeKeyOf(to);
        assertArrayEquals(new int[] {-1, 5, 5, 5}, to.array());
        assertArrayEquals(new int[] {1, 2, 3, 0}, g.launchOrder());
    }

    @Test
    void oneKeyObjectForEveryTaskStaysOneGroupByKeyAndOwnsItsArrays() {
        Object k = new Object();
        KeyGroups g = KeyGroups.of(new Object[] {k, k, k}, 0, 3);
        List<String> merged = new ArrayList<>();
        KeyGroups b = g.byKey(List.of("id"), merged);
        assertEquals(List.of("id"), merged);
        assertEquals(1, b.groups());
        assertEquals(3, b.tasks(0));
        assertEquals(List.of(0, 0, 0), groupList(b));
        g.detach(1);
        assertEquals(List.of(0, 0, 0), groupList(b), "the merged groups do not share the original's arrays");
        assertEquals(3, b.tasks(0));
        List<String> none = new ArrayList<>();
        assertEquals(0, KeyGroups.of(new Object[] {k, k}, 0, 2).byKey(java.util.Collections.singletonList(null), none)
                .groups(), "a group without an identity runs alone");
        assertEquals(List.of(), none);
    }

    private static List<Integer> groupList(KeyGroups g) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < g.tasks(); i++) {
            out.add(g.groupOf(i));
        }
        return out;
    }

    @Test
    void theLaunchOrderPutsEachKeysTasksSideBySide() {
        Object x = new Object();
        Object y = new Object();
        Object[] refs = {x, y, null, x, y, null, x};
        KeyGroups g = KeyGroups.of(refs, 0, refs.length);
        int[] order = g.launchOrder();
        assertArrayEquals(new int[] {0, 3, 6, 1, 4, 2, 5}, order);
        // x cached in slot 4, y uncached: keyOf follows the launch positions, records name tasks.
        KeyedTasks t = g.keyOf(new int[] {4, -1}, order);
        assertArrayEquals(new int[] {4, 4, 4, -1, -1, -2, -3}, t.keyOf());
        assertArrayEquals(new int[] {1, 2, 5}, t.records());
        assertEquals(3, t.cached());
        assertThrows(IllegalArgumentException.class, () -> g.keyOf(new int[] {4, -1}, new int[3]));
        int[] sorted = order.clone();
        Arrays.sort(sorted);
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6}, sorted, "a permutation");
    }
}
