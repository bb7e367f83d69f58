package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.core.ParameterSet;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.security.SignatureException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import static io.dilithiumgpu.batch.Fixtures.keys;
import static io.dilithiumgpu.batch.Fixtures.message;
import static io.dilithiumgpu.batch.Fixtures.mu;
import static io.dilithiumgpu.batch.Fixtures.rnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Thread storms: many callers, each signing and verifying one message through the blocking path
 * (engine call, then {@link Engines#await}); every signature is checked by an independent verifier
 * and the MBean must show real batching.
 */
class BatcherStormTest {
    private static final Duration GENEROUS = Duration.ofMinutes(5);
    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    /** What each caller does: sign message i with set p, verify it, and keep the signature. */
    private static final class Storm {
        final ParameterSet[] sets;
        final byte[][] signatures;
        final AtomicInteger verified = new AtomicInteger();
        final Batcher batcher;

        Storm(Batcher batcher, int callers, ParameterSet... sets) {
            this.batcher = batcher;
            this.sets = sets;
            this.signatures = new byte[callers][];
            for (ParameterSet p : sets) {
                keys(p);
            }
        }

        ParameterSet set(int i) {
            return sets[i % sets.length];
        }

        void call(int i) {
            ParameterSet p = set(i);
            Fixtures.KeyPair kp = keys(p);
            byte[] mu = mu(p, kp.tr, message(i));
            try {
                byte[] sig = Engines.await(batcher.sign(p, kp.sk, mu, rnd(p, i)), SignatureException::new);
                signatures[i] = sig;
                if (Engines.await(batcher.verify(p, kp.pk, mu, sig), SignatureException::new)) {
                    verified.incrementAndGet();
                }
            } catch (SignatureException e) {
                throw new AssertionError("caller " + i, e);
            }
        }

        void check() {
            assertEquals(signatures.length, verified.get(), "every signature verified in the batcher");
            for (int i = 0; i < signatures.length; i++) {
                ParameterSet p = set(i);
                assertNotNull(signatures[i], "caller " + i);
                assertTrue(Fixtures.referenceVerifies(p, keys(p).pk, message(i), signatures[i]),
                        "caller " + i + " " + p);
            }
        }
    }

    private static Batcher open(String name, BatchConfig.Builder config) {
        return new Batcher(config.jmxName("io.dilithiumgpu:type=Batcher,name=" + name).build(),
                new CpuBackend(), null);
    }

    private static double meanBatchSize(String name) throws Exception {
        return (Double) JMX.getAttribute(new ObjectName("io.dilithiumgpu:type=Batcher,name=" + name),
                "MeanBatchSize");
    }

    @Test
    void thousandPlatformThreadsOverEverySet() throws Exception {
        Batcher b = open("platformStorm", BatchConfig.builder());
        Storm storm = new Storm(b, 1000, ParameterSet.values());
        try {
            assertTimeoutPreemptively(GENEROUS, () -> {
                CountDownLatch start = new CountDownLatch(1);
                Thread[] threads = new Thread[storm.signatures.length];
                for (int i = 0; i < threads.length; i++) {
                    int caller = i;
                    threads[i] = new Thread(() -> {
                        try {
                            start.await();
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                        storm.call(caller);
                    });
                    threads[i].start();
                }
                start.countDown();
                for (Thread t : threads) {
                    t.join();
                }
            });
            storm.check();
            double mean = meanBatchSize("platformStorm");
            assertTrue(mean > 4, "mean batch size " + mean);
            assertEquals(2000, b.metrics().getOperationCount());
        } finally {
            b.close();
        }
    }

    @Test
    void tenThousandVirtualThreadsDoNotPinTheirCarriers() throws Exception {
        int feature = Runtime.version().feature();
        assumeTrue(feature >= 21, "virtual threads need JDK 21 or later; this is JDK " + feature);
        // A small queue, so that thousands of virtual threads block on backpressure too.
        Batcher b = open("virtualStorm", BatchConfig.builder().queueCapacity(256));
        Storm storm = new Storm(b, 10_000, ParameterSet.ML_DSA_44, ParameterSet.DILITHIUM2);
        AtomicInteger pinnedInProvider = new AtomicInteger();
        CountDownLatch flushedAfterStorm = new CountDownLatch(1);
        AtomicInteger stormDone = new AtomicInteger();
        try (RecordingStream jfr = new RecordingStream()) {
            jfr.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            jfr.onEvent("jdk.VirtualThreadPinned", e -> {
                List<RecordedFrame> frames = e.getStackTrace() == null ? List.of() : e.getStackTrace().getFrames();
                if (frames.stream().anyMatch(f -> f.getMethod().getType().getName().startsWith("io.dilithiumgpu."))) {
                    pinnedInProvider.incrementAndGet();
                }
            });
            jfr.onFlush(() -> {
                if (stormDone.get() == 1) {
                    flushedAfterStorm.countDown();
                }
            });
            jfr.startAsync();
            assertTimeoutPreemptively(GENEROUS, () -> {
                ExecutorService virtualThreads =
                        (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
                for (int i = 0; i < storm.signatures.length; i++) {
                    int caller = i;
                    virtualThreads.execute(() -> storm.call(caller));
                }
                virtualThreads.shutdown();
                assertTrue(virtualThreads.awaitTermination(GENEROUS.toSeconds(), TimeUnit.SECONDS));
                stormDone.set(1);
                assertTrue(flushedAfterStorm.await(60, TimeUnit.SECONDS), "JFR flushed");
            });
            double mean = meanBatchSize("virtualStorm");
            assertTrue(mean > 4, "mean batch size " + mean);
        } finally {
            b.close();
        }
        storm.check();
        assertEquals(0, pinnedInProvider.get(), "virtual threads pinned inside the provider");
    }
}
