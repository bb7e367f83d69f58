package io.dilithiumgpu.batch;

import io.dilithiumgpu.DilithiumGpuProvider;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import io.dilithiumgpu.route.RouteSetting;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.Signature;
import java.util.EnumMap;
import java.util.Map;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import static io.dilithiumgpu.batch.Fixtures.keys;
import static io.dilithiumgpu.batch.Fixtures.message;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Thread storms: many callers, each signing and verifying one message with plain JCA calls on the
 * {@code DilithiumGPU} provider, pinned to the shared batcher ({@code dilithiumgpu.route=batch});
 * every signature is checked by an independent verifier, and the shared batcher's MBean must show
 * real batching over the storm.
 */
@Timeout(300)
class BatcherStormTest {
    private static final Duration GENEROUS = Duration.ofMinutes(5);
    private static final int CALLERS = 1000;
    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    private static final Provider PROVIDER = new DilithiumGpuProvider();

    @BeforeAll
    static void throughTheBatcher() {
        System.setProperty(RouteSetting.PROPERTY, "batch");
    }

    @AfterAll
    static void unpin() {
        System.clearProperty(RouteSetting.PROPERTY);
    }

    /**
     * What each caller does: for every set of the storm in turn, sign its own message, verify it,
     * and keep the signature (slot {@code caller * sets + k}).
     */
    private static final class Storm {
        final int callers;
        final ParameterSet[] sets;
        final byte[][] signatures;
        final AtomicInteger verified = new AtomicInteger();
        final Map<ParameterSet, DilithiumPrivateKey> privateKeys = new EnumMap<>(ParameterSet.class);
        final Map<ParameterSet, DilithiumPublicKey> publicKeys = new EnumMap<>(ParameterSet.class);

        Storm(int callers, ParameterSet... sets) {
            this.callers = callers;
            this.sets = sets;
            this.signatures = new byte[callers * sets.length][];
            for (ParameterSet p : sets) {
                privateKeys.put(p, DilithiumPrivateKey.of(p, null, keys(p).sk, null));
                publicKeys.put(p, DilithiumPublicKey.of(p, keys(p).pk));
            }
        }

        ParameterSet set(int slot) {
            return sets[slot % sets.length];
        }

        /** Caller i signs and verifies its message once with every set of the storm. */
        void call(int i) {
            for (int k = 0; k < sets.length; k++) {
                int slot = i * sets.length + k;
                ParameterSet p = sets[k];
                try {
                    Signature signer = Signature.getInstance(p.algorithmName(), PROVIDER);
                    signer.initSign(privateKeys.get(p));
                    signer.update(message(slot));
                    byte[] sig = signer.sign();
                    signatures[slot] = sig;
                    Signature verifier = Signature.getInstance(p.algorithmName(), PROVIDER);
                    verifier.initVerify(publicKeys.get(p));
                    verifier.update(message(slot));
                    if (verifier.verify(sig)) {
                        verified.incrementAndGet();
                    }
                } catch (GeneralSecurityException e) {
                    throw new AssertionError("caller " + i + " " + p, e);
                }
            }
        }

        void check() {
            assertEquals(signatures.length, verified.get(), "every signature verified in the provider");
            for (int i = 0; i < signatures.length; i++) {
                ParameterSet p = set(i);
                assertNotNull(signatures[i], "caller " + i);
                assertTrue(Fixtures.referenceVerifies(p, keys(p).pk, message(i), signatures[i]),
                        "caller " + i + " " + p);
            }
        }
    }

    /** Operations and batches of the shared batcher, read over JMX. */
    private static long[] sharedCounters() throws Exception {
        Engines.shared();
        ObjectName name = new ObjectName(Engines.MBEAN_NAME);
        return new long[] {(Long) JMX.getAttribute(name, "OperationCount"), (Long) JMX.getAttribute(name, "BatchCount")};
    }

    /** The mean batch size of the shared batcher since {@code before}. */
    private static double meanBatchSizeSince(long[] before) throws Exception {
        long[] after = sharedCounters();
        return (double) (after[0] - before[0]) / (after[1] - before[1]);
    }

