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
import java.util.List;
import java.util.SplittableRandom;

/**
 * Concurrent JCA callers over one key pair: signers and verifiers, each with its own
 * {@link Signature} object (a {@code Signature} is not thread-safe), all sending the same 32-byte
 * message, as many request handlers of one service would.
 *
 * <p>Results are checked: a verifier fails its call when a valid signature does not verify, and
 * {@link #checkSigners} verifies signers' last signatures with the CPU core, independently of the
 * provider and its backend.
 */
final class JcaLoad {
    static final int MESSAGE_BYTES = 32;

    private final Provider provider;
    private final ParameterSet params;
    private final KeyPair keys;
    private final byte[] context;
    private final byte[] message;
    private final byte[] signature;

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
        this.signature = new Signer().sign();
    }

    /** A caller that signs the message with its own {@link Signature}; keeps its last signature. */
    final class Signer implements Callers.Call {
        private final Signature signer;
        private byte[] last;

        Signer() throws GeneralSecurityException {
            signer = newSignature();
            signer.initSign(keys.getPrivate());
        }

        byte[] sign() throws GeneralSecurityException {
            signer.update(message);
            last = signer.sign();
            return last;
        }

        @Override
        public void call() throws GeneralSecurityException {
            sign();
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
            verifier.update(message);
            if (!verifier.verify(signature)) {
                throw new WrongResultException(params + ": a valid signature did not verify through JCA");
            }
        }
    }

    Callers.CallFactory<Signer> signers() {
        return Signer::new;
    }

    Callers.CallFactory<Verifier> verifiers() {
        return Verifier::new;
    }

    /** Verifies the last signature of up to {@code max} signers with the CPU core. */
    void checkSigners(List<Signer> signers, int max) throws WrongResultException {
        DilithiumPublicKey pk = (DilithiumPublicKey) keys.getPublic();
        byte[] raw = pk.getRawKey();
        byte[] mu = MuHasher.pure(params, pk.getTr(), context).update(message).finish();
        int checked = 0;
        for (Signer s : signers) {
            if (checked == max) {
                break;
            }
            if (s.last == null) {
                continue;
            }
            if (s.last.length != params.signatureBytes() || !Scheme.verify(params, raw, 0, mu, 0, s.last, 0)) {
                throw new WrongResultException(params + ": a signature made through JCA does not verify under the CPU core");
            }
            checked++;
        }
    }

    /** The signature every verifier checks. */
    byte[] signature() {
        return signature.clone();
    }

    byte[] message() {
        return message.clone();
    }

    private Signature newSignature() throws GeneralSecurityException {
        Signature s = Signature.getInstance(params.algorithmName(), provider);
        if (params.isFips204()) {
            s.setParameter(MLDSAParameterSpec.builder().context(context).build());
        }
        return s;
    }
}
