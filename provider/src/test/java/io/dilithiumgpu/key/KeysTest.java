package io.dilithiumgpu.key;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.spec.RawPrivateKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.Field;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.Security;
import java.security.spec.NamedParameterSpec;
import java.util.HexFormat;

@Timeout(60)
class KeysTest {
    private static final HexFormat HEX = HexFormat.of();

    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-65", "Dilithium5"})
    void publicKeyIsImmutableAndNamedByItsSet(String set) throws Exception {
        DilithiumPublicKey pub = (DilithiumPublicKey) keyPair(set).getPublic();
        assertEquals(set, pub.getAlgorithm());
        assertEquals("X.509", pub.getFormat());
        assertEquals(set, ((NamedParameterSpec) pub.getParams()).getName());
        byte[] encoded = pub.getEncoded();
        encoded[encoded.length - 1] ^= 1;
        assertNotEquals(HEX.formatHex(encoded), HEX.formatHex(pub.getEncoded()), "getEncoded returns a copy");
        byte[] raw = pub.getRawKey();
        raw[0] ^= 1;
        assertNotEquals(raw[0], pub.getRawKey()[0], "getRawKey returns a copy");
        assertEquals(ParameterSet.forName(set).trBytes(), pub.getTr().length);
        assertThrows(IllegalArgumentException.class, () -> DilithiumPublicKey.of(ParameterSet.forName(set), new byte[5]));
    }

    @Test
    void equalityIsBySetAndBytes() throws Exception {
        KeyPair a = keyPair("ML-DSA-44");
        KeyPair b = keyPair("ML-DSA-44");
        DilithiumPublicKey pa = (DilithiumPublicKey) a.getPublic();
        DilithiumPublicKey copy = DilithiumPublicKey.of(ParameterSet.ML_DSA_44, pa.getRawKey());
        assertEquals(pa, copy);
        assertEquals(pa.hashCode(), copy.hashCode());
        assertNotEquals(pa, b.getPublic());
        assertNotEquals(pa, DilithiumPublicKey.of(ParameterSet.DILITHIUM2, pa.getRawKey()), "same bytes, other set");

        DilithiumPrivateKey sa = (DilithiumPrivateKey) a.getPrivate();
        DilithiumPrivateKey expandedOnly = DilithiumPrivateKey.of(ParameterSet.ML_DSA_44, null, sa.getExpandedKey(), null);
        assertEquals(sa, expandedOnly, "knowing the seed does not change the key");
        assertEquals(sa.hashCode(), expandedOnly.hashCode());
        assertNotEquals(sa, b.getPrivate());
        assertNotEquals(sa, (Object) pa);
    }

    @Test
    void destroyZeroesThePrivateMaterial() throws Exception {
        DilithiumPrivateKey key = (DilithiumPrivateKey) keyPair("ML-DSA-87").getPrivate();
        DilithiumPrivateKey twin = DilithiumPrivateKey.of(key.parameterSet(), key.getSeed(), key.getExpandedKey(), null);
        int hash = key.hashCode();
        assertFalse(key.isDestroyed());
        key.destroy();
        assertTrue(key.isDestroyed());
        assertTrue(allZero(field(key, "seed")), "seed wiped");
        assertTrue(allZero(field(key, "expanded")), "expanded key wiped");
        assertThrows(IllegalStateException.class, key::getEncoded);
        assertThrows(IllegalStateException.class, key::getSeed);
        assertThrows(IllegalStateException.class, key::getExpandedKey);
        java.nio.ByteBuffer record = java.nio.ByteBuffer.allocate(3 + key.parameterSet().privateKeyBytes());
        record.put(3, (byte) 1);
        assertFalse(key.copyExpandedKey(record, 3), "a destroyed key is not copied");
        assertTrue(allZero(record.array()), "what was written is zero");
        assertFalse(key.signingKey().copyTo(record, 3), "nor through its signing key");
        assertTrue(allZero(record.array()));
        assertTrue(twin.copyExpandedKey(record, 3));
        assertArrayEquals(twin.getExpandedKey(), java.util.Arrays.copyOfRange(record.array(), 3, record.capacity()));
        assertSame(twin.signingKey(), twin.signingKey(), "one signing key per key: the batcher's records of it are one source");
        record.put(3, new byte[key.parameterSet().privateKeyBytes()]);
        assertTrue(twin.signingKey().copyTo(record, 3));
        assertArrayEquals(twin.getExpandedKey(), java.util.Arrays.copyOfRange(record.array(), 3, record.capacity()));
        assertEquals(0, record.position(), "absolute: the position is left alone");
        assertNotEquals(key, twin);
        assertNotEquals(twin, key);
        assertEquals(key, key);
        assertEquals(hash, key.hashCode(), "hashCode is stable across destroy");
        assertTrue(key.toString().contains("destroyed"));
        key.destroy();
        assertFalse(twin.isDestroyed(), "copies are independent");
    }

