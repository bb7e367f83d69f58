package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.core.ParameterSet;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAParameters;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAPrivateKeyParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

class SelfTestTest {

    @Test
    @Timeout(120)
    void theCpuBackendGivesEveryKnownAnswer() throws Exception {
        try (Batcher b = Batcher.open(BatchConfig.builder().build(), new CpuBackend())) {
            SelfTest.Result r = SelfTest.run(b);
            assertTrue(r.passed(), r.toString());
            assertEquals(24, r.checks());
            assertEquals("self-test passed: 24 known answers", r.toString());
        }
        try (CpuBackend cpu = new CpuBackend()) {
            assertTrue(SelfTest.run(cpu).passed(), "straight on the backend");
        }
    }

    /** An engine whose key generation corrupts one byte of ML-DSA-65 public keys. */
    @Test
    @Timeout(120)
    void aWrongAnswerIsReportedNotThrown() throws Exception {
        try (Batcher b = Batcher.open(BatchConfig.builder().build(), new CpuBackend())) {
            Engine corrupting = new Engine() {
                @Override
                public CompletableFuture<byte[][]> keyGen(ParameterSet params, byte[] seed) {
                    return b.keyGen(params, seed).thenApply(pair -> {
                        if (params == ParameterSet.ML_DSA_65) {
                            pair[0][7] ^= 1;
                        }
                        return pair;
                    });
                }

                @Override
                public CompletableFuture<byte[]> sign(ParameterSet params, byte[] privateKey, byte[] mu, byte[] rnd) {
                    return b.sign(params, privateKey, mu, rnd);
                }

                @Override
                public CompletableFuture<Boolean> verify(ParameterSet params, byte[] publicKey, byte[] mu,
                                                         byte[] signature) {
                    return b.verify(params, publicKey, mu, signature);
                }
            };
            SelfTest.Result r = SelfTest.run(corrupting);
            assertFalse(r.passed());
            assertTrue(r.failures().get(0).startsWith("ML-DSA-65 public key differs from the known answer"),
                    r.toString());
            assertTrue(r.toString().contains("ML-DSA-65 verification rejected the known signature"), r.toString());
        }
    }

    /** The ML-DSA public-key answers hold for BouncyCastle's ML-DSA too, from the same seeds. */
    @Test
    void mlDsaPublicKeysAgreeWithBouncyCastle() throws Exception {
        Map<ParameterSet, MLDSAParameters> bc = Map.of(ParameterSet.ML_DSA_44, MLDSAParameters.ml_dsa_44,
                ParameterSet.ML_DSA_65, MLDSAParameters.ml_dsa_65, ParameterSet.ML_DSA_87, MLDSAParameters.ml_dsa_87);
        for (Map.Entry<ParameterSet, MLDSAParameters> e : bc.entrySet()) {
            byte[] pk = new MLDSAPrivateKeyParameters(e.getValue(), SelfTest.seed(e.getKey())).getPublicKey();
            byte[] ours = new byte[e.getKey().publicKeyBytes()];
            byte[] sk = new byte[e.getKey().privateKeyBytes()];
            io.dilithiumgpu.core.Scheme.keyGen(e.getKey(), SelfTest.seed(e.getKey()), 0, ours, 0, sk, 0);
            assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(ours)),
                    HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(pk)), e.getKey().toString());
        }
    }

    /** Strict mode without a GPU: the batcher does not open, and says why. */
    @Test
    void cudaRequiredWithoutAGpuFailsLoudly() {
        assumeFalse(new java.io.File("/dev/nvidia0").exists(), "an NVIDIA device node exists");
        BackendException e = assertThrows(BackendException.class,
                () -> Batcher.open(BatchConfig.builder().backend(BackendPolicy.CUDA_REQUIRED).build()));
        assertTrue(e.getMessage().startsWith("dilithiumgpu.backend=cuda-required and CUDA is unavailable: "),
                e.getMessage());
    }
}
