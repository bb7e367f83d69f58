package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.MuHasher;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Scheme;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.spec.MLDSAParameterSpec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Provider;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Concurrent JCA callers over one key pair of one provider: signers and verifiers in one of two
 * {@link Style}s: each caller with its own {@link Signature} object (a {@code Signature} is not
 * thread-safe), as many request handlers of one service would, or a new {@code Signature} per
 * call, as code written without a thought for its cost would.
 *
 * <p>Each signer signs a new 32-byte message with every call (its own random message with a call
 * counter mixed in): signing's rejection loop takes a different number of rounds per message, and
 * a deterministic signature of one fixed message would repeat the same count every time. Verifiers
 * verify one valid signature, made at construction.
 *
 * <p>Results are checked: a verifier fails its call when the valid signature does not verify, and
 * {@link #checkSigners} verifies signers' last signatures: this project's with the CPU core,
 * independently of the provider and its backend; another provider's with a {@code Signature} of
 * that provider.
 */
final class JcaLoad {
    /** How a caller gets its {@link Signature}. */
    enum Style {
        /** One {@code Signature} per caller, initialized once and reused for every call. */
        REUSE("reuse"),
        /** {@code Signature.getInstance} and {@code initSign}/{@code initVerify} on every call. */
        GET_INSTANCE("getInstance");

        final String label;

        Style(String label) {
            this.label = label;
        }

        /** The style by its label, any case. */
        static Style of(String label) {
            for (Style s : values()) {
                if (s.label.equalsIgnoreCase(label)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("no call style " + label + " (reuse, getInstance)");
        }
    }

    static final int MESSAGE_BYTES = 32;
    /** Signers whose last signature {@link #warmUp} checks. */
    private static final int CHECKED_AFTER_WARMUP = 8;

    private final Provider provider;
    private final ParameterSet params;
    private final KeyPair keys;
    private final byte[] context;
    private final byte[] message;
    private final byte[] signature;
    /**
     * Every caller's time inside its calls ({@code update} and {@code sign} or {@code verify}), and
     * its calls: each caller keeps its own, so that the harness adds no counter every caller
     * touches (shared {@code LongAdder}s showed in profiles of thousands of callers).
     */
    private final Queue<CallTime> callTimes = new ConcurrentLinkedQueue<>();

    /**
     * @param provider the provider measured; {@code keys} are its own
     * @param context  FIPS 204 context for ML-DSA sets (empty for round 3.1 sets); a non-empty one
     *                 is set through this project's {@link MLDSAParameterSpec}
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

    /** A caller that signs a fresh message per call, with its own {@link Signature} or a new one per call. */
    final class Signer implements Callers.Call {
        /** The caller's own, initialized; null in style {@link Style#GET_INSTANCE}. */
        private final Signature signer;
        private final byte[] base = new byte[MESSAGE_BYTES];
        private final CallTime time = newCallTime();
        private long calls;
        private byte[] last;

        Signer(Style style) throws GeneralSecurityException {
            signer = style == Style.REUSE ? newSignature() : null;
            if (signer != null) {
                signer.initSign(keys.getPrivate());
            }
            ThreadLocalRandom.current().nextBytes(base);
        }

        @Override
        public void call() throws GeneralSecurityException {
            byte[] m = messageOf(base, ++calls);
            long start = System.nanoTime();
            Signature s = signer;
            if (s == null) {
                s = newSignature();
                s.initSign(keys.getPrivate());
            }
            s.update(m);
            last = s.sign();
            time.add(System.nanoTime() - start);
        }
    }

    /** A caller that verifies the valid signature made at construction. */
    final class Verifier implements Callers.Call {
        /** The caller's own, initialized; null in style {@link Style#GET_INSTANCE}. */
        private final Signature verifier;
        private final CallTime time = newCallTime();

        Verifier(Style style) throws GeneralSecurityException {
            verifier = style == Style.REUSE ? newSignature() : null;
            if (verifier != null) {
                verifier.initVerify(keys.getPublic());
            }
        }

        @Override
        public void call() throws GeneralSecurityException, WrongResultException {
            long start = System.nanoTime();
            Signature v = verifier;
            if (v == null) {
                v = newSignature();
                v.initVerify(keys.getPublic());
            }
            v.update(message);
            boolean ok = v.verify(signature);
            time.add(System.nanoTime() - start);
            if (!ok) {
                throw new WrongResultException(params + ": a valid signature did not verify through "
                        + provider.getName());
            }
        }
    }

    private CallTime newCallTime() {
        CallTime t = new CallTime();
        callTimes.add(t);
        return t;
    }

    /** Nanoseconds callers have spent inside calls so far, and the calls: [nanos, calls]. */
    long[] timeInCalls() {
        long nanos = 0;
        long calls = 0;
        for (CallTime t : callTimes) {
            nanos += (long) CallTime.NANOS.getAcquire(t);
            calls += (long) CallTime.CALLS.getAcquire(t);
        }
        return new long[] {nanos, calls};
    }

    /** One caller's time inside its calls, and its calls: written by that caller alone, read by any thread. */
    private static final class CallTime {
        static final VarHandle NANOS;
        static final VarHandle CALLS;

        static {
            try {
                NANOS = MethodHandles.lookup().findVarHandle(CallTime.class, "nanos", long.class);
                CALLS = MethodHandles.lookup().findVarHandle(CallTime.class, "calls", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private long nanos;
        private long calls;

        /** A call of {@code took} nanoseconds ended (by the caller that owns this; a release write each). */
        void add(long took) {
            NANOS.setRelease(this, nanos + took);
            CALLS.setRelease(this, calls + 1);
        }
    }

    Callers.CallFactory<Signer> signers(Style style) {
        return () -> new Signer(style);
    }

    Callers.CallFactory<Verifier> verifiers(Style style) {
        return () -> new Verifier(style);
    }

    /**
     * Runs the signers and then the verifiers of every load in a closed loop for {@code nanos} each,
     * unmeasured, so that the JIT has compiled the signing and verification paths of every set
     * before any measurement starts (the first set measured would otherwise pay for it). The
     * signatures made are checked as in a measurement.
     */
    static void warmUp(Collection<JcaLoad> loads, Style style, int callers, long nanos) throws Exception {
        for (JcaLoad load : loads) {
            Callers.ClosedLoopResult<Signer> signing = Callers.closedLoop(callers, load.signers(style), 0, nanos);
            load.checkSigners(signing.callers(), CHECKED_AFTER_WARMUP);
            Callers.closedLoop(callers, load.verifiers(style), 0, nanos);
        }
    }

    /**
     * After {@link #warmUp}: runs every operation of every load in every style, at 1 caller and at
     * {@code callers} in turn, in slices until the JIT is quiet or {@code bound} nanoseconds have
     * passed ({@link JitQuiet}). The pass runs at many callers only, and a provider's code for a lone
     * caller (this one's direct route, say) may still be compiling when it ends. The signatures made
     * are checked as in a measurement.
     */
    static JitQuiet.Outcome warmUntilQuiet(Collection<JcaLoad> loads, List<Operation> ops, List<Style> styles,
                                           int callers, long bound) throws Exception {
        record Slice(JcaLoad load, Operation op, Style style, int callers) {}
        List<Slice> cycle = new ArrayList<>();
        for (Style style : styles) {
            for (JcaLoad load : loads) {
                for (Operation op : ops) {
                    cycle.add(new Slice(load, op, style, 1));
                    cycle.add(new Slice(load, op, style, callers));
                }
            }
        }
        if (cycle.isEmpty()) {
            throw new IllegalArgumentException("no load to warm up");
        }
        JitQuiet.Slices run = (index, nanos) -> {
            Slice s = cycle.get(index);
            if (s.op() == Operation.SIGN) {
                Callers.ClosedLoopResult<Signer> signing =
                        Callers.closedLoop(s.callers(), s.load().signers(s.style()), 0, nanos);
                s.load().checkSigners(signing.callers(), CHECKED_AFTER_WARMUP);
            } else {
                Callers.closedLoop(s.callers(), s.load().verifiers(s.style()), 0, nanos);
            }
        };
        return JitQuiet.warmUp(run, cycle.size(), bound, System::nanoTime, JitActivity.ofThisJvm());
    }

    /**
     * Verifies the last signature of up to {@code max} signers: with the CPU core when the keys are
     * this project's, else with a {@code Signature} of the provider that made them.
     */
    void checkSigners(List<Signer> signers, int max) throws GeneralSecurityException, WrongResultException {
        if (!(keys.getPublic() instanceof DilithiumPublicKey pk)) {
            int checked = 0;
            for (Signer s : signers) {
                if (checked == max) {
                    break;
                }
                if (s.last == null) {
                    continue;
                }
                Signature v = newSignature();
                v.initVerify(keys.getPublic());
                v.update(messageOf(s.base, s.calls));
                if (!v.verify(s.last)) {
                    throw new WrongResultException(params + ": a signature made by " + provider.getName()
                            + " does not verify under " + provider.getName());
                }
                checked++;
            }
            return;
        }
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
        if (params.isFips204() && context.length > 0) {
            s.setParameter(MLDSAParameterSpec.builder().context(context).build());
        }
        return s;
    }
}
