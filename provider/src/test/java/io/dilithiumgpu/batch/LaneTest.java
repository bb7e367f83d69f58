package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The striped lane: every task taken once, each thread's tasks in order, counts and ages right. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LaneTest {
    private static Task<Boolean> task(long enqueuedNanos) {
        Task<Boolean> t = new VerifyBatch.Request(new byte[0], new byte[0], new byte[0]);
        t.enqueuedNanos = enqueuedNanos;
        return t;
    }

    @Test
    void tasksAddedConcurrentlyAreEachTakenOnceAndInTheirThreadsOrder() throws Exception {
        Lane lane = new Lane(Operation.VERIFY, ParameterSet.ML_DSA_44, 100, 1);
        int threads = 8;
        int perThread = 5_000;
        Map<Task<?>, int[]> origin = new IdentityHashMap<>();
        List<List<Task<?>>> added = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<Task<?>> mine = new ArrayList<>();
            for (int i = 0; i < perThread; i++) {
                Task<?> task = task(i);
                mine.add(task);
                origin.put(task, new int[] {t, i});
            }
            added.add(mine);
        }
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> adders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<Task<?>> mine = added.get(t);
            Thread th = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                mine.forEach(lane::add);
            });
            th.start();
            adders.add(th);
        }
        start.countDown();
        int[] lastSeen = new int[threads];
        java.util.Arrays.fill(lastSeen, -1);
        int taken = 0;
        boolean addersDone = false;
        while (taken < threads * perThread) {
            int size = lane.size();
            Task<?>[] batch = lane.take();
            // The adders go on between the two reads: a take returns at most maxBatch tasks, and at
            // least as many of those counted before it (aTakeReturnsMinOfSizeAndMaxBatch: exactly).
            assertTrue(batch.length <= 100 && batch.length >= Math.min(size, 100),
                    "a take of " + batch.length + " tasks after a size of " + size);
            for (Task<?> t : batch) {
                int[] o = origin.remove(t);
                assertTrue(o != null, "a task taken twice, or never added");
                assertTrue(o[1] > lastSeen[o[0]], "thread " + o[0] + "'s tasks left out of order");
                lastSeen[o[0]] = o[1];
            }
            taken += batch.length;
            if (batch.length == 0) {
                // Once every adder has ended (isAlive makes its adds visible), one empty take
                // means the rest are lost: fail rather than spin.
                assertFalse(addersDone, (threads * perThread - taken) + " tasks lost");
                addersDone = adders.stream().noneMatch(Thread::isAlive);
                Thread.onSpinWait();
            }
        }
        for (Thread th : adders) {
            th.join();
        }
        assertTrue(origin.isEmpty());
        assertEquals(0, lane.size());
        assertTrue(lane.isEmpty());
        assertEquals(0, lane.take().length);
        assertEquals(Long.MAX_VALUE, lane.oldestNanos());
    }

    @Test
    void aTakeReturnsMinOfSizeAndMaxBatch() {
        Lane lane = new Lane(Operation.VERIFY, ParameterSet.ML_DSA_44, 100, 1);
        for (int i = 0; i < 250; i++) {
            assertEquals(i + 1, lane.add(task(i)));
        }
        for (int expected : new int[] {100, 100, 50, 0}) {
            assertEquals(expected, Math.min(lane.size(), 100));
            assertEquals(expected, lane.take().length);
        }
        assertTrue(lane.isEmpty());
    }

    @Test
    void theOldestHeadOverEveryStripeSetsTheLanesAgeAndWithdrawnTasksAreGone() throws Exception {
        Lane lane = new Lane(Operation.VERIFY, ParameterSet.ML_DSA_44, 10, 1);
        List<Task<?>> tasks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            // One thread after another, each stamping its task just before adding it, as callers do:
            // the threads' stripes differ or not, and the first task stays the oldest either way.
            Task<?> t = task(0);
            tasks.add(t);
            Thread th = new Thread(() -> {
                t.enqueuedNanos = System.nanoTime();
                lane.add(t);
            });
            th.start();
            th.join();
        }
        assertEquals(6, lane.size());
        assertEquals(tasks.get(0).enqueuedNanos, lane.oldestNanos(), "the oldest task over every stripe");
        assertTrue(lane.remove(tasks.get(0)));
        assertFalse(lane.remove(tasks.get(0)), "withdrawn once");
        assertEquals(5, lane.size());
        assertEquals(tasks.get(1).enqueuedNanos, lane.oldestNanos());
        Task<?>[] batch = lane.take();
        assertEquals(5, batch.length);
        for (Task<?> t : batch) {
            assertTrue(tasks.subList(1, 6).stream().anyMatch(x -> x == t));
        }
        assertFalse(lane.remove(tasks.get(1)), "a taken task cannot be withdrawn");
        assertEquals(0, lane.size());
    }
}
