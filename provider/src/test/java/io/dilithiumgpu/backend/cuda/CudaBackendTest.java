package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.HostBufferFixtures;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.batch.BatchConfig;
import io.dilithiumgpu.batch.Batcher;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.security.InvalidKeyException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongFunction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CUDA backend on a GPU, with small slots (64 tasks, 3 streams per device) so that modest
 * batches already spread over several chunks, slots and devices. Skipped, with the reason,
 * without a usable GPU.
 */
@Timeout(300)
class CudaBackendTest extends GpuBesideCpu {
    private static final int SLOT_TASKS = 64;
    private static final CudaConfig SMALL = CudaConfig.builder().streamsPerDevice(3).slotTasks(SLOT_TASKS)
            .minChunkTasks(8).copyThreads(2).build();

    @Override
    protected CudaConfig config() {
        return SMALL;
    }

    /** Inputs and CPU-made expectations for n tasks of every operation on one set. */
    private final class Case {
        final ParameterSet p;
        final int n;
        final byte[] seeds;
        final byte[] pks;
        final byte[] sks;
        final byte[] mus;
        final byte[] rnds;
        final byte[] sigs;
        final byte[] signStatus;

        Case(ParameterSet p, int n, long seed) {
            this.p = p;
            this.n = n;
            SplittableRandom r = new SplittableRandom(seed);
            seeds = random(r, n * 32);
            pks = new byte[n * p.publicKeyBytes()];
            sks = new byte[n * p.privateKeyBytes()];
            cpu.run(BatchRecords.keyGen(p, n, seeds, pks, sks, new byte[n]));
            mus = random(r, n * 64);
            rnds = random(r, n * p.rndBytes());
            sigs = new byte[n * p.signatureBytes()];
            signStatus = new byte[n];
            cpu.run(BatchRecords.sign(p, n, sks, mus, rnds, sigs, signStatus));
        }

        void checkOnGpu() {
            checkOn(gpu);
        }

        void checkOn(CudaBackend gpu) {
            byte[] pk = new byte[pks.length];
            byte[] sk = new byte[sks.length];
            byte[] status = new byte[n];
            gpu.run(BatchRecords.keyGen(p, n, seeds, pk, sk, status));
            assertArrayEquals(new byte[n], status, p + " keyGen status");
            assertArrayEquals(pks, pk, p + " public keys");
            assertArrayEquals(sks, sk, p + " private keys");
            byte[] sig = new byte[sigs.length];
            gpu.run(BatchRecords.sign(p, n, sks, mus, rnds, sig, status));
            assertArrayEquals(signStatus, status, p + " sign status");
            assertArrayEquals(sigs, sig, p + " signatures");
            gpu.run(BatchRecords.verify(p, n, pks, mus, sigs, status));
            assertArrayEquals(new byte[n], status, p + " verify status");
        }

        /** As {@link #checkOnGpu()}, with every record in host buffers from {@code allocate}. */
        void checkOnGpuInHostBuffers(LongFunction<HostBuffer> allocate) {
            checkInHostBuffers(gpu, allocate);
        }

        /** As {@link #checkOn}, with every record in host buffers from {@code allocate}. */
        void checkInHostBuffers(CudaBackend gpu, LongFunction<HostBuffer> allocate) {
            try (HostBuffer seedsIn = HostBufferFixtures.filled(allocate, seeds);
                 HostBuffer pkOut = allocate.apply(pks.length);
                 HostBuffer skOut = allocate.apply(sks.length);
                 HostBuffer skIn = HostBufferFixtures.filled(allocate, sks);
                 HostBuffer musIn = HostBufferFixtures.filled(allocate, mus);
                 HostBuffer rndsIn = HostBufferFixtures.filled(allocate, rnds);
                 HostBuffer sigOut = allocate.apply(sigs.length);
                 HostBuffer pkIn = HostBufferFixtures.filled(allocate, pks);
                 HostBuffer sigIn = HostBufferFixtures.filled(allocate, sigs)) {
                byte[] status = new byte[n];
                gpu.run(BatchRecords.keyGen(p, n, seedsIn, pkOut, skOut, status));
                assertArrayEquals(new byte[n], status, p + " keyGen status");
                assertArrayEquals(pks, HostBufferFixtures.contents(pkOut), p + " public keys");
                assertArrayEquals(sks, HostBufferFixtures.contents(skOut), p + " private keys");
                gpu.run(BatchRecords.sign(p, n, skIn, musIn, rndsIn, sigOut, status));
                assertArrayEquals(signStatus, status, p + " sign status");
                assertArrayEquals(sigs, HostBufferFixtures.contents(sigOut), p + " signatures");
                gpu.run(BatchRecords.verify(p, n, pkIn, musIn, sigIn, status));
                assertArrayEquals(new byte[n], status, p + " verify status");
            }
        }
    }


