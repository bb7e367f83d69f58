package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;
import io.dilithiumgpu.core.Scheme;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.security.InvalidKeyException;
import java.security.ProviderException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.dilithiumgpu.batch.Fixtures.keys;
import static io.dilithiumgpu.batch.Fixtures.message;
import static io.dilithiumgpu.batch.Fixtures.mu;
import static io.dilithiumgpu.batch.Fixtures.rnd;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Results, per-task failures, secret wiping and the CPU fallback of {@link Batcher}. */
@Timeout(120)
class BatcherTest {
    private static final Duration GENEROUS = Duration.ofMinutes(2);

    private final List<Batcher> opened = new ArrayList<>();
    private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
    private final Logger julLogger = Logger.getLogger(Batcher.class.getName());
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(r);
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @BeforeEach
    void captureLog() {
        julLogger.addHandler(capture);
    }

    @AfterEach
    void closeAll() {
        julLogger.removeHandler(capture);
        opened.forEach(Batcher::close);
    }

    private Batcher open(BatchConfig config, Backend primary, Supplier<Backend> fallback) {
        Batcher b = new Batcher(config, primary, fallback);
        opened.add(b);
        return b;
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void keyGenSignVerifyMatchTheReference(ParameterSet p) {
        Batcher b = open(BatchConfig.builder().build(), new CpuBackend(), null);
        byte[] seed = new byte[ParameterSet.SEED_BYTES];
        seed[0] = 42;
        byte[][] pair = b.keyGen(p, seed).join();
        byte[] pk = new byte[p.publicKeyBytes()];
        byte[] sk = new byte[p.privateKeyBytes()];
        Scheme.keyGen(p, seed, 0, pk, 0, sk, 0);
        assertArrayEquals(pk, pair[0]);
        assertArrayEquals(sk, pair[1]);

        byte[] msg = message(1);
        byte[] mu = mu(p, Scheme.tr(p, pk, 0), msg);
        byte[] sig = b.sign(p, sk, mu, rnd(p, 1)).join();
        assertTrue(Fixtures.referenceVerifies(p, pk, msg, sig));
        assertTrue(b.verify(p, pk, mu, sig).join());
        sig[sig.length / 2] ^= 1;
        assertFalse(b.verify(p, pk, mu, sig).join());
    }

    /**
     * With virtual completion, a finished batch's futures complete on a virtual thread where the
     * JDK has them (on the batch thread before JDK 21), with the same results and counts; close
     * returns only once every one of them has completed.
     */
    @Test
    void virtualCompletionDeliversOnAVirtualThreadAndCloseWaitsForIt() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_44;
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 128);
        Batcher b = open(BatchConfig.builder().virtualCompletion(true).maxInFlight(1).build(), spy, null);
        Fixtures.KeyPair kp = keys(p);
        byte[] mu = mu(p, kp.tr, message(3));
        byte[] sig = b.sign(p, kp.sk, mu, rnd(p, 3)).join();
        // The requests queue behind a held batch, so that each completion stage is attached
        // before its future can complete.
        CompletableFuture<byte[]> held = signHeld(spy, b, p, kp);
        List<Boolean> onVirtual = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Boolean>> verdicts = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            byte[] s = sig.clone();
            if (i % 2 == 1) {
                s[i] ^= 1;
            }
            CompletableFuture<Boolean> f = b.verify(p, kp.pk, mu, s);
            f.whenComplete((v, e) -> onVirtual.add(VirtualThreads.isVirtual(Thread.currentThread())));
            verdicts.add(f);
        }
        spy.release();
        b.close();
        assertTrue(held.isDone());
        for (int i = 0; i < verdicts.size(); i++) {
            assertTrue(verdicts.get(i).isDone(), "request " + i + " completed before close returned");
            assertEquals(i % 2 == 0, verdicts.get(i).join(), "verdict of request " + i);
        }
        assertEquals(VirtualThreads.available(), onVirtual.stream().allMatch(v -> v),
                "completed on virtual threads exactly where the JDK has them: " + onVirtual);
        assertEquals(66, b.metrics().getDeliveredCount(), "every request counted once, after close");
    }

    /**
     * Holds the backend's next batch and sends it one signature, so that the requests made next
     * queue behind it (one batch in flight) and go together once {@code spy.release()} is called.
     */
    /**
     * Checks that the batch after the held one ran as {@code n} one-key records, then holds the
     * next batch ({@link #signHeld}).
     */
    private static CompletableFuture<byte[]> oneKeyBatchThenHold(SpyBackend spy, Batcher b, ParameterSet p,
                                                                Fixtures.KeyPair kp, int n) throws InterruptedException {
        assertEquals(List.of(false, true), spy.oneKey.subList(0, 2), "the held batch, then one-key records");
        assertEquals(n, spy.batchSizes.get(1));
        spy.entered.drainPermits();  // the batches above entered: the next permit is the held one's
        return signHeld(spy, b, p, kp);
    }

    private static CompletableFuture<byte[]> signHeld(SpyBackend spy, Batcher b, ParameterSet p, Fixtures.KeyPair kp)
            throws InterruptedException {
        spy.hold();
        CompletableFuture<byte[]> held = b.sign(p, kp.sk, mu(p, kp.tr, message(0)), rnd(p, 0));
        assertTrue(spy.awaitEntered(1));
        return held;
    }

    @Test
    void badRequestsInsideABusyBatchFailAlone() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_44;
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 64);
        Batcher b = open(BatchConfig.builder().maxInFlight(1).build(), spy, null);
        Fixtures.KeyPair kp = keys(p);
        assertTimeoutPreemptively(GENEROUS, () -> {
            CompletableFuture<byte[]> first = signHeld(spy, b, p, kp);

            int n = 24;
            int badKey = 7;
            List<CompletableFuture<byte[]>> signs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                byte[] sk = i == badKey ? Fixtures.malformedPrivateKey(p) : kp.sk;
                signs.add(b.sign(p, sk, mu(p, kp.tr, message(i)), rnd(p, i)));
            }
            spy.release();
            first.join();
            for (int i = 0; i < n; i++) {
                if (i == badKey) {
                    CompletionException e = assertThrows(CompletionException.class, signs.get(i)::join);
                    assertInstanceOf(InvalidKeyException.class, e.getCause());
                } else {
                    assertTrue(Fixtures.referenceVerifies(p, kp.pk, message(i), signs.get(i).join()));
                }
            }
            assertTrue(spy.batchSizes.contains(n), "the bad key ran inside one batch: " + spy.batchSizes);

            first = signHeld(spy, b, p, kp);
            int corrupted = 11;
            List<CompletableFuture<Boolean>> verifies = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                byte[] sig = signs.get(i == badKey ? 0 : i).join().clone();
                int signed = i == badKey ? 0 : i;
                if (i == corrupted) {
                    sig[3] ^= 0x40;
                }
                verifies.add(b.verify(p, kp.pk, mu(p, kp.tr, message(signed)), sig));
            }
            spy.release();
            first.join();
            for (int i = 0; i < n; i++) {
                assertEquals(i != corrupted, verifies.get(i).join(), "verification " + i);
            }
            assertEquals(1, b.metrics().getFailedOperations());
        });
    }

    /**
     * The in-place forms (for the JCA layer, which blocks until the result) read the caller's
     * arrays when the batch loads, not when the call is made, and zero a signing key and rnd once
     * read; the copying forms take their copies at once.
     */
    @Test
    void inPlaceFormsReadTheArraysWhenTheBatchLoadsAndWipeTheSecrets() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_65;
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 16);
        Batcher b = open(BatchConfig.builder().maxInFlight(1).build(), spy, null);
        Fixtures.KeyPair kp = keys(p);
        assertTimeoutPreemptively(GENEROUS, () -> {
            CompletableFuture<byte[]> first = signHeld(spy, b, p, kp);

            byte[] sk = kp.sk.clone();
            byte[] rnd = rnd(p, 1);
            byte[] signMu = mu(p, kp.tr, message(1));
            CompletableFuture<byte[]> signed = b.signInPlace(p, sk, null, signMu, rnd);
            byte[] copiedMu = mu(p, kp.tr, message(2));
            CompletableFuture<byte[]> copied = b.sign(p, kp.sk, null, copiedMu, rnd(p, 2));
            byte[] verifyMu = mu(p, kp.tr, message(3));
            byte[] sig3 = new byte[p.signatureBytes()];
            Scheme.sign(p, kp.sk, 0, verifyMu, 0, rnd(p, 3), 0, sig3, 0);
            CompletableFuture<Boolean> verified = b.verifyInPlace(p, kp.pk, null, verifyMu, sig3);
            // Before the batch loads: the in-place requests see these changes, the copied one does not.
            System.arraycopy(mu(p, kp.tr, message(4)), 0, signMu, 0, signMu.length);
            System.arraycopy(mu(p, kp.tr, message(5)), 0, copiedMu, 0, copiedMu.length);
            sig3[7] ^= 1;
            spy.release();
            first.join();

            assertTrue(Fixtures.referenceVerifies(p, kp.pk, message(4), signed.join()), "signed the μ as it was at load");
            assertTrue(Fixtures.referenceVerifies(p, kp.pk, message(2), copied.join()), "signed the μ as it was at the call");
            assertFalse(verified.join(), "verified the signature as it was at load");
            assertTrue(Fixtures.allZero(sk), "the in-place private key is zeroed once read");
            assertTrue(Fixtures.allZero(rnd), "the in-place rnd is zeroed once read");
        });
    }

    /**
     * A {@link SigningKey} is read when the batch runs, straight into the record; one that can no
     * longer be read (a destroyed key) fails alone, and has its rnd wiped.
     */
    @Test
    void signingKeysAreReadWhenTheBatchRunsAndAnUnreadableOneFailsAlone() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_44;
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 16);
        Batcher b = open(BatchConfig.builder().maxInFlight(1).build(), spy, null);
        Fixtures.KeyPair kp = keys(p);
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        SigningKey live = (dst, offset) -> {
            reads.incrementAndGet();
            dst.put(offset, kp.sk, 0, kp.sk.length);
            return true;
        };
        SigningKey destroyed = (dst, offset) -> false;
        assertTimeoutPreemptively(GENEROUS, () -> {
            CompletableFuture<byte[]> first = signHeld(spy, b, p, kp);
            int n = 6;
            int bad = 2;
            List<byte[]> rnds = new ArrayList<>();
            List<CompletableFuture<byte[]>> signs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                rnds.add(rnd(p, i));
                signs.add(b.signInPlace(p, i == bad ? destroyed : live, null, mu(p, kp.tr, message(i)), rnds.get(i)));
            }
            assertEquals(0, reads.get(), "read before the batch runs");
            spy.release();
            first.join();
            for (int i = 0; i < n; i++) {
                if (i == bad) {
                    CompletionException e = assertThrows(CompletionException.class, signs.get(i)::join);
                    assertInstanceOf(InvalidKeyException.class, e.getCause());
                    assertTrue(e.getCause().getMessage().contains("destroyed"), e.getCause().getMessage());
                } else {
                    assertTrue(Fixtures.referenceVerifies(p, kp.pk, message(i), signs.get(i).join()), "signature " + i);
                }
                assertTrue(Fixtures.allZero(rnds.get(i)), "rnd " + i + " zeroed once read");
            }
            assertEquals(n - 1, reads.get(), "each live request's key read once, into its record");
            assertEquals(List.of(1, n), spy.batchSizes);
            assertEquals(List.of(false, false), spy.oneKey, "two keys: a record each");
            assertEquals(1, b.metrics().getFailedOperations());
        });
    }

    /**
     * A batch whose signing requests all name one {@link SigningKey} and cache reads the key once
     * and runs as one-key records, on the heap and in host buffers, with the signatures that
     * records of their own would give; its key's copy is zeroed with the batch. One destroyed
     * before the batch runs fails every request of it, and the backend runs none.
     */
    @Test
    void aBatchOfOneSigningKeyReadsItOnceAndRunsAsOneKeyRecords() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_65;
        Fixtures.KeyPair kp = keys(p);
        for (boolean hostBuffers : new boolean[] {false, true}) {
            SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 16);
            if (hostBuffers) {
                spy.preferHostBuffers();
            }
            Batcher b = open(BatchConfig.builder().maxInFlight(1).build(), spy, null);
            java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicBoolean gone = new java.util.concurrent.atomic.AtomicBoolean();
            SigningKey key = (dst, offset) -> {
                if (gone.get()) {
                    return false;
                }
                reads.incrementAndGet();
                dst.put(offset, kp.sk, 0, kp.sk.length);
                return true;
            };
            PrivateKeyCache cache = new PrivateKeyCache(p);
            int n = 7;
            assertTimeoutPreemptively(GENEROUS, () -> {
                CompletableFuture<byte[]> first = signHeld(spy, b, p, kp);
                List<CompletableFuture<byte[]>> signs = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    signs.add(b.signInPlace(p, key, cache, mu(p, kp.tr, message(i)), rnd(p, i)));
                }
                spy.release();
                first.join();
                for (int i = 0; i < n; i++) {
                    byte[] expected = new byte[p.signatureBytes()];
                    Scheme.sign(p, kp.sk, 0, null, mu(p, kp.tr, message(i)), 0, rnd(p, i), 0, expected, 0);
                    assertArrayEquals(expected, signs.get(i).join(), "signature " + i + " (host buffers: " + hostBuffers + ")");
                }
                assertEquals(1, reads.get(), "the key read once for the batch: " + spy.batchSizes + " " + spy.oneKey + " host " + hostBuffers);
                first = oneKeyBatchThenHold(spy, b, p, kp, n);
                signs.clear();
                for (int i = 0; i < n; i++) {
                    signs.add(b.signInPlace(p, key, cache, mu(p, kp.tr, message(i)), rnd(p, i)));
                }
                gone.set(true);
                spy.release();
                first.join();
                for (CompletableFuture<byte[]> s : signs) {
                    CompletionException e = assertThrows(CompletionException.class, s::join);
                    assertInstanceOf(InvalidKeyException.class, e.getCause());
                    assertTrue(e.getCause().getMessage().contains("destroyed"), e.getCause().getMessage());
                }
                assertEquals(1, spy.batchSizes.lastIndexOf(n), "no batch ran for the destroyed key: " + spy.batchSizes);
            });
            b.close();
            assertFalse(spy.secretArrays.isEmpty());
            for (byte[] secret : spy.secretArrays) {
                assertTrue(Fixtures.allZero(secret), "a key or rnd array was not zeroed (host buffers: " + hostBuffers + ")");
            }
            for (ByteBuffer view : spy.secretHostViews) {
                assertTrue(allZero(view), "an rnd host buffer was not zeroed");
            }
        }
    }

    /**
     * A batch whose verifications all name one public-key array and cache runs as one-key records
     * on that array, on the heap and in host buffers: a forged signature among them is rejected
     * alone, and a request of another array makes the next batch one of records per task.
     */
    @Test
    void aBatchOfOnePublicKeyRunsAsOneKeyRecordsOnItsArray() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_87;
        Fixtures.KeyPair kp = keys(p);
        int n = 6;
        int forged = 4;
        List<byte[]> sigs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] sig = new byte[p.signatureBytes()];
            Scheme.sign(p, kp.sk, 0, null, mu(p, kp.tr, message(i)), 0, rnd(p, i), 0, sig, 0);
            if (i == forged) {
                sig[7] ^= 1;
            }
            sigs.add(sig);
        }
        for (boolean hostBuffers : new boolean[] {false, true}) {
            SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 16);
            if (hostBuffers) {
                spy.preferHostBuffers();
            }
            Batcher b = open(BatchConfig.builder().maxInFlight(1).build(), spy, null);
            PublicKeyCache cache = new PublicKeyCache(p);
            byte[] pk = kp.pk.clone();
            assertTimeoutPreemptively(GENEROUS, () -> {
                CompletableFuture<byte[]> first = signHeld(spy, b, p, kp);
                List<CompletableFuture<Boolean>> verdicts = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    verdicts.add(b.verifyInPlace(p, pk, cache, mu(p, kp.tr, message(i)), sigs.get(i)));
                }
                spy.release();
                first.join();
                for (int i = 0; i < n; i++) {
                    assertEquals(i != forged, verdicts.get(i).join(), "verification " + i);
                }
                first = oneKeyBatchThenHold(spy, b, p, kp, n);
                verdicts.clear();
                for (int i = 0; i < n; i++) {
                    byte[] key = i == 1 ? kp.pk.clone() : pk;
                    verdicts.add(b.verifyInPlace(p, key, cache, mu(p, kp.tr, message(i)), sigs.get(i)));
                }
                spy.release();
                first.join();
                for (int i = 0; i < n; i++) {
                    assertEquals(i != forged, verdicts.get(i).join(), "verification " + i + " of two arrays");
                }
                assertEquals(List.of(false, true, false, false), spy.oneKey, "two arrays: a record each");
            });
            b.close();
        }
    }

    /**
     * Requests that give a short message and their key's tr instead of μ ({@link
     * Batcher#signMessageInPlace}, {@link Batcher#verifyMessageInPlace}), among requests of μ: a
     * one-key batch hands a backend that hashes messages its records as they are, the μ of the
     * others beside them; to a backend that does not, and for a batch of two keys, the batch hashes
     * them itself. Signatures and verdicts are the core's on μ = H(tr ‖ M′), a forged signature
     * rejected alone, on the heap and in host buffers.
     */
    @Test
    void shortMessagesReachABackendThatHashesThemInOneKeyBatches() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_44;
        Fixtures.KeyPair kp = keys(p);
        int n = 7;
        int forged = 3;
        byte[][] records = new byte[n][];
        byte[][] mus = new byte[n][];
        byte[][] sigs = new byte[n][];
        for (int i = 0; i < n; i++) {
            byte[] m = java.util.Arrays.copyOf(message(i), 11 * i);  // M' of 2 to 68 bytes
            records[i] = messageRecord(new byte[] {0, 0}, m);
            mus[i] = mu(p, kp.tr, m);
            sigs[i] = new byte[p.signatureBytes()];
            Scheme.sign(p, kp.sk, 0, null, mus[i], 0, rnd(p, i), 0, sigs[i], 0);
        }
        for (boolean hashes : new boolean[] {false, true}) {
            for (boolean hostBuffers : new boolean[] {false, true}) {
                SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 16);
                if (hostBuffers) {
                    spy.preferHostBuffers();
                }
                if (hashes) {
                    spy.hashMessages();
                }
                Batcher b = open(BatchConfig.builder().maxInFlight(1).build(), spy, null);
                assertEquals(hashes, b.takesMessages(p, io.dilithiumgpu.backend.Operation.SIGN));
                SigningKey key = (dst, offset) -> {
                    dst.put(offset, kp.sk, 0, kp.sk.length);
                    return true;
                };
                SigningKey sameBytes = (dst, offset) -> {
                    dst.put(offset, kp.sk, 0, kp.sk.length);
                    return true;
                };
                PrivateKeyCache cache = new PrivateKeyCache(p);
                PublicKeyCache verifier = new PublicKeyCache(p);
                String how = "hashing backend: " + hashes + ", host buffers: " + hostBuffers;
                assertTimeoutPreemptively(GENEROUS, () -> {
                    for (boolean twoKeys : new boolean[] {false, true}) {
                        int before = spy.messageBatches.size();
                        CompletableFuture<byte[]> first = signHeld(spy, b, p, kp);
                        List<CompletableFuture<byte[]>> signs = new ArrayList<>();
                        for (int i = 0; i < n; i++) {
                            SigningKey k = twoKeys && i == 2 ? sameBytes : key;
                            signs.add(i % 3 == 1 ? b.signInPlace(p, k, cache, mus[i], rnd(p, i))
                                    : b.signMessageInPlace(p, k, cache, kp.tr, records[i], rnd(p, i)));
                        }
                        spy.release();
                        first.join();
                        for (int i = 0; i < n; i++) {
                            assertArrayEquals(sigs[i], signs.get(i).join(), "signature " + i + ", " + how);
                        }
                        assertEquals(hashes && !twoKeys ? List.of(n) : List.of(),
                                spy.messageBatches.subList(before, spy.messageBatches.size()),
                                "message records reach a hashing backend in one-key batches only; two keys: "
                                        + twoKeys + ", " + how);
                        spy.entered.drainPermits();
                    }
                    int before = spy.messageBatches.size();
                    CompletableFuture<byte[]> first = signHeld(spy, b, p, kp);
                    List<CompletableFuture<Boolean>> verdicts = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        byte[] sig = sigs[i].clone();
                        if (i == forged) {
                            sig[9] ^= 4;
                        }
                        verdicts.add(i % 3 == 1 ? b.verifyInPlace(p, kp.pk, verifier, mus[i], sig)
                                : b.verifyMessageInPlace(p, kp.pk, verifier, kp.tr, records[i], sig));
                    }
                    spy.release();
                    first.join();
                    for (int i = 0; i < n; i++) {
                        assertEquals(i != forged, verdicts.get(i).join(), "verification " + i + ", " + how);
                    }
                    assertEquals(hashes ? List.of(n) : List.of(),
                            spy.messageBatches.subList(before, spy.messageBatches.size()), "verification, " + how);
                });
                b.close();
            }
        }
    }

    /** A {@link io.dilithiumgpu.backend.MessageRecord} of M′ = header ‖ m. */
    private static byte[] messageRecord(byte[] header, byte[] m) {
        byte[] record = new byte[io.dilithiumgpu.backend.MessageRecord.BYTES];
        System.arraycopy(header, 0, record, 0, header.length);
        System.arraycopy(m, 0, record, header.length, m.length);
        io.dilithiumgpu.backend.MessageRecord.tag(record, header.length + m.length);
        return record;
    }

    /**
     * Requests that leave their rnd to the batch ({@link Batcher#signDrawing}) get it from one draw
     * of their source per batch, in the order they loaded, and keep it when the batch reruns on the
     * CPU after the primary failed; a request naming another source draws its own.
     */
    @Test
    void rndsLeftToTheBatchAreDrawnAtOnceAndKeptForARerun() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_65;
        SpyBackend gpu = new SpyBackend(new CpuBackend(), "cuda", 16);
        Batcher b = open(BatchConfig.builder().maxInFlight(1).build(), gpu, CpuBackend::new);
        Fixtures.KeyPair kp = keys(p);
        List<Integer> draws = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Integer> otherDraws = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.function.Consumer<byte[]> pattern = out -> {
            draws.add(out.length);
            for (int k = 0; k < out.length; k++) {
                out[k] = (byte) (7 * k + 1);
            }
        };
        java.util.function.Consumer<byte[]> other = out -> {
            otherDraws.add(out.length);
            java.util.Arrays.fill(out, (byte) 0x5A);
        };
        SigningKey key = (dst, offset) -> {
            dst.put(offset, kp.sk, 0, kp.sk.length);
            return true;
        };
        int n = 5;
        int size = p.rndBytes();
        assertTimeoutPreemptively(GENEROUS, () -> {
            CompletableFuture<byte[]> first = signHeld(gpu, b, p, kp);
            gpu.fail(2, "device lost");  // the held batch and the next fail on the primary and rerun
            List<CompletableFuture<byte[]>> drawn = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                drawn.add(b.signDrawing(p, key, null, mu(p, kp.tr, message(i)), pattern));
                if (i == 2) {
                    drawn.add(b.signDrawing(p, key, null, mu(p, kp.tr, message(9)), other));
                }
            }
            assertTrue(draws.isEmpty() && otherDraws.isEmpty(), "nothing drawn before the batch loads");
            gpu.release();
            first.join();
            for (CompletableFuture<byte[]> f : drawn) {
                f.join();
            }
            assertEquals(List.of(n * size), draws, "one draw for the requests of one source, none for the rerun");
            assertEquals(List.of(size), otherDraws, "a request of another source draws its own");
            for (int i = 0, j = 0; i < drawn.size(); i++) {
                byte[] rnd = new byte[size];
                int m = i == 3 ? 9 : j;
                if (i == 3) {
                    java.util.Arrays.fill(rnd, (byte) 0x5A);
                } else {
                    for (int k = 0; k < size; k++) {
                        rnd[k] = (byte) (7 * (j * size + k) + 1);
                    }
                    j++;
                }
                byte[] expected = b.sign(p, kp.sk, mu(p, kp.tr, message(m)), rnd).join();
                assertArrayEquals(expected, drawn.get(i).join(), "request " + i + " signed with its part of the draw");
            }
        });
        assertEquals(1 + n + 1, b.metrics().getFallbackCount(), "every task of both batches reran");
    }

    /**
     * Each batch names what its key records were copied from: a signing request's
     * {@link SigningKey}, or none for one of key bytes; a verification's public-key array, the
     * caller's for an in-place request, its own copy otherwise. Records in host buffers, as the
     * CUDA backend's, keep them through the copy into arrays.
     */
    @Test
    void batchesNameTheSourceOfEachKeyRecord() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_44;
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 16).preferHostBuffers();
        Batcher b = open(BatchConfig.builder().maxInFlight(1).build(), spy, null);
        Fixtures.KeyPair kp = keys(p);
        SigningKey key = (dst, offset) -> {
            dst.put(offset, kp.sk, 0, kp.sk.length);
            return true;
        };
        PrivateKeyCache signer = new PrivateKeyCache(p);
        PublicKeyCache verifier = new PublicKeyCache(p);
        assertTimeoutPreemptively(GENEROUS, () -> {
            CompletableFuture<byte[]> first = signHeld(spy, b, p, kp);
            List<CompletableFuture<byte[]>> signs = new ArrayList<>();
            signs.add(b.signInPlace(p, key, signer, mu(p, kp.tr, message(1)), rnd(p, 1)));
            signs.add(b.sign(p, kp.sk, signer, mu(p, kp.tr, message(2)), rnd(p, 2)));
            signs.add(b.signInPlace(p, key, signer, mu(p, kp.tr, message(3)), rnd(p, 3)));
            spy.release();
            first.join();
            for (int i = 0; i < 3; i++) {
                assertTrue(Fixtures.referenceVerifies(p, kp.pk, message(i + 1), signs.get(i).join()), "signature " + i);
            }
            first = signHeld(spy, b, p, kp);
            List<CompletableFuture<Boolean>> verifies = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                byte[] mu = mu(p, kp.tr, message(i + 1));
                verifies.add(i == 1 ? b.verify(p, kp.pk, verifier, mu, signs.get(i).join())
                        : b.verifyInPlace(p, kp.pk, verifier, mu, signs.get(i).join()));
            }
            spy.release();
            first.join();
            for (CompletableFuture<Boolean> v : verifies) {
                assertTrue(v.join());
            }
            List<Object[]> ofThree = spy.keySources.stream().filter(s -> s.length == 3).toList();
            assertEquals(2, ofThree.size(), "one signing and one verification batch of three: " + spy.batchSizes);
            assertArrayEquals(new Object[] {key, null, key}, ofThree.get(0));
            Object[] verified = ofThree.get(1);
            assertSame(kp.pk, verified[0]);
            assertSame(kp.pk, verified[2]);
            assertNotNull(verified[1], "a copied request names its copy");
            assertNotSame(kp.pk, verified[1]);
        });
    }

    @Test
    void wrongLengthsAreRefusedWithoutQueueing() {
        ParameterSet p = ParameterSet.ML_DSA_65;
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 8);
        Batcher b = open(BatchConfig.builder().build(), spy, null);
        Fixtures.KeyPair kp = keys(p);
        byte[] mu = mu(p, kp.tr, message(0));
        CompletionException e = assertThrows(CompletionException.class,
                () -> b.sign(p, new byte[p.privateKeyBytes() - 1], mu, rnd(p, 0)).join());
        assertInstanceOf(InvalidKeyException.class, e.getCause());
        e = assertThrows(CompletionException.class,
                () -> b.verify(p, new byte[10], mu, new byte[p.signatureBytes()]).join());
        assertInstanceOf(InvalidKeyException.class, e.getCause());
        assertFalse(b.verify(p, kp.pk, mu, new byte[p.signatureBytes() + 1]).join());
        assertThrows(IllegalArgumentException.class, () -> b.sign(p, kp.sk, new byte[32], rnd(p, 0)));
        assertThrows(IllegalArgumentException.class, () -> b.sign(p, kp.sk, mu, new byte[64]));
        assertThrows(IllegalArgumentException.class, () -> b.keyGen(p, new byte[31]));
        assertTrue(spy.batchSizes.isEmpty());
    }

    /**
     * The stage sums of BatcherMXBean: a request queued behind a batch held 50 ms in the backend
     * (one batch in flight at most) shows that wait as queue time, and the held batch shows it as
     * backend time.
     */
    @Test
    void stageTimesShowWhereTheTimeWent() throws Exception {
        SpyBackend spy = new SpyBackend(new CpuBackend(1), "cpu", 16);
        Batcher b = open(BatchConfig.builder().maxInFlight(1).build(), spy, null);
        Fixtures.KeyPair kp = keys(ParameterSet.ML_DSA_44);
        ParameterSet p = ParameterSet.ML_DSA_44;
        byte[] sig = b.sign(p, kp.sk, mu(p, kp.tr, message(0)), rnd(p, 0)).join();
        BatcherMXBean m = b.metrics();
        awaitDelivered(m, 1);
        long queued0 = m.getQueueWaitNanos();
        long backend0 = m.getBackendNanos();
        long load0 = m.getLoadNanos();
        long complete0 = m.getCompleteNanos();
        long handOff0 = m.getHandOffNanos();
        long batched0 = m.getBatchedNanos();
        assertEquals(0, m.getCallerWakeCount(), "join() is not a blocking call of the provider");

        spy.entered.drainPermits();  // the signing batch's
        spy.hold();
        CompletableFuture<Boolean> first = b.verify(p, kp.pk, mu(p, kp.tr, message(0)), sig);
        assertTrue(spy.awaitEntered(1));
        CompletableFuture<Boolean> second = b.verify(p, kp.pk, mu(p, kp.tr, message(0)), sig);
        long heldNanos = 50_000_000L;
        Thread.sleep(heldNanos / 1_000_000L);
        spy.release();
        assertTimeoutPreemptively(GENEROUS, () -> assertTrue(first.join() && second.join()));
        awaitDelivered(m, 3);

        assertEquals(3, m.getBatchCount(), "sign, then two verification batches (one in flight at most)");
        assertTrue(m.getQueueWaitNanos() - queued0 >= heldNanos,
                "the second request waited for the held batch in the queue: " + (m.getQueueWaitNanos() - queued0));
        assertTrue(m.getBackendNanos() - backend0 >= heldNanos,
                "the held batch counts as backend time: " + (m.getBackendNanos() - backend0));
        assertTrue(m.getLoadNanos() > load0, "loading takes time");
        assertTrue(m.getCompleteNanos() > complete0, "completing takes time");
        assertTrue(m.getHandOffNanos() >= handOff0);
        assertTrue(m.getBatchedNanos() - batched0 >= heldNanos,
                "the held request's time in its batch: " + (m.getBatchedNanos() - batched0));
        assertEquals(0, m.getCallerWakeCount());

        // A blocking call (Engines.await, as the SPIs wait) counts its wake-up.
        boolean ok = Engines.await(b.verify(p, kp.pk, mu(p, kp.tr, message(0)), sig), IllegalStateException::new);
        assertTrue(ok);
        assertEquals(1, m.getCallerWakeCount());
        assertTrue(m.getCallerWakeNanos() >= 0);
        awaitDelivered(m, 4);
    }

    /**
     * Waits until {@code m} counts {@code n} delivered requests: a batch's counters land just
     * after its futures complete, so a caller that has joined may be a moment ahead of them.
     */
    private static void awaitDelivered(BatcherMXBean m, long n) throws InterruptedException {
        long deadline = System.nanoTime() + GENEROUS.toNanos();
        while (m.getDeliveredCount() < n && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(n, m.getDeliveredCount(), "requests delivered");
    }

    @Test
    void secretArraysAreZeroedAfterEveryBatch() {
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cpu", 16);
        Batcher b = open(BatchConfig.builder().build(), spy, null);
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (ParameterSet p : List.of(ParameterSet.DILITHIUM2, ParameterSet.ML_DSA_44)) {
            Fixtures.KeyPair kp = keys(p);
            for (int i = 0; i < 20; i++) {
                byte[] seed = new byte[ParameterSet.SEED_BYTES];
                seed[1] = (byte) i;
                all.add(b.keyGen(p, seed));
                all.add(b.sign(p, kp.sk, mu(p, kp.tr, message(i)), rnd(p, i)));
            }
        }
        assertTimeoutPreemptively(GENEROUS, () -> CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).join());
        assertFalse(spy.secretArrays.isEmpty());
        for (byte[] a : spy.secretArrays) {
            assertTrue(Fixtures.allZero(a), "a private key, seed or rnd array was not zeroed");
        }
    }

    @Test
    void withABackendThatPrefersHostBuffersBatchesLiveThereSecretsAreZeroedAndCloseReleasesThem() {
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cuda", 16).preferHostBuffers();
        Batcher b = open(BatchConfig.builder().build(), spy, null);
        ParameterSet p = ParameterSet.ML_DSA_44;
        Fixtures.KeyPair kp = keys(p);
        List<CompletableFuture<byte[][]>> pairs = new ArrayList<>();
        List<CompletableFuture<byte[]>> sigs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            byte[] seed = new byte[ParameterSet.SEED_BYTES];
            seed[1] = (byte) i;
            pairs.add(b.keyGen(p, seed));
            sigs.add(b.sign(p, kp.sk, mu(p, kp.tr, message(i)), rnd(p, i)));
        }
        assertTimeoutPreemptively(GENEROUS, () -> {
            for (int i = 0; i < 40; i++) {
                byte[] seed = new byte[ParameterSet.SEED_BYTES];
                seed[1] = (byte) i;
                byte[] pk = new byte[p.publicKeyBytes()];
                byte[] sk = new byte[p.privateKeyBytes()];
                Scheme.keyGen(p, seed, 0, pk, 0, sk, 0);
                assertArrayEquals(pk, pairs.get(i).join()[0]);
                assertArrayEquals(sk, pairs.get(i).join()[1]);
                byte[] sig = sigs.get(i).join();
                assertTrue(Fixtures.referenceVerifies(p, kp.pk, message(i), sig));
                assertTrue(b.verify(p, kp.pk, mu(p, kp.tr, message(i)), sig).join());
            }
        });
        assertFalse(spy.hostBuffers.isEmpty(), "the batches' records were in the backend's host buffers");
        assertFalse(spy.secretHostViews.isEmpty());
        for (ByteBuffer v : spy.secretHostViews) {
            assertTrue(allZero(v), "a private-key, seed or rnd host buffer was not zeroed after its batch");
        }
        b.close();
        for (HostBuffer h : spy.hostBuffers) {
            assertTrue(h.isClosed(), "closing the batcher releases its pooled host buffers");
        }
        for (ByteBuffer v : spy.hostViews) {
            assertTrue(allZero(v));
        }
    }

    @Test
    void hostBuffersCanBeTurnedOff() {
        SpyBackend spy = new SpyBackend(new CpuBackend(), "cuda", 16).preferHostBuffers();
        Batcher b = open(BatchConfig.builder().hostBuffers(false).build(), spy, null);
        ParameterSet p = ParameterSet.ML_DSA_65;
        Fixtures.KeyPair kp = keys(p);
        byte[] sig = assertTimeoutPreemptively(GENEROUS,
                () -> b.sign(p, kp.sk, mu(p, kp.tr, message(3)), rnd(p, 3)).join());
        assertTrue(Fixtures.referenceVerifies(p, kp.pk, message(3), sig));
        assertTrue(spy.hostBuffers.isEmpty());
        assertFalse(spy.secretArrays.isEmpty(), "the batch reached the backend as heap arrays");
    }

    private static boolean allZero(ByteBuffer v) {
        for (int i = 0; i < v.limit(); i++) {
            if (v.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    @Test
    void gpuFailuresRerunOnTheCpuAndAreLoggedOncePerCause() {
        ParameterSet p = ParameterSet.ML_DSA_44;
        SpyBackend gpu = new SpyBackend(new CpuBackend(), "cuda", 8);
        gpu.fail(5, "device lost", "launch failed");
        Batcher b = open(BatchConfig.builder().maxInFlight(1).build(), gpu, CpuBackend::new);
        Fixtures.KeyPair kp = keys(p);
        int n = 120;
        List<CompletableFuture<byte[]>> signs = new ArrayList<>();
        List<CompletableFuture<Boolean>> verifies = new ArrayList<>();
        assertTimeoutPreemptively(GENEROUS, () -> {
            for (int i = 0; i < n; i++) {
                signs.add(b.sign(p, kp.sk, mu(p, kp.tr, message(i)), rnd(p, i)));
            }
            for (int i = 0; i < n; i++) {
                verifies.add(b.verify(p, kp.pk, mu(p, kp.tr, message(i)), signs.get(i).join()));
            }
            for (int i = 0; i < n; i++) {
                assertTrue(verifies.get(i).join());
                assertTrue(Fixtures.referenceVerifies(p, kp.pk, message(i), signs.get(i).join()));
            }
        });
        int failedTasks = gpu.batchSizes.subList(0, 5).stream().mapToInt(Integer::intValue).sum();
        BatcherMXBean m = b.metrics();
        assertEquals("cuda", m.getBackend());
        assertEquals(failedTasks, m.getFallbackCount());
        assertEquals(2L * n, m.getOperationCount());
        assertEquals(0, m.getFailedOperations());
        assertEquals(2, warnings.size(), "one warning per distinct cause: " + warnings);
    }

    @Test
    void refusalsAfterOneFailureAreLoggedOnce() {
        ParameterSet p = ParameterSet.DILITHIUM3;
        SpyBackend gpu = new SpyBackend(new CpuBackend(), "cuda", 4);
        gpu.refuse(4, new BackendException("CUDA_ERROR_LAUNCH_FAILED in sign_dilithium3"));
        Batcher b = open(BatchConfig.builder().maxInFlight(1).build(), gpu, CpuBackend::new);
        Fixtures.KeyPair kp = keys(p);
        assertTimeoutPreemptively(GENEROUS, () -> {
            for (int i = 0; i < 6; i++) {
                byte[] sig = b.sign(p, kp.sk, mu(p, kp.tr, message(i)), rnd(p, i)).join();
                assertTrue(Fixtures.referenceVerifies(p, kp.pk, message(i), sig));
            }
        });
        assertEquals(4, b.metrics().getFallbackCount());
        assertEquals(1, warnings.size(), "one warning for one root cause: " + warnings);
    }

    @Test
    void whenTheFallbackFailsTooTheBatchFailsAndNothingHangs() {
        ParameterSet p = ParameterSet.ML_DSA_87;
        SpyBackend gpu = new SpyBackend(new CpuBackend(), "cuda", 4);
        SpyBackend cpu = new SpyBackend(new CpuBackend(), "cpu", 4);
        gpu.fail(1, "device lost");
        cpu.fail(1, "out of memory");
        Batcher b = open(BatchConfig.builder().build(), gpu, () -> cpu);
        Fixtures.KeyPair kp = keys(p);
        assertTimeoutPreemptively(GENEROUS, () -> {
            CompletionException e = assertThrows(CompletionException.class,
                    () -> b.verify(p, kp.pk, mu(p, kp.tr, message(0)), new byte[p.signatureBytes()]).join());
            assertInstanceOf(ProviderException.class, e.getCause());
            assertFalse(b.verify(p, kp.pk, mu(p, kp.tr, message(0)), new byte[p.signatureBytes()]).join());
        });
        assertEquals(1, b.metrics().getFailedOperations());
        assertEquals(1, b.metrics().getFallbackCount());
        b.close();
        assertTrue(cpu.closed.get(), "the fallback backend is closed with the batcher");
    }

    @Test
    void withoutAFallbackOnlyTheFailedBatchFails() {
        ParameterSet p = ParameterSet.DILITHIUM2;
        SpyBackend cpu = new SpyBackend(new CpuBackend(), "cpu", 8);
        Batcher b = open(BatchConfig.builder().build(), cpu, null);
        Fixtures.KeyPair kp = keys(p);
        cpu.fail(1, "worker pool rejected the batch");
        assertTimeoutPreemptively(GENEROUS, () -> {
            CompletableFuture<byte[]> failed = b.sign(p, kp.sk, mu(p, kp.tr, message(0)), rnd(p, 0));
            CompletionException e = assertThrows(CompletionException.class, failed::join);
            assertInstanceOf(ProviderException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("worker pool rejected the batch"));
            byte[] sig = b.sign(p, kp.sk, mu(p, kp.tr, message(1)), rnd(p, 1)).join();
            assertTrue(Fixtures.referenceVerifies(p, kp.pk, message(1), sig));
        });
        assertEquals(1, b.metrics().getFailedOperations());
        assertEquals(0, b.metrics().getFallbackCount());
    }
}
