package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChunkQueueTest {
    private static final long GENEROUS_SECONDS = 60;

    private static Chunk chunk(int first) {
        return new Chunk(ParameterSet.ML_DSA_44, Operation.VERIFY, first, 1, new byte[0][]);
    }

    @Test
    void aCallWakesAsManyIdleWorkersAsItQueuesChunksItself() throws Exception {
        ChunkQueue q = new ChunkQueue();
        int workers = 8;
        Set<Integer> taken = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(6);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            Thread t = new Thread(() -> {
                Chunk c = q.take();
                if (c.first >= 0) {
                    taken.add(c.first);
                    done.countDown();
                }
            });
            t.start();
            threads.add(t);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GENEROUS_SECONDS);
        while (q.idleWorkers() < workers && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(workers, q.idleWorkers(), "every worker announced itself idle");
        q.addAll(List.of(chunk(0), chunk(1), chunk(2), chunk(3), chunk(4), chunk(5)));
        assertEquals(2, q.idleWorkers(), "the call itself woke one idle worker per chunk");
        assertTrue(done.await(GENEROUS_SECONDS, TimeUnit.SECONDS));
        assertEquals(Set.of(0, 1, 2, 3, 4, 5), taken);
        q.addAll(List.of(chunk(-1), chunk(-2)));
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(GENEROUS_SECONDS));
            assertFalse(t.isAlive(), "every worker got a chunk");
        }
    }

    @Test
    void manyCallersAndWorkersLoseNoChunkAndTakeNoneTwice() throws Exception {
        ChunkQueue q = new ChunkQueue();
        int callers = 4;
        int perCaller = 5_000;
        int workers = 6;
        Set<Integer> taken = ConcurrentHashMap.newKeySet();
        AtomicInteger twice = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            threads.add(new Thread(() -> {
                while (true) {
                    Chunk c = q.take();
                    if (c.first < 0) {
                        return;
                    }
                    if (!taken.add(c.first)) {
                        twice.incrementAndGet();
                    }
                }
            }));
        }
        for (int k = 0; k < callers; k++) {
            int base = k * perCaller;
            threads.add(new Thread(() -> {
                for (int i = 0; i < perCaller; i += 3) {
                    List<Chunk> batch = new ArrayList<>();
                    for (int j = i; j < Math.min(perCaller, i + 3); j++) {
                        batch.add(chunk(base + j));
                    }
                    q.addAll(batch);
                }
            }));
        }
        threads.forEach(Thread::start);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GENEROUS_SECONDS);
        while (taken.size() < callers * perCaller && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(callers * perCaller, taken.size());
        assertEquals(0, twice.get(), "chunks taken twice");
        List<Chunk> stops = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            stops.add(chunk(-1));
        }
        q.addAll(stops);
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(GENEROUS_SECONDS));
            assertFalse(t.isAlive());
        }
    }
}