    private static byte[] random(SplittableRandom r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void oneTaskOfEachOperationMatchesTheCpu(ParameterSet p) {
        new Case(p, 1, 0x5EED_0001L + p.ordinal()).checkOnGpu();
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void batchesOfManyChunksMatchTheCpu(ParameterSet p) {
        new Case(p, 5 * SLOT_TASKS + 3, 0x5EED_0002L + p.ordinal()).checkOnGpu();
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void batchesInPinnedHostBuffersMatchTheCpu(ParameterSet p) {
        HostBuffer probe = gpu.allocateHost(64);
        assertTrue(probe instanceof PinnedBuffer, "the CUDA backend's host buffers are page-locked");
        probe.close();
        new Case(p, 5 * SLOT_TASKS + 3, 0x5EED_0006L + p.ordinal()).checkOnGpuInHostBuffers(gpu::allocateHost);
    }

    /**
     * Signing on pinned buffers without a listener: the kernels write the signatures and statuses
     * into host memory, nobody is told early, and a bad key (one of the batch's chunks) fails
     * alone with its record cleared.
     */
    @Test
    void signingOnPinnedBuffersWithoutAListenerGivesTheSameSignatures() {
        for (ParameterSet p : List.of(ParameterSet.ML_DSA_44, ParameterSet.DILITHIUM5)) {
            long earlyBefore = gpu.metrics().getEarlyTaskCount();
            new Case(p, 3 * SLOT_TASKS + 7, 0x5EED_0013L + p.ordinal()).checkInHostBuffers(gpu, gpu::allocateHost);
            Case c = new Case(p, 2 * SLOT_TASKS + 5, 0x5EED_0014L + p.ordinal());
            byte[] sks = c.sks.clone();
            int bad = SLOT_TASKS + 1;
            sks[bad * p.privateKeyBytes() + 2 * ParameterSet.SEED_BYTES + p.trBytes()] = (byte) 0xFF;
            int s = p.signatureBytes();
            try (HostBuffer skIn = HostBufferFixtures.filled(gpu::allocateHost, sks);
                 HostBuffer musIn = HostBufferFixtures.filled(gpu::allocateHost, c.mus);
                 HostBuffer rndsIn = HostBufferFixtures.filled(gpu::allocateHost, c.rnds);
                 HostBuffer sigOut = gpu.allocateHost(c.sigs.length)) {
                byte[] status = new byte[c.n];
                gpu.run(BatchRecords.sign(p, c.n, skIn, musIn, rndsIn, sigOut, status).withListener(null));
                byte[] sig = HostBufferFixtures.contents(sigOut);
                for (int i = 0; i < c.n; i++) {
                    assertEquals(i == bad ? TaskStatus.INVALID_KEY : TaskStatus.OK, status[i], "status of task " + i);
                    assertArrayEquals(i == bad ? new byte[s] : record(c.sigs, i, s), record(sig, i, s),
                            "signature record " + i);
                }
            }
            assertEquals(earlyBefore, gpu.metrics().getEarlyTaskCount(), "no listener: nobody told early");
        }
        assertTrue(gpu.healthy());
    }

    /**
     * A call of several chunks runs its first device's share from the caller's thread on the idle
     * slots it claims, launching all before it waits for any, and every other device's share on
     * one of that device's workers: on an idle backend each device gets an equal share, and every
     * result is the CPU's.
     */
    @Test
    void theChunksOfABulkCallRunOnTheCallersThread() {
        CudaBackend fresh = GpuTests.openOrSkip(SMALL);
        try {
            int slots = fresh.openDevices().slots().size();
            int devices = fresh.openDevices().deviceCount();
            Case c = new Case(ParameterSet.ML_DSA_65, 3 * SLOT_TASKS - 5, 0x5EED_0017L);
            c.checkOn(fresh);
            c.checkInHostBuffers(fresh, fresh::allocateHost);
            long chunks = fresh.metrics().getChunkCount();
            assertEquals(2 * 3 * slots, chunks, "keygen, sign and verify, twice, a chunk per slot");
            assertEquals(chunks / devices, fresh.metrics().getInlineChunkCount(),
                    "the first device's chunks run on the caller's thread");
            assertTrue(fresh.healthy());
        } finally {
            fresh.close();
        }
    }

    /**
     * A device's share of more chunks than one thread launches is dealt to several threads
     * ({@link LaunchSplit}): the caller launches only its part of the first device's share, even
     * with a slot idle for every chunk, and every result is the CPU's.
     */
    @Test
    void aShareOfManyChunksIsLaunchedBySeveralThreads() {
        CudaBackend fresh = GpuTests.openOrSkip(SMALL.toBuilder().streamsPerDevice(6).build());
        try {
            int devices = fresh.openDevices().deviceCount();
            // Six chunks of at most a slot on each device: two threads, the caller's part three chunks.
            Case c = new Case(ParameterSet.ML_DSA_44, 6 * SLOT_TASKS * devices - 5, 0x5EED_0018L);
            c.checkOn(fresh);
            c.checkInHostBuffers(fresh, fresh::allocateHost);
            assertEquals(2 * 3 * 6 * devices, fresh.metrics().getChunkCount(), "keygen, sign and verify, twice");
            long inline = fresh.metrics().getInlineChunkCount();
            assertTrue(inline <= 2 * 3 * 3, "the caller launches 3 of its device's 6 chunks per call: " + inline);
            assertTrue(fresh.healthy());
        } finally {
            fresh.close();
        }
    }

    /** A configuration that names a device opens that device alone, and its results are the CPU's. */
    @Test
    void aConfigurationThatNamesADeviceOpensThatOneAlone() {
        int last = gpu.deviceDescriptions().size() - 1;
        CudaBackend one = GpuTests.openOrSkip(SMALL.toBuilder().devices(List.of(last)).build());
        try {
            assertEquals(1, one.deviceDescriptions().size());
            assertTrue(one.description().startsWith("device " + last + " ("), one.description());
            new Case(ParameterSet.ML_DSA_44, 2 * SLOT_TASKS + 3, 0x5EED_0300L).checkOn(one);
            assertTrue(one.healthy());
        } finally {
            one.close();
        }
    }

    /**
     * The batcher over the GPU keeps its pooled batches in the backend's pinned buffers: many
     * concurrent single requests of every operation, one of them with a key that does not decode,
     * come back as the CPU computes them.
     */
    @Test
    void theBatcherOverTheGpuRunsItsBatchesFromPinnedBuffers() {
        CudaBackend fresh = GpuTests.openOrSkip(SMALL);
        assertTrue(fresh.prefersHostBuffers());
        ParameterSet p = ParameterSet.ML_DSA_87;
        Case c = new Case(p, 3 * SLOT_TASKS + 5, 0x5EED_0009L);
        byte[] badKey = Arrays.copyOfRange(c.sks, 0, p.privateKeyBytes());
        badKey[2 * ParameterSet.SEED_BYTES + p.trBytes()] = (byte) 0xFF;
        try (Batcher b = Batcher.open(BatchConfig.builder().build(), fresh)) {
            List<CompletableFuture<byte[][]>> pairs = new ArrayList<>();
            List<CompletableFuture<byte[]>> sigs = new ArrayList<>();
            List<CompletableFuture<Boolean>> verdicts = new ArrayList<>();
            for (int i = 0; i < c.n; i++) {
                pairs.add(b.keyGen(p, Arrays.copyOfRange(c.seeds, i * 32, (i + 1) * 32)));
                sigs.add(b.sign(p, record(c.sks, i, p.privateKeyBytes()), record(c.mus, i, 64),
                        record(c.rnds, i, p.rndBytes())));
                byte[] sig = record(c.sigs, i, p.signatureBytes());
                if (i % 7 == 3) {
                    sig[100] ^= 1;
                }
                verdicts.add(b.verify(p, record(c.pks, i, p.publicKeyBytes()), record(c.mus, i, 64), sig));
            }
            CompletableFuture<byte[]> bad = b.sign(p, badKey, record(c.mus, 0, 64), record(c.rnds, 0, p.rndBytes()));
            for (int i = 0; i < c.n; i++) {
                assertArrayEquals(record(c.pks, i, p.publicKeyBytes()), pairs.get(i).join()[0], "public key " + i);
                assertArrayEquals(record(c.sks, i, p.privateKeyBytes()), pairs.get(i).join()[1], "private key " + i);
                assertArrayEquals(record(c.sigs, i, p.signatureBytes()), sigs.get(i).join(), "signature " + i);
                assertEquals(i % 7 != 3, verdicts.get(i).join(), "verdict " + i);
            }
            CompletionException e = assertThrows(CompletionException.class, bad::join);
            assertInstanceOf(InvalidKeyException.class, e.getCause());
            assertEquals(0, b.metrics().getFallbackCount(), "every batch ran on the GPU");
            assertTrue(fresh.metrics().getEarlyTaskCount() >= c.n, "signatures went to their callers as tasks ended: "
                    + fresh.metrics().getEarlyTaskCount());
            // Before the batcher closes the backend, which then lists no devices.
            long[] perDevice = fresh.metrics().getTaskCountPerDevice();
            assertEquals(fresh.deviceDescriptions().size(), perDevice.length, "a task count per open GPU");
            for (int d = 0; d < perDevice.length; d++) {
                assertTrue(perDevice[d] > 0, "the batcher's batches reach every GPU: " + Arrays.toString(perDevice));
            }
        }
    }

    private static byte[] record(byte[] records, int i, int size) {
        return Arrays.copyOfRange(records, i * size, (i + 1) * size);
    }

    /**
     * Adaptive waits: lone chunks on idle devices and bulk calls spin, lone chunks on busy devices
     * (concurrent callers) sleep on blocking-sync events; the results are the same.
     */
    @Test
    void adaptiveWaitsGiveTheSameResultsWhetherSlotsSpinOrSleep() throws Exception {
        CudaBackend fresh = GpuTests.openOrSkip(SMALL.toBuilder().sync(CudaConfig.Sync.ADAPTIVE).build());
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            for (ParameterSet p : List.of(ParameterSet.ML_DSA_44, ParameterSet.DILITHIUM5)) {
                new Case(p, SLOT_TASKS / 2, 0x5EED_000AL + p.ordinal()).checkOn(fresh);
                new Case(p, 4 * SLOT_TASKS + 1, 0x5EED_000BL + p.ordinal()).checkOn(fresh);
            }
            assertEquals(0, fresh.metrics().getSleptChunkCount(), "one caller at a time: every slot spins");
            List<Case> lone = new ArrayList<>();
            for (ParameterSet p : ParameterSet.values()) {
                // Under 2 × minChunkTasks (8): one chunk, however many slots are free.
                lone.add(new Case(p, 10 + p.ordinal(), 0x5EED_000CL + p.ordinal()));
            }
            List<Future<?>> results = new ArrayList<>();
            for (int round = 0; round < 6; round++) {
                for (Case c : lone) {
                    results.add(callers.submit(() -> c.checkOn(fresh)));
                }
            }
            for (Future<?> f : results) {
                f.get();
            }
            assertTrue(fresh.metrics().getSleptChunkCount() > 0, "concurrent lone chunks: slots slept");
            assertTrue(fresh.healthy());
        } finally {
            callers.shutdown();
            fresh.close();
        }
    }

    /**
     * Signing on pinned buffers with a listener: the kernels write signatures and statuses into
     * host memory and the slots report each task as it ends, exactly once, concurrently over
     * several chunks; the signature a listener reads at that moment is already the final one.
     */
    @ParameterizedTest
    @EnumSource(value = ParameterSet.class, names = {"ML_DSA_44", "DILITHIUM3", "ML_DSA_87"})
    void signingOnPinnedBuffersTellsEachTaskAsItEndsWithItsFinalSignature(ParameterSet p) {
        assertPublishedSigning(gpu, p);
    }

    /** Published signing on {@code gpu}: each task told once, with its final signature; a bad key fails alone. */
    private void assertPublishedSigning(CudaBackend gpu, ParameterSet p) {
        Case c = new Case(p, 2 * SLOT_TASKS + 5, 0x5EED_000AL + p.ordinal());
        byte[] sks = c.sks.clone();
        int bad = SLOT_TASKS + 1;
        sks[bad * p.privateKeyBytes() + 2 * ParameterSet.SEED_BYTES + p.trBytes()] = (byte) 0xFF;
        int s = p.signatureBytes();
        long earlyBefore = gpu.metrics().getEarlyTaskCount();
        try (HostBuffer skIn = HostBufferFixtures.filled(gpu::allocateHost, sks);
             HostBuffer musIn = HostBufferFixtures.filled(gpu::allocateHost, c.mus);
             HostBuffer rndsIn = HostBufferFixtures.filled(gpu::allocateHost, c.rnds);
             HostBuffer sigOut = gpu.allocateHost(c.sigs.length)) {
            java.util.concurrent.atomic.AtomicIntegerArray told = new java.util.concurrent.atomic.AtomicIntegerArray(c.n);
            byte[] toldStatus = new byte[c.n];
            byte[][] seen = new byte[c.n][];
            java.nio.ByteBuffer view = sigOut.buffer();
            byte[] status = new byte[c.n];
            gpu.run(BatchRecords.sign(p, c.n, skIn, musIn, rndsIn, sigOut, status).withListener((task, code) -> {
                told.incrementAndGet(task);
                toldStatus[task] = code;
                byte[] sig = new byte[s];
                view.get(task * s, sig);
                seen[task] = sig;
            }));
            for (int i = 0; i < c.n; i++) {
                assertEquals(1, told.get(i), "task " + i + " told once");
                byte expected = i == bad ? TaskStatus.INVALID_KEY : TaskStatus.OK;
                assertEquals(expected, toldStatus[i], "status told for task " + i);
                assertEquals(expected, status[i], "status of task " + i);
                if (i != bad) {
                    assertArrayEquals(record(c.sigs, i, s), seen[i], "signature read when task " + i + " was told");
                }
            }
            byte[] sig = HostBufferFixtures.contents(sigOut);
            assertArrayEquals(new byte[s], record(sig, bad, s), "the failed task's record is cleared");
        }
        assertEquals(c.n, gpu.metrics().getEarlyTaskCount() - earlyBefore);
    }

    @Test
    void plainHostBuffersAreCopiedThroughArraysWithTheSameResults() {
        new Case(ParameterSet.ML_DSA_44, 2 * SLOT_TASKS + 1, 0x5EED_0007L)
                .checkOnGpuInHostBuffers(HostBuffer::allocate);
    }

    @Test
    void inPinnedBuffersABadKeyFailsAloneAndRecordsBeyondTheBatchAreLeftAlone() {
        ParameterSet p = ParameterSet.ML_DSA_65;
        Case c = new Case(p, 70, 0x5EED_0008L);
        int n = 50;
        byte[] sks = c.sks.clone();
        sks[2 * p.privateKeyBytes() + 2 * ParameterSet.SEED_BYTES + p.trBytes()] = (byte) 0xFF;
        int s = p.signatureBytes();
        try (HostBuffer skIn = HostBufferFixtures.filled(gpu::allocateHost, sks);
             HostBuffer musIn = HostBufferFixtures.filled(gpu::allocateHost, c.mus);
             HostBuffer rndsIn = HostBufferFixtures.filled(gpu::allocateHost, c.rnds);
             HostBuffer sigOut = gpu.allocateHost(c.sigs.length)) {
            byte[] filler = new byte[c.sigs.length];
            Arrays.fill(filler, (byte) 0x5A);
            sigOut.buffer().put(0, filler);
            byte[] status = new byte[c.n];
            Arrays.fill(status, (byte) 0x5A);
            gpu.run(BatchRecords.sign(p, n, skIn, musIn, rndsIn, sigOut, status));
            byte[] sig = HostBufferFixtures.contents(sigOut);
            for (int i = 0; i < c.n; i++) {
                byte expected = i == 2 ? TaskStatus.INVALID_KEY : i < n ? TaskStatus.OK : (byte) 0x5A;
                assertEquals(expected, status[i], "status " + i);
            }
            assertArrayEquals(new byte[s], Arrays.copyOfRange(sig, 2 * s, 3 * s), "the failed task's record");
            assertArrayEquals(Arrays.copyOfRange(c.sigs, 3 * s, n * s), Arrays.copyOfRange(sig, 3 * s, n * s));
            for (int i = n * s; i < sig.length; i++) {
                assertEquals((byte) 0x5A, sig[i], "signature byte " + i + " beyond the batch");
            }
            assertThrows(IllegalArgumentException.class,
                    () -> gpu.run(BatchRecords.sign(p, c.n + 1, skIn, musIn, rndsIn, sigOut, new byte[c.n + 1])));
        }
    }

    @Test
    void recordsBeyondTheBatchAreLeftAlone() {
        ParameterSet p = ParameterSet.ML_DSA_65;
        Case c = new Case(p, 70, 0x5EED_0003L);
        int n = 50;
        byte[] sig = new byte[c.sigs.length];
        byte[] status = new byte[c.n];
        Arrays.fill(sig, (byte) 0x5A);
        Arrays.fill(status, (byte) 0x5A);
        gpu.run(BatchRecords.sign(p, n, c.sks, c.mus, c.rnds, sig, status));
        assertArrayEquals(Arrays.copyOf(c.sigs, n * p.signatureBytes()), Arrays.copyOf(sig, n * p.signatureBytes()));
        for (int i = n * p.signatureBytes(); i < sig.length; i++) {
            assertEquals((byte) 0x5A, sig[i], "signature byte " + i + " beyond the batch");
        }
        for (int i = n; i < status.length; i++) {
            assertEquals((byte) 0x5A, status[i], "status " + i + " beyond the batch");
        }
    }

    @Test
    void aKeyThatDoesNotDecodeFailsAloneAndLeavesZeros() {
        ParameterSet p = ParameterSet.DILITHIUM3;
        Case c = new Case(p, 5, 0x5EED_0004L);
        byte[] sks = c.sks.clone();
        sks[2 * p.privateKeyBytes() + 2 * ParameterSet.SEED_BYTES + p.trBytes()] = (byte) 0xFF;
        byte[] sig = new byte[c.sigs.length];
        Arrays.fill(sig, (byte) 0x77);
        byte[] status = new byte[c.n];
        gpu.run(BatchRecords.sign(p, c.n, sks, c.mus, c.rnds, sig, status));
        assertArrayEquals(new byte[] {0, 0, TaskStatus.INVALID_KEY, 0, 0}, status);
        int s = p.signatureBytes();
        assertArrayEquals(new byte[s], Arrays.copyOfRange(sig, 2 * s, 3 * s));
        assertArrayEquals(Arrays.copyOfRange(c.sigs, 3 * s, 5 * s), Arrays.copyOfRange(sig, 3 * s, 5 * s));
    }

    @Test
    void concurrentCallersEachGetTheirOwnResults() throws Exception {
        List<Case> cases = new ArrayList<>();
        for (ParameterSet p : ParameterSet.values()) {
            cases.add(new Case(p, 3 * SLOT_TASKS + 1 + p.ordinal(), 0x5EED_0100L + p.ordinal()));
        }
        ExecutorService callers = Executors.newFixedThreadPool(12);
        try {
            List<Future<?>> results = new ArrayList<>();
            for (int round = 0; round < 4; round++) {
                for (Case c : cases) {
                    results.add(callers.submit(c::checkOnGpu));
                }
            }
            for (Future<?> f : results) {
                f.get();
            }
        } finally {
            callers.shutdown();
        }
        assertTrue(gpu.healthy());
    }

    /**
     * Lone signing and verification chunks run on their callers' threads when a slot is idle
     * (more callers than slots: some queue for the workers instead); every signature is the CPU's
     * and every verdict right either way.
     */
    @Test
    void loneChunksRunOnTheirCallersThreadsWithTheRightResults() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_44;
        Case c = new Case(p, 40, 0x5EED_000BL);
        int pk = p.publicKeyBytes();
        int sk = p.privateKeyBytes();
        int s = p.signatureBytes();
        int rnd = p.rndBytes();
        long inlineBefore = gpu.metrics().getInlineChunkCount();
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> results = new ArrayList<>();
            for (int round = 0; round < 25; round++) {
                for (int i = 0; i < c.n; i += 5) {
                    int first = i;
                    int bad = round % 5;
                    results.add(callers.submit(() -> {
                        byte[] sigs = Arrays.copyOfRange(c.sigs, first * s, (first + 5) * s);
                        sigs[bad * s + 11] ^= 4;
                        byte[] status = new byte[5];
                        gpu.run(BatchRecords.verify(p, 5, Arrays.copyOfRange(c.pks, first * pk, (first + 5) * pk),
                                Arrays.copyOfRange(c.mus, first * 64, (first + 5) * 64), sigs, status));
                        for (int t = 0; t < 5; t++) {
                            assertEquals(t == bad ? TaskStatus.REJECTED : TaskStatus.OK, status[t],
                                    "task " + (first + t));
                        }
                    }));
                    results.add(callers.submit(() -> {
                        byte[] sigs = new byte[5 * s];
                        byte[] status = new byte[5];
                        gpu.run(BatchRecords.sign(p, 5, Arrays.copyOfRange(c.sks, first * sk, (first + 5) * sk),
                                Arrays.copyOfRange(c.mus, first * 64, (first + 5) * 64),
                                Arrays.copyOfRange(c.rnds, first * rnd, (first + 5) * rnd), sigs, status));
                        assertArrayEquals(new byte[5], status, "tasks " + first + " to " + (first + 4));
                        assertArrayEquals(Arrays.copyOfRange(c.sigs, first * s, (first + 5) * s), sigs,
                                "signatures " + first + " to " + (first + 4));
                    }));
                }
            }
            for (Future<?> f : results) {
                f.get();
            }
        } finally {
            callers.shutdown();
        }
        long inline = gpu.metrics().getInlineChunkCount() - inlineBefore;
        assertTrue(inline > 0, "some chunks ran on their callers' threads");
        assertTrue(gpu.healthy());
    }

