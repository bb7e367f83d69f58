package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.TestVectors;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.HostBufferFixtures;
import io.dilithiumgpu.backend.KeyHandle;
import io.dilithiumgpu.backend.MessageRecord;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.KeyIdentity;
import io.dilithiumgpu.core.MuHasher;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;
import io.dilithiumgpu.core.Scheme;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CUDA backend's device key cache on a GPU (CACHE_ABI): hits and misses counted, eviction
 * under a small bound, a destroyed key's slot zeroed in device memory, batches mixing cached,
 * admitted, uncached and key-less tasks, one-key records on the heap and in pinned memory,
 * results bit-exact with the CPU core for every set (signing deterministic and hedged with fixed
 * rnd, verification of valid and invalid signatures, an invalid private key never cached), and
 * the known-answer vectors through the cached route (each key used twice, the second a hit).
 * Skipped, with the reason, without a usable GPU.
 */
@Timeout(300)
class CudaKeyCacheTest extends GpuBesideCpu {
    private static final CudaConfig SMALL = CudaConfig.builder().streamsPerDevice(3).slotTasks(64)
            .minChunkTasks(8).copyThreads(2).build();

    @Override
    protected CudaConfig config() {
        return SMALL;
    }

    /** Key pairs from the CPU core. */
    private final class Keys {
        final ParameterSet p;
        final int count;
        final byte[] pks;
        final byte[] sks;

        Keys(ParameterSet p, int count, long seed) {
            this.p = p;
            this.count = count;
            pks = new byte[count * p.publicKeyBytes()];
            sks = new byte[count * p.privateKeyBytes()];
            cpu.run(BatchRecords.keyGen(p, count, random(new SplittableRandom(seed), count * 32), pks, sks,
                    new byte[count]));
        }

        byte[] sk(int k) {
            return Arrays.copyOfRange(sks, k * p.privateKeyBytes(), (k + 1) * p.privateKeyBytes());
        }

        byte[] pk(int k) {
            return Arrays.copyOfRange(pks, k * p.publicKeyBytes(), (k + 1) * p.publicKeyBytes());
        }
    }

    /** Per-task records of n tasks whose keys are {@code keyOf[i]} of {@code keys}. */
    private static byte[] spread(byte[] keys, int keyBytes, int[] keyOf) {
        byte[] out = new byte[keyOf.length * keyBytes];
        for (int i = 0; i < keyOf.length; i++) {
            System.arraycopy(keys, keyOf[i] * keyBytes, out, i * keyBytes, keyBytes);
        }
        return out;
    }

    /** What the CPU core signs, and the GPU must sign bit for bit. */
    private byte[][] cpuSign(ParameterSet p, int n, byte[] sks, byte[] mus, byte[] rnds) {
        byte[] sigs = new byte[n * p.signatureBytes()];
        byte[] status = new byte[n];
        cpu.run(BatchRecords.sign(p, n, sks, mus, rnds, sigs, status));
        return new byte[][] {sigs, status};
    }

    private byte[][] gpuSign(ParameterSet p, int n, byte[] sks, byte[] mus, byte[] rnds, PrivateKeyCache[] caches) {
        byte[] sigs = new byte[n * p.signatureBytes()];
        byte[] status = new byte[n];
        gpu.run(BatchRecords.sign(p, n, sks, mus, rnds, sigs, status).withCaches(caches));
        return new byte[][] {sigs, status};
    }

    private byte[] gpuVerify(ParameterSet p, int n, byte[] pks, byte[] mus, byte[] sigs, PublicKeyCache[] caches) {
        byte[] status = new byte[n];
        gpu.run(BatchRecords.verify(p, n, pks, mus, sigs, status).withCaches(caches));
        return status;
    }

    private static void assertSame(byte[][] expected, byte[][] actual, String what) {
        assertArrayEquals(expected[1], actual[1], what + " statuses");
        assertArrayEquals(expected[0], actual[0], what + " signatures");
    }

    private int devices() {
        return gpu.openDevices().deviceCount();
    }

