package io.dilithiumgpu.spi;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.ProviderTestSupport.ScriptedRandom;
import io.dilithiumgpu.route.RouteSetting;
import io.dilithiumgpu.route.Router;
import io.dilithiumgpu.spec.MLDSAParameterSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.security.KeyPair;
import java.security.Signature;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.HexFormat;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Batched JCA signatures with the provider's default randomness leave the rnd to their batch,
 * which draws a batch's at once; a caller's own {@code SecureRandom} is still drawn by the call.
 */
class BatchedRandomnessTest {
    private static final byte[] MESSAGE = "one message, signed many times".getBytes();

    @BeforeEach
    void pinBatch() {
        System.setProperty(RouteSetting.PROPERTY, "batch");
    }

    @AfterEach
    void unpin() {
        System.clearProperty(RouteSetting.PROPERTY);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void concurrentSignaturesOfOneMessageAreHedgedAndVerify() throws Exception {
        for (String set : List.of("ML-DSA-44", "ML-DSA-65", "ML-DSA-87")) {
            KeyPair kp = keyPair(set);
            long batched = Router.shared().getBatchCount();
            int callers = 8;
            int each = 4;
            ExecutorService pool = Executors.newFixedThreadPool(callers);
            try {
                List<Future<List<byte[]>>> futures = new ArrayList<>();
                for (int c = 0; c < callers; c++) {
                    futures.add(pool.submit(() -> {
                        List<byte[]> out = new ArrayList<>();
                        for (int i = 0; i < each; i++) {
                            Signature s = Signature.getInstance(set, PROVIDER);
                            s.initSign(kp.getPrivate());
                            s.update(MESSAGE);
                            out.add(s.sign());
                        }
                        return out;
                    }));
                }
                Set<String> distinct = new HashSet<>();
                Signature v = Signature.getInstance(set, PROVIDER);
                for (Future<List<byte[]>> f : futures) {
                    for (byte[] sig : f.get()) {
                        v.initVerify(kp.getPublic());
                        v.update(MESSAGE);
                        assertTrue(v.verify(sig), set + ": a batched signature verifies");
                        distinct.add(HexFormat.of().formatHex(sig));
                    }
                }
                assertEquals(callers * each, distinct.size(), set + ": every signature drew its own rnd");
                assertTrue(Router.shared().getBatchCount() - batched >= callers * each, set + ": the calls were batched");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aCallersOwnRandomnessIsDrawnByTheCall() throws Exception {
        KeyPair kp = keyPair("ML-DSA-65");
        Signature s = Signature.getInstance("ML-DSA-65", PROVIDER);
        ScriptedRandom random = ScriptedRandom.of(new byte[32]);
        s.initSign(kp.getPrivate(), random);
        s.update(MESSAGE);
        byte[] batched = s.sign();
        random.assertExhausted();

        // rnd = 0³² is deterministic signing: the same signature
        Signature det = Signature.getInstance("ML-DSA-65", PROVIDER);
        det.setParameter(MLDSAParameterSpec.builder().deterministic(true).build());
        det.initSign(kp.getPrivate());
        det.update(MESSAGE);
        assertEquals(HexFormat.of().formatHex(det.sign()), HexFormat.of().formatHex(batched));
    }
}
