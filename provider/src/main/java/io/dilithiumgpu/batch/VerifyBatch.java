package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.MessageRecord;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskListener;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PublicKeyCache;

import java.util.Arrays;
import java.util.function.LongFunction;

/**
 * Batches of {@link Backend#verify}: public key, μ and signature in, verdict out. Nothing secret.
 * Each record may carry its key's {@link PublicKeyCache}, held by reference in a parallel array
 * until the batch clears, beside the array its key record was copied from: requests of one array
 * hold one key's bytes ({@link BatchRecords#keySources()}), as the array is the caller's, left
 * unchanged until the request completes, or the request's own copy.
 *
 * <p>The public keys are copied when the batch runs, not when it loads: a batch whose requests all
 * name one key array and cache (a CA's or a validator's key, from many threads) runs as one-key
 * records ({@link BatchRecords#oneKey()}) on that array, copying no key at all.
 *
 * <p>A request may give a short message and its key's tr instead of μ, as to {@link SignBatch}.
 */
final class VerifyBatch extends Batch {
    private final Records publicKeys;
    private final PublicKeyCache[] caches;
    /** Whether {@link #placeKeys} ran for the loaded requests: a rerun copies no key again. */
    private boolean keysPlaced;
    /** The key array of a batch of one key, which it runs on in place; null for per-task records. */
    private byte[] oneKey;
    /** The array each record's public key was copied from. */
    private final Object[] keySources;
    private final Records mus;
    private final Messages messages;
    private final Records signatures;

    VerifyBatch(ParameterSet params, int capacity, LongFunction<HostBuffer> allocator) {
        super(params, capacity, allocator);
        this.publicKeys = records(params.publicKeyBytes());
        this.caches = new PublicKeyCache[capacity];
        this.keySources = new Object[capacity];
        this.mus = records(ParameterSet.MU_BYTES);
        this.messages = new Messages(capacity, records(MessageRecord.BYTES), mus);
        this.signatures = records(params.signatureBytes());
    }

    /** A verification; completes with true (valid) or false (rejected). */
    static final class Request extends Task<Boolean> {
        private final byte[] publicKey;
        private final PublicKeyCache cache;
        /** μ, or a {@link io.dilithiumgpu.backend.MessageRecord} when {@link #tr} is set. */
        private final byte[] mu;
        /** The key's tr, for a request of a message record; else null. */
        private final byte[] tr;
        private final byte[] signature;

        /** All three are copied; lengths are checked by the caller. */
        Request(byte[] publicKey, byte[] mu, byte[] signature) {
            this(publicKey, null, mu, signature, true);
        }

        /**
         * The arrays are copied when {@code copy} is set, else read in place when the batch loads
         * (the caller leaves them unchanged until the future completes); the cache (the key's, or
         * null) is never copied.
         */
        Request(byte[] publicKey, PublicKeyCache cache, byte[] mu, byte[] signature, boolean copy) {
            this.publicKey = copy ? publicKey.clone() : publicKey;
            this.cache = cache;
            this.mu = copy ? mu.clone() : mu;
            this.tr = null;
            this.signature = copy ? signature.clone() : signature;
        }

        /** A message record and its key's tr instead of μ; every array read in place. */
        Request(byte[] publicKey, PublicKeyCache cache, byte[] tr, byte[] message, byte[] signature) {
            this.publicKey = publicKey;
            this.cache = cache;
            this.mu = message;
            this.tr = tr;
            this.signature = signature;
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
    boolean load(int slot, Task<?> task) {
        Request r = (Request) task;
        caches[slot] = r.cache;
        keySources[slot] = r.publicKey;
        if (r.tr != null) {
            messages.put(slot, r.tr, r.mu);
        } else {
            mus.put(slot, r.mu);
        }
        signatures.put(slot, r.signature);
        return true;
    }

    /**
     * Places the requests' keys: none when all {@code n} name one array and cache (the batch then
     * runs on that array), else each copied into its record.
     */
    private void placeKeys(int n) {
        if (ofOneKey(keySources, caches, n)) {
            oneKey = (byte[]) keySources[0];
            return;
        }
        for (int i = 0; i < n; i++) {
            publicKeys.put(i, (byte[]) keySources[i]);
        }
    }

    @Override
    void run(Backend backend, int n, TaskListener early) {
        if (!keysPlaced) {
            placeKeys(n);
            keysPlaced = true;
        }
        boolean onBackend = oneKey != null && messages.any() && backend.hashesMessages(params, Operation.VERIFY);
        if (!onBackend) {
            messages.hash(n);
        }
        if (oneKey != null) {
            BatchRecords r = publicKeys.inHost()
                    ? BatchRecords.verify(caches[0], oneKey, n, mus.host(), signatures.host(), status)
                    : BatchRecords.verify(caches[0], oneKey, n, mus.array(), signatures.array(), status);
            backend.run(onBackend ? messages.withMessages(r, n) : r);
        } else if (publicKeys.inHost()) {
            backend.run(BatchRecords.verify(params, n, publicKeys.host(), mus.host(), signatures.host(), status)
                    .withCaches(caches, keySources));
        } else {
            backend.run(BatchRecords.verify(params, n, publicKeys.array(), mus.array(), signatures.array(),
                    status).withCaches(caches, keySources));
        }
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

    /** Public keys, μ and signatures are public; the cache, source and key references are dropped. */
    @Override
    void wipeSecrets(int n) {
        messages.clear(n);
        keysPlaced = false;
        oneKey = null;
        Arrays.fill(caches, 0, n, null);
        Arrays.fill(keySources, 0, n, null);
    }
}
