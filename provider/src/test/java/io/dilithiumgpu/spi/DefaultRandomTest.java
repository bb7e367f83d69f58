package io.dilithiumgpu.spi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The striped, block-drawn default randomness: every byte handed out once, any length served. */
@Timeout(60)
class DefaultRandomTest {

    @Test
    void consecutiveDrawsAcrossManyBlocksNeverRepeat() {
        // 32-byte draws over 20 blocks, and 13-byte draws that straddle block boundaries.
        Set<ByteBuffer> seen = new HashSet<>();
        int draws = 20 * DefaultRandom.BLOCK_BYTES / 32;
        for (int i = 0; i < draws; i++) {
            byte[] out = new byte[i % 3 == 0 ? 13 : 32];
            DefaultRandom.nextBytes(out);
            assertTrue(seen.add(ByteBuffer.wrap(out)), "draw " + i + " repeated an earlier one");
        }
    }

    @Test
    void requestsLongerThanABlockAndEmptyRequestsAreServed() {
        byte[] big = new byte[3 * DefaultRandom.BLOCK_BYTES + 5];
        DefaultRandom.nextBytes(big);
        int zeros = 0;
        for (byte b : big) {
            zeros += b == 0 ? 1 : 0;
        }
        assertTrue(zeros < big.length / 64, "a long draw came back mostly zeros: " + zeros);
        byte[] empty = new byte[0];
        DefaultRandom.nextBytes(empty);
        assertEquals(0, empty.length);
    }

    /**
     * The stripe stays held until both draws have returned: a draw that waited for it would never
     * return, and the timeout (on a thread of its own, since a lock wait ignores interrupts) fails it.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aCallerWhoseStripeIsHeldTakesAnotherWithoutWaiting() throws Exception {
        long me = Thread.currentThread().getId();
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Thread holder = new Thread(() -> {
            java.util.concurrent.locks.ReentrantLock lock = DefaultRandom.homeLock(me);
            lock.lock();
            try {
                held.countDown();
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        });
        holder.setDaemon(true);
        holder.start();
        try {
            assertTrue(held.await(10, java.util.concurrent.TimeUnit.SECONDS));
            byte[] a = new byte[32];
            byte[] b = new byte[32];
            DefaultRandom.nextBytes(a);
            DefaultRandom.nextBytes(b);
            assertTrue(!java.util.Arrays.equals(a, b), "two draws were equal");
        } finally {
            release.countDown();
            holder.join();
        }
    }

    @Test
    void threadsOnDifferentStripesGetDifferentBytes() throws InterruptedException {
        byte[][] out = new byte[DefaultRandom.STRIPES][32];
        Thread[] threads = new Thread[out.length];
        for (int i = 0; i < threads.length; i++) {
            int t = i;
            threads[i] = new Thread(() -> DefaultRandom.nextBytes(out[t]));
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        Set<ByteBuffer> seen = new HashSet<>();
        for (byte[] o : out) {
            assertTrue(seen.add(ByteBuffer.wrap(o)), "two threads got the same bytes");
        }
    }
}
