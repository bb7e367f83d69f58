package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.MessageRecord;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskListener;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;

import java.nio.ByteBuffer;
import java.security.InvalidKeyException;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * Batches of {@link Backend#sign}: private key, μ and rnd in, signature out. Private keys and rnd
 * (FIPS 204 rnd, or round 3.1 ρ′, which is as secret as the key) are secret. Each record may carry
 * its key's {@link PrivateKeyCache}, held by reference in a parallel array until the batch clears,
 * and the {@link SigningKey} its key record was copied through, if any: requests of one
 * {@code SigningKey} hold one key's bytes ({@link BatchRecords#keySources()}).
 *
 * <p>A {@code SigningKey} is read when the batch runs, not when it loads: a batch whose requests
 * all name one {@code SigningKey} and cache (a server's key, from many threads) copies the key once
 * and runs as one-key records ({@link BatchRecords#oneKey()}), where a copy into every record and
 * its wipe would cost more host time than the rest of the batch's records.
 *
 * <p>A request may give a short message ({@link MessageRecord}) and its key's tr instead of μ. A
 * one-key batch hands such records to a backend that {@linkplain Backend#hashesMessages hashes}
 * them; otherwise the batch hashes them here, before the backend runs ({@link Messages}).
 */
final class SignBatch extends Batch {
    /** The most bytes one draw asks of a request's random source. */
    private static final int DRAW_BYTES = 4096;

    private final Records privateKeys;
    /** The key of a batch of one {@code SigningKey}, read once ({@link #placeKeys}). */
    private final byte[] oneKey;
    /** Whether {@link #placeKeys} ran for the loaded requests: a rerun reads no key again. */
    private boolean keysPlaced;
    /** Whether the loaded requests run as one-key records. */
    private boolean asOneKey;
    /** Whether some record holds a key: the records are then wiped with the batch. */
    private boolean recordsHoldKeys;
    /** Requests whose {@code SigningKey} was destroyed before the batch read it. */
    private final boolean[] keyLost;
    private final PrivateKeyCache[] caches;
    /** The SigningKey each record's key was copied through, or null for a request of key bytes. */
    private final Object[] keySources;
    private final Records mus;
    private final Messages messages;
    private final Records rnds;
    private final Records signatures;
    /** The records whose rnd the batch draws itself, from {@link #drawFrom}, before it runs. */
    private final int[] toDraw;
    private int drawCount;
    private Consumer<byte[]> drawFrom;

    SignBatch(ParameterSet params, int capacity, LongFunction<HostBuffer> allocator) {
        super(params, capacity, allocator);
        this.privateKeys = records(params.privateKeyBytes());
        this.oneKey = new byte[params.privateKeyBytes()];
        this.keyLost = new boolean[capacity];
        this.caches = new PrivateKeyCache[capacity];
        this.keySources = new Object[capacity];
        this.mus = records(ParameterSet.MU_BYTES);
        this.messages = new Messages(capacity, records(MessageRecord.BYTES), mus);
        this.rnds = records(params.rndBytes());
        this.signatures = records(params.signatureBytes());
        this.toDraw = new int[capacity];
    }

    /** A signature of μ; completes with the signature or fails with {@link InvalidKeyException}. */
    static final class Request extends Task<byte[]> {
        /** The key's bytes, or null when {@link #key} is read at load. */
        private final byte[] privateKey;
        private final SigningKey key;
        private final PrivateKeyCache cache;
        /** μ, or a {@link MessageRecord} when {@link #tr} is set. */
        private final byte[] mu;
        /** The key's tr, for a request of a message record; else null. */
        private final byte[] tr;
        /** The rnd handed over, or null when {@link #random} draws it. */
        private final byte[] rnd;
        /** Where the batch draws the rnd from when the request carries none, or null. */
        private final Consumer<byte[]> random;

        /** All three are copied; lengths are checked by the caller. */
        Request(byte[] privateKey, byte[] mu, byte[] rnd) {
            this(privateKey, null, mu, rnd, true);
        }

        /**
         * The arrays are copied when {@code copy} is set, else read in place when the batch loads
         * (the caller leaves them unchanged until the future completes, and {@link #wipe()} then
         * zeroes its key and rnd); the cache (the key's, or null) is never copied.
         */
        Request(byte[] privateKey, PrivateKeyCache cache, byte[] mu, byte[] rnd, boolean copy) {
            this.privateKey = copy ? privateKey.clone() : privateKey;
            this.key = null;
            this.cache = cache;
            this.mu = copy ? mu.clone() : mu;
            this.tr = null;
            this.rnd = copy ? rnd.clone() : rnd;
            this.random = null;
        }

        /**
         * A key read where it lives when the batch loads ({@link SigningKey}); μ read in place and
         * rnd handed over (zeroed once read), as for an in-place request.
         */
        Request(SigningKey key, PrivateKeyCache cache, byte[] mu, byte[] rnd) {
            this(key, cache, null, mu, rnd, null);
        }

        /**
         * As {@link #Request(SigningKey, PrivateKeyCache, byte[], byte[])}, with the rnd drawn by
         * the batch from {@code random} when it loads: the rnds of a batch's requests that name one
         * source come from one draw, on the batch thread.
         */
        Request(SigningKey key, PrivateKeyCache cache, byte[] mu, Consumer<byte[]> random) {
            this(key, cache, null, mu, null, random);
        }

        /**
         * As the requests above, of a {@link MessageRecord} and the key's tr instead of μ when
         * {@code tr} is not null; rnd handed over, or drawn from {@code random} when rnd is null.
         */
        Request(SigningKey key, PrivateKeyCache cache, byte[] tr, byte[] mu, byte[] rnd, Consumer<byte[]> random) {
            this.privateKey = null;
            this.key = key;
            this.cache = cache;
            this.tr = tr;
            this.mu = mu;
            this.rnd = rnd;
            this.random = random;
        }

        @Override
        void wipe() {
            if (privateKey != null) {
                Arrays.fill(privateKey, (byte) 0);
            }
            if (rnd != null) {
                Arrays.fill(rnd, (byte) 0);
            }
        }
    }

    /** The failure of a request whose key was destroyed before its batch read it. */
    static String destroyedKey(ParameterSet params) {
        return params + " private key was destroyed before its signature";
    }

    @Override
    Operation operation() {
        return Operation.SIGN;
    }

    @Override
    boolean load(int slot, Task<?> task) {
        Request r = (Request) task;
        if (r.key == null) {
            privateKeys.put(slot, r.privateKey);
            recordsHoldKeys = true;
        }
        caches[slot] = r.cache;
        keySources[slot] = r.key;
        if (r.tr != null) {
            messages.put(slot, r.tr, r.mu);
        } else {
            mus.put(slot, r.mu);
        }
        if (r.rnd != null) {
            rnds.put(slot, r.rnd);
        } else if (drawCount == 0 || r.random == drawFrom) {
            drawFrom = r.random;
            toDraw[drawCount++] = slot;
        } else {
            byte[] rnd = new byte[params.rndBytes()];
            r.random.accept(rnd);
            rnds.put(slot, rnd);
            Arrays.fill(rnd, (byte) 0);
        }
        return true;
    }

    /**
     * Draws the rnds the requests left to the batch: one call of their source for up to
     * {@value #DRAW_BYTES} bytes, where each caller drawing its own would pay the source's lock and
     * fixed cost, on a cache line that moves between cores with the callers.
     */
    private void drawRnds() {
        int size = params.rndBytes();
        int perDraw = Math.max(1, DRAW_BYTES / size);
        for (int first = 0; first < drawCount; first += perDraw) {
            int count = Math.min(perDraw, drawCount - first);
            byte[] drawn = new byte[count * size];
            drawFrom.accept(drawn);
            for (int i = 0; i < count; i++) {
                rnds.put(toDraw[first + i], drawn, i * size);
            }
            Arrays.fill(drawn, (byte) 0);
        }
        drawCount = 0;
        drawFrom = null;
    }

    /**
     * Reads the requests' {@code SigningKey}s: once into {@link #oneKey} when all {@code n} name
     * one key and cache, else each into its record. A key destroyed meanwhile fails its requests
     * ({@link #keyLost}); their records stay zero and name no cache.
     */
    private void placeKeys(int n) {
        asOneKey = ofOneKey(keySources, caches, n);
        if (asOneKey) {
            if (!((SigningKey) keySources[0]).copyTo(ByteBuffer.wrap(oneKey), 0)) {
                Arrays.fill(keyLost, 0, n, true);
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            if (keySources[i] instanceof SigningKey key) {
                recordsHoldKeys = true;
                if (!privateKeys.put(i, key)) {
                    keyLost[i] = true;
                    caches[i] = null;
                    keySources[i] = null;
                }
            }
        }
    }

    @Override
    void run(Backend backend, int n, TaskListener early) {
        if (!keysPlaced) {
            placeKeys(n);  // once, as the rnds below
            keysPlaced = true;
        }
        if (asOneKey && keyLost[0]) {
            return;  // the one key is gone: every request fails as it is collected
        }
        if (drawCount > 0) {
            drawRnds();  // once: a rerun on the CPU after a backend failure signs with the same rnds
        }
        boolean onBackend = asOneKey && messages.any() && backend.hashesMessages(params, Operation.SIGN);
        if (!onBackend) {
            messages.hash(n);
        }
        if (asOneKey) {
            BatchRecords r = privateKeys.inHost()
                    ? BatchRecords.sign(caches[0], oneKey, n, mus.host(), rnds.host(), signatures.host(), status)
                            .withListener(early)
                    : BatchRecords.sign(caches[0], oneKey, n, mus.array(), rnds.array(), signatures.array(), status);
            backend.run(onBackend ? messages.withMessages(r, n) : r);
        } else if (privateKeys.inHost()) {
            backend.run(BatchRecords.sign(params, n, privateKeys.host(), mus.host(), rnds.host(), signatures.host(),
                    status).withCaches(caches, keySources).withListener(early));
        } else {
            backend.run(BatchRecords.sign(params, n, privateKeys.array(), mus.array(), rnds.array(), signatures.array(),
                    status).withCaches(caches, keySources));
        }
    }

    @Override
    void collect(int slot, Task<?> task) {
        Request r = (Request) task;
        if (keyLost[slot]) {
            r.fail(new InvalidKeyException(destroyedKey(params)));
            return;
        }
        switch (status[slot]) {
            case TaskStatus.OK:
                r.succeed(signatures.copy(slot));
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
        if (recordsHoldKeys) {
            privateKeys.zero(n);
        }
        if (asOneKey) {
            Arrays.fill(oneKey, (byte) 0);
        }
        rnds.zero(n);
        messages.clear(n);
        Arrays.fill(keyLost, 0, n, false);
        keysPlaced = false;
        asOneKey = false;
        recordsHoldKeys = false;
        Arrays.fill(caches, 0, n, null);
        Arrays.fill(keySources, 0, n, null);
        drawCount = 0;
        drawFrom = null;
    }
}
