package io.dilithiumgpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.NamedParameterSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** Shared fixtures of the provider's JCA tests. */
public final class ProviderTestSupport {
    /** One provider instance, used directly (not installed) unless a test installs it itself. */
    public static final Provider PROVIDER = new DilithiumGpuProvider();

    public static final List<String> ML_DSA_SETS = List.of("ML-DSA-44", "ML-DSA-65", "ML-DSA-87");
    public static final List<String> ROUND3_SETS = List.of("Dilithium2", "Dilithium3", "Dilithium5");
    public static final List<String> ALL_SETS = List.of("ML-DSA-44", "ML-DSA-65", "ML-DSA-87",
            "Dilithium2", "Dilithium3", "Dilithium5");

    private ProviderTestSupport() {}

    public static KeyPair keyPair(String set) throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance(set, PROVIDER);
        return g.generateKeyPair();
    }

    /** The key pair whose key generation starts from {@code seed}. */
    public static KeyPair keyPair(String set, byte[] seed) throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance(set, PROVIDER);
        ScriptedRandom random = ScriptedRandom.of(seed);
        g.initialize(new NamedParameterSpec(set), random);
        KeyPair kp = g.generateKeyPair();
        random.assertExhausted();
        return kp;
    }

    public static byte[] sign(String algorithm, PrivateKey key, AlgorithmParameterSpec params, byte[] message)
            throws GeneralSecurityException {
        Signature s = Signature.getInstance(algorithm, PROVIDER);
        if (params != null) {
            s.setParameter(params);
        }
        s.initSign(key);
        s.update(message);
        return s.sign();
    }

    public static boolean verify(String algorithm, PublicKey key, AlgorithmParameterSpec params, byte[] message,
                                 byte[] signature) throws GeneralSecurityException {
        Signature s = Signature.getInstance(algorithm, PROVIDER);
        if (params != null) {
            s.setParameter(params);
        }
        s.initVerify(key);
        s.update(message);
        return s.verify(signature);
    }

    /**
     * A SecureRandom that answers {@code nextBytes} from a script (each call must ask for exactly the
     * next scripted length) or, unscripted, from a real generator, and records every request's length.
     */
    public static final class ScriptedRandom extends SecureRandom {
        private static final long serialVersionUID = 1L;
        private final transient Deque<byte[]> script;
        private final transient List<Integer> requests = new ArrayList<>();

        private ScriptedRandom(Deque<byte[]> script) {
            this.script = script;
        }

        /** Answers exactly these outputs, in order; any further request fails the test. */
        public static ScriptedRandom of(byte[]... outputs) {
            Deque<byte[]> script = new ArrayDeque<>();
            for (byte[] o : outputs) {
                script.add(o.clone());
            }
            return new ScriptedRandom(script);
        }

        /** Answers every request with fresh random bytes. */
        public static ScriptedRandom recording() {
            return new ScriptedRandom(null);
        }

        @Override
        public synchronized void nextBytes(byte[] bytes) {
            requests.add(bytes.length);
            if (script == null) {
                super.nextBytes(bytes);
                return;
            }
            byte[] next = script.poll();
            if (next == null) {
                throw new AssertionError("unscripted nextBytes(" + bytes.length + ")");
            }
            assertEquals(next.length, bytes.length, "nextBytes request length");
            System.arraycopy(next, 0, bytes, 0, next.length);
        }

        /** The lengths of all nextBytes requests so far. */
        public synchronized List<Integer> requests() { return List.copyOf(requests); }

        public synchronized void assertExhausted() {
            assertEquals(0, script.size(), "scripted outputs left unused");
        }
    }
}
