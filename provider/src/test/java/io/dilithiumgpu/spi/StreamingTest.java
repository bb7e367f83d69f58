package io.dilithiumgpu.spi;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static io.dilithiumgpu.ProviderTestSupport.keyPair;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.security.KeyPair;
import java.security.Signature;
import java.util.Random;

/**
 * update() hashes as it goes: a 1 GiB message streamed in 1 MiB pieces is signed and verified while
 * the heap holds no more than the one piece.
 */
@Timeout(300)
class StreamingTest {
    private static final int PIECE = 1 << 20;
    private static final int PIECES = 1 << 10;
    private static final long HEAP_SLACK = 64L << 20;

    @Test
    void signsAndVerifiesAGibibyteWithoutBufferingIt() throws Exception {
        KeyPair kp = keyPair("ML-DSA-44");
        byte[] piece = new byte[PIECE];
        new Random(1).nextBytes(piece);

        Signature signer = Signature.getInstance("ML-DSA-44", PROVIDER);
        signer.initSign(kp.getPrivate());
        long before = usedHeapAfterGc();
        stream(signer, piece);
        long grown = usedHeapAfterGc() - before;
        assertTrue(grown < HEAP_SLACK, "heap grew by " + (grown >> 20) + " MiB while streaming 1 GiB");
        byte[] sig = signer.sign();

        Signature verifier = Signature.getInstance("ML-DSA-44", PROVIDER);
        verifier.initVerify(kp.getPublic());
        stream(verifier, piece);
        assertTrue(verifier.verify(sig));
    }

    /** 1 GiB: the piece with its first 8 bytes set to the piece number, alternately as array and buffer. */
    private static void stream(Signature s, byte[] piece) throws Exception {
        for (int i = 0; i < PIECES; i++) {
            ByteBuffer.wrap(piece).putLong(0, i);
            if ((i & 1) == 0) {
                s.update(piece);
            } else {
                s.update(ByteBuffer.wrap(piece));
            }
        }
    }

    private static long usedHeapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }
}
