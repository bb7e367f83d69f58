package io.dilithiumgpu.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dilithiumgpu.backend.TaskStatus;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Interoperability with the JDK's own ML-DSA (the SUN provider, JDK 24 and later; skipped on
 * older JDKs): the same public key from the same seed, and signatures each way.
 */
class JdkInteropTest {

    /** Hands out fixed bytes: the JDK's key generator draws the 32-byte ξ from it. */
    private static final class FixedRandom extends SecureRandom {
        private static final long serialVersionUID = 1L;
        private final byte[] bytes;

        FixedRandom(byte[] bytes) {
            this.bytes = bytes.clone();
        }

        @Override
        public void nextBytes(byte[] out) {
            assertEquals(bytes.length, out.length);
            System.arraycopy(bytes, 0, out, 0, out.length);
        }
    }

    @ParameterizedTest
    @EnumSource(value = ParameterSet.class, names = {"ML_DSA_44", "ML_DSA_65", "ML_DSA_87"})
    void sameKeysAndSignaturesBothWays(ParameterSet p) throws Exception {
        assumeTrue(Runtime.version().feature() >= 24,
                "the JDK's ML-DSA needs JDK 24 or later; running on " + Runtime.version());
        Random random = new Random(300 + p.ordinal());
        byte[] seed = new byte[32];
        random.nextBytes(seed);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("ML-DSA");
        generator.initialize(new NamedParameterSpec(p.algorithmName()), new FixedRandom(seed));
        KeyPair theirs = generator.generateKeyPair();

        byte[] pk = new byte[p.publicKeyBytes()];
        byte[] sk = new byte[p.privateKeyBytes()];
        Scheme.keyGen(p, seed, 0, pk, 0, sk, 0);
        byte[] spki = theirs.getPublic().getEncoded();
        assertArrayEquals(pk, Arrays.copyOfRange(spki, spki.length - pk.length, spki.length),
                "the X.509 encoding ends with the raw public key");

        byte[] message = new byte[1234];
        random.nextBytes(message);
        byte[] mu = MuHasher.pure(p, Scheme.tr(p, pk, 0), new byte[0]).update(message).finish();
        byte[] rnd = new byte[32];
        random.nextBytes(rnd);
        byte[] sig = new byte[p.signatureBytes()];
        assertEquals(TaskStatus.OK, Scheme.sign(p, sk, 0, mu, 0, rnd, 0, sig, 0));
        Signature verifier = Signature.getInstance("ML-DSA");
        verifier.initVerify(theirs.getPublic());
        verifier.update(message);
        assertTrue(verifier.verify(sig), "the JDK verifies ours");

        Signature signer = Signature.getInstance("ML-DSA");
        signer.initSign(theirs.getPrivate());
        signer.update(message);
        byte[] theirSig = signer.sign();
        assertTrue(Scheme.verify(p, pk, 0, mu, 0, theirSig, 0), "ours verifies the JDK's");
        theirSig[10] ^= 1;
        assertFalse(Scheme.verify(p, pk, 0, mu, 0, theirSig, 0));
    }
}
