package io.dilithiumgpu.kat;

import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrontEndTest {
    private static final ParameterSet P = ParameterSet.ML_DSA_65;

    private static MessageInput pure(int contextBytes) {
        return new MessageInput.Pure(new byte[contextBytes], new byte[] {1});
    }

    @Test
    void contextsUpTo255BytesPass() {
        byte[] sk = new byte[P.privateKeyBytes()];
        assertFalse(FrontEnd.signRejection(P, sk, pure(0)).isPresent());
        assertFalse(FrontEnd.signRejection(P, sk, pure(255)).isPresent());
        assertTrue(FrontEnd.signRejection(P, sk, pure(256)).isPresent());
        assertTrue(FrontEnd.verifyRejection(P, new byte[P.publicKeyBytes()], new byte[P.signatureBytes()], pure(256))
                .isPresent());
    }

    @Test
    void roundThreeTakesNoContextAndNoPreHash() {
        ParameterSet r3 = ParameterSet.DILITHIUM3;
        byte[] sk = new byte[r3.privateKeyBytes()];
        assertFalse(FrontEnd.signRejection(r3, sk, new MessageInput.Internal(new byte[3])).isPresent());
        assertTrue(FrontEnd.signRejection(r3, sk, pure(1)).isPresent());
        assertTrue(FrontEnd.signRejection(r3, sk, new MessageInput.PreHashed(new byte[0], "SHA2-256", new byte[1]))
                .isPresent());
    }

    @Test
    void lengthsMustBeExact() {
        MessageInput m = pure(0);
        assertTrue(FrontEnd.signRejection(P, new byte[P.privateKeyBytes() - 1], m).isPresent());
        assertTrue(FrontEnd.signRejection(P, new byte[P.privateKeyBytes() + 1], m).isPresent());
        assertTrue(FrontEnd.verifyRejection(P, new byte[P.publicKeyBytes() + 1], new byte[P.signatureBytes()], m)
                .isPresent());
        assertTrue(FrontEnd.verifyRejection(P, new byte[P.publicKeyBytes()], new byte[P.signatureBytes() - 1], m)
                .isPresent());
        assertFalse(FrontEnd.verifyRejection(P, new byte[P.publicKeyBytes()], new byte[P.signatureBytes()], m)
                .isPresent());
        assertTrue(FrontEnd.keyGenRejection(new byte[31]).isPresent());
        assertTrue(FrontEnd.keyGenRejection(new byte[33]).isPresent());
        assertFalse(FrontEnd.keyGenRejection(new byte[32]).isPresent());
        assertTrue(FrontEnd.rndRejection(P, new byte[64]).isPresent());
        assertFalse(FrontEnd.rndRejection(ParameterSet.DILITHIUM2, new byte[64]).isPresent());
        byte[] sk = new byte[P.privateKeyBytes()];
        assertTrue(FrontEnd.signRejection(P, sk, new MessageInput.ExternalMu(new byte[63])).isPresent());
        assertFalse(FrontEnd.signRejection(P, sk, new MessageInput.ExternalMu(new byte[64])).isPresent());
    }
}