    /**
     * Readers racing a destroy get either the whole expanded key or an IllegalStateException, never
     * a copy that the wipe has partly zeroed; the readers never wait for one another.
     */
    @Test
    void expandedKeyReadsRacingDestroyAreWholeOrRefused() throws Exception {
        for (int round = 0; round < 20; round++) {
            DilithiumPrivateKey original = (DilithiumPrivateKey) keyPair("ML-DSA-44").getPrivate();
            byte[] expected = original.getExpandedKey();
            DilithiumPrivateKey key = DilithiumPrivateKey.of(original.parameterSet(), null, expected, null);
            int readers = 4;
            java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(readers);
            java.util.concurrent.atomic.AtomicReference<String> wrong = new java.util.concurrent.atomic.AtomicReference<>();
            java.util.concurrent.atomic.AtomicInteger whole = new java.util.concurrent.atomic.AtomicInteger();
            Thread[] threads = new Thread[readers];
            for (int t = 0; t < readers; t++) {
                threads[t] = new Thread(() -> {
                    started.countDown();
                    while (true) {
                        byte[] copy;
                        try {
                            copy = key.getExpandedKey();
                        } catch (IllegalStateException destroyed) {
                            return;
                        }
                        if (!java.util.Arrays.equals(expected, copy)) {
                            wrong.compareAndSet(null, "a reader got a partly wiped copy");
                            return;
                        }
                        whole.incrementAndGet();
                    }
                });
                threads[t].start();
            }
            started.await();
            Thread.sleep(1);
            key.destroy();
            for (Thread t : threads) {
                t.join(10_000);
                assertFalse(t.isAlive(), "a reader still runs after destroy");
            }
            assertEquals(null, wrong.get());
            assertTrue(whole.get() > 0, "readers read before the destroy");
            assertTrue(allZero(field(key, "expanded")), "expanded key wiped");
        }
    }

    @Test
    void privateKeyAccessorsReturnCopies() throws Exception {
        DilithiumPrivateKey key = (DilithiumPrivateKey) keyPair("Dilithium2").getPrivate();
        byte[] seed = key.getSeed();
        byte[] sk = key.getExpandedKey();
        seed[0] ^= 1;
        sk[0] ^= 1;
        assertNotEquals(seed[0], key.getSeed()[0]);
        assertNotEquals(sk[0], key.getExpandedKey()[0]);
        assertEquals("PKCS#8", key.getFormat());
        assertEquals("Dilithium2", key.getAlgorithm());
        assertThrows(IllegalArgumentException.class, () -> DilithiumPrivateKey.of(ParameterSet.DILITHIUM2, null, new byte[10], null));
        assertThrows(IllegalArgumentException.class,
                () -> DilithiumPrivateKey.of(ParameterSet.DILITHIUM2, new byte[31], key.getExpandedKey(), null));
    }

