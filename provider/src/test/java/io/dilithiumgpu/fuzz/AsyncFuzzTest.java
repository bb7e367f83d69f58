package io.dilithiumgpu.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.dilithiumgpu.DilithiumGpu;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.spec.MLDSAParameterSpec;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * The asynchronous API ({@link DilithiumGpu}) with any keys, raw key bytes, messages, signatures
 * and specs: every call returns a future (none throws, except generateKeyPairs for a set name it
 * does not know, as documented), and every future completes with a value or with a checked
 * refusal, {@link InvalidKeyException} or {@link InvalidAlgorithmParameterException}. Anything
 * else is a finding. The fixed key's valid signature verifies; a key pair made here signs what
 * it verifies.
 *
 * <p>Input: operation, set, key source, spec choices, then the fields.
 */
// Jazzer takes a @Timeout as the limit of a whole fuzzing run (and per input, which the build's
// -timeout replaces): above the longest run of profile fuzz-long.
@Timeout(value = 3, unit = TimeUnit.HOURS)
class AsyncFuzzTest {
    /** Far above any one operation's time: a future that takes this long is a hang. */
    private static final long LIMIT_SECONDS = 120;

    @FuzzTest
    void async(byte[] data) throws Exception {
        FuzzInput in = new FuzzInput(data);
        int operation = in.choose(5);
        ParameterSet p = in.choose(FuzzFixtures.SETS);
        int keySource = in.choose(3);
        String foreignName = in.choose(FuzzFixtures.NAMES);
        MLDSAParameterSpec spec = MLDSAParameterSpec.builder().context(in.flag() ? in.field() : null)
                .deterministic(in.flag()).externalMu(in.flag()).preHash(in.choose(FuzzFixtures.PRE_HASHES)).build();
        byte[] keyBytes = in.longField();
        byte[] signature = in.longField();
        byte[] message = in.rest();

        switch (operation) {
            case 0: {
                PrivateKey key = keySource == 0 ? FuzzFixtures.privateKey(p)
                        : FuzzFixtures.foreignPrivate(foreignName, keySource == 1 ? "PKCS#8" : "RAW", keyBytes);
                outcome(DilithiumGpu.signAsync(key, message, spec));
                break;
            }
            case 1:
                outcome(DilithiumGpu.signAsync(p, keySource == 0 ? FuzzFixtures.privateKey(p).getExpandedKey()
                        : keyBytes, message, spec));
                break;
            case 2: {
                PublicKey key = keySource == 0 ? FuzzFixtures.publicKey(p)
                        : FuzzFixtures.foreignPublic(foreignName, keySource == 1 ? "X.509" : "RAW", keyBytes);
                byte[] sig = keySource == 0 && signature.length == 0 ? FuzzFixtures.signature(p) : signature;
                byte[] msg = keySource == 0 && signature.length == 0 ? FuzzFixtures.MESSAGE : message;
                Object valid = outcome(DilithiumGpu.verifyAsync(key, msg, sig, keySource == 0 && signature.length == 0
                        ? MLDSAParameterSpec.DEFAULT : spec));
                if (keySource == 0 && signature.length == 0) {
                    assertEquals(Boolean.TRUE, valid, "the valid signature did not verify");
                }
                break;
            }
            case 3:
                outcome(DilithiumGpu.verifyAsync(p, keySource == 0 ? FuzzFixtures.publicKey(p).getRawKey() : keyBytes,
                        message, signature, spec));
                break;
            default: {
                int n = in.choose(3);
                CompletableFuture<List<KeyPair>> pairs;
                try {
                    pairs = keySource == 0 ? DilithiumGpu.generateKeyPairs(p, n)
                            : DilithiumGpu.generateKeyPairs(foreignName, n);
                } catch (IllegalArgumentException unknownSet) {
                    assertTrue(keySource != 0, "generateKeyPairs refused a set it has");
                    return;
                }
                @SuppressWarnings("unchecked")
                List<KeyPair> made = (List<KeyPair>) outcome(pairs);
                assertEquals(n, made.size());
                for (KeyPair kp : made) {
                    byte[] sig = (byte[]) outcome(DilithiumGpu.signAsync(kp.getPrivate(), message));
                    assertEquals(Boolean.TRUE, outcome(DilithiumGpu.verifyAsync(kp.getPublic(), message, sig)));
                }
            }
        }
    }

    /** The future's value, or null for a checked refusal; any other failure is rethrown as a finding. */
    private static Object outcome(CompletableFuture<?> future) throws Exception {
        try {
            return future.get(LIMIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof InvalidKeyException || cause instanceof InvalidAlgorithmParameterException) {
                return null;
            }
            throw new AssertionError("a future failed with " + cause, cause);
        }
    }
}
