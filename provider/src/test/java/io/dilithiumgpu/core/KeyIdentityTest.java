package io.dilithiumgpu.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

/** Key identities for device caches: digests of whole keys, bound to their bytes, wiped at destroy. */
class KeyIdentityTest {
    private static final ParameterSet P = ParameterSet.ML_DSA_44;

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void theDigestCoversTheWholeKeyAndEqualEncodingsShareIt() throws Exception {
        byte[] sk = bytes(P.privateKeyBytes(), 1);
        KeyIdentity a = KeyIdentity.of(sk, 0, sk.length, true);
        assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(sk), a.digest());
        byte[] shifted = new byte[sk.length + 7];
        System.arraycopy(sk, 0, shifted, 7, sk.length);
        KeyIdentity b = KeyIdentity.of(ByteBuffer.allocateDirect(shifted.length).put(shifted).flip(), 7, sk.length, true);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        // The same tr (bytes 64..127 of a private key) with a different s1: another identity.
        byte[] crafted = sk.clone();
        crafted[sk.length - 1] ^= 1;
        assertNotEquals(a, KeyIdentity.of(crafted, 0, crafted.length, true));
    }

    @Test
    void matchesOnlyItsBytesUntilWiped() {
        byte[] pk = bytes(P.publicKeyBytes(), 2);
        for (boolean secret : new boolean[] {false, true}) {
            KeyIdentity id = KeyIdentity.of(pk, 0, pk.length, secret);
            assertTrue(id.matches(pk, 0));
            ByteBuffer direct = ByteBuffer.allocateDirect(pk.length + 3);
            direct.put(3, pk);
            assertTrue(id.matches(direct, 3));
            byte[] other = pk.clone();
            other[100] ^= 4;
            assertFalse(id.matches(other, 0));
            direct.put(3 + 100, other[100]);
            assertFalse(id.matches(direct, 3));
            assertFalse(id.matches(pk, 1));
            id.wipe();
            assertTrue(id.isWiped());
            assertFalse(id.matches(pk, 0));
        }
    }

    /** A flipped bit anywhere in a buffer's copy of the key, word or tail, fails the match, secret or not. */
    @Test
    void aChangeAnywhereInABufferIsSeen() {
        for (int length : new int[] {P.privateKeyBytes(), 13, 7}) {
            byte[] key = bytes(length, length);
            for (boolean secret : new boolean[] {false, true}) {
                KeyIdentity id = KeyIdentity.of(key, 0, length, secret);
                for (ByteBuffer b : new ByteBuffer[] {ByteBuffer.allocateDirect(length + 5), ByteBuffer.allocate(length + 5)}) {
                    b.put(5, key);
                    assertTrue(id.matches(b, 5));
                    for (int i = 0; i < length; i++) {
                        b.put(5 + i, (byte) (key[i] ^ (1 << (i & 7))));
                        assertFalse(id.matches(b, 5), "byte " + i + " of " + length);
                        b.put(5 + i, key[i]);
                    }
                    assertTrue(id.matches(b, 5));
                    assertFalse(id.matches(b, 6), "past the end");
                }
            }
        }
    }

    /** As above for an array's copy of the key, at an unaligned offset. */
    @Test
    void aChangeAnywhereInAnArrayIsSeen() {
        for (int length : new int[] {P.privateKeyBytes(), P.publicKeyBytes(), 13, 7}) {
            byte[] key = bytes(length, length);
            for (boolean secret : new boolean[] {false, true}) {
                KeyIdentity id = KeyIdentity.of(key, 0, length, secret);
                byte[] a = new byte[length + 3];
                System.arraycopy(key, 0, a, 3, length);
                assertTrue(id.matches(a, 3));
                for (int i = 0; i < length; i++) {
                    a[3 + i] ^= (byte) (1 << (i & 7));
                    assertFalse(id.matches(a, 3), "byte " + i + " of " + length);
                    a[3 + i] ^= (byte) (1 << (i & 7));
                }
                assertTrue(id.matches(a, 3));
                assertFalse(id.matches(a, 4), "past the end");
                assertFalse(id.matches(a, -1), "before the start");
            }
        }
    }

    /** A wiped identity matches nothing, not even the bytes it was computed from, in an array or a buffer. */
    @Test
    void aWipedIdentityMatchesNothing() {
        for (boolean secret : new boolean[] {false, true}) {
            byte[] key = bytes(P.privateKeyBytes(), 6);
            KeyIdentity id = KeyIdentity.of(key, 0, key.length, secret);
            ByteBuffer direct = ByteBuffer.allocateDirect(key.length).put(0, key);
            assertTrue(id.matches(key, 0));
            assertTrue(id.matches(direct, 0));
            id.wipe();
            assertFalse(id.matches(key, 0));
            assertFalse(id.matches(direct, 0));
            assertFalse(id.matches(new byte[key.length], 0), "the zeroed copy matches no zero key either");
            assertFalse(id.matches(ByteBuffer.allocate(key.length), 0));
        }
    }

    @Test
    void aCacheComputesItsIdentityOnceAndBindsIt() {
        byte[] sk = bytes(P.privateKeyBytes(), 3);
        PrivateKeyCache cache = new PrivateKeyCache(P);
        assertNull(cache.knownIdentity());
        KeyIdentity id = cache.identity(sk, 0);
        assertNotNull(id);
        assertSame(id, cache.identity(sk, 0));
        assertSame(id, cache.knownIdentity());
        byte[] other = sk.clone();
        other[5] ^= 1;
        assertNull(cache.identity(other, 0), "another key's bytes never get this key's identity");
        assertEquals(0, cache.sighted());
        assertEquals(1, cache.sighted());

        byte[] pk = bytes(P.publicKeyBytes(), 4);
        PublicKeyCache pc = new PublicKeyCache(P);
        KeyIdentity pid = pc.identity(pk, 0);
        assertSame(pid, pc.identity(ByteBuffer.wrap(pk), 0));
        pk[0] ^= 1;
        assertNull(pc.identity(pk, 0));
    }

    @Test
    void destroyAnnouncesTheIdentityAndWipesIt() {
        byte[] sk = bytes(P.privateKeyBytes(), 5);
        PrivateKeyCache cache = new PrivateKeyCache(P);
        KeyIdentity id = cache.identity(sk, 0);
        List<KeyIdentity> told = new ArrayList<>();
        Consumer<KeyIdentity> listener = told::add;
        DestroyedKeys.listen(listener);
        try {
            cache.destroy();
        } finally {
            DestroyedKeys.unlisten(listener);
        }
        assertEquals(List.of(id), told);
        assertTrue(id.isWiped());
        assertNull(cache.identity(sk, 0));
        assertNull(cache.knownIdentity());
        // A cache destroyed before any identity announces nothing.
        PrivateKeyCache never = new PrivateKeyCache(P);
        DestroyedKeys.listen(listener);
        try {
            never.destroy();
        } finally {
            DestroyedKeys.unlisten(listener);
        }
        assertEquals(1, told.size());
    }
}
