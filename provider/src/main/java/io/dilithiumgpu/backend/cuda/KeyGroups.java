package io.dilithiumgpu.backend.cuda;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The tasks of one launch grouped by key: first by the key object each task names (its key
 * cache, compared by reference, which costs no hashing), then merged by key identity (equal
 * encodings of different key objects share a group). A task without a key object, or whose
 * bytes are not its key object's ({@link #detach}), is alone. Pure: the device key cache builds
 * one per launch and turns it into the launch's {@code keyOf} ({@link #keyOf}).
 *
 * <p>Tasks are numbered 0..n-1 within the launch; groups 0..groups()-1 in the order of their
 * first task. A one-key launch's grouping ({@link #one}) holds no per-task array until a task
 * leaves it: a one-key call of ten thousand tasks would otherwise allocate and fill arrays of
 * ten thousand entries that say nothing.
 */
final class KeyGroups {
    /** Per task, its group or -1; null while every task is in group 0 ({@link #one}). */
    private int[] groupOf;
    private final int count;
    private final int[] firstTask;
    private final int[] tasks;

    private KeyGroups(int[] groupOf, int count, int[] firstTask, int[] tasks) {
        this.groupOf = groupOf;
        this.count = count;
        this.firstTask = firstTask;
        this.tasks = tasks;
    }

    /**
     * Groups tasks {@code refs[first .. first + count)} by reference: tasks whose entries are the
     * same object share a group; a null entry leaves its task alone (group -1).
     */
    static KeyGroups of(Object[] refs, int first, int count) {
        int[] groupOf = new int[count];
        Map<Object, Integer> index = new IdentityHashMap<>();
        int[] firstTask = new int[Math.min(count, 16)];
        int[] tasks = new int[firstTask.length];
        int groups = 0;
        for (int i = 0; i < count; i++) {
            Object ref = refs[first + i];
            if (ref == null) {
                groupOf[i] = -1;
                continue;
            }
            Integer g = index.get(ref);
            if (g == null) {
                g = groups++;
                index.put(ref, g);
                if (g == firstTask.length) {
                    firstTask = Arrays.copyOf(firstTask, Math.min(count, 2 * g));
                    tasks = Arrays.copyOf(tasks, firstTask.length);
                }
                firstTask[g] = i;
            }
            groupOf[i] = g;
            tasks[g]++;
        }
        return new KeyGroups(groupOf, count, Arrays.copyOf(firstTask, groups), Arrays.copyOf(tasks, groups));
    }

    /** One group for all {@code count} tasks: a one-key launch. */
    static KeyGroups one(int count) {
        return new KeyGroups(null, count, new int[] {0}, new int[] {count});
    }

    int tasks() {
        return count;
    }

    int groups() {
        return firstTask.length;
    }

    /** Task i's group, or -1 when it is alone. */
    int groupOf(int task) {
        Objects.checkIndex(task, count);
        return groupOf == null ? 0 : groupOf[task];
    }

    /** The first task of group g (the one whose bytes stand for the group). */
    int firstTask(int g) {
        return firstTask[g];
    }

    /** Tasks in group g. */
    int tasks(int g) {
        return tasks[g];
    }

    /** Takes task i out of its group (its bytes are not its key object's): it runs alone, uncached. */
    void detach(int task) {
        Objects.checkIndex(task, count);
        if (groupOf == null) {
            groupOf = new int[count];
        }
        int g = groupOf[task];
        if (g >= 0) {
            groupOf[task] = -1;
            tasks[g]--;
            if (firstTask[g] == task) {
                int next = -1;
                for (int i = task + 1; i < count && next < 0; i++) {
                    next = groupOf[i] == g ? i : -1;
                }
                firstTask[g] = next;
            }
        }
    }

