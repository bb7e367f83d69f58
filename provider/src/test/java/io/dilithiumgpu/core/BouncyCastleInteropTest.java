package io.dilithiumgpu.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.backend.TaskStatus;

import java.security.SecureRandom;
import java.util.Random;

import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.params.ParametersWithContext;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.pqc.crypto.mldsa.HashMLDSASigner;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAKeyPairGenerator;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAParameters;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAPrivateKeyParameters;
import org.bouncycastle.pqc.crypto.mldsa.MLDSAPublicKeyParameters;
import org.bouncycastle.pqc.crypto.mldsa.MLDSASigner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Interoperability with BouncyCastle's ML-DSA (bcprov 1.85, lightweight API): the same keys from
 * the same seed, and signatures each way for several message and context lengths.
 */
class BouncyCastleInteropTest {
    private static final int[] MESSAGE_LENGTHS = {0, 1, 63, 64, 65, 1000, 10_000};

    /** A SecureRandom that hands out fixed bytes: BouncyCastle's key generator draws ξ from it. */
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

    private static MLDSAParameters bc(ParameterSet p, boolean preHash) {
        switch (p) {
            case ML_DSA_44: return preHash ? MLDSAParameters.ml_dsa_44_with_sha512 : MLDSAParameters.ml_dsa_44;
            case ML_DSA_65: return preHash ? MLDSAParameters.ml_dsa_65_with_sha512 : MLDSAParameters.ml_dsa_65;
            case ML_DSA_87: return preHash ? MLDSAParameters.ml_dsa_87_with_sha512 : MLDSAParameters.ml_dsa_87;
            default: throw new IllegalArgumentException(p.toString());
        }
    }

    private static AsymmetricCipherKeyPair bcKeyPair(ParameterSet p, byte[] seed, boolean preHash) {
        MLDSAKeyPairGenerator generator = new MLDSAKeyPairGenerator();
        generator.init(new MLDSAKeyGenerationParameters(new FixedRandom(seed), bc(p, preHash)));
        return generator.generateKeyPair();
    }

    @ParameterizedTest
    @EnumSource(value = ParameterSet.class, names = {"ML_DSA_44", "ML_DSA_65", "ML_DSA_87"})
    void sameKeysFromTheSameSeed(ParameterSet p) {
        Random random = new Random(p.ordinal());
        for (int trial = 0; trial < 5; trial++) {
            byte[] seed = new byte[32];
            random.nextBytes(seed);
            AsymmetricCipherKeyPair theirs = bcKeyPair(p, seed, false);
            byte[] pk = new byte[p.publicKeyBytes()];
            byte[] sk = new byte[p.privateKeyBytes()];
            Scheme.keyGen(p, seed, 0, pk, 0, sk, 0);
            assertArrayEquals(((MLDSAPublicKeyParameters) theirs.getPublic()).getEncoded(), pk);
            assertArrayEquals(((MLDSAPrivateKeyParameters) theirs.getPrivate()).getPrivateKey(), sk);
        }
    }

    @ParameterizedTest
    @EnumSource(value = ParameterSet.class, names = {"ML_DSA_44", "ML_DSA_65", "ML_DSA_87"})
    void signaturesVerifyBothWays(ParameterSet p) throws Exception {
        Random random = new Random(100 + p.ordinal());
        byte[] seed = new byte[32];
        random.nextBytes(seed);
        AsymmetricCipherKeyPair theirs = bcKeyPair(p, seed, false);
        byte[] pk = new byte[p.publicKeyBytes()];
        byte[] sk = new byte[p.privateKeyBytes()];
        Scheme.keyGen(p, seed, 0, pk, 0, sk, 0);
        byte[] tr = Scheme.tr(p, pk, 0);

        for (int length : MESSAGE_LENGTHS) {
            byte[] message = new byte[length];
            random.nextBytes(message);
            byte[] ctx = new byte[length % 256];
            random.nextBytes(ctx);
            byte[] mu = MuHasher.pure(p, tr, ctx).update(message).finish();

            // ours → theirs
            byte[] rnd = new byte[p.rndBytes()];
            random.nextBytes(rnd);
            byte[] sig = new byte[p.signatureBytes()];
            assertEquals(TaskStatus.OK, Scheme.sign(p, sk, 0, mu, 0, rnd, 0, sig, 0));
            MLDSASigner verifier = new MLDSASigner();
            verifier.init(false, new ParametersWithContext(theirs.getPublic(), ctx));
            verifier.update(message, 0, message.length);
            assertTrue(verifier.verifySignature(sig), "BouncyCastle verifies ours, message length " + length);

            // theirs → ours, and a tampered message fails in both
            MLDSASigner signer = new MLDSASigner();
            signer.init(true, new ParametersWithContext(
                    new ParametersWithRandom(theirs.getPrivate(), new SecureRandom()), ctx));
            signer.update(message, 0, message.length);
            byte[] theirSig = signer.generateSignature();
            assertTrue(Scheme.verify(p, pk, 0, mu, 0, theirSig, 0), "ours verifies BouncyCastle's, length " + length);

            byte[] otherMu = MuHasher.pure(p, tr, ctx).update(message).update(new byte[1]).finish();
            assertFalse(Scheme.verify(p, pk, 0, otherMu, 0, theirSig, 0));
            verifier.init(false, new ParametersWithContext(theirs.getPublic(), ctx));
            verifier.update(message, 0, message.length);
            verifier.update((byte) 0);
            assertFalse(verifier.verifySignature(sig));
        }
    }

    @ParameterizedTest
    @EnumSource(value = ParameterSet.class, names = {"ML_DSA_44", "ML_DSA_65", "ML_DSA_87"})
    void hashMlDsaWithSha512BothWays(ParameterSet p) throws Exception {
        Random random = new Random(200 + p.ordinal());
        byte[] seed = new byte[32];
        random.nextBytes(seed);
        AsymmetricCipherKeyPair theirs = bcKeyPair(p, seed, true);
        byte[] pk = new byte[p.publicKeyBytes()];
        byte[] sk = new byte[p.privateKeyBytes()];
        Scheme.keyGen(p, seed, 0, pk, 0, sk, 0);
        byte[] message = new byte[777];
        random.nextBytes(message);
        byte[] ctx = {1, 2, 3};
        byte[] mu = MuHasher.preHashed(p, Scheme.tr(p, pk, 0), ctx, PreHash.SHA2_512, PreHash.SHA2_512.digest(message));

        byte[] sig = new byte[p.signatureBytes()];
        assertEquals(TaskStatus.OK, Scheme.sign(p, sk, 0, mu, 0, new byte[32], 0, sig, 0));
        HashMLDSASigner verifier = new HashMLDSASigner();
        verifier.init(false, new ParametersWithContext(theirs.getPublic(), ctx));
        verifier.update(message, 0, message.length);
        assertTrue(verifier.verifySignature(sig));

        HashMLDSASigner signer = new HashMLDSASigner();
        signer.init(true, new ParametersWithContext(new ParametersWithRandom(theirs.getPrivate(), new SecureRandom()), ctx));
        signer.update(message, 0, message.length);
        assertTrue(Scheme.verify(p, pk, 0, mu, 0, signer.generateSignature(), 0));
    }
}