    /** The device key caches of the open devices. */
    private List<DeviceKeyCache> caches() {
        List<DeviceKeyCache> out = new ArrayList<>();
        for (StreamSlot s : gpu.openDevices().slots()) {
            DeviceKeyCache c = s.device().keyCache();
            if (c != null && !out.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }

    /** The slots that hold {@code id} in any device's region, as {device index, slot}. */
    private List<int[]> slotsOf(ParameterSet p, boolean secret, KeyIdentity id) {
        List<int[]> out = new ArrayList<>();
        List<DeviceKeyCache> all = caches();
        for (int d = 0; d < all.size(); d++) {
            int s = id == null ? -1 : all.get(d).region(p, secret).slots.slotOf(KeyDigest.of(id));
            if (s >= 0) {
                out.add(new int[] {d, s});
            }
        }
        return out;
    }

    @Test
    void everyDeviceHasAKeyCache() {
        assertEquals(devices(), caches().size(), "a key cache per device (keyed entry points in the fatbin)");
        for (ParameterSet p : ParameterSet.values()) {
            assertNotNull(caches().get(0).region(p, true), p + " keyed entry points");
        }
    }

    /** One lookup per key per launch: a first sighting misses and is not admitted; repeats hit. */
    @Test
    void hitsAndMissesAreCounted() {
        ParameterSet p = ParameterSet.ML_DSA_44;
        Keys keys = new Keys(p, 1, 0xCAC4E_01L);
        SplittableRandom r = new SplittableRandom(1);
        PrivateKeyCache signer = new PrivateKeyCache(p);
        PublicKeyCache verifier = new PublicKeyCache(p);
        int batches = 10;
        long hits = gpu.metrics().getKeyCacheHits();
        long misses = gpu.metrics().getKeyCacheMisses();
        long lookups = 0;
        for (int b = 0; b < batches; b++) {
            byte[] mu = random(r, 64);
            byte[] rnd = random(r, p.rndBytes());
            byte[][] expected = cpuSign(p, 1, keys.sks, mu, rnd);
            assertSame(expected, gpuSign(p, 1, keys.sks, mu, rnd, new PrivateKeyCache[] {signer}), "batch " + b);
            assertArrayEquals(new byte[1], gpuVerify(p, 1, keys.pks, mu, expected[0],
                    new PublicKeyCache[] {verifier}), "verify batch " + b);
            if (b == 0) {
                assertEquals(0, gpu.metrics().getKeyCacheHits() - hits, "a first sighting is no hit");
                assertEquals(0, slotsOf(p, true, signer.knownIdentity()).size(), "a first sighting takes no slot");
                // A first sighting on a device whose region holds nothing is not even looked up (nor
                // hashed); from the second launch on, every launch looks each key up once.
                lookups = gpu.metrics().getKeyCacheHits() + gpu.metrics().getKeyCacheMisses();
            }
        }
        long hit = gpu.metrics().getKeyCacheHits() - hits;
        long missed = gpu.metrics().getKeyCacheMisses() - misses;
        assertEquals(2L * (batches - 1), gpu.metrics().getKeyCacheHits() + gpu.metrics().getKeyCacheMisses() - lookups,
                "one lookup per key per launch after the first");
        // Each device misses a key until it holds it (the first sighting anywhere is not admitted).
        assertTrue(hit >= 2L * (batches - devices() - 1), hit + " hits, " + missed + " misses on " + devices()
                + " devices");
        assertTrue(gpu.metrics().getKeyCacheBytes() > 0);
        assertFalse(slotsOf(p, true, signer.knownIdentity()).isEmpty());
        assertFalse(slotsOf(p, false, verifier.knownIdentity()).isEmpty());
    }

    /** A workload of distinct keys never expands into the cache. */
    @Test
    void distinctKeysTakeNoSlot() {
        ParameterSet p = ParameterSet.ML_DSA_65;
        int n = 40;
        Keys keys = new Keys(p, n, 0xCAC4E_02L);
        SplittableRandom r = new SplittableRandom(2);
        byte[] mus = random(r, n * 64);
        byte[] rnds = random(r, n * p.rndBytes());
        PrivateKeyCache[] caches = new PrivateKeyCache[n];
        for (int i = 0; i < n; i++) {
            caches[i] = new PrivateKeyCache(p);
        }
        long held = gpu.metrics().getKeyCacheBytes();
        assertSame(cpuSign(p, n, keys.sks, mus, rnds), gpuSign(p, n, keys.sks, mus, rnds, caches), "distinct keys");
        assertEquals(held, gpu.metrics().getKeyCacheBytes());
        for (PrivateKeyCache c : caches) {
            KeyIdentity id = c.knownIdentity();
            assertTrue(id == null || slotsOf(p, true, id).isEmpty(), "a key seen once takes no slot");
        }
    }

    /** With room for two keys per region, a third evicts the least recently used; results stay exact. */
    @Test
    void evictionUnderPressure() {
        ParameterSet p = ParameterSet.ML_DSA_87;
        int slotBytes = caches().get(0).region(p, true).slots.slotBytes();
        CudaBackend small = CudaBackend.open(SMALL.toBuilder().keyCacheBytes(2L * slotBytes).build());
        CudaBackend saved = gpu;
        try {
            gpu = small;
            // More keys than all devices' slots together: some admission must evict.
            int count = 2 * devices() + 1;
            Keys keys = new Keys(p, count, 0xCAC4E_03L);
            SplittableRandom r = new SplittableRandom(3);
            PrivateKeyCache[] signers = new PrivateKeyCache[count];
            for (int k = 0; k < count; k++) {
                signers[k] = new PrivateKeyCache(p);
            }
            for (int round = 0; round < 3; round++) {
                for (int k = 0; k < count; k++) {
                    int n = 4;
                    byte[] sks = spread(keys.sks, p.privateKeyBytes(), new int[] {k, k, k, k});
                    byte[] mus = random(r, n * 64);
                    byte[] rnds = random(r, n * p.rndBytes());
                    PrivateKeyCache[] caches = {signers[k], signers[k], signers[k], signers[k]};
                    assertSame(cpuSign(p, n, sks, mus, rnds), gpuSign(p, n, sks, mus, rnds, caches),
                            "round " + round + " key " + k);
                }
            }
            assertTrue(small.metrics().getKeyCacheEvictions() >= 1, count + " keys through two slots per device evict");
            assertTrue(small.metrics().getKeyCacheBytes() <= 2L * slotBytes * devices());
            for (DeviceKeyCache c : caches()) {
                assertTrue(c.region(p, true).slots.bytesHeld() <= 2L * slotBytes);
            }
        } finally {
            gpu = saved;
            small.close();
        }
    }

    /** destroy() wipes the key's slot in device memory (read back as zeros) and frees it. */
    @Test
    void aDestroyedKeysSlotReadsBackAsZeros() {
        ParameterSet p = ParameterSet.DILITHIUM3;
        Keys keys = new Keys(p, 1, 0xCAC4E_04L);
        SplittableRandom r = new SplittableRandom(4);
        PrivateKeyCache signer = new PrivateKeyCache(p);
        int n = 2;
        byte[] sks = spread(keys.sks, p.privateKeyBytes(), new int[] {0, 0});
        byte[] mus = random(r, n * 64);
        byte[] rnds = random(r, n * p.rndBytes());
        assertSame(cpuSign(p, n, sks, mus, rnds), gpuSign(p, n, sks, mus, rnds,
                new PrivateKeyCache[] {signer, signer}), "admitted at once");
        KeyIdentity id = signer.knownIdentity();
        List<int[]> held = slotsOf(p, true, id);
        assertEquals(1, held.size(), "one device expanded it");
        DeviceKeyCache cache = caches().get(held.get(0)[0]);
        int slot = held.get(0)[1];
        int bytes = cache.region(p, true).slots.slotBytes();
        byte[] before = cache.read(p, true, slot, bytes);
        assertFalse(Arrays.equals(new byte[bytes], before), "the slot holds the expanded key");
        signer.destroy();
        assertArrayEquals(new byte[bytes], cache.read(p, true, slot, bytes), "wiped in device memory");
        assertTrue(slotsOf(p, true, id).isEmpty(), "and free");
    }

    /**
     * One batch mixing a cached key, a key the batch holds twice (admitted), distinct keys, tasks
     * without a key object, and a task whose bytes are not its key object's key.
     */
    @Test
    void mixedBatchesMatchTheCpu() {
        ParameterSet p = ParameterSet.ML_DSA_65;
        Keys keys = new Keys(p, 6, 0xCAC4E_05L);
        SplittableRandom r = new SplittableRandom(5);
        PrivateKeyCache[] signers = new PrivateKeyCache[6];
        PublicKeyCache[] verifiers = new PublicKeyCache[6];
        for (int k = 0; k < 6; k++) {
            signers[k] = new PrivateKeyCache(p);
            verifiers[k] = new PublicKeyCache(p);
        }
        // Key 0 cached first.
        for (int round = 0; round < 2; round++) {
            byte[] sks = spread(keys.sks, p.privateKeyBytes(), new int[] {0, 0});
            byte[] mus = random(r, 128);
            byte[] rnds = random(r, 2 * p.rndBytes());
            assertSame(cpuSign(p, 2, sks, mus, rnds), gpuSign(p, 2, sks, mus, rnds,
                    new PrivateKeyCache[] {signers[0], signers[0]}), "warming key 0");
        }
        int[] keyOf = {0, 1, 2, 0, 1, 3, 4, 5, 0, 2};
        int n = keyOf.length;
        byte[] sks = spread(keys.sks, p.privateKeyBytes(), keyOf);
        byte[] pks = spread(keys.pks, p.publicKeyBytes(), keyOf);
        PrivateKeyCache[] sc = new PrivateKeyCache[n];
        PublicKeyCache[] pc = new PublicKeyCache[n];
        for (int i = 0; i < n; i++) {
            sc[i] = signers[keyOf[i]];
            pc[i] = verifiers[keyOf[i]];
        }
        sc[6] = null;                 // no key object
        pc[6] = null;
        sc[7] = signers[0];           // key 5's bytes named with key 0's object: never signed with key 0
        pc[7] = verifiers[0];
        byte[] mus = random(r, n * 64);
        byte[] rnds = random(r, n * p.rndBytes());
        byte[][] expected = cpuSign(p, n, sks, mus, rnds);
        for (int round = 0; round < 2; round++) {
            assertSame(expected, gpuSign(p, n, sks, mus, rnds, sc), "mixed round " + round);
            byte[] sigs = expected[0].clone();
            byte[] expectedStatus = new byte[n];
            sigs[3 * p.signatureBytes() + 17] ^= 1;
            expectedStatus[3] = TaskStatus.REJECTED;
            assertArrayEquals(expectedStatus, gpuVerify(p, n, pks, mus, sigs, pc), "mixed verify round " + round);
        }
        // Expansions, keyed launches and plain ones, one after another on the same slots: each
        // left the task counters zero for the next.
        int scratch = 4 * BatchAbi.SCRATCH_WORDS;
        for (StreamSlot slot : gpu.openDevices().slots()) {
            assertArrayEquals(new byte[scratch], slot.read(StreamSlot.Memory.SCRATCH, 0, scratch), slot.where("scratch"));
        }
    }

    /**
     * Tasks of one key source and key object are compared with the key's identity once, through
     * their first task: where the identity is bound to other bytes (here another key's, as a
     * caller of the engine API can make it by naming the object with those bytes first), that
     * first task fails the comparison and every task of the source runs on its own bytes, never
     * on the other key's slot; where it is bound to their bytes, they run on the cache.
     */
    @Test
    void tasksOfOneSourceRunOnTheCacheOnlyWhenTheirFirstMatchesTheIdentity() {
        ParameterSet p = ParameterSet.ML_DSA_44;
        Keys keys = new Keys(p, 2, 0xCAC4E_0AL);
        SplittableRandom r = new SplittableRandom(10);
        int n = 6;
        byte[] sks = spread(keys.sks, p.privateKeyBytes(), new int[n]);
        byte[] pks = spread(keys.pks, p.publicKeyBytes(), new int[n]);
        Object source = new Object();
        Object[] sources = new Object[n];
        Arrays.fill(sources, source);
        for (boolean poisoned : new boolean[] {true, false}) {
            PrivateKeyCache signer = new PrivateKeyCache(p);
            PublicKeyCache verifier = new PublicKeyCache(p);
            if (poisoned) {
                assertNotNull(signer.identity(keys.sk(1), 0));
                assertNotNull(verifier.identity(keys.pk(1), 0));
            }
            PrivateKeyCache[] sc = new PrivateKeyCache[n];
            PublicKeyCache[] pc = new PublicKeyCache[n];
            Arrays.fill(sc, signer);
            Arrays.fill(pc, verifier);
            for (int round = 0; round < 3; round++) {
                String what = (poisoned ? "identity of another key" : "identity of their key") + ", round " + round;
                byte[] mus = random(r, n * 64);
                byte[] rnds = random(r, n * p.rndBytes());
                byte[][] expected = cpuSign(p, n, sks, mus, rnds);
                byte[] sigs = new byte[n * p.signatureBytes()];
                byte[] status = new byte[n];
                gpu.run(BatchRecords.sign(p, n, sks, mus, rnds, sigs, status).withCaches(sc, sources));
                assertSame(expected, new byte[][] {sigs, status}, what);
                byte[] verified = new byte[n];
                gpu.run(BatchRecords.verify(p, n, pks, mus, expected[0], verified).withCaches(pc, sources));
                assertArrayEquals(new byte[n], verified, what + ": every signature verifies under the records' key");
            }
            assertEquals(poisoned, slotsOf(p, true, signer.knownIdentity()).isEmpty(),
                    poisoned ? "the other key's identity takes no slot" : "their key is cached");
        }
    }

    /**
     * Per-task records in the backend's pinned buffers: a chunk whose keys are all cached signs on
     * them, its kernel writing the signatures straight into the caller's buffer (filled with
     * garbage first); a chunk with a task on no key object signs plain. Both as the CPU signs.
     */
    @Test
    void pinnedRecordsOfCachedKeysSignIntoTheCallersBuffer() {
        ParameterSet p = ParameterSet.ML_DSA_44;
        Keys keys = new Keys(p, 2, 0xCAC4E_06L);
        SplittableRandom r = new SplittableRandom(6);
        PrivateKeyCache[] signers = {new PrivateKeyCache(p), new PrivateKeyCache(p)};
        for (int k = 0; k < 2; k++) {
            for (int round = 0; round < 2 * devices(); round++) {
                byte[] sks = spread(keys.sks, p.privateKeyBytes(), new int[] {k, k});
                byte[] mus = random(r, 128);
                byte[] rnds = random(r, 2 * p.rndBytes());
                assertSame(cpuSign(p, 2, sks, mus, rnds), gpuSign(p, 2, sks, mus, rnds,
                        new PrivateKeyCache[] {signers[k], signers[k]}), "warming key " + k);
            }
        }
        int n = 12;
        int[] keyOf = new int[n];
        PrivateKeyCache[] caches = new PrivateKeyCache[n];
        for (int i = 0; i < n; i++) {
            keyOf[i] = i % 2;
            caches[i] = signers[i % 2];
        }
        byte[] sks = spread(keys.sks, p.privateKeyBytes(), keyOf);
        for (int round = 0; round < 2; round++) {
            PrivateKeyCache[] named = caches.clone();
            if (round == 1) {
                named[5] = null;
            }
            byte[] mus = random(r, n * 64);
            byte[] rnds = random(r, n * p.rndBytes());
            byte[][] expected = cpuSign(p, n, sks, mus, rnds);
            try (HostBuffer sksIn = HostBufferFixtures.filled(gpu::allocateHost, sks);
                 HostBuffer musIn = HostBufferFixtures.filled(gpu::allocateHost, mus);
                 HostBuffer rndsIn = HostBufferFixtures.filled(gpu::allocateHost, rnds);
                 HostBuffer sigOut = HostBufferFixtures.filled(gpu::allocateHost, random(r, expected[0].length))) {
                byte[] status = new byte[n];
                gpu.run(BatchRecords.sign(p, n, sksIn, musIn, rndsIn, sigOut, status).withCaches(named));
                assertSame(expected, new byte[][] {HostBufferFixtures.contents(sigOut), status},
                        round == 0 ? "cached keys, pinned" : "a task on no key object, pinned");
            }
        }
    }

    /**
     * Signing of cached keys in pinned records with a listener, as the batcher's JCA batches sign:
     * the keyed launch publishes, and the slots tell the listener of each task as it ends, exactly
     * once, with the final signature already in the caller's buffer; a task of a key that does not
     * decode (run uncached in the same launch) is told INVALID_KEY. Over several chunks and both
     * reading modes (all keys cached: μ and rnd read in place; one uncached: uploaded).
     */
    @Test
    void pinnedSigningOnCachedKeysTellsEachTaskAsItEnds() {
        ParameterSet p = ParameterSet.ML_DSA_44;
        Keys keys = new Keys(p, 1, 0xCAC4E_0EL);
        SplittableRandom r = new SplittableRandom(14);
        PrivateKeyCache signer = new PrivateKeyCache(p);
        for (int round = 0; round < 2 * devices(); round++) {
            byte[] sks = spread(keys.sks, p.privateKeyBytes(), new int[2]);
            byte[] mus = random(r, 128);
            byte[] rnds = random(r, 2 * p.rndBytes());
            assertSame(cpuSign(p, 2, sks, mus, rnds), gpuSign(p, 2, sks, mus, rnds,
                    new PrivateKeyCache[] {signer, signer}), "warming the key, round " + round);
        }
        byte[] badKey = keys.sk(0);
        badKey[2 * ParameterSet.SEED_BYTES + p.trBytes()] = (byte) 0xFF;
        PrivateKeyCache badSigner = new PrivateKeyCache(p);
        int s = p.signatureBytes();
        int n = 2 * 64 + 5;
        for (int bad : new int[] {-1, 70}) {
            byte[] sks = spread(keys.sks, p.privateKeyBytes(), new int[n]);
            PrivateKeyCache[] named = new PrivateKeyCache[n];
            Arrays.fill(named, signer);
            if (bad >= 0) {
                System.arraycopy(badKey, 0, sks, bad * p.privateKeyBytes(), badKey.length);
                named[bad] = badSigner;
            }
            byte[] mus = random(r, n * 64);
            byte[] rnds = random(r, n * p.rndBytes());
            byte[][] expected = cpuSign(p, n, sks, mus, rnds);
            long earlyBefore = gpu.metrics().getEarlyTaskCount();
            long hitsBefore = gpu.metrics().getKeyCacheHits();
            try (HostBuffer sksIn = HostBufferFixtures.filled(gpu::allocateHost, sks);
                 HostBuffer musIn = HostBufferFixtures.filled(gpu::allocateHost, mus);
                 HostBuffer rndsIn = HostBufferFixtures.filled(gpu::allocateHost, rnds);
                 HostBuffer sigOut = HostBufferFixtures.filled(gpu::allocateHost, random(r, expected[0].length))) {
                java.util.concurrent.atomic.AtomicIntegerArray told = new java.util.concurrent.atomic.AtomicIntegerArray(n);
                byte[] toldStatus = new byte[n];
                byte[][] seen = new byte[n][];
                java.nio.ByteBuffer view = sigOut.buffer();
                byte[] status = new byte[n];
                gpu.run(BatchRecords.sign(p, n, sksIn, musIn, rndsIn, sigOut, status).withCaches(named)
                        .withListener((task, code) -> {
                            told.incrementAndGet(task);
                            toldStatus[task] = code;
                            byte[] sig = new byte[s];
                            view.get(task * s, sig);
                            seen[task] = sig;
                        }));
                String what = bad < 0 ? "all keys cached" : "one task of an invalid key";
                assertSame(expected, new byte[][] {HostBufferFixtures.contents(sigOut), status}, what);
                for (int i = 0; i < n; i++) {
                    assertEquals(1, told.get(i), what + ": task " + i + " told once");
                    assertEquals(expected[1][i], toldStatus[i], what + ": status told for task " + i);
                    if (i != bad) {
                        assertArrayEquals(Arrays.copyOfRange(expected[0], i * s, (i + 1) * s), seen[i],
                                what + ": signature read when task " + i + " was told");
                    }
                }
            }
            assertTrue(gpu.metrics().getKeyCacheHits() > hitsBefore, "the chunks read the cached key");
            assertEquals(n, gpu.metrics().getEarlyTaskCount() - earlyBefore, "every task told early");
        }
    }

    /**
     * The JCA path's batches: single signing requests of one key object through the batcher over
     * the GPU, in its pinned buffers. Once the key is cached, the batches sign on it and every
     * caller is told as its own task ends; the signatures are the CPU's.
     */
    @Test
    void theBatchersSigningOnACachedKeyTellsEachCallerAsItsTaskEnds() {
        CudaBackend fresh = GpuTests.openOrSkip(SMALL);
        ParameterSet p = ParameterSet.ML_DSA_44;
        Keys keys = new Keys(p, 1, 0xCAC4E_0FL);
        SplittableRandom r = new SplittableRandom(15);
        PrivateKeyCache signer = new PrivateKeyCache(p);
        int n = 3 * 64 + 5;
        byte[] mus = random(r, n * 64);
        byte[] rnds = random(r, n * p.rndBytes());
        byte[][] expected = cpuSign(p, n, spread(keys.sks, p.privateKeyBytes(), new int[n]), mus, rnds);
        int s = p.signatureBytes();
        try (io.dilithiumgpu.batch.Batcher b = io.dilithiumgpu.batch.Batcher.open(
                io.dilithiumgpu.batch.BatchConfig.builder().build(), fresh)) {
            int devices = fresh.openDevices().deviceCount();
            for (int round = 0; round < 2 * devices + 1; round++) {
                assertArrayEquals(Arrays.copyOfRange(expected[0], 0, s), b.sign(p, keys.sk(0), signer,
                        Arrays.copyOfRange(mus, 0, 64), Arrays.copyOfRange(rnds, 0, p.rndBytes())).join(),
                        "warming the key, round " + round);
            }
            long earlyBefore = fresh.metrics().getEarlyTaskCount();
            long hitsBefore = fresh.metrics().getKeyCacheHits();
            List<java.util.concurrent.CompletableFuture<byte[]>> sigs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                sigs.add(b.sign(p, keys.sk(0), signer, Arrays.copyOfRange(mus, i * 64, (i + 1) * 64),
                        Arrays.copyOfRange(rnds, i * p.rndBytes(), (i + 1) * p.rndBytes())));
            }
            for (int i = 0; i < n; i++) {
                assertArrayEquals(Arrays.copyOfRange(expected[0], i * s, (i + 1) * s), sigs.get(i).join(),
                        "signature " + i);
            }
            assertTrue(fresh.metrics().getKeyCacheHits() > hitsBefore, "the batches read the cached key");
            assertEquals(n, fresh.metrics().getEarlyTaskCount() - earlyBefore, "every caller told as its task ended");
            assertEquals(0, b.metrics().getFallbackCount(), "every batch ran on the GPU");
        }
    }

    /**
     * The JCA path's batches of one key object: signing requests that name one
     * {@link io.dilithiumgpu.batch.SigningKey} and verifications that name one public-key array
     * reach the GPU as one-key records (the key read once per batch). The signatures are the CPU's,
     * every signing caller is told as its task ends, a forged signature is rejected alone, and no
     * batch falls back.
     */
    @Test
    void theBatchersRequestsOfOneKeyObjectRunAsOneKeyRecords() {
        CudaBackend fresh = GpuTests.openOrSkip(SMALL);
        ParameterSet p = ParameterSet.ML_DSA_65;
        Keys keys = new Keys(p, 1, 0xCAC4E_0EL);
        SplittableRandom r = new SplittableRandom(14);
        PrivateKeyCache signer = new PrivateKeyCache(p);
        PublicKeyCache verifier = new PublicKeyCache(p);
        byte[] sk = keys.sk(0);
        byte[] pk = keys.pk(0);
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        io.dilithiumgpu.batch.SigningKey key = (dst, offset) -> {
            reads.incrementAndGet();
            dst.put(offset, sk, 0, sk.length);
            return true;
        };
        int n = 2 * 64 + 3;
        int s = p.signatureBytes();
        byte[] mus = random(r, n * 64);
        byte[] rnds = random(r, n * p.rndBytes());
        byte[][] expected = cpuSign(p, n, spread(sk, p.privateKeyBytes(), new int[n]), mus, rnds);
        try (io.dilithiumgpu.batch.Batcher b = io.dilithiumgpu.batch.Batcher.open(
                io.dilithiumgpu.batch.BatchConfig.builder().build(), fresh)) {
            for (int round = 0; round < 3; round++) {
                long earlyBefore = fresh.metrics().getEarlyTaskCount();
                int readsBefore = reads.get();
                List<java.util.concurrent.CompletableFuture<byte[]>> sigs = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    sigs.add(b.signInPlace(p, key, signer, Arrays.copyOfRange(mus, i * 64, (i + 1) * 64),
                            Arrays.copyOfRange(rnds, i * p.rndBytes(), (i + 1) * p.rndBytes())));
                }
                for (int i = 0; i < n; i++) {
                    assertArrayEquals(Arrays.copyOfRange(expected[0], i * s, (i + 1) * s), sigs.get(i).join(),
                            "signature " + i + ", round " + round);
                }
                assertTrue(reads.get() - readsBefore < n, "the key read once per batch of it, not per request: "
                        + (reads.get() - readsBefore) + " reads for " + n);
                assertEquals(n, fresh.metrics().getEarlyTaskCount() - earlyBefore, "every caller told as its task ended");
                byte[] forged = Arrays.copyOfRange(expected[0], 5 * s, 6 * s);
                forged[11] ^= 0x20;
                List<java.util.concurrent.CompletableFuture<Boolean>> verdicts = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    byte[] sig = i == 5 ? forged : Arrays.copyOfRange(expected[0], i * s, (i + 1) * s);
                    verdicts.add(b.verifyInPlace(p, pk, verifier, Arrays.copyOfRange(mus, i * 64, (i + 1) * 64), sig));
                }
                for (int i = 0; i < n; i++) {
                    assertEquals(i != 5, verdicts.get(i).join(), "verification " + i + ", round " + round);
                }
            }
            // Requests of short messages: the device hashes their μ with the cached key's tr.
            assertTrue(b.takesMessages(p, Operation.SIGN) && b.takesMessages(p, Operation.VERIFY));
            byte[] tr = Scheme.tr(p, pk, 0);
            byte[][] records = new byte[n][];
            byte[] messageMus = new byte[n * 64];
            for (int i = 0; i < n; i++) {
                records[i] = random(r, MessageRecord.BYTES);
                MessageRecord.tag(records[i], i % (MessageRecord.MAX_MESSAGE + 1));
                System.arraycopy(MessageRecord.mu(tr, records[i]), 0, messageMus, i * 64, 64);
            }
            byte[][] messageExpected = cpuSign(p, n, spread(sk, p.privateKeyBytes(), new int[n]), messageMus, rnds);
            long hashed = fresh.metrics().getMessageTaskCount();
            List<java.util.concurrent.CompletableFuture<byte[]>> sigs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                sigs.add(b.signMessageInPlace(p, key, signer, tr, records[i],
                        Arrays.copyOfRange(rnds, i * p.rndBytes(), (i + 1) * p.rndBytes())));
            }
            List<java.util.concurrent.CompletableFuture<Boolean>> verdicts = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                byte[] sig = Arrays.copyOfRange(messageExpected[0], i * s, (i + 1) * s);
                verdicts.add(b.verifyMessageInPlace(p, pk, verifier, tr, records[(i + (i == 9 ? 1 : 0)) % n], sig));
            }
            for (int i = 0; i < n; i++) {
                assertArrayEquals(Arrays.copyOfRange(messageExpected[0], i * s, (i + 1) * s), sigs.get(i).join(),
                        "signature of message " + i);
                assertEquals(i != 9, verdicts.get(i).join(), "verification of message " + i);
            }
            assertTrue(fresh.metrics().getMessageTaskCount() - hashed > n / 2,
                    "the device hashed the messages: " + (fresh.metrics().getMessageTaskCount() - hashed));
            assertTrue(fresh.metrics().getKeyCacheHits() > 0, "the batches read the cached keys");
            assertEquals(0, b.metrics().getFallbackCount(), "every batch ran on the GPU");
        }
    }

    /** Every set: signing (deterministic and hedged with fixed rnd) and verification, bit-exact, cached twice over. */
    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void everySetMatchesTheCpuThroughTheCache(ParameterSet p) {
        Keys keys = new Keys(p, 2, 0xCAC4E_10L + p.ordinal());
        SplittableRandom r = new SplittableRandom(10 + p.ordinal());
        int[] keyOf = {0, 1, 0, 1, 1, 0};
        int n = keyOf.length;
        byte[] sks = spread(keys.sks, p.privateKeyBytes(), keyOf);
        byte[] pks = spread(keys.pks, p.publicKeyBytes(), keyOf);
        PrivateKeyCache[] signers = {new PrivateKeyCache(p), new PrivateKeyCache(p)};
        PublicKeyCache[] verifiers = {new PublicKeyCache(p), new PublicKeyCache(p)};
        PrivateKeyCache[] sc = new PrivateKeyCache[n];
        PublicKeyCache[] pc = new PublicKeyCache[n];
        for (int i = 0; i < n; i++) {
            sc[i] = signers[keyOf[i]];
            pc[i] = verifiers[keyOf[i]];
        }
        byte[] mus = random(r, n * 64);
        byte[] deterministic = new byte[n * p.rndBytes()];
        for (int i = 0; i < n; i++) {
            System.arraycopy(Scheme.deterministicRnd(p, sks, i * p.privateKeyBytes(), mus, i * 64), 0, deterministic,
                    i * p.rndBytes(), p.rndBytes());
        }
        byte[] hedged = random(r, n * p.rndBytes());
        for (byte[] rnds : List.of(deterministic, hedged)) {
            byte[][] expected = cpuSign(p, n, sks, mus, rnds);
            long hits = gpu.metrics().getKeyCacheHits();
            long wide = gpu.metrics().getWideSigningTaskCount();
            for (int round = 0; round < 2 + devices(); round++) {
                assertSame(expected, gpuSign(p, n, sks, mus, rnds, sc), p + " round " + round);
            }
            assertTrue(gpu.metrics().getKeyCacheHits() > hits, p + " later rounds hit");
            assertEquals(config().wideSigning(), gpu.metrics().getWideSigningTaskCount() > wide,
                    p + ": cached keys signed by groups of warps on an idle GPU exactly when the configuration allows");
            byte[] sigs = expected[0].clone();
            byte[] badMus = mus.clone();
            sigs[p.signatureBytes() + 5] ^= 0x40;
            badMus[4 * 64] ^= 1;
            byte[] expectedStatus = new byte[n];
            expectedStatus[1] = TaskStatus.REJECTED;
            expectedStatus[4] = TaskStatus.REJECTED;
            for (int round = 0; round < 2 + devices(); round++) {
                assertArrayEquals(new byte[n], gpuVerify(p, n, pks, mus, expected[0], pc), p + " valid " + round);
                assertArrayEquals(expectedStatus, gpuVerify(p, n, pks, badMus, sigs, pc), p + " invalid " + round);
            }
        }
        oneKeyRecordsMatchTheCpu(p, keys.sk(0), keys.pk(0), r);
        messageRecordsMatchTheirMu(p, keys.sk(0), keys.pk(0), r);
        anInvalidPrivateKeyIsNeverCached(p, keys.sk(1), r);
    }

    /**
     * A one-key call of one chunk too large for half the device, on an idle device: signed by groups
     * of warps exactly when the configuration allows, bit-exact with the CPU either way.
     */
    @ParameterizedTest
    @EnumSource(value = ParameterSet.class, names = {"ML_DSA_44", "DILITHIUM3", "ML_DSA_87"})
    void aLoneLargeChunkMatchesTheCpu(ParameterSet p) {
        Keys keys = new Keys(p, 1, 0x10E_C4L + p.ordinal());
        SplittableRandom r = new SplittableRandom(30 + p.ordinal());
        int n = 700;  // 2,800 warps in groups: past half of any GPU this suite runs on, within a slot
        KeyHandle signer = KeyHandle.ofPrivateKey(p, keys.sk(0));
        byte[] mus = random(r, n * 64);
        byte[] rnds = random(r, n * p.rndBytes());
        byte[][] expected = cpuSign(p, n, spread(keys.sk(0), p.privateKeyBytes(), new int[n]), mus, rnds);
        // Slots large enough that the call is one chunk.
        try (CudaBackend large = GpuTests.openOrSkip(config().toBuilder().slotTasks(1024).minChunkTasks(1024).build())) {
            for (int round = 0; round < 2; round++) {
                long wide = large.metrics().getWideSigningTaskCount();
                byte[] sigs = new byte[expected[0].length];
                byte[] status = new byte[n];
                large.run(BatchRecords.sign(signer, n, mus, rnds, sigs, status));
                assertSame(expected, new byte[][] {sigs, status}, p + " round " + round);
                assertEquals(config().wideSigning() ? n : 0, large.metrics().getWideSigningTaskCount() - wide,
                        p + " round " + round + ": the lone chunk signed by groups exactly when the configuration allows");
            }
        }
    }

    /**
     * A one-key signing call on registered host memory with more tasks than a slot holds and than
     * the device runs warps at once: one launch (on warps that help its last tasks, where the
     * configuration allows groups), bit-exact with the CPU; and the same call with an invalid key,
     * whose tasks go uncached: INVALID_KEY for each, as on the CPU.
     */
    @ParameterizedTest
    @EnumSource(value = ParameterSet.class, names = {"ML_DSA_44", "DILITHIUM5"})
    void aWholeOneKeyCallLargerThanASlotMatchesTheCpu(ParameterSet p) {
        Keys keys = new Keys(p, 1, 0xA11_0EL + p.ordinal());
        SplittableRandom r = new SplittableRandom(40 + p.ordinal());
        int n = 2_500;  // past the 2,112 signing warps of an H100 or H200, and the slots below
        KeyHandle signer = KeyHandle.ofPrivateKey(p, keys.sk(0));
        byte[] mus = random(r, n * 64);
        byte[] rnds = random(r, n * p.rndBytes());
        byte[][] expected = cpuSign(p, n, spread(keys.sk(0), p.privateKeyBytes(), new int[n]), mus, rnds);
        byte[] bad = keys.sk(0).clone();
        bad[2 * ParameterSet.SEED_BYTES + p.trBytes()] = (byte) 0xFF;
        KeyHandle invalid = KeyHandle.ofPrivateKey(p, bad);
        try (CudaBackend small = GpuTests.openOrSkip(config().toBuilder().slotTasks(1024).minChunkTasks(512).build());
             HostBuffer musIn = HostBufferFixtures.filled(small::allocateHost, mus);
             HostBuffer rndsIn = HostBufferFixtures.filled(small::allocateHost, rnds);
             HostBuffer sigOut = small.allocateHost(expected[0].length)) {
            for (int round = 0; round < 2; round++) {
                long helped = small.metrics().getHelpedSigningTaskCount();
                byte[] status = new byte[n];
                small.run(BatchRecords.sign(signer, n, musIn, rndsIn, sigOut, status));
                assertSame(expected, new byte[][] {HostBufferFixtures.contents(sigOut), status}, p + " round " + round);
                assertEquals(config().wideSigning() ? n : 0, small.metrics().getHelpedSigningTaskCount() - helped,
                        p + " round " + round + ": one helped launch exactly when the configuration allows");
            }
            byte[] status = new byte[n];
            small.run(BatchRecords.sign(invalid, n, musIn, rndsIn, sigOut, status));
            byte[] all = new byte[n];
            Arrays.fill(all, TaskStatus.INVALID_KEY);
            assertArrayEquals(all, status, p + ": an invalid key's call, uncached");
        } finally {
            signer.destroy();
            invalid.destroy();
        }
    }

    /** One-key records, on the heap and in pinned host buffers. */
    private void oneKeyRecordsMatchTheCpu(ParameterSet p, byte[] sk, byte[] pk, SplittableRandom r) {
        int n = 9;
        KeyHandle signer = KeyHandle.ofPrivateKey(p, sk);
        KeyHandle verifier = KeyHandle.ofPublicKey(p, pk);
        byte[] sks = spread(sk, p.privateKeyBytes(), new int[n]);
        byte[] mus = random(r, n * 64);
        byte[] rnds = random(r, n * p.rndBytes());
        byte[][] expected = cpuSign(p, n, sks, mus, rnds);
        try (HostBuffer musIn = HostBufferFixtures.filled(gpu::allocateHost, mus);
             HostBuffer rndsIn = HostBufferFixtures.filled(gpu::allocateHost, rnds);
             HostBuffer sigOut = gpu.allocateHost(expected[0].length);
             HostBuffer sigIn = HostBufferFixtures.filled(gpu::allocateHost, expected[0])) {
            for (int round = 0; round < 2; round++) {
                byte[] sigs = new byte[expected[0].length];
                byte[] status = new byte[n];
                gpu.run(BatchRecords.sign(signer, n, mus, rnds, sigs, status));
                assertSame(expected, new byte[][] {sigs, status}, p + " one key, heap, round " + round);
                gpu.run(BatchRecords.sign(signer, n, musIn, rndsIn, sigOut, status));
                assertSame(expected, new byte[][] {HostBufferFixtures.contents(sigOut), status},
                        p + " one key, pinned, round " + round);
                Arrays.fill(status, (byte) 7);
                gpu.run(BatchRecords.verify(verifier, n, mus, expected[0], status));
                assertArrayEquals(new byte[n], status, p + " one-key verify, heap");
                Arrays.fill(status, (byte) 7);
                gpu.run(BatchRecords.verify(verifier, n, musIn, sigIn, status));
                assertArrayEquals(new byte[n], status, p + " one-key verify, pinned");
            }
            // A key given as its record and cache, as the batcher gives one: the same outcomes,
            // and a cache bound to another key's bytes is never read for these.
            PrivateKeyCache other = new PrivateKeyCache(p);
            for (PrivateKeyCache cache : List.of(signer.privateKeyCache(), new PrivateKeyCache(p), other)) {
                byte[] sigs = new byte[expected[0].length];
                byte[] status = new byte[n];
                gpu.run(BatchRecords.sign(cache, sk.clone(), n, mus, rnds, sigs, status));
                assertSame(expected, new byte[][] {sigs, status}, p + " one key and its cache, heap");
                gpu.run(BatchRecords.sign(cache, sk.clone(), n, musIn, rndsIn, sigOut, status));
                assertSame(expected, new byte[][] {HostBufferFixtures.contents(sigOut), status},
                        p + " one key and its cache, pinned");
            }
            byte[] otherKey = new Keys(p, 1, 0xCAC4E_0DL).sk(0);
            byte[] otherStatus = new byte[n];
            byte[] otherSigs = new byte[expected[0].length];
            gpu.run(BatchRecords.sign(other, otherKey, n, mus, rnds, otherSigs, otherStatus));
            byte[][] otherExpected = cpuSign(p, n, spread(otherKey, p.privateKeyBytes(), new int[n]), mus, rnds);
            assertSame(otherExpected, new byte[][] {otherSigs, otherStatus},
                    p + " a cache bound to another key: that key's own signatures");
            for (PublicKeyCache cache : List.of(verifier.publicKeyCache(), new PublicKeyCache(p))) {
                byte[] status = new byte[n];
                Arrays.fill(status, (byte) 7);
                gpu.run(BatchRecords.verify(cache, pk, n, mus, expected[0], status));
                assertArrayEquals(new byte[n], status, p + " one public key and its cache, heap");
                Arrays.fill(status, (byte) 7);
                gpu.run(BatchRecords.verify(cache, pk, n, musIn, sigIn, status));
                assertArrayEquals(new byte[n], status, p + " one public key and its cache, pinned");
            }
            // One task of one-key records: it runs as a task with its own key record.
            int s = p.signatureBytes();
            byte[] oneStatus = new byte[1];
            byte[] oneSig = new byte[s];
            gpu.run(BatchRecords.sign(signer, 1, Arrays.copyOf(mus, 64), Arrays.copyOf(rnds, p.rndBytes()), oneSig,
                    oneStatus));
            assertArrayEquals(Arrays.copyOf(expected[0], s), oneSig, p + " one task of one key, heap");
            gpu.run(BatchRecords.sign(signer, 1, musIn, rndsIn, sigOut, oneStatus));
            assertArrayEquals(Arrays.copyOf(expected[0], s), Arrays.copyOf(HostBufferFixtures.contents(sigOut), s),
                    p + " one task of one key, pinned");
            oneStatus[0] = 7;
            gpu.run(BatchRecords.verify(verifier, 1, musIn, sigIn, oneStatus));
            assertArrayEquals(new byte[1], oneStatus, p + " one verification of one key, pinned");
        } finally {
            signer.destroy();
        }
    }

    /**
     * One-key records of message records ({@link MessageRecord}: M′ of every length a record holds,
     * and μ itself between them), on the heap and in pinned host buffers: the kernels hash μ with
     * the cached key's tr, and the signatures and verdicts are the CPU's on that μ; a forged
     * signature and a record of another message are rejected alone. One task of them, which runs
     * without the cache, is hashed on the host.
     */
    private void messageRecordsMatchTheirMu(ParameterSet p, byte[] sk, byte[] pk, SplittableRandom r) {
        byte[] tr = Scheme.tr(p, pk, 0);
        int n = MessageRecord.MAX_MESSAGE + 2;
        byte[] messages = new byte[n * MessageRecord.BYTES];
        byte[] mus = new byte[n * 64];
        for (int i = 0; i < n; i++) {
            byte[] record = random(r, MessageRecord.BYTES);
            if (i % 9 == 4) {
                record[MessageRecord.BYTES - 1] = 0;  // μ itself
            } else {
                MessageRecord.tag(record, Math.min(i, MessageRecord.MAX_MESSAGE));
            }
            System.arraycopy(record, 0, messages, i * MessageRecord.BYTES, record.length);
            System.arraycopy(MessageRecord.mu(tr, record), 0, mus, i * 64, 64);
        }
        byte[] rnds = random(r, n * p.rndBytes());
        byte[][] expected = cpuSign(p, n, spread(sk, p.privateKeyBytes(), new int[n]), mus, rnds);
        int s = p.signatureBytes();
        byte[] badSigs = expected[0].clone();
        badSigs[7 * s + 11] ^= 0x08;
        byte[] badMessages = messages.clone();
        badMessages[20 * MessageRecord.BYTES] ^= 1;  // M′ of task 20, not its μ
        byte[] expectedStatus = new byte[n];
        expectedStatus[7] = TaskStatus.REJECTED;
        expectedStatus[20] = TaskStatus.REJECTED;
        PrivateKeyCache signer = new PrivateKeyCache(p);
        PublicKeyCache verifier = new PublicKeyCache(p);
        long hashed = gpu.metrics().getMessageTaskCount();
        assertTrue(gpu.hashesMessages(p, Operation.SIGN) && gpu.hashesMessages(p, Operation.VERIFY),
                p + ": every device has the keyed entry points");
        try (HostBuffer msgIn = HostBufferFixtures.filled(gpu::allocateHost, messages);
             HostBuffer badIn = HostBufferFixtures.filled(gpu::allocateHost, badMessages);
             HostBuffer musIn = gpu.allocateHost(mus.length);
             HostBuffer rndsIn = HostBufferFixtures.filled(gpu::allocateHost, rnds);
             HostBuffer sigOut = gpu.allocateHost(expected[0].length);
             HostBuffer sigIn = HostBufferFixtures.filled(gpu::allocateHost, badSigs)) {
            for (int round = 0; round < 2; round++) {
                byte[] sigs = new byte[expected[0].length];
                byte[] status = new byte[n];
                gpu.run(BatchRecords.sign(signer, sk.clone(), n, new byte[mus.length], rnds, sigs, status)
                        .withMessages(messages));
                assertSame(expected, new byte[][] {sigs, status}, p + " message records, heap, round " + round);
                gpu.run(BatchRecords.sign(signer, sk.clone(), n, musIn, rndsIn, sigOut, status).withMessages(msgIn));
                assertSame(expected, new byte[][] {HostBufferFixtures.contents(sigOut), status},
                        p + " message records, pinned, round " + round);
                Arrays.fill(status, (byte) 7);
                gpu.run(BatchRecords.verify(verifier, pk, n, new byte[mus.length], badSigs, status)
                        .withMessages(badMessages));
                assertArrayEquals(expectedStatus, status, p + " message records, verify, heap, round " + round);
                Arrays.fill(status, (byte) 7);
                gpu.run(BatchRecords.verify(verifier, pk, n, musIn, sigIn, status).withMessages(badIn));
                assertArrayEquals(expectedStatus, status, p + " message records, verify, pinned, round " + round);
            }
            assertEquals(8L * n, gpu.metrics().getMessageTaskCount() - hashed, p + ": the device hashed every task's");
            byte[] oneSig = new byte[s];
            byte[] oneStatus = new byte[1];
            gpu.run(BatchRecords.sign(signer, sk.clone(), 1, new byte[64], Arrays.copyOf(rnds, p.rndBytes()), oneSig,
                    oneStatus).withMessages(Arrays.copyOf(messages, MessageRecord.BYTES)));
            assertArrayEquals(Arrays.copyOf(expected[0], s), oneSig, p + " one task of message records");
            assertEquals(8L * n, gpu.metrics().getMessageTaskCount() - hashed, p + ": one task is hashed on the host");
        } finally {
            signer.destroy();
        }
    }

    /**
     * One-key verification on the heap and in pinned host buffers on either side of
     * {@link KeyedRun#PACKED_TASKS} (records packed into the slot's block, or copied per field),
     * with a forged signature and a forged μ among valid ones: the statuses come back through the
     * slot's mapped block, each task's its own.
     */
    @Test
    void oneKeyVerificationReportsEachTasksStatusAtEverySize() {
        ParameterSet p = ParameterSet.ML_DSA_44;
        Keys keys = new Keys(p, 1, 0xCAC4E_20L);
        SplittableRandom r = new SplittableRandom(20);
        KeyHandle verifier = KeyHandle.ofPublicKey(p, keys.pk(0));
        for (int n : new int[] {2, KeyedRun.PACKED_TASKS, KeyedRun.PACKED_TASKS + 1, 3 * KeyedRun.PACKED_TASKS}) {
            byte[] sks = spread(keys.sk(0), p.privateKeyBytes(), new int[n]);
            byte[] mus = random(r, n * 64);
            byte[] sigs = cpuSign(p, n, sks, mus, random(r, n * p.rndBytes()))[0];
            sigs[(n - 1) * p.signatureBytes() + 7] ^= 0x10;
            mus[0] ^= 1;
            byte[] expected = new byte[n];
            expected[0] = TaskStatus.REJECTED;
            expected[n - 1] = TaskStatus.REJECTED;
            try (HostBuffer musIn = HostBufferFixtures.filled(gpu::allocateHost, mus);
                 HostBuffer sigIn = HostBufferFixtures.filled(gpu::allocateHost, sigs)) {
                for (int round = 0; round < 2; round++) {
                    byte[] status = new byte[n];
                    Arrays.fill(status, (byte) 7);
                    gpu.run(BatchRecords.verify(verifier, n, mus, sigs, status));
                    assertArrayEquals(expected, status, n + " tasks, heap, round " + round);
                    Arrays.fill(status, (byte) 7);
                    gpu.run(BatchRecords.verify(verifier, n, musIn, sigIn, status));
                    assertArrayEquals(expected, status, n + " tasks, pinned, round " + round);
                }
            }
        }
    }

    /** A private key with an s1 coefficient out of range: INVALID_KEY as without the cache, and no slot. */
    private void anInvalidPrivateKeyIsNeverCached(ParameterSet p, byte[] sk, SplittableRandom r) {
        byte[] bad = sk.clone();
        bad[2 * ParameterSet.SEED_BYTES + p.trBytes()] = (byte) 0xFF;
        int n = 3;
        byte[] sks = spread(bad, p.privateKeyBytes(), new int[n]);
        byte[] mus = random(r, n * 64);
        byte[] rnds = random(r, n * p.rndBytes());
        byte[][] expected = cpuSign(p, n, sks, mus, rnds);
        assertArrayEquals(new byte[] {TaskStatus.INVALID_KEY, TaskStatus.INVALID_KEY, TaskStatus.INVALID_KEY},
                expected[1]);
        PrivateKeyCache cache = new PrivateKeyCache(p);
        for (int round = 0; round < 3; round++) {
            assertSame(expected, gpuSign(p, n, sks, mus, rnds, new PrivateKeyCache[] {cache, cache, cache}),
                    p + " invalid key, round " + round);
        }
        assertTrue(slotsOf(p, true, cache.knownIdentity()).isEmpty(), "an invalid key holds no slot");
        KeyHandle handle = KeyHandle.ofPrivateKey(p, bad);
        byte[] sigs = new byte[n * p.signatureBytes()];
        byte[] status = new byte[n];
        gpu.run(BatchRecords.sign(handle, n, mus, rnds, sigs, status));
        assertSame(expected, new byte[][] {sigs, status}, p + " invalid key, one-key records");
        handle.destroy();
    }

    /**
     * The known answers through the cached route: ACVP ML-DSA signature generation (pure and
     * internal interfaces, expanded keys) and verification, and the round 3.1 NIST KATs, each
     * vector's key used in two batches of two tasks, the second read from the cache.
     */
    @Test
    void knownAnswersThroughTheCachedRoute() {
        long hits = gpu.metrics().getKeyCacheHits();
        int signed = 0;
        int fromMessages = 0;
        for (TestVectors.AcvpCase c : concat(TestVectors.acvp("ML-DSA-sigGen-FIPS204", 2),
                TestVectors.acvp("ML-DSA-sigGen-FIPS204-tr1", 2))) {
            if (!c.has("sk") || c.has("hashAlg") && !"none".equals(c.text("hashAlg"))
                    || "preHash".equals(c.fields.path("preHash").asText())) {
                continue;
            }
            ParameterSet p = ParameterSet.forName(c.text("parameterSet"));
            byte[] sk = c.bytes("sk");
            byte[] mu = acvpMu(c, p, Arrays.copyOfRange(sk, 64, 64 + p.trBytes()));
            byte[] rnd = c.flag("deterministic") ? new byte[p.rndBytes()] : c.bytes("rnd");
            signTwiceFromTheCache(p, sk, mu, rnd, c.bytes("signature"), c.toString());
            signed++;
            byte[] record = acvpMessageRecord(c);
            if (record != null) {
                byte[] status = new byte[2];
                byte[] sigs = new byte[2 * p.signatureBytes()];
                gpu.run(BatchRecords.sign(new PrivateKeyCache(p), sk, 2, new byte[128], concat(rnd, rnd), sigs, status)
                        .withMessages(concat(record, record)));
                assertArrayEquals(new byte[2], status, c + " from its message record");
                assertArrayEquals(concat(c.bytes("signature"), c.bytes("signature")), sigs, c + " from its message record");
                fromMessages++;
            }
        }
        int verified = 0;
        for (TestVectors.AcvpCase c : TestVectors.acvp("ML-DSA-sigVer-FIPS204", 3)) {
            if (c.has("hashAlg") && !"none".equals(c.text("hashAlg"))
                    || "preHash".equals(c.fields.path("preHash").asText())) {
                continue;
            }
            ParameterSet p = ParameterSet.forName(c.text("parameterSet"));
            byte[] pk = c.bytes("pk");
            byte[] mu = acvpMu(c, p, Scheme.tr(p, pk, 0));
            byte expected = c.flag("testPassed") ? TaskStatus.OK : TaskStatus.REJECTED;
            KeyHandle handle = KeyHandle.ofPublicKey(p, pk);
            byte[] sig = c.bytes("signature");
            boolean wellFormed = sig.length == p.signatureBytes();
            if (!wellFormed) {
                continue;  // a wrong length never reaches a backend
            }
            for (int round = 0; round < 2; round++) {
                byte[] status = new byte[2];
                gpu.run(BatchRecords.verify(handle, 2, concat(mu, mu), concat(sig, sig), status));
                assertArrayEquals(new byte[] {expected, expected}, status, c + " round " + round);
            }
            verified++;
            byte[] record = acvpMessageRecord(c);
            if (record != null) {
                byte[] status = new byte[2];
                gpu.run(BatchRecords.verify(new PublicKeyCache(p), pk, 2, new byte[128], concat(sig, sig), status)
                        .withMessages(concat(record, record)));
                assertArrayEquals(new byte[] {expected, expected}, status, c + " from its message record");
                fromMessages++;
            }
        }
        for (String set : List.of("Dilithium2", "Dilithium3", "Dilithium5")) {
            ParameterSet p = ParameterSet.forName(set);
            for (Map<String, String> record : TestVectors.rsp("dilithium-r31/PQCsignKAT_" + set + ".rsp", 3)) {
                byte[] sk = TestVectors.hex(record.get("sk"));
                byte[] tr = Arrays.copyOfRange(sk, 64, 64 + p.trBytes());
                byte[] mu = MuHasher.pure(p, tr, new byte[0]).update(TestVectors.hex(record.get("msg"))).finish();
                byte[] rnd = Scheme.deterministicRnd(p, sk, 0, mu, 0);
                byte[] expected = Arrays.copyOf(TestVectors.hex(record.get("sm")), p.signatureBytes());
                signTwiceFromTheCache(p, sk, mu, rnd, expected, set + " count " + record.get("count"));
                signed++;
                byte[] msg = TestVectors.hex(record.get("msg"));
                if (msg.length <= MessageRecord.MAX_MESSAGE) {
                    byte[] rec = Arrays.copyOf(msg, MessageRecord.BYTES);
                    MessageRecord.tag(rec, msg.length);
                    byte[] status = new byte[2];
                    byte[] sigs = new byte[2 * p.signatureBytes()];
                    gpu.run(BatchRecords.sign(new PrivateKeyCache(p), sk, 2, new byte[128], concat(rnd, rnd), sigs,
                            status).withMessages(concat(rec, rec)));
                    assertArrayEquals(concat(expected, expected), sigs, set + " count " + record.get("count")
                            + " from its message record");
                    fromMessages++;
                }
            }
        }
        assertTrue(signed > 0 && verified > 0, signed + " signed, " + verified + " verified");
        assertTrue(fromMessages > 0, "vectors whose M' fits a message record: " + fromMessages);
        // On one device every second use hits; on several, a second use may land on another device.
        long expected = devices() == 1 ? signed + verified : 1;
        assertTrue(gpu.metrics().getKeyCacheHits() - hits >= expected,
                "second uses hit: " + (gpu.metrics().getKeyCacheHits() - hits) + " of " + (signed + verified));
    }

    /** Two batches of two tasks with one key object: the first admits the key, the second reads it. */
    private void signTwiceFromTheCache(ParameterSet p, byte[] sk, byte[] mu, byte[] rnd, byte[] expected, String what) {
        PrivateKeyCache cache = new PrivateKeyCache(p);
        for (int round = 0; round < 2; round++) {
            byte[][] got = gpuSign(p, 2, concat(sk, sk), concat(mu, mu), concat(rnd, rnd),
                    new PrivateKeyCache[] {cache, cache});
            assertArrayEquals(new byte[2], got[1], what + " status, round " + round);
            assertArrayEquals(concat(expected, expected), got[0], what + " signature, round " + round);
        }
        cache.destroy();
    }

    /**
     * The {@link MessageRecord} of an ACVP case's M′ (the internal interface's message, or pure
     * ML-DSA's 0 ‖ |ctx| ‖ ctx ‖ M), or null for external μ and an M′ longer than a record holds.
     */
    private static byte[] acvpMessageRecord(TestVectors.AcvpCase c) {
        boolean internal = "internal".equals(c.text("signatureInterface"));
        if (internal && c.flag("externalMu")) {
            return null;
        }
        byte[] m = c.bytes("message");
        byte[] ctx = internal || !c.has("context") ? new byte[0] : c.bytes("context");
        int header = internal ? 0 : 2 + ctx.length;
        if (header + m.length > MessageRecord.MAX_MESSAGE) {
            return null;
        }
        byte[] record = new byte[MessageRecord.BYTES];
        if (!internal) {
            record[1] = (byte) ctx.length;
            System.arraycopy(ctx, 0, record, 2, ctx.length);
        }
        System.arraycopy(m, 0, record, header, m.length);
        MessageRecord.tag(record, header + m.length);
        return record;
    }

    /** μ of an ACVP case: external μ, μ = H(tr ‖ M′) for the internal interface, or pure ML-DSA with its context. */
    private static byte[] acvpMu(TestVectors.AcvpCase c, ParameterSet p, byte[] tr) {
        if ("internal".equals(c.text("signatureInterface"))) {
            return c.flag("externalMu") ? c.bytes("mu") : MuHasher.internal(p, tr).update(c.bytes("message")).finish();
        }
        return MuHasher.pure(p, tr, c.has("context") ? c.bytes("context") : new byte[0]).update(c.bytes("message"))
                .finish();
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] random(SplittableRandom r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }
}
