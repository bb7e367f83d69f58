package io.dilithiumgpu.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.batch.Engine;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.security.SignatureException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The in-place hand-off of a JCA signature ({@link EngineCalls#signInPlace}): once handed over,
 * the private key and rnd are the engine's, which reads them when the task's batch loads and wipes
 * them then. A caller interrupted while it waits must leave them alone: the batcher's thread may
 * have taken the task before the cancel and be copying the key (issue 21: the key's cache was then
 * filled from half-wiped bytes, and never refilled).
 */
class InPlaceSigningTest {
    private static final ParameterSet P = ParameterSet.ML_DSA_44;

    @Test
    @Timeout(60)
    void anInterruptedSignerLeavesTheHandedOverArraysToTheEngine() throws Exception {
        byte[] sk = new byte[P.privateKeyBytes()];
        Arrays.fill(sk, (byte) 0x5a);
        byte[] rnd = new byte[P.rndBytes()];
        Arrays.fill(rnd, (byte) 0x33);
        byte[] skWas = sk.clone();
        byte[] rndWas = rnd.clone();
        TakenEngine engine = new TakenEngine();

        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread signer = new Thread(() -> {
            try {
                EngineCalls.await(EngineCalls.signInPlace(engine, P, sk, null, new byte[ParameterSet.MU_BYTES], rnd),
                        P, " signing", SignatureException::new);
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        signer.start();
        engine.called.await();
        signer.interrupt();
        signer.join();

        assertInstanceOf(SignatureException.class, failure.get());
        assertInstanceOf(InterruptedException.class, failure.get().getCause());
        assertTrue(engine.request.isCancelled());
        // The batch thread that took the task before the cancel loads it now: the bytes must be whole.
        assertArrayEquals(skWas, engine.sk, "the caller wiped the key the engine was still to read");
        assertArrayEquals(rndWas, engine.rnd, "the caller wiped the rnd the engine was still to read");
    }

    @Test
    void arraysTheEngineRefusesAtOnceAreWipedByTheCaller() {
        byte[] sk = new byte[P.privateKeyBytes()];
        Arrays.fill(sk, (byte) 0x5a);
        byte[] rnd = new byte[P.rndBytes()];
        Arrays.fill(rnd, (byte) 0x33);
        Engine refusing = new TakenEngine() {
            @Override
            public CompletableFuture<byte[]> signInPlace(ParameterSet params, byte[] privateKey, PrivateKeyCache cache,
                                                         byte[] mu, byte[] r) {
                throw new IllegalArgumentException("mu must be 64 bytes");
            }
        };
        try {
            EngineCalls.signInPlace(refusing, P, sk, null, new byte[1], rnd);
        } catch (IllegalArgumentException expected) {
            // the refusal
        }
        assertArrayEquals(new byte[sk.length], sk);
        assertArrayEquals(new byte[rnd.length], rnd);
    }

    /** An engine that takes the arrays of one in-place signature and never completes it. */
    private static class TakenEngine implements Engine {
        final CountDownLatch called = new CountDownLatch(1);
        volatile CompletableFuture<byte[]> request;
        volatile byte[] sk;
        volatile byte[] rnd;

        @Override
        public CompletableFuture<byte[]> signInPlace(ParameterSet params, byte[] privateKey, PrivateKeyCache cache,
                                                     byte[] mu, byte[] r) {
            sk = privateKey;
            rnd = r;
            request = new CompletableFuture<>();
            called.countDown();
            return request;
        }

        @Override
        public CompletableFuture<byte[][]> keyGen(ParameterSet params, byte[] seed) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<byte[]> sign(ParameterSet params, byte[] privateKey, byte[] mu, byte[] r) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Boolean> verify(ParameterSet params, byte[] publicKey, byte[] mu, byte[] signature) {
            throw new UnsupportedOperationException();
        }
    }
}
