package io.dilithiumgpu.kat;

import io.dilithiumgpu.DilithiumGpuProvider;
import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBatches;
import io.dilithiumgpu.backend.OneKeyRecords;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.DilithiumPublicKey;
import io.dilithiumgpu.spec.MLDSAParameterSpec;
import io.dilithiumgpu.spec.RawPrivateKeySpec;
import io.dilithiumgpu.spec.RawPublicKeySpec;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.NamedParameterSpec;

/**
 * A {@link Backend} that runs every task as one JCA call of the provider, so that the known-answer
 * suites reach the Signature SPI and whatever route it takes: keys through {@code KeyFactory} (raw
 * specs), signing and verification with external μ ({@code update} takes μ, which the runners
 * form), the task's rnd (ML-DSA) or ρ′ (round 3.1) drawn from a {@link FixedRandom} given to
 * {@code initSign}, key generation from the seed the same way. A key the provider refuses, or a
 * signature failing with an {@link InvalidKeyException} cause, is {@link TaskStatus#INVALID_KEY}.
 */
final class JcaBackend implements Backend {
    private static final Provider PROVIDER = new DilithiumGpuProvider();
    private static final MLDSAParameterSpec EXTERNAL_MU = MLDSAParameterSpec.builder().externalMu(true).build();

    @Override
    public String name() {
        return "jca";
    }

    @Override
    public int preferredBatchSize(ParameterSet params, Operation op) {
        return 64;
    }

    /** Host-buffer records go through heap copies; heap records run task by task. */
    @Override
    public void run(BatchRecords r) {
        if (r.inHost()) {
            HostBatches.run(this, r);
            return;
        }
        if (r.oneKey()) {
            OneKeyRecords.runExpanded(this, r);  // task by task below: a key record per task
            return;
        }
        switch (r.op()) {
            case KEYGEN -> keyGen(r.params(), r.count(), r.array(0), r.array(1), r.array(2), r.status());
            case SIGN -> sign(r.params(), r.count(), r.array(0), r.array(1), r.array(2), r.array(3), r.status());
            case VERIFY -> verify(r.params(), r.count(), r.array(0), r.array(1), r.array(2), r.status());
        }
    }

    private void keyGen(ParameterSet params, int n, byte[] seeds, byte[] publicKeys, byte[] privateKeys,
                        byte[] status) {
        int seedBytes = ParameterSet.SEED_BYTES;
        for (int i = 0; i < n; i++) {
            try {
                KeyPairGenerator g = KeyPairGenerator.getInstance(params.algorithmName(), PROVIDER);
                FixedRandom seed = new FixedRandom(slice(seeds, i, seedBytes));
                g.initialize(new NamedParameterSpec(params.algorithmName()), seed);
                KeyPair kp = g.generateKeyPair();
                byte[] pk = ((DilithiumPublicKey) kp.getPublic()).getRawKey();
                byte[] sk = ((DilithiumPrivateKey) kp.getPrivate()).getExpandedKey();
                System.arraycopy(pk, 0, publicKeys, i * pk.length, pk.length);
                System.arraycopy(sk, 0, privateKeys, i * sk.length, sk.length);
                status[i] = TaskStatus.OK;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("JCA key generation failed", e);
            }
        }
    }

    private void sign(ParameterSet params, int n, byte[] privateKeys, byte[] mus, byte[] rnds, byte[] signatures,
                      byte[] status) {
        int skBytes = params.privateKeyBytes();
        int sigBytes = params.signatureBytes();
        for (int i = 0; i < n; i++) {
            try {
                KeyFactory kf = KeyFactory.getInstance(params.algorithmName(), PROVIDER);
                PrivateKey key = kf.generatePrivate(new RawPrivateKeySpec(params.algorithmName(),
                        slice(privateKeys, i, skBytes)));
                Signature s = Signature.getInstance(params.algorithmName(), PROVIDER);
                s.setParameter(EXTERNAL_MU);
                FixedRandom rnd = new FixedRandom(slice(rnds, i, params.rndBytes()));
                s.initSign(key, rnd);
                s.update(slice(mus, i, ParameterSet.MU_BYTES));
                byte[] sig = s.sign();
                if (!rnd.drawn()) {
                    throw new IllegalStateException("signed without drawing rnd");
                }
                System.arraycopy(sig, 0, signatures, i * sigBytes, sigBytes);
                status[i] = TaskStatus.OK;
            } catch (InvalidKeySpecException e) {
                status[i] = TaskStatus.INVALID_KEY;
            } catch (SignatureException e) {
                if (!(e.getCause() instanceof InvalidKeyException)) {
                    throw new IllegalStateException("JCA signing failed", e);
                }
                status[i] = TaskStatus.INVALID_KEY;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("JCA signing failed", e);
            }
        }
    }

    private void verify(ParameterSet params, int n, byte[] publicKeys, byte[] mus, byte[] signatures,
                        byte[] status) {
        int pkBytes = params.publicKeyBytes();
        int sigBytes = params.signatureBytes();
        for (int i = 0; i < n; i++) {
            try {
                PublicKey key = KeyFactory.getInstance(params.algorithmName(), PROVIDER)
                        .generatePublic(new RawPublicKeySpec(params.algorithmName(), slice(publicKeys, i, pkBytes)));
                Signature s = Signature.getInstance(params.algorithmName(), PROVIDER);
                s.setParameter(EXTERNAL_MU);
                s.initVerify(key);
                s.update(slice(mus, i, ParameterSet.MU_BYTES));
                status[i] = s.verify(slice(signatures, i, sigBytes)) ? TaskStatus.OK : TaskStatus.REJECTED;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("JCA verification failed", e);
            }
        }
    }

    @Override
    public void close() {
        // Nothing of its own: the provider's batcher is shared.
    }

    private static byte[] slice(byte[] records, int i, int bytes) {
        byte[] out = new byte[bytes];
        System.arraycopy(records, i * bytes, out, 0, bytes);
        return out;
    }
}