    /**
     * Merges groups by key: {@code keys.get(g)} is group g's identity, or null when it has none
     * (its tasks then run alone). Groups with equal keys become one; groups left empty by
     * {@link #detach} drop out.
     *
     * @param merged receives the key of each group of the result, in order
     */
    <K> KeyGroups byKey(List<K> keys, List<K> merged) {
        if (keys.size() != groups()) {
            throw new IllegalArgumentException(keys.size() + " keys for " + groups() + " groups");
        }
        if (groups() == 1 && keys.get(0) != null && tasks[0] == count) {
            // One key for every task (a one-key launch, or one key object): nothing to merge.
            merged.add(keys.get(0));
            return new KeyGroups(groupOf == null ? null : groupOf.clone(), count, firstTask.clone(), tasks.clone());
        }
        Map<K, Integer> index = new HashMap<>();
        int[] remap = new int[groups()];
        List<Integer> first = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        for (int g = 0; g < groups(); g++) {
            K key = keys.get(g);
            if (key == null || tasks[g] == 0) {
                remap[g] = -1;
                continue;
            }
            Integer to = index.get(key);
            if (to == null) {
                to = first.size();
                index.put(key, to);
                first.add(firstTask[g]);
                sizes.add(0);
                merged.add(key);
            } else if (firstTask[g] < first.get(to)) {
                first.set(to, firstTask[g]);
            }
            sizes.set(to, sizes.get(to) + tasks[g]);
            remap[g] = to;
        }
        int[] newGroupOf = new int[count];
        for (int i = 0; i < count; i++) {
            int g = groupOf(i);
            newGroupOf[i] = g < 0 ? -1 : remap[g];
        }
        return new KeyGroups(newGroupOf, count, first.stream().mapToInt(Integer::intValue).toArray(),
                sizes.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * The tasks in an order that puts each key's tasks side by side (CACHE_ABI: a slot read by
     * adjacent tasks stays in L2): the groups in the order of their first task, each group's tasks
     * in task order, then the tasks alone. Entry j is the task launched j-th.
     */
    int[] launchOrder() {
        int n = count;
        int[] next = new int[groups() + 1];
        for (int i = 0; i < n; i++) {
            int g = groupOf(i);
            if (g >= 0) {
                next[g + 1]++;
            }
        }
        for (int g = 1; g <= groups(); g++) {
            next[g] += next[g - 1];
        }
        int alone = next[groups()];
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            int g = groupOf(i);
            order[g >= 0 ? next[g]++ : alone++] = i;
        }
        return order;
    }

    /**
     * The launch's key references in task order, given each group's slot (-1: the group runs
     * uncached): see {@link KeyedTasks}. Each uncached group gets one packed record (its first
     * task's key); each task alone gets its own.
     */
    KeyedTasks keyOf(int[] slotOfGroup) {
        return keyOf(slotOfGroup, null);
    }

    /**
     * As {@link #keyOf(int[])}, with the tasks launched in {@code order} (entry j: the task
     * launched j-th; null for task order): {@code keyOf[j]} is then launch position j's.
     */
    KeyedTasks keyOf(int[] slotOfGroup, int[] order) {
        if (slotOfGroup.length != groups()) {
            throw new IllegalArgumentException(slotOfGroup.length + " slots for " + groups() + " groups");
        }
        int n = count;
        if (order != null && order.length != n) {
            throw new IllegalArgumentException("an order of " + order.length + " tasks for " + n);
        }
        if (groups() == 1 && tasks[0] == n && slotOfGroup[0] >= 0) {
            // Every task reads the one cached key: no record, the order aside.
            return KeyedTasks.oneSlot(slotOfGroup[0], n);
        }
        int[] keyOf = new int[n];
        int[] records = new int[n];
        int[] recordOfGroup = new int[groups()];
        Arrays.fill(recordOfGroup, -1);
        int r = 0;
        int cached = 0;
        for (int j = 0; j < n; j++) {
            int i = order == null ? j : order[j];
            int g = groupOf(i);
            if (g >= 0 && slotOfGroup[g] >= 0) {
                keyOf[j] = slotOfGroup[g];
                cached++;
                continue;
            }
            int record;
            if (g >= 0 && recordOfGroup[g] >= 0) {
                record = recordOfGroup[g];
            } else {
                record = r++;
                records[record] = g >= 0 ? firstTask[g] : i;
                if (g >= 0) {
                    recordOfGroup[g] = record;
                }
            }
            keyOf[j] = -record - 1;
        }
        return new KeyedTasks(keyOf, Arrays.copyOf(records, r), cached);
    }
}
