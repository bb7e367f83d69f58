package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;

import java.security.InvalidKeyException;
import java.util.Arrays;

/**
 * Batches of {@link Backend#sign}: private key, μ and rnd in, signature out. Private keys and rnd
 * (FIPS 204 rnd, or round 3.1 ρ′, which is as secret as the key) are secret. Each record may carry
 * its key's {@link PrivateKeyCache}, held by reference in a parallel array until the batch clears.
 */
final class SignBatch extends Batch {
    private final byte[] privateKeys;
    private final PrivateKeyCache[] caches;
    private final byte[] mus;
    private final byte[] rnds;
    private final byte[] signatures;

    SignBatch(ParameterSet params, int capacity) {
        super(params, capacity);
        this.privateKeys = new byte[capacity * params.privateKeyBytes()];
        this.caches = new PrivateKeyCache[capacity];
        this.mus = new byte[capacity * ParameterSet.MU_BYTES];
        this.rnds = new byte[capacity * params.rndBytes()];
        this.signatures = new byte[capacity * params.signatureBytes()];
    }

    /** A signature of μ; completes with the signature or fails with {@link InvalidKeyException}. */
    static final class Request extends Task<byte[]> {
        private final byte[] privateKey;
        private final PrivateKeyCache cache;
        private final byte[] mu;
        private final byte[] rnd;

        /** All three are copied; lengths are checked by the caller. */
        Request(byte[] privateKey, byte[] mu, byte[] rnd) {
            this(privateKey, null, mu, rnd);
        }

        /** The arrays are copied; the cache (the key's, or null) is not. */
        Request(byte[] privateKey, PrivateKeyCache cache, byte[] mu, byte[] rnd) {
            this.privateKey = privateKey.clone();
            this.cache = cache;
            this.mu = mu.clone();
            this.rnd = rnd.clone();
        }

        @Override
        void wipe() {
            Arrays.fill(privateKey, (byte) 0);
            Arrays.fill(rnd, (byte) 0);
        }
    }

    @Override
    Operation operation() {
        return Operation.SIGN;
    }

    @Override
    void load(int slot, Task<?> task) {
        Request r = (Request) task;
        System.arraycopy(r.privateKey, 0, privateKeys, slot * r.privateKey.length, r.privateKey.length);
        caches[slot] = r.cache;
        System.arraycopy(r.mu, 0, mus, slot * ParameterSet.MU_BYTES, ParameterSet.MU_BYTES);
        System.arraycopy(r.rnd, 0, rnds, slot * r.rnd.length, r.rnd.length);
    }

    @Override
    void run(Backend backend, int n) {
        backend.sign(params, n, privateKeys, caches, mus, rnds, signatures, status);
    }

    @Override
    void collect(int slot, Task<?> task) {
        Request r = (Request) task;
        switch (status[slot]) {
            case TaskStatus.OK:
                int sigBytes = params.signatureBytes();
                r.succeed(Arrays.copyOfRange(signatures, slot * sigBytes, (slot + 1) * sigBytes));
                break;
            case TaskStatus.INVALID_KEY:
                r.fail(new InvalidKeyException(params + " private key does not decode: "
                        + "s1 or s2 has a coefficient outside [-" + params.eta() + ", " + params.eta() + "]"));
                break;
            default:
                r.fail(unexpectedStatus(slot));
        }
    }

    @Override
    void wipeSecrets(int n) {
        Arrays.fill(privateKeys, 0, n * params.privateKeyBytes(), (byte) 0);
        Arrays.fill(rnds, 0, n * params.rndBytes(), (byte) 0);
        Arrays.fill(caches, 0, n, null);
    }
}
