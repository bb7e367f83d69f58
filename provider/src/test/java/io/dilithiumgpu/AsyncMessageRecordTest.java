package io.dilithiumgpu;

import io.dilithiumgpu.backend.MessageRecord;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.batch.Engine;
import io.dilithiumgpu.batch.Engines;
import io.dilithiumgpu.batch.SigningKey;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.spec.MLDSAParameterSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The async API hands an engine that hashes μ itself a short pure message as a {@link MessageRecord}
 * (M′ = 0 ‖ |ctx| ‖ ctx ‖ M), and μ otherwise; either way the signatures are ML-DSA's.
 */
@Timeout(60)
class AsyncMessageRecordTest {
    private static final byte[] SHORT = "a short message".getBytes(StandardCharsets.UTF_8);

    private static KeyPair keyPair(String alg) throws Exception {
        return KeyPairGenerator.getInstance(alg, new DilithiumGpuProvider()).generateKeyPair();
    }

    private static boolean jcaVerifies(KeyPair kp, byte[] context, byte[] message, byte[] signature) throws Exception {
        Signature v = Signature.getInstance(kp.getPublic().getAlgorithm(), new DilithiumGpuProvider());
        if (context != null) {
            v.setParameter(MLDSAParameterSpec.builder().context(context).build());
        }
        v.initVerify(kp.getPublic());
        v.update(message);
        return v.verify(signature);
    }

    @Test
    void aShortPureMessageGoesAsItsRecord() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        Recording engine = new Recording();
        byte[] context = {7, 8, 9};
        MLDSAParameterSpec spec = MLDSAParameterSpec.builder().context(context).build();
        byte[] sig = DilithiumGpu.signAsync(engine, kp.getPrivate(), SHORT, spec).join();
        byte[] expected = new byte[MessageRecord.BYTES];
        expected[1] = 3;
        System.arraycopy(context, 0, expected, 2, 3);
        System.arraycopy(SHORT, 0, expected, 5, SHORT.length);
        expected[MessageRecord.BYTES - 1] = (byte) (5 + SHORT.length + 1);
        assertArrayEquals(expected, engine.signRecord);
        assertArrayEquals(((DilithiumPrivateKey) kp.getPrivate()).getTr(), engine.tr);
        assertNull(engine.signMu, "μ computed on the caller's thread as well");
        assertTrue(jcaVerifies(kp, context, SHORT, sig));

