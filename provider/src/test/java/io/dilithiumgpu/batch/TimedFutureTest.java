package io.dilithiumgpu.batch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The direct waiter of {@link TimedFuture#get()}: every way of completing the future wakes it. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TimedFutureTest {

    /** Starts a thread blocked in get(), completes the future from here once it waits, returns what get() gave. */
    private static Object waitAndComplete(Consumer<TimedFuture<String>> completer) throws Exception {
        TimedFuture<String> f = new TimedFuture<>();
        AtomicReference<Object> got = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                got.set(f.get());
            } catch (Exception e) {
                got.set(e);
            }
        });
        waiter.start();
        while (waiter.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        completer.accept(f);
        waiter.join();
        return got.get();
    }

    @Test
    void eachCompletionWakesTheWaiter() throws Exception {
        assertEquals("v", waitAndComplete(f -> f.complete("v")));
        assertEquals("o", waitAndComplete(f -> f.obtrudeValue("o")));
        RuntimeException boom = new RuntimeException("boom");
        Object failed = waitAndComplete(f -> f.completeExceptionally(boom));
        assertSame(boom, assertInstanceOf(ExecutionException.class, failed).getCause());
        Object obtruded = waitAndComplete(f -> f.obtrudeException(boom));
        assertSame(boom, assertInstanceOf(ExecutionException.class, obtruded).getCause());
        assertInstanceOf(CancellationException.class, waitAndComplete(f -> f.cancel(false)));
        assertEquals("async", waitAndComplete(f -> f.completeAsync(() -> "async")));
        Object thrown = waitAndComplete(f -> f.completeAsync(() -> {
            throw boom;
        }));
        assertSame(boom, assertInstanceOf(ExecutionException.class, thrown).getCause());
        assertEquals("t", waitAndComplete(f -> f.completeOnTimeout("t", 1, TimeUnit.MILLISECONDS)));
    }

    @Test
    void anInterruptedWaiterThrowsAndTheFutureStaysOpen() throws Exception {
        TimedFuture<String> f = new TimedFuture<>();
        Object got = waitAndInterrupt(f);
        assertInstanceOf(InterruptedException.class, got);
        assertTrue(!f.isDone());
        f.complete("later");
        assertEquals("later", f.get());
    }

    private static Object waitAndInterrupt(TimedFuture<String> f) throws InterruptedException {
        AtomicReference<Object> got = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                got.set(f.get());
            } catch (Exception e) {
                got.set(e);
            }
        });
        waiter.start();
        while (waiter.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        waiter.interrupt();
        waiter.join();
        return got.get();
    }

    @Test
    void manyWaitersOnOneFutureAllWake() throws Exception {
        TimedFuture<String> f = new TimedFuture<>();
        int n = 8;
        CountDownLatch started = new CountDownLatch(n);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<String>> waiting = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                waiting.add(pool.submit(() -> {
                    started.countDown();
                    return f.get();
                }));
            }
            started.await();
            f.complete("all");
            for (Future<String> w : waiting) {
                assertEquals("all", w.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRaceBetweenWaitingAndCompletingLosesNoWakeUp() throws Exception {
        for (int i = 0; i < 2_000; i++) {
            TimedFuture<Integer> f = new TimedFuture<>();
            int value = i;
            Thread completer = new Thread(() -> f.complete(value));
            completer.start();
            assertEquals(value, f.get());
            completer.join();
        }
    }

    @Test
    void joinAndTimedGetStillWork() throws Exception {
        TimedFuture<String> f = new TimedFuture<>();
        new Thread(() -> f.complete("j")).start();
        assertEquals("j", f.join());
        assertEquals("j", f.get(1, TimeUnit.SECONDS));
        TimedFuture<String> g = new TimedFuture<>();
        g.completeExceptionally(new IllegalStateException("x"));
        assertThrows(CompletionException.class, g::join);
    }
}