    @Test
    void thousandPlatformThreadsOverEverySet() throws Exception {
        Storm storm = new Storm(CALLERS, ParameterSet.values());
        long[] before = sharedCounters();
        assertTimeoutPreemptively(GENEROUS, () -> {
            // A start gate the threads poll, yielding: a CountDownLatch would wake its 1,000 waiters
            // one after another (each woken thread unparks the next), and on two cores under load
            // that chain trickles callers in over most of the storm instead of all at once.
            AtomicBoolean go = new AtomicBoolean();
            Thread[] threads = new Thread[CALLERS];
            for (int i = 0; i < threads.length; i++) {
                int caller = i;
                threads[i] = new Thread(() -> {
                    while (!go.get()) {
                        Thread.yield();
                    }
                    storm.call(caller);
                });
                threads[i].start();
            }
            go.set(true);
            for (Thread t : threads) {
                t.join();
            }
        });
        double mean = meanBatchSizeSince(before);
        storm.check();
        assertTrue(mean > 4, "mean batch size " + mean);
    }

    /**
     * True for a pin that the JDK, not the provider, causes. JDK 24 and later name the reason
     * (field {@code pinnedReason}): "Freeze or preempt failed (2)" (freeze_pinned_cs) is a virtual
     * thread contending for a class-loading or class-initialization lock inside the JVM, and
     * "Waited for initialization of C by another thread" is a first use of class C racing with
     * another thread. The latter counts when C is one of ours (an initializer of the provider that
     * blocks, as a holder-class SecureRandom once did), not when C is a JDK class (the JDK's DRBG
     * classes initialize on the first signatures). A monitor held by the provider, or a native
     * frame, is reported with a reason that names it and always counts. JDK 21 to 23 give no
     * reason: every pin counts.
     */
    static boolean pinCausedByTheJdk(RecordedEvent e) {
        if (!e.hasField("pinnedReason")) {
            return false;
        }
        String reason = e.getString("pinnedReason");
        if (reason == null) {
            return false;
        }
        if (reason.contains("(2)")) {
            return true;
        }
        Matcher m = CLASS_INIT_WAIT.matcher(reason);
        return m.find() && !m.group(1).startsWith("io.dilithiumgpu.");
    }

    private static final Pattern CLASS_INIT_WAIT = Pattern.compile("Waited for initialization of (\\S+)");

    @Test
    void tenThousandVirtualThreadsDoNotPinTheirCarriers() throws Exception {
        int feature = Runtime.version().feature();
        assumeTrue(feature >= 21, "virtual threads need JDK 21 or later; this is JDK " + feature);
        // One caller first, before the recording: the classes of the signing path initialize on
        // their first use, and a virtual thread that meets an initialization in progress waits for
        // it pinned (a JDK limitation; seen with 16 carriers). The storm measures the steady state.
        new Storm(1, ParameterSet.values()).call(0);
        Storm storm = new Storm(10_000, ParameterSet.values());
        long[] before = sharedCounters();
        AtomicInteger pinnedInProvider = new AtomicInteger();
        CountDownLatch flushedAfterStorm = new CountDownLatch(1);
        AtomicInteger stormDone = new AtomicInteger();
        try (RecordingStream jfr = new RecordingStream()) {
            jfr.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            jfr.onEvent("jdk.VirtualThreadPinned", e -> {
                List<RecordedFrame> frames = e.getStackTrace() == null ? List.of() : e.getStackTrace().getFrames();
                if (frames.stream().anyMatch(f -> f.getMethod().getType().getName().startsWith("io.dilithiumgpu."))
                        && !pinCausedByTheJdk(e)) {
                    pinnedInProvider.incrementAndGet();
                    System.out.println("pinned inside the provider: " + e);
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
                for (int i = 0; i < storm.callers; i++) {
                    int caller = i;
                    virtualThreads.execute(() -> storm.call(caller));
                }
                virtualThreads.shutdown();
                assertTrue(virtualThreads.awaitTermination(GENEROUS.toSeconds(), TimeUnit.SECONDS));
                stormDone.set(1);
                assertTrue(flushedAfterStorm.await(60, TimeUnit.SECONDS), "JFR flushed");
            });
        }
        double mean = meanBatchSizeSince(before);
        storm.check();
        assertEquals(0, pinnedInProvider.get(), "virtual threads pinned inside the provider");
        assertTrue(mean > 4, "mean batch size " + mean);
    }
}
