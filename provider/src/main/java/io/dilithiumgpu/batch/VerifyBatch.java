package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PublicKeyCache;

import java.util.Arrays;

/**
 * Batches of {@link Backend#verify}: public key, μ and signature in, verdict out. Nothing secret.
 * Each record may carry its key's {@link PublicKeyCache}, held by reference in a parallel array
 * until the batch clears.
 */
final class VerifyBatch extends Batch {
    private final byte[] publicKeys;
    private final PublicKeyCache[] caches;
    private final byte[] mus;
    private final byte[] signatures;

    VerifyBatch(ParameterSet params, int capacity) {
        super(params, capacity);
        this.publicKeys = new byte[capacity * params.publicKeyBytes()];
        this.caches = new PublicKeyCache[capacity];
        this.mus = new byte[capacity * ParameterSet.MU_BYTES];
        this.signatures = new byte[capacity * params.signatureBytes()];
    }

    /** A verification; completes with true (valid) or false (rejected). */
    static final class Request extends Task<Boolean> {
        private final byte[] publicKey;
        private final PublicKeyCache cache;
        private final byte[] mu;
        private final byte[] signature;

        /** All three are copied; lengths are checked by the caller. */
        Request(byte[] publicKey, byte[] mu, byte[] signature) {
            this(publicKey, null, mu, signature);
        }

        /** The arrays are copied; the cache (the key's, or null) is not. */
        Request(byte[] publicKey, PublicKeyCache cache, byte[] mu, byte[] signature) {
            this.publicKey = publicKey.clone();
            this.cache = cache;
            this.mu = mu.clone();
            this.signature = signature.clone();
        }

        @Override
        void wipe() {
            // Public inputs only.
        }
    }

    @Override
    Operation operation() {
        return Operation.VERIFY;
    }

    @Override
    void load(int slot, Task<?> task) {
        Request r = (Request) task;
        System.arraycopy(r.publicKey, 0, publicKeys, slot * r.publicKey.length, r.publicKey.length);
        caches[slot] = r.cache;
        System.arraycopy(r.mu, 0, mus, slot * ParameterSet.MU_BYTES, ParameterSet.MU_BYTES);
        System.arraycopy(r.signature, 0, signatures, slot * r.signature.length, r.signature.length);
    }

    @Override
    void run(Backend backend, int n) {
        backend.verify(params, n, publicKeys, caches, mus, signatures, status);
    }

    @Override
    void collect(int slot, Task<?> task) {
        Request r = (Request) task;
        switch (status[slot]) {
            case TaskStatus.OK:
                r.succeed(Boolean.TRUE);
                break;
            case TaskStatus.REJECTED:
                r.succeed(Boolean.FALSE);
                break;
            default:
                r.fail(unexpectedStatus(slot));
        }
    }

    /** Public keys, μ and signatures are public; the cache references are dropped. */
    @Override
    void wipeSecrets(int n) {
        Arrays.fill(caches, 0, n, null);
    }
}
