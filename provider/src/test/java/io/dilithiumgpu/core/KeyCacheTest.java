package io.dilithiumgpu.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link PrivateKeyCache} and {@link PublicKeyCache} through {@link Scheme}: results bit for bit
 * those of the plain path before and after the cache fills, fall-back on foreign key bytes and
 * invalid keys, wiping on destroy, and concurrent use.
 */
@Timeout(60)
class KeyCacheTest {
    /** A key pair of set p from a seed derived from {@code tag}. */
    private static final class Keys {
        final ParameterSet p;
        final byte[] pk;
        final byte[] sk;

        Keys(ParameterSet p, int tag) {
            this.p = p;
            byte[] seed = new byte[ParameterSet.SEED_BYTES];
            new Random(31L * p.ordinal() + tag).nextBytes(seed);
            pk = new byte[p.publicKeyBytes()];
            sk = new byte[p.privateKeyBytes()];
            Scheme.keyGen(p, seed, 0, pk, 0, sk, 0);
        }
    }

    private static byte[] mu(int i) {
        byte[] mu = new byte[ParameterSet.MU_BYTES];
        new Random(1000 + i).nextBytes(mu);
        return mu;
    }

    /** Deterministic signing: rnd = 0 (FIPS 204) or ρ′ = H(K ‖ μ) (round 3.1). */
    private static byte[] sign(ParameterSet p, byte[] sk, PrivateKeyCache cache, byte[] mu) {
        byte[] rnd = Scheme.deterministicRnd(p, sk, 0, mu, 0);
        byte[] sig = new byte[p.signatureBytes()];
        assertTrue(Scheme.sign(p, sk, 0, cache, mu, 0, rnd, 0, sig, 0));
        return sig;
    }

    private static byte[] plainSign(ParameterSet p, byte[] sk, byte[] mu) {
        byte[] rnd = Scheme.deterministicRnd(p, sk, 0, mu, 0);
        byte[] sig = new byte[p.signatureBytes()];
        assertTrue(Scheme.sign(p, sk, 0, mu, 0, rnd, 0, sig, 0));
        return sig;
    }

    private static boolean allZero(int[] a) {
        int acc = 0;
        for (int x : a) {
            acc |= x;
        }
        return acc == 0;
    }