    @Test
    void toStringNamesTheSetButNoKeyBytes() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        String pub = kp.getPublic().toString();
        String priv = kp.getPrivate().toString();
        assertTrue(pub.startsWith("ML-DSA-44 public key"), pub);
        assertTrue(priv.startsWith("ML-DSA-44 private key"), priv);
        byte[] pk = ((DilithiumPublicKey) kp.getPublic()).getRawKey();
        byte[] seed = ((DilithiumPrivateKey) kp.getPrivate()).getSeed();
        for (String s : new String[] {pub, priv}) {
            assertFalse(s.toLowerCase().contains(HEX.formatHex(pk, 0, 4)), s);
            assertFalse(s.toLowerCase().contains(HEX.formatHex(seed, 0, 4)), s);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-44", "Dilithium3"})
    void keysSerializeAsKeyReps(String set) throws Exception {
        KeyPair kp = keyPair(set);
        Security.insertProviderAt(PROVIDER, 1);
        try {
            for (Key key : new Key[] {kp.getPublic(), kp.getPrivate()}) {
                Object back = roundTrip(key);
                assertNotSame(key, back);
                assertEquals(key, back);
                assertInstanceOf(key.getClass(), back);
            }
        } finally {
            Security.removeProvider(PROVIDER.getName());
        }
    }

    @Test
    void roundThreeEncodingsCarryRawKeys() throws Exception {
        KeyPair kp = keyPair("Dilithium2");
        byte[] pk = ((DilithiumPublicKey) kp.getPublic()).getRawKey();
        byte[] sk = ((DilithiumPrivateKey) kp.getPrivate()).getExpandedKey();
        String algorithm = "300d060b2b0601040102820b070404";
        assertEquals("30820534" + algorithm + "03820521" + "00" + HEX.formatHex(pk), HEX.formatHex(kp.getPublic().getEncoded()));
        assertEquals("308209f6" + "020100" + algorithm + "048209e0" + HEX.formatHex(sk),
                HEX.formatHex(kp.getPrivate().getEncoded()));
        byte[] expandedForm = kp.getPrivate().getEncoded();
        System.setProperty(PrivateKeyForm.PROPERTY, "seed");
        try {
            assertArrayEquals(expandedForm, kp.getPrivate().getEncoded(), "round 3.1 has only the expanded form");
        } finally {
            System.clearProperty(PrivateKeyForm.PROPERTY);
        }
        assertEquals(ParameterSet.DILITHIUM2, Spki.decode(kp.getPublic().getEncoded()).params());
        Pkcs8.Decoded d = Pkcs8.decode(kp.getPrivate().getEncoded());
        assertEquals(PrivateKeyForm.EXPANDED, d.form());
        assertArrayEquals(sk, d.expanded());
        d.destroy();
        assertTrue(allZero(d.expanded()));
        assertEquals(kp.getPrivate(),
                KeyFactory.getInstance("Dilithium2", PROVIDER).generatePrivate(new RawPrivateKeySpec("Dilithium2", sk)));
    }

    @Test
    void oidsMapBothWays() {
        for (ParameterSet p : ParameterSet.values()) {
            assertEquals(p, Oids.forKeyOid(Oids.keyOid(p)));
            if (p.isFips204()) {
                assertEquals(p, Oids.forKeyOid(Oids.hashMlDsaWithSha512Oid(p)));
            } else {
                assertThrows(IllegalArgumentException.class, () -> Oids.hashMlDsaWithSha512Oid(p));
            }
        }
        assertEquals("2.16.840.1.101.3.4.3.17", Oids.keyOid(ParameterSet.ML_DSA_44));
        assertEquals("2.16.840.1.101.3.4.3.34", Oids.hashMlDsaWithSha512Oid(ParameterSet.ML_DSA_87));
        assertEquals("1.3.6.1.4.1.2.267.7.6.5", Oids.keyOid(ParameterSet.DILITHIUM3));
        assertEquals(null, Oids.forKeyOid("1.3.101.112"));
    }

    private static Object roundTrip(Object o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }

    private static byte[] field(Object o, String name) throws ReflectiveOperationException {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return (byte[]) f.get(o);
    }

    private static boolean allZero(byte[] b) {
        int acc = 0;
        for (byte x : b) {
            acc |= x;
        }
        return acc == 0;
    }
}