    @Test
    void secretsAreWipedFromPinnedDeviceAndWorkspaceMemory() {
        ParameterSet p = ParameterSet.ML_DSA_87;
        CudaBackend fresh = GpuTests.openOrSkip(SMALL);
        try {
            DeviceSet devices = fresh.openDevices();
            int n = SLOT_TASKS * devices.slots().size();
            Case c = new Case(p, n, 0x5EED_0005L);
            byte[] pk = new byte[c.pks.length];
            byte[] sk = new byte[c.sks.length];
            fresh.run(BatchRecords.keyGen(p, n, c.seeds, pk, sk, new byte[n]));
            assertArrayEquals(c.sks, sk);
            assertWiped(devices, p, Operation.KEYGEN, "publicKeys");
            fresh.run(BatchRecords.sign(p, n, c.sks, c.mus, c.rnds, new byte[c.sigs.length], new byte[n]));
            assertWiped(devices, p, Operation.SIGN, "signatures");
        } finally {
            fresh.close();
        }
    }

    /**
     * Every slot ran chunks of exactly {@link #SLOT_TASKS} tasks or none: its secret regions and
     * workspace must be zero, while some slot still holds the public output {@code witness}
     * (which proves the inspection reads the memory the launches used).
     */
    private static void assertWiped(DeviceSet devices, ParameterSet p, Operation op, String witness) {
        BatchLayout layout = BatchLayout.of(p, op, SLOT_TASKS);
        DeviceContext first = devices.slots().get(0).device();
        int workspace = Math.toIntExact(first.kernel(p, op).config().workspaceBytes(SLOT_TASKS,
                first.multiprocessors()));
        boolean witnessSeen = false;
        for (StreamSlot slot : devices.slots()) {
            for (BatchLayout.Region region : layout.regions()) {
                int length = Math.toIntExact(region.bytes(SLOT_TASKS));
                byte[] host = slot.read(StreamSlot.Memory.HOST_BLOCK, region.offset(), length);
                byte[] device = slot.read(StreamSlot.Memory.DEVICE_BLOCK, region.offset(), length);
                if (region.secret()) {
                    assertArrayEquals(new byte[length], host, op + " " + region.name() + " left in pinned memory");
                    assertArrayEquals(new byte[length], device, op + " " + region.name() + " left in device memory");
                } else if (region.name().equals(witness) && !Arrays.equals(new byte[length], host)) {
                    witnessSeen = true;
                    assertFalse(Arrays.equals(new byte[length], device));
                }
            }
            if (workspace > 0) {
                assertArrayEquals(new byte[workspace], slot.read(StreamSlot.Memory.WORKSPACE, 0, workspace),
                        op + " workspace left on the device");
            }
            int scratch = 4 * BatchAbi.SCRATCH_WORDS;
            assertArrayEquals(new byte[scratch], slot.read(StreamSlot.Memory.SCRATCH, 0, scratch),
                    op + ": the launches left the scratch counters nonzero for the next");
        }
        assertTrue(witnessSeen, "no slot holds " + witness + ": the inspection reads the wrong memory");
    }

