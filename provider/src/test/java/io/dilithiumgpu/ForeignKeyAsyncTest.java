package io.dilithiumgpu;

import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.batch.Engine;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.spec.MLDSAParameterSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.security.PrivateKey;
import java.util.concurrent.CompletableFuture;

/**
 * {@link DilithiumGpu#signAsync} converts another provider's private key into one of ours for the
 * call; that copy holds the expanded key and must be destroyed once the engine has its own copy
 * (issue 21: it was left for the garbage collector, unwiped). The engine here records the cache
 * it is handed, which the copy owns and destroys with it.
 */
@Timeout(60)
class ForeignKeyAsyncTest {
    @Test
    void theConvertedCopyOfAForeignKeyIsDestroyed() throws Exception {
        DilithiumPrivateKey ours = (DilithiumPrivateKey) keyPair("ML-DSA-44").getPrivate();
        PrivateKey foreign = new PrivateKey() {
            private final byte[] encoded = ours.getEncoded();

            @Override public String getAlgorithm() { return "ML-DSA-44"; }
            @Override public String getFormat() { return "PKCS#8"; }
            @Override public byte[] getEncoded() { return encoded.clone(); }
        };
        RecordingEngine engine = new RecordingEngine();
        DilithiumGpu.signAsync(engine, foreign, new byte[] {1}, MLDSAParameterSpec.DEFAULT).join();
        assertNotNull(engine.cache);
        assertTrue(engine.cache.isDestroyed(), "the converted key was left undestroyed");

        // Our own key is the caller's: it stays as it is.
        DilithiumGpu.signAsync(engine, ours, new byte[] {1}, MLDSAParameterSpec.DEFAULT).join();
        assertFalse(ours.isDestroyed());
        assertFalse(engine.cache.isDestroyed());
    }

    /** Records the cache of the last signature and answers with a dummy one. */
    private static final class RecordingEngine implements Engine {
        volatile PrivateKeyCache cache;

        @Override
        public CompletableFuture<byte[]> sign(ParameterSet params, byte[] privateKey, PrivateKeyCache c, byte[] mu,
                                              byte[] rnd) {
            cache = c;
            return CompletableFuture.completedFuture(new byte[params.signatureBytes()]);
        }

        @Override
        public CompletableFuture<byte[][]> keyGen(ParameterSet params, byte[] seed) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<byte[]> sign(ParameterSet params, byte[] privateKey, byte[] mu, byte[] rnd) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Boolean> verify(ParameterSet params, byte[] publicKey, byte[] mu, byte[] signature) {
            throw new UnsupportedOperationException();
        }
    }
}
