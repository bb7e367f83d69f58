package io.dilithiumgpu.route;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every add counted once, from many threads at once; a reset sum empties the count. */
class CallCounterTest {
    @Test
    @Timeout(60)
    void countsEveryAddOfManyThreads() throws InterruptedException {
        CallCounter c = new CallCounter(3);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 40; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    c.increment();
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(400_000, c.sum());
        assertEquals(400_000, c.sumThenReset());
        assertEquals(0, c.sum());
        c.increment();
        assertEquals(1, c.sum());
    }
}
