package io.dilithiumgpu.key;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.spec.MLDSAParameterSpec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.Security;
import java.security.Signature;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The keys' caches of decoded vectors, as seen through the keys and the JCA services. */
@Timeout(60)
class KeyCachesTest {
    private static final MLDSAParameterSpec DETERMINISTIC = MLDSAParameterSpec.builder().deterministic(true).build();

    /** Whether the shared engine runs on the CPU backend, the one that fills caches. */
    private static boolean onCpu() {
        return "cpu".equals(Engines.sharedBatcher().metrics().getBackend());
    }

    private static byte[] sign(String set, DilithiumPrivateKey key, byte[] message) throws Exception {
        Signature s = Signature.getInstance(set, PROVIDER);
        if (key.parameterSet().isFips204()) {
            s.setParameter(DETERMINISTIC);
        }
        s.initSign(key);
        s.update(message);
        return s.sign();
    }

    private static boolean verify(String set, DilithiumPublicKey key, byte[] message, byte[] signature) throws Exception {
        Signature s = Signature.getInstance(set, PROVIDER);
        s.initVerify(key);
        s.update(message);
        return s.verify(signature);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-44", "Dilithium3"})
    void repeatedUseThroughTheJcaFillsTheCachesAndChangesNoResult(String set) throws Exception {
        KeyPair kp = keyPair(set);
        DilithiumPrivateKey key = (DilithiumPrivateKey) kp.getPrivate();
        DilithiumPublicKey pub = (DilithiumPublicKey) kp.getPublic();
        assertSame(key.cache(), key.cache());
        assertFalse(key.cache().isDecoded());
        byte[] message = "repeated use".getBytes(StandardCharsets.UTF_8);

        byte[] first = sign(set, key, message);
        assertFalse(key.cache().isDecoded(), "a key used once is not decoded");
        for (int use = 2; use <= 3; use++) {
            assertArrayEquals(first, sign(set, key, message), "use " + use);
            // A twin without a filled cache signs the same.
            DilithiumPrivateKey twin = DilithiumPrivateKey.of(key.parameterSet(), null, key.getExpandedKey(), null);
            assertArrayEquals(first, sign(set, twin, message), "twin, use " + use);
            assertTrue(verify(set, pub, message, first), "use " + use);
            byte[] tampered = first.clone();
            tampered[tampered.length / 2] ^= 1;
            assertFalse(verify(set, pub, message, tampered), "tampered, use " + use);
        }
        if (onCpu()) {
            // Over a GPU the router decides where these lone calls run: those on the caller's
            // thread fill the caches as the CPU backend's do, batched ones leave them to the device.
            assertTrue(key.cache().isDecoded(), "filled by the CPU backend");
            assertTrue(pub.cache().isDecoded(), "filled by the CPU backend");
        }

        key.destroy();
        assertTrue(key.cache().isDestroyed(), "destroy() destroys the cache");
        assertFalse(key.cache().isDecoded());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-65", "Dilithium2"})
    void oneKeySharedByManySignersGivesTheSameSignatures(String set) throws Exception {
        KeyPair kp = keyPair(set);
        DilithiumPrivateKey key = (DilithiumPrivateKey) kp.getPrivate();
        DilithiumPublicKey pub = (DilithiumPublicKey) kp.getPublic();
        int messages = 12;
        byte[][] expected = new byte[messages][];
        for (int i = 0; i < messages; i++) {
            DilithiumPrivateKey fresh = DilithiumPrivateKey.of(key.parameterSet(), null, key.getExpandedKey(), null);
            expected[i] = sign(set, fresh, new byte[] {(byte) i});
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int offset = t;
                done.add(pool.submit(() -> {
                    for (int j = 0; j < messages; j++) {
                        int i = (j + 3 * offset) % messages;
                        byte[] message = {(byte) i};
                        assertArrayEquals(expected[i], sign(set, key, message), "message " + i);
                        assertTrue(verify(set, pub, message, expected[i]), "message " + i);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-87"})
    void cachesAreTransientAndShowNoKeyBytes(String set) throws Exception {
        KeyPair kp = keyPair(set);
        DilithiumPrivateKey key = (DilithiumPrivateKey) kp.getPrivate();
        DilithiumPublicKey pub = (DilithiumPublicKey) kp.getPublic();
        byte[] message = {1, 2, 3};
        byte[] sig = sign(set, key, message);
        sign(set, key, message);
        verify(set, pub, message, sig);
        verify(set, pub, message, sig);

        DilithiumPrivateKey copy = (DilithiumPrivateKey) roundTrip(key);
        assertEquals(key, copy);
        assertNotSame(key.cache(), copy.cache());
        assertFalse(copy.cache().isDecoded(), "a deserialized key starts with an empty cache");

        HexFormat hex = HexFormat.of();
        String seedHex = hex.formatHex(key.getSeed(), 0, 4);
        String pkHex = hex.formatHex(pub.getRawKey(), 0, 4);
        for (String s : new String[] {key.cache().toString(), pub.cache().toString()}) {
            assertTrue(s.startsWith(set), s);
            assertFalse(s.toLowerCase().contains(seedHex), s);
            assertFalse(s.toLowerCase().contains(pkHex), s);
        }
    }

    /** Java serialization with the provider installed (keys serialize as KeyReps). */
    private static Object roundTrip(Object o) throws Exception {
        Security.insertProviderAt(PROVIDER, 1);
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(o);
            }
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                return in.readObject();
            }
        } finally {
            Security.removeProvider(PROVIDER.getName());
        }
    }
}
