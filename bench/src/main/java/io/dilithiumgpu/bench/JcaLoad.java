package io.dilithiumgpu.bench;

import io.dilithiumgpu.core.MuHasher;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Scheme;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.spec.MLDSAParameterSpec;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Provider;
import java.security.Signature;
import java.util.Collection;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * Concurrent JCA callers over one key pair: signers and verifiers, each with its own
 * {@link Signature} object (a {@code Signature} is not thread-safe), as many request handlers of
 * one service would.
 *
 * <p>Each signer signs a new 32-byte message with every call (its own random message with a call
 * counter mixed in): signing's rejection loop takes a different number of rounds per message, and
 * a deterministic signature of one fixed message would repeat the same count every time. Verifiers
 * verify one valid signature, made at construction.
 *
 * <p>Results are checked: a verifier fails its call when the valid signature does not verify, and
 * {@link #checkSigners} verifies signers' last signatures with the CPU core, independently of the
 * provider and its backend.
 */
final class JcaLoad {
    static final int MESSAGE_BYTES = 32;
    /** Signers whose last signature {@link #warmUp} checks. */
    private static final int CHECKED_AFTER_WARMUP = 8;

    private final Provider provider;
    private final ParameterSet params;
    private final KeyPair keys;
    private final byte[] context;
    private final byte[] message;
    private final byte[] signature;
    /** Time callers spent inside their calls ({@code update} and {@code sign} or {@code verify}), and the calls. */
    private final LongAdder callNanos = new LongAdder();
    private final LongAdder timedCalls = new LongAdder();

    /**
     * @param context FIPS 204 context for ML-DSA sets (empty for round 3.1 sets)
     */
    JcaLoad(Provider provider, ParameterSet params, KeyPair keys, byte[] context, SplittableRandom random)
            throws GeneralSecurityException {
        this.provider = provider;
        this.params = params;
        this.keys = keys;
        this.context = context.clone();
        this.message = new byte[MESSAGE_BYTES];
        random.nextBytes(message);
        Signature s = newSignature();
        s.initSign(keys.getPrivate());
        s.update(message);
        this.signature = s.sign();
    }

    /** A caller that signs a fresh message per call with its own {@link Signature}. */
    final class Signer implements Callers.Call {
        private final Signature signer;
        private final byte[] base = new byte[MESSAGE_BYTES];
        private long calls;
        private byte[] last;

        Signer() throws GeneralSecurityException {
            signer = newSignature();
            signer.initSign(keys.getPrivate());
            ThreadLocalRandom.current().nextBytes(base);
        }

        @Override
        public void call() throws GeneralSecurityException {
            byte[] m = messageOf(base, ++calls);
            long start = System.nanoTime();
            signer.update(m);
            last = signer.sign();
            timed(start);
        }
    }

    /** A caller that verifies the valid signature made at construction. */
    final class Verifier implements Callers.Call {
        private final Signature verifier;

        Verifier() throws GeneralSecurityException {
            verifier = newSignature();
            verifier.initVerify(keys.getPublic());
        }

        @Override
        public void call() throws GeneralSecurityException, WrongResultException {
            long start = System.nanoTime();
            verifier.update(message);
            boolean ok = verifier.verify(signature);
            timed(start);
            if (!ok) {
                throw new WrongResultException(params + ": a valid signature did not verify through JCA");
            }
        }
    }

    private void timed(long start) {
        callNanos.add(System.nanoTime() - start);
        timedCalls.increment();
    }

    /** Nanoseconds callers have spent inside calls so far, and the calls: [nanos, calls]. */
    long[] timeInCalls() {
        return new long[] {callNanos.sum(), timedCalls.sum()};
    }

    Callers.CallFactory<Signer> signers() {
        return Signer::new;
    }

    Callers.CallFactory<Verifier> verifiers() {
        return Verifier::new;
    }

    /**
     * Runs the signers and then the verifiers of every load in a closed loop for {@code nanos} each,
     * unmeasured, so that the JIT has compiled the signing and verification paths of every set
     * before any measurement starts (the first set measured would otherwise pay for it). The
     * signatures made are checked as in a measurement.
     */
    static void warmUp(Collection<JcaLoad> loads, int callers, long nanos) throws Exception {
        for (JcaLoad load : loads) {
            Callers.ClosedLoopResult<Signer> signing = Callers.closedLoop(callers, load.signers(), 0, nanos);
            load.checkSigners(signing.callers(), CHECKED_AFTER_WARMUP);
            Callers.closedLoop(callers, load.verifiers(), 0, nanos);
        }
    }

    /** Verifies the last signature of up to {@code max} signers with the CPU core. */
    void checkSigners(List<Signer> signers, int max) throws WrongResultException {
        DilithiumPublicKey pk = (DilithiumPublicKey) keys.getPublic();
        byte[] raw = pk.getRawKey();
        byte[] tr = pk.getTr();
        int checked = 0;
        for (Signer s : signers) {
            if (checked == max) {
                break;
            }
            if (s.last == null) {
                continue;
            }
            byte[] mu = MuHasher.pure(params, tr, context).update(messageOf(s.base, s.calls)).finish();
            if (s.last.length != params.signatureBytes() || !Scheme.verify(params, raw, 0, mu, 0, s.last, 0)) {
                throw new WrongResultException(params + ": a signature made through JCA does not verify under the CPU core");
            }
            checked++;
        }
    }

    /** The message of call number {@code call}: {@code base} with the call number XORed into its first 8 bytes. */
    static byte[] messageOf(byte[] base, long call) {
        byte[] m = base.clone();
        for (int i = 0; i < Long.BYTES; i++) {
            m[i] ^= (byte) (call >>> (8 * i));
        }
        return m;
    }

    private Signature newSignature() throws GeneralSecurityException {
        Signature s = Signature.getInstance(params.algorithmName(), provider);
        if (params.isFips204()) {
            s.setParameter(MLDSAParameterSpec.builder().context(context).build());
        }
        return s;
    }
}