        DilithiumPublicKey pk = (DilithiumPublicKey) kp.getPublic();
        byte[] handed = sig.clone();
        CompletableFuture<Boolean> ok = DilithiumGpu.verify(engine, pk.parameterSet(), pk.getRawKey(), pk.cache(),
                pk.getTr(), SHORT, handed, spec);
        Arrays.fill(handed, (byte) 0);  // the caller's array may change once the call returns
        assertTrue(ok.join());
        assertArrayEquals(expected, engine.verifyRecord);
        assertFalse(DilithiumGpu.verify(engine, pk.parameterSet(), pk.getRawKey(), pk.cache(), pk.getTr(),
                "another".getBytes(StandardCharsets.UTF_8), sig, spec).join());
    }

    @Test
    void otherMessagesAndSpecsGoAsMu() throws Exception {
        KeyPair kp = keyPair("ML-DSA-65");
        Recording engine = new Recording();
        byte[] longest = new byte[MessageRecord.MAX_MESSAGE - 2];
        DilithiumGpu.signAsync(engine, kp.getPrivate(), longest, MLDSAParameterSpec.DEFAULT).join();
        assertEquals(MessageRecord.BYTES, engine.signRecord.length, "M′ of 71 bytes fits a record");

        for (MLDSAParameterSpec spec : new MLDSAParameterSpec[] {
                MLDSAParameterSpec.DEFAULT, MLDSAParameterSpec.builder().deterministic(true).build(),
                MLDSAParameterSpec.builder().preHash("SHA2-256").build()}) {
            byte[] message = spec == MLDSAParameterSpec.DEFAULT ? new byte[longest.length + 1] : SHORT;
            engine.reset();
            byte[] sig = DilithiumGpu.signAsync(engine, kp.getPrivate(), message, spec).join();
            assertNull(engine.signRecord, spec.toString());
            assertEquals(64, engine.signMu.length);
            DilithiumPublicKey pk = (DilithiumPublicKey) kp.getPublic();
            assertTrue(DilithiumGpu.verify(engine, pk.parameterSet(), pk.getRawKey(), pk.cache(), pk.getTr(), message,
                    sig, spec).join());
            // Verification has no randomness: a deterministic signature's short message still goes as its record.
            assertEquals(spec.isDeterministic(), engine.verifyRecord != null, spec.toString());
        }
    }

    @Test
    void roundThreeSignsAsMuAndVerifiesAsItsRecord() throws Exception {
        KeyPair kp = keyPair("Dilithium2");
        Recording engine = new Recording();
        byte[] sig = DilithiumGpu.signAsync(engine, kp.getPrivate(), SHORT, MLDSAParameterSpec.DEFAULT).join();
        assertNull(engine.signRecord, "round 3.1 derives ρ′ from μ on the caller's thread");
        DilithiumPublicKey pk = (DilithiumPublicKey) kp.getPublic();
        assertTrue(DilithiumGpu.verify(engine, pk.parameterSet(), pk.getRawKey(), pk.cache(), pk.getTr(), SHORT, sig,
                MLDSAParameterSpec.DEFAULT).join());
        byte[] expected = new byte[MessageRecord.BYTES];
        System.arraycopy(SHORT, 0, expected, 0, SHORT.length);
        expected[MessageRecord.BYTES - 1] = (byte) (SHORT.length + 1);
        assertArrayEquals(expected, engine.verifyRecord, "M′ = M");
        assertTrue(jcaVerifies(kp, null, SHORT, sig));
    }

    @Test
    void aKeyHandlesShortMessagesGoAsRecordsAndItsKeyIsReadOnce() throws Exception {
        KeyPair kp = keyPair("ML-DSA-87");
        io.dilithiumgpu.backend.KeyHandle handle = DilithiumGpu.keyHandle(kp.getPrivate());
        Recording engine = new Recording();
        java.util.List<CompletableFuture<byte[]>> sigs = new java.util.ArrayList<>();
        for (int i = 0; i < 32; i++) {
            sigs.add(DilithiumGpu.signAsync(engine, handle, SHORT, MLDSAParameterSpec.DEFAULT));
        }
        byte[] expected = new byte[MessageRecord.BYTES];
        System.arraycopy(SHORT, 0, expected, 2, SHORT.length);
        expected[MessageRecord.BYTES - 1] = (byte) (2 + SHORT.length + 1);
        assertArrayEquals(expected, engine.signRecord);
        assertArrayEquals(((DilithiumPrivateKey) kp.getPrivate()).getTr(), engine.tr);
        assertNull(engine.signMu, "μ computed on the caller's thread as well");
        for (CompletableFuture<byte[]> sig : sigs) {
            assertTrue(jcaVerifies(kp, null, SHORT, sig.join()));
        }
        // Destroyed: refused at the call, or, when it happens before the batch runs, by the batch.
        handle.destroy();
        java.util.concurrent.CompletionException e = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.CompletionException.class,
                () -> DilithiumGpu.signAsync(engine, handle, SHORT, MLDSAParameterSpec.DEFAULT).join());
        org.junit.jupiter.api.Assertions.assertInstanceOf(java.security.InvalidKeyException.class, e.getCause());
    }

    /**
     * The shared engine (the batcher, which hashes a record on its batch thread where its backend
     * does not), taken as one that hashes μ itself, recording what each call handed it.
     */
    private static final class Recording implements Engine {
        private final Engine engine = Engines.shared();
        volatile byte[] signRecord;
        volatile byte[] signMu;
        volatile byte[] verifyRecord;
        volatile byte[] tr;

        void reset() {
            signRecord = null;
            signMu = null;
            verifyRecord = null;
        }

        @Override
        public boolean takesMessages(ParameterSet params, Operation op) {
            return true;
        }

        @Override
        public CompletableFuture<byte[]> signMessageDrawing(ParameterSet params, SigningKey key, PrivateKeyCache cache,
                                                            byte[] tr, byte[] message, Consumer<byte[]> random) {
            signRecord = message.clone();
            this.tr = tr.clone();
            return engine.signMessageDrawing(params, key, cache, tr, message, random);
        }

        @Override
        public CompletableFuture<Boolean> verifyMessageInPlace(ParameterSet params, byte[] publicKey,
                                                               PublicKeyCache cache, byte[] tr, byte[] message,
                                                               byte[] signature) {
            verifyRecord = message.clone();
            return engine.verifyMessageInPlace(params, publicKey, cache, tr, message, signature);
        }

        @Override
        public CompletableFuture<byte[]> sign(ParameterSet params, byte[] privateKey, PrivateKeyCache cache, byte[] mu,
                                              byte[] rnd) {
            if (signRecord == null) {
                signMu = mu.clone();
            }
            return engine.sign(params, privateKey, cache, mu, rnd);
        }

        @Override
        public CompletableFuture<Boolean> verify(ParameterSet params, byte[] publicKey, PublicKeyCache cache,
                                                 byte[] mu, byte[] signature) {
            return engine.verify(params, publicKey, cache, mu, signature);
        }

        @Override
        public CompletableFuture<byte[][]> keyGen(ParameterSet params, byte[] seed) {
            return engine.keyGen(params, seed);
        }

        @Override
        public CompletableFuture<byte[]> sign(ParameterSet params, byte[] privateKey, byte[] mu, byte[] rnd) {
            return engine.sign(params, privateKey, mu, rnd);
        }

        @Override
        public CompletableFuture<Boolean> verify(ParameterSet params, byte[] publicKey, byte[] mu, byte[] signature) {
            return engine.verify(params, publicKey, mu, signature);
        }
    }
}