    @Test
    void preferredBatchSizesAndDescriptionReflectTheDevices() {
        for (ParameterSet p : ParameterSet.values()) {
            for (Operation op : Operation.values()) {
                int preferred = gpu.preferredBatchSize(p, op);
                assertTrue(preferred >= SMALL.streamsPerDevice() * SMALL.minChunkTasks(),
                        p + " " + op + ": " + preferred);
            }
        }
        assertTrue(gpu.description().startsWith("device 0 ("), gpu.description());
        assertEquals("cuda", gpu.name());
    }

    /** The chunk stage sums grow with each launch, and the MBean is published while the backend is open. */
    @Test
    void chunkStageTimesAreCountedAndPublished() throws Exception {
        CudaBackend other = GpuTests.openOrSkip(SMALL);
        javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName pattern = new javax.management.ObjectName(CudaBackend.MBEAN_PATTERN);
        int published = server.queryNames(pattern, null).size();
        try {
            CudaBackendMXBean m = other.metrics();
            assertEquals(0, m.getChunkCount());
            int n = 2 * SLOT_TASKS + 5;
            ParameterSet p = ParameterSet.ML_DSA_44;
            byte[] seeds = new byte[n * ParameterSet.SEED_BYTES];
            new SplittableRandom(7).nextBytes(seeds);
            other.run(BatchRecords.keyGen(p, n, seeds, new byte[n * p.publicKeyBytes()],
                    new byte[n * p.privateKeyBytes()], new byte[n]));
            // A chunk is counted after its slot has wiped it, which may be just after the call returned.
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (m.getTaskCount() < n && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(n, m.getTaskCount());
            assertEquals(n, Arrays.stream(m.getTaskCountPerDevice()).sum(), "every task counted on its device");
            assertTrue(m.getChunkCount() >= 3,
                    "a batch of " + n + " on slots of " + SLOT_TASKS + ": " + m.getChunkCount());
            assertTrue(m.getGpuNanos() > 0 && m.getPackNanos() > 0 && m.getUnpackNanos() > 0);
            assertTrue(m.getLaunchNanos() > 0 && m.getLaunchNanos() < m.getGpuNanos(),
                    "submitting the launches is a part of the GPU time: " + m.getLaunchNanos());
            assertTrue(m.getWipeNanos() > 0, "generated private keys are secret: the device copies are wiped");
            assertTrue(m.getSlotWaitNanos() >= 0);
            assertTrue(m.getDescription().startsWith("device 0 ("), m.getDescription());
        } finally {
            other.close();
        }
        assertEquals(published - 1, server.queryNames(pattern, null).size(), "unregistered on close");
    }

    @Test
    void aClosedBackendRefusesAndClosesOnce() {
        CudaBackend other = GpuTests.openOrSkip(SMALL);
        other.close();
        other.close();
        ParameterSet p = ParameterSet.ML_DSA_44;
        assertThrows(BackendException.class, () -> other.run(BatchRecords.verify(p, 1, new byte[p.publicKeyBytes()],
                new byte[64],
                new byte[p.signatureBytes()], new byte[1])));
    }
}