    private static boolean allZero(byte[] a) {
        int acc = 0;
        for (byte x : a) {
            acc |= x;
        }
        return acc == 0;
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void signaturesThroughTheCacheEqualThePlainPathBeforeAndAfterItFills(ParameterSet p) {
        Keys keys = new Keys(p, 1);
        PrivateKeyCache cache = new PrivateKeyCache(p);
        for (int use = 1; use <= 4; use++) {
            byte[] mu = mu(use);
            assertArrayEquals(plainSign(p, keys.sk, mu), sign(p, keys.sk, cache, mu), p + " use " + use);
            assertEquals(use >= 2, cache.isDecoded(), p + " decoded after use " + use);
        }
        // The second use filled it with the vectors the plain path computes, and Â.
        assertEquals(p.privateKeyBytes(), cache.boundKey().length);
        int[][] secrets = cache.secretArrays();
        assertEquals(p.l() * 256, secrets[0].length);
        assertEquals(p.k() * 256, secrets[1].length);
        assertEquals(p.k() * 256, secrets[2].length);

        // Hedged signing (any rnd) too.
        byte[] rnd = new byte[p.rndBytes()];
        new Random(5).nextBytes(rnd);
        byte[] mu = mu(9);
        byte[] plain = new byte[p.signatureBytes()];
        byte[] cached = new byte[p.signatureBytes()];
        assertTrue(Scheme.sign(p, keys.sk, 0, mu, 0, rnd, 0, plain, 0));
        assertTrue(Scheme.sign(p, keys.sk, 0, cache, mu, 0, rnd, 0, cached, 0));
        assertArrayEquals(plain, cached);
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void aHitReallyReadsTheCachedVectors(ParameterSet p) {
        Keys keys = new Keys(p, 2);
        PrivateKeyCache cache = new PrivateKeyCache(p);
        byte[] mu = mu(0);
        byte[] expected = plainSign(p, keys.sk, mu);
        sign(p, keys.sk, cache, mu);
        sign(p, keys.sk, cache, mu);
        int[] s1Hat = cache.secretArrays()[0];
        int saved = s1Hat[0];
        s1Hat[0] = saved + 1;
        try {
            byte[] rnd = Scheme.deterministicRnd(p, keys.sk, 0, mu, 0);
            byte[] sig = new byte[p.signatureBytes()];
            Scheme.sign(p, keys.sk, 0, cache, mu, 0, rnd, 0, sig, 0);
            assertFalse(Arrays.equals(expected, sig), "a hit signs with the cached ŝ1");
        } finally {
            s1Hat[0] = saved;
        }
        assertArrayEquals(expected, sign(p, keys.sk, cache, mu));

        PublicKeyCache pubCache = new PublicKeyCache(p);
        assertTrue(Scheme.verify(p, keys.pk, 0, pubCache, mu, 0, expected, 0));
        assertTrue(Scheme.verify(p, keys.pk, 0, pubCache, mu, 0, expected, 0));
        PublicKeyCache.Decoded d = pubCache.load(p, keys.pk, 0);
        assertNotNull(d);
        d.t1[0] += 1;
        try {
            assertFalse(Scheme.verify(p, keys.pk, 0, pubCache, mu, 0, expected, 0), "a hit verifies with the cached t̂1");
        } finally {
            d.t1[0] -= 1;
        }
        assertTrue(Scheme.verify(p, keys.pk, 0, pubCache, mu, 0, expected, 0));
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void verificationThroughTheCacheAcceptsAndRejectsAsThePlainPath(ParameterSet p) {
        Keys keys = new Keys(p, 3);
        PublicKeyCache cache = new PublicKeyCache(p);
        byte[] mu = mu(1);
        byte[] sig = plainSign(p, keys.sk, mu);
        int zOff = p.cTildeBytes();
        int hintOff = zOff + p.l() * p.polyZPackedBytes();
        List<byte[]> tampered = new ArrayList<>();
        for (int at : new int[] {0, zOff + 7, hintOff - 1, p.signatureBytes() - 1}) {
            byte[] t = sig.clone();
            t[at] ^= 4;
            tampered.add(t);
        }
        byte[] otherMu = mu.clone();
        otherMu[3] ^= 1;
        for (int use = 1; use <= 3; use++) {
            assertTrue(Scheme.verify(p, keys.pk, 0, cache, mu, 0, sig, 0), p + " use " + use);
            assertFalse(Scheme.verify(p, keys.pk, 0, cache, otherMu, 0, sig, 0), p + " other μ, use " + use);
            for (int i = 0; i < tampered.size(); i++) {
                byte[] t = tampered.get(i);
                assertEquals(Scheme.verify(p, keys.pk, 0, mu, 0, t, 0), Scheme.verify(p, keys.pk, 0, cache, mu, 0, t, 0),
                        p + " tampered " + i + ", use " + use);
                assertFalse(Scheme.verify(p, keys.pk, 0, cache, mu, 0, t, 0), p + " tampered " + i + ", use " + use);
            }
            assertTrue(cache.isDecoded(), p + " filled from the second verification, at use " + use);
        }

        // Reclaimed by the garbage collector: filled again by the next verification.
        cache.reclaim();
        assertFalse(cache.isDecoded());
        assertTrue(Scheme.verify(p, keys.pk, 0, cache, mu, 0, sig, 0));
        assertTrue(cache.isDecoded());
        assertTrue(Scheme.verify(p, keys.pk, 0, cache, mu, 0, sig, 0));
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void destroyZeroesTheVectorsAndSigningGoesOnFromThePackedKey(ParameterSet p) {
        Keys keys = new Keys(p, 4);
        PrivateKeyCache cache = new PrivateKeyCache(p);
        sign(p, keys.sk, cache, mu(0));
        sign(p, keys.sk, cache, mu(1));
        int[][] secrets = cache.secretArrays();
        byte[] bound = cache.boundKey();
        assertArrayEquals(keys.sk, bound);
        for (int[] s : secrets) {
            assertFalse(allZero(s));
        }

        cache.destroy();
        assertTrue(cache.isDestroyed());
        assertFalse(cache.isDecoded());
        for (int[] s : secrets) {
            assertTrue(allZero(s), "secret vector zeroed");
        }
        assertTrue(allZero(bound), "copy of the packed key zeroed");
        assertNull(cache.secretArrays());

        for (int use = 2; use <= 4; use++) {
            byte[] mu = mu(use);
            assertArrayEquals(plainSign(p, keys.sk, mu), sign(p, keys.sk, cache, mu));
            assertFalse(cache.isDecoded(), "never filled again");
        }
        cache.destroy();
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void otherKeyBytesFallBackToThePlainPath(ParameterSet p) {
        Keys a = new Keys(p, 5);
        Keys b = new Keys(p, 6);
        PrivateKeyCache cache = new PrivateKeyCache(p);
        PublicKeyCache pubCache = new PublicKeyCache(p);
        byte[] mu = mu(2);
        byte[] sigA = sign(p, a.sk, cache, mu);
        sign(p, a.sk, cache, mu);
        Scheme.verify(p, a.pk, 0, pubCache, mu, 0, sigA, 0);
        Scheme.verify(p, a.pk, 0, pubCache, mu, 0, sigA, 0);
        assertTrue(cache.isDecoded());
        assertTrue(pubCache.isDecoded());

        // Another key of the set.
        byte[] sigB = sign(p, b.sk, cache, mu);
        assertArrayEquals(plainSign(p, b.sk, mu), sigB);
        assertTrue(Scheme.verify(p, b.pk, 0, pubCache, mu, 0, sigB, 0));
        assertFalse(Scheme.verify(p, b.pk, 0, pubCache, mu, 0, sigA, 0));
        assertFalse(Scheme.verify(p, a.pk, 0, pubCache, mu, 0, sigB, 0));

        // The same ρ ‖ K ‖ tr with one t0 byte changed, at an offset inside a larger array.
        byte[] altered = new byte[p.privateKeyBytes() + 3];
        System.arraycopy(a.sk, 0, altered, 3, a.sk.length);
        altered[altered.length - 1] ^= 1;
        byte[] alone = Arrays.copyOfRange(altered, 3, altered.length);
        byte[] rnd = Scheme.deterministicRnd(p, alone, 0, mu, 0);
        byte[] viaCache = new byte[p.signatureBytes()];
        assertTrue(Scheme.sign(p, altered, 3, cache, mu, 0, rnd, 0, viaCache, 0));
        assertArrayEquals(plainSign(p, alone, mu), viaCache);

        // The cache stays bound to key a.
        assertArrayEquals(a.sk, cache.boundKey());
        assertArrayEquals(sigA, sign(p, a.sk, cache, mu));

        // A cache of another set is ignored.
        ParameterSet other = ParameterSet.values()[(p.ordinal() + 1) % ParameterSet.values().length];
        Keys c = new Keys(other, 7);
        assertArrayEquals(plainSign(other, c.sk, mu), sign(other, c.sk, cache, mu));
    }

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void anInvalidKeyIsNeverCached(ParameterSet p) {
        Keys keys = new Keys(p, 8);
        byte[] bad = keys.sk.clone();
        bad[2 * ParameterSet.SEED_BYTES + p.trBytes()] = (byte) 0xff;
        PrivateKeyCache cache = new PrivateKeyCache(p);
        byte[] mu = mu(3);
        byte[] rnd = new byte[p.rndBytes()];
        for (int use = 1; use <= 3; use++) {
            byte[] sig = new byte[p.signatureBytes()];
            assertFalse(Scheme.sign(p, bad, 0, cache, mu, 0, rnd, 0, sig, 0), "sk does not decode");
            assertTrue(allZero(sig), "nothing written");
            assertFalse(cache.isDecoded());
        }
        // Not poisoned either, and the invalid uses did not count: the valid key fills it at its second.
        sign(p, keys.sk, cache, mu);
        assertFalse(cache.isDecoded());
        sign(p, keys.sk, cache, mu);
        assertTrue(cache.isDecoded());
        byte[] sig = new byte[p.signatureBytes()];
        assertFalse(Scheme.sign(p, bad, 0, cache, mu, 0, rnd, 0, sig, 0), "sk does not decode");
    }

    @Test
    void concurrentSignersAndVerifiersGetThePlainResults() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_65;
        Keys keys = new Keys(p, 9);
        int messages = 24;
        byte[][] mus = new byte[messages][];
        byte[][] expected = new byte[messages][];
        for (int i = 0; i < messages; i++) {
            mus[i] = mu(i);
            expected[i] = plainSign(p, keys.sk, mus[i]);
        }
        PrivateKeyCache cache = new PrivateKeyCache(p);
        PublicKeyCache pubCache = new PublicKeyCache(p);
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                results.add(pool.submit(() -> {
                    start.await();
                    int checked = 0;
                    for (int round = 0; round < 2; round++) {
                        for (int j = 0; j < messages; j++) {
                            int i = (j + offset * 5) % messages;
                            assertArrayEquals(expected[i], sign(p, keys.sk, cache, mus[i]), "message " + i);
                            assertTrue(Scheme.verify(p, keys.pk, 0, pubCache, mus[i], 0, expected[i], 0));
                            checked++;
                        }
                    }
                    return checked;
                }));
            }
            start.countDown();
            for (Future<Integer> f : results) {
                assertEquals(2 * messages, f.get(2, TimeUnit.MINUTES));
            }
            assertTrue(cache.isDecoded());
            assertTrue(pubCache.isDecoded());

            // Destroyed while signers run: each signature still equals the plain one.
            CountDownLatch go = new CountDownLatch(1);
            results.clear();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                results.add(pool.submit(() -> {
                    go.await();
                    for (int j = 0; j < 8; j++) {
                        int i = (j + offset) % messages;
                        assertArrayEquals(expected[i], sign(p, keys.sk, cache, mus[i]), "message " + i);
                    }
                    return 8;
                }));
            }
            int[][] secrets = cache.secretArrays();
            go.countDown();
            Thread.sleep(5);
            cache.destroy();
            for (Future<Integer> f : results) {
                assertEquals(8, f.get(2, TimeUnit.MINUTES));
            }
            for (int[] s : secrets) {
                assertTrue(allZero(s));
            }
            assertFalse(cache.isDecoded());
        } finally {
            pool.shutdownNow();
        }
    }
}
