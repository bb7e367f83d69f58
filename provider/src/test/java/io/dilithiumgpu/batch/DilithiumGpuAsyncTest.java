package io.dilithiumgpu.batch;

import io.dilithiumgpu.DilithiumGpu;
import io.dilithiumgpu.DilithiumGpuProvider;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.spec.MLDSAParameterSpec;
import org.bouncycastle.crypto.params.MLDSAParameters;
import org.bouncycastle.crypto.params.MLDSAPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithContext;
import org.bouncycastle.crypto.signers.MLDSASigner;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static io.dilithiumgpu.batch.Fixtures.message;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The public async API: key objects and raw encodings, specs, and interop with JCA and BouncyCastle. */
@Timeout(60)
class DilithiumGpuAsyncTest {
    private static final Duration GENEROUS = Duration.ofMinutes(2);

    @ParameterizedTest
    @EnumSource(ParameterSet.class)
    void manyCallsInFlightVerifyEverywhere(ParameterSet p) throws Exception {
        int n = 12;
        List<KeyPair> pairs = assertTimeoutPreemptively(GENEROUS, () -> DilithiumGpu.generateKeyPairs(p, 3).join());
        assertEquals(3, pairs.size());
        List<CompletableFuture<byte[]>> signs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            signs.add(DilithiumGpu.signAsync(pairs.get(i % 3).getPrivate(), message(i)));
        }
        List<CompletableFuture<Boolean>> verifies = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            verifies.add(DilithiumGpu.verifyAsync(pairs.get(i % 3).getPublic(), message(i), signs.get(i).join()));
        }
        Signature jca = Signature.getInstance(p.algorithmName(), new DilithiumGpuProvider());
        for (int i = 0; i < n; i++) {
            assertTrue(verifies.get(i).join());
            byte[] sig = signs.get(i).join();
            byte[] pk = ((io.dilithiumgpu.key.DilithiumPublicKey) pairs.get(i % 3).getPublic()).getRawKey();
            assertTrue(Fixtures.referenceVerifies(p, pk, message(i), sig));
            jca.initVerify(pairs.get(i % 3).getPublic());
            jca.update(message(i));
            assertTrue(jca.verify(sig));
        }
        assertFalse(DilithiumGpu.verifyAsync(pairs.get(1).getPublic(), message(0), signs.get(0).join()).join());
    }

    @Test
    void keyPairsAreDistinctAndKeepTheirSeeds() {
        List<KeyPair> pairs = DilithiumGpu.generateKeyPairs("ML-DSA-44", 16).join();
        Set<String> distinct = new HashSet<>();
        for (KeyPair kp : pairs) {
            DilithiumPrivateKey sk = (DilithiumPrivateKey) kp.getPrivate();
            assertTrue(sk.hasSeed());
            distinct.add(java.util.HexFormat.of().formatHex(sk.getSeed()));
        }
        assertEquals(16, distinct.size());
        assertTrue(DilithiumGpu.generateKeyPairs(ParameterSet.DILITHIUM3, 0).join().isEmpty());
    }

    @Test
    void contextDeterminismAndRawKeysFollowTheSpec() {
        ParameterSet p = ParameterSet.ML_DSA_65;
        Fixtures.KeyPair raw = Fixtures.keys(p);
        byte[] ctx = "async context".getBytes(StandardCharsets.UTF_8);
        MLDSAParameterSpec spec = MLDSAParameterSpec.builder().context(ctx).deterministic(true).build();
        byte[] msg = message(9);

        byte[] a = DilithiumGpu.signAsync(p, raw.sk, msg, spec).join();
        byte[] b = DilithiumGpu.signAsync(DilithiumPrivateKey.of(p, null, raw.sk, null), msg, spec).join();
        assertArrayEquals(a, b, "deterministic signing, raw and key object alike");

        MLDSASigner bc = new MLDSASigner();
        bc.init(false, new ParametersWithContext(new MLDSAPublicKeyParameters(MLDSAParameters.ml_dsa_65, raw.pk), ctx));
        bc.update(msg, 0, msg.length);
        assertTrue(bc.verifySignature(a), "BouncyCastle verifies with the same context");
        assertTrue(DilithiumGpu.verifyAsync(p, raw.pk, msg, a, spec).join());
        assertFalse(DilithiumGpu.verifyAsync(p, raw.pk, msg, a, MLDSAParameterSpec.DEFAULT).join(), "other context");

        byte[] plain = DilithiumGpu.signAsync(p, raw.sk, msg).join();
        assertTrue(DilithiumGpu.verifyAsync(p, raw.pk, msg, plain).join(), "raw forms with the default spec");

        byte[] hedged1 = DilithiumGpu.signAsync(p, raw.sk, msg, MLDSAParameterSpec.DEFAULT).join();
        byte[] hedged2 = DilithiumGpu.signAsync(p, raw.sk, msg, MLDSAParameterSpec.DEFAULT).join();
        assertFalse(java.util.Arrays.equals(hedged1, hedged2), "ML-DSA is hedged by default");
    }

    @Test
    void hashMlDsaMatchesTheJcaService() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_44;
        Fixtures.KeyPair raw = Fixtures.keys(p);
        MLDSAParameterSpec spec = MLDSAParameterSpec.builder().preHash("SHA2-512").build();
        byte[] sig = DilithiumGpu.signAsync(p, raw.sk, message(3), spec).join();
        Signature jca = Signature.getInstance("ML-DSA-44-WITH-SHA512", new DilithiumGpuProvider());
        jca.initVerify(io.dilithiumgpu.key.DilithiumPublicKey.of(p, raw.pk));
        jca.update(message(3));
        assertTrue(jca.verify(sig));
    }

    @Test
    void anotherProvidersKeysAreAccepted() throws Exception {
        KeyPairGenerator kpg = KeyPairGenerator.getInstance("ML-DSA-44", new BouncyCastleProvider());
        KeyPair bcPair = kpg.generateKeyPair();
        byte[] sig = DilithiumGpu.signAsync(bcPair.getPrivate(), message(4)).join();
        Signature bc = Signature.getInstance("ML-DSA-44", new BouncyCastleProvider());
        bc.initVerify(bcPair.getPublic());
        bc.update(message(4));
        assertTrue(bc.verify(sig));
        assertTrue(DilithiumGpu.verifyAsync(bcPair.getPublic(), message(4), sig).join());
    }

    @Test
    void errorsArriveThroughTheFuture() {
        ParameterSet r31 = ParameterSet.DILITHIUM2;
        Fixtures.KeyPair raw = Fixtures.keys(r31);
        MLDSAParameterSpec withContext = MLDSAParameterSpec.builder().context(new byte[] {1}).build();
        assertFailsWith(InvalidAlgorithmParameterException.class, DilithiumGpu.signAsync(r31, raw.sk, message(0), withContext));
        assertFailsWith(InvalidAlgorithmParameterException.class,
                DilithiumGpu.signAsync(r31, raw.sk, message(0), MLDSAParameterSpec.builder().preHash("SHA2-256").build()));
        assertFailsWith(InvalidAlgorithmParameterException.class, DilithiumGpu.signAsync(ParameterSet.ML_DSA_44,
                Fixtures.keys(ParameterSet.ML_DSA_44).sk, new byte[63], MLDSAParameterSpec.builder().externalMu(true).build()));
        assertFailsWith(InvalidKeyException.class, DilithiumGpu.signAsync(r31, new byte[7], message(0), MLDSAParameterSpec.DEFAULT));
        assertFailsWith(InvalidKeyException.class, DilithiumGpu.signAsync(r31, Fixtures.malformedPrivateKey(r31), message(0),
                MLDSAParameterSpec.DEFAULT));

        DilithiumPrivateKey destroyed = DilithiumPrivateKey.of(r31, null, raw.sk, null);
        destroyed.destroy();
        assertFailsWith(InvalidKeyException.class, DilithiumGpu.signAsync(destroyed, message(0)));
    }

    private static void assertFailsWith(Class<? extends Exception> type, CompletableFuture<?> f) {
        CompletionException e = assertThrows(CompletionException.class, f::join);
        assertInstanceOf(type, e.getCause());
    }

    /** A key handle signs and verifies as its key does, one at a time and as a one-key batch; destroyed, it fails. */
    @Test
    void keyHandlesAndOneKeyBatches() throws Exception {
        ParameterSet p = ParameterSet.ML_DSA_44;
        KeyPair pair = assertTimeoutPreemptively(GENEROUS, () -> DilithiumGpu.generateKeyPairs(p, 1).join()).get(0);
        io.dilithiumgpu.backend.KeyHandle signer = DilithiumGpu.keyHandle(pair.getPrivate());
        io.dilithiumgpu.backend.KeyHandle verifier = DilithiumGpu.keyHandle(pair.getPublic());
        MLDSAParameterSpec deterministic = MLDSAParameterSpec.builder().deterministic(true).build();
        byte[] one = DilithiumGpu.signAsync(signer, message(1), deterministic).join();
        assertArrayEquals(DilithiumGpu.signAsync(pair.getPrivate(), message(1), deterministic).join(), one);
        List<byte[]> messages = List.of(message(1), message(2), message(3));
        List<byte[]> sigs = DilithiumGpu.signAllAsync(signer, messages, deterministic).join();
        assertEquals(3, sigs.size());
        assertArrayEquals(one, sigs.get(0));
        List<byte[]> tampered = new ArrayList<>(sigs);
        byte[] bad = sigs.get(2).clone();
        bad[7] ^= 1;
        tampered.set(2, bad);
        assertEquals(List.of(true, true, false),
                DilithiumGpu.verifyAllAsync(verifier, messages, tampered, deterministic).join());
        assertTrue(DilithiumGpu.verifyAsync(verifier, message(2), sigs.get(1), deterministic).join());
        CompletionException wrongKind = assertThrows(CompletionException.class,
                () -> DilithiumGpu.signAsync(verifier, message(1), deterministic).join());
        assertInstanceOf(InvalidKeyException.class, wrongKind.getCause());
        assertThrows(IllegalArgumentException.class,
                () -> DilithiumGpu.verifyAllAsync(verifier, messages, sigs.subList(0, 2), deterministic));
        CompletionException wrongVerifier = assertThrows(CompletionException.class,
                () -> DilithiumGpu.verifyAsync(signer, message(2), sigs.get(1), deterministic).join());
        assertInstanceOf(InvalidKeyException.class, wrongVerifier.getCause());
        signer.destroy();
        CompletionException destroyed = assertThrows(CompletionException.class,
                () -> DilithiumGpu.signAsync(signer, message(1), deterministic).join());
        assertInstanceOf(InvalidKeyException.class, destroyed.getCause());
        verifier.destroy();
        CompletionException destroyedVerifier = assertThrows(CompletionException.class,
                () -> DilithiumGpu.verifyAsync(verifier, message(2), sigs.get(1), deterministic).join());
        assertInstanceOf(InvalidKeyException.class, destroyedVerifier.getCause());
    }
}
