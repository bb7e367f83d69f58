package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.ParameterSet.N;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * What signing with one private key needs and would otherwise recompute every time: ŝ1, ŝ2, t̂0
 * (skDecode, FIPS 204 Algorithm 25, then NTT; exactly as {@link Scheme#sign} holds them after its
 * NTTs) and Â = ExpandA(ρ) (Algorithm 32). A private key owns one; {@link Scheme#sign(ParameterSet,
 * byte[], int, PrivateKeyCache, byte[], int, byte[], int, byte[], int)} reads and fills it.
 *
 * <p>Life cycle:
 * <ul>
 *   <li>Empty until the second signature through it: signatures that miss are counted, and the
 *       first one only counts, so a key used once costs this object and nothing more.</li>
 *   <li>Filled by the thread that runs the second signature (a CPU backend worker), from the
 *       packed key bytes that signature was handed: its own skDecode, NTTs and ExpandA are copied
 *       out. Never on a caller's thread and never for GPU work (the CUDA kernels decode on the
 *       device and ignore caches). Concurrent fills may race: one is published, by
 *       compare-and-set, and the others are wiped.</li>
 *   <li>Bound to the bytes it was filled from: it keeps a copy of that packed key and compares it,
 *       in constant time, with the key bytes of every signature; a signature with other bytes
 *       takes the plain path, so nothing is ever signed with another key's vectors.</li>
 *   <li>A key that does not decode (an s1 or s2 coefficient outside [−η, η]) is never cached:
 *       the plain path reports {@code INVALID_KEY} every time.</li>
 *   <li>{@link #destroy()} zeroes the secret arrays; afterwards the cache gives nothing and is
 *       never filled again, and signatures take the plain path from their packed bytes.</li>
 * </ul>
 *
 * <p>Locking: a signer copies ŝ1, ŝ2, t̂0 into its workspace under a read lock, and
 * {@code destroy} wipes them under the write lock, so no signer reads half-wiped vectors. The lock
 * is a {@link ReentrantReadWriteLock}, never a monitor, so that a virtual thread waiting on it
 * unmounts. Â is public and immutable once published, and is read without the lock.
 *
 * <p>Thread-safe. Exposes no key bytes: its public surface is {@link #destroy()} and state queries.
 */
public final class PrivateKeyCache {
    private static final AtomicReferenceFieldUpdater<PrivateKeyCache, Decoded> DECODED =
            AtomicReferenceFieldUpdater.newUpdater(PrivateKeyCache.class, Decoded.class, "decoded");
    private static final AtomicReferenceFieldUpdater<PrivateKeyCache, KeyIdentity> IDENTITY =
            AtomicReferenceFieldUpdater.newUpdater(PrivateKeyCache.class, KeyIdentity.class, "identity");

    private final ParameterSet params;
    /** Signatures that missed the empty cache; it is filled at the second. */
    private final AtomicInteger uses = new AtomicInteger();
    private volatile Decoded decoded;
    private volatile boolean destroyed;
    /** The key's identity for device caches, computed at the first {@link #identity} call. */
    private volatile KeyIdentity identity;
    /** Batches of a device cache that saw this key ({@link #sighted()}). */
    private final AtomicInteger sightings = new AtomicInteger();

    /** An empty cache for a private key of set {@code params}. */
    public PrivateKeyCache(ParameterSet params) {
        this.params = params;
    }

    /** The parameter set of the private key this cache belongs to. */
    public ParameterSet params() {
        return params;
    }

    /** Whether the cache holds the decoded key now (not before the second signature, not after destroy). */
    public boolean isDecoded() {
        return decoded != null && !destroyed;
    }

    /** Whether {@link #destroy()} was called. */
    public boolean isDestroyed() {
        return destroyed;
    }

    /**
     * Zeroes ŝ1, ŝ2, t̂0 and the copy of the packed key, waiting for signers that are copying them
     * out; drops Â. Idempotent; the cache stays empty afterwards.
     */
    public void destroy() {
        destroyed = true;
        Decoded d = DECODED.getAndSet(this, null);
        if (d != null) {
            d.wipe();
        }
        KeyIdentity id = IDENTITY.getAndSet(this, null);
        if (id != null) {
            DestroyedKeys.announce(id);
            id.wipe();
        }
    }

    /**
     * The key's {@link KeyIdentity}, for a cache of its expanded form in device memory: computed
     * from {@code sk[skOff ..]} at the first call (SHA-256 of the whole packed key) and bound to
     * those bytes. Returns {@code null} when this cache is destroyed or {@code sk[skOff ..]} is not
     * the key the identity was computed from (the caller then treats the key as uncached).
     */
    public KeyIdentity identity(byte[] sk, int skOff) {
        KeyIdentity id = identity;
        if (id == null && !destroyed) {
            id = publish(KeyIdentity.of(sk, skOff, params.privateKeyBytes(), true));
        }
        return id != null && !destroyed && id.matches(sk, skOff) ? id : null;
    }

    /** {@link #identity(byte[], int)} for the packed key at absolute offset {@code skOff} of {@code sk}. */
    public KeyIdentity identity(ByteBuffer sk, int skOff) {
        KeyIdentity id = identity;
        if (id == null && !destroyed) {
            id = publish(KeyIdentity.of(sk, skOff, params.privateKeyBytes(), true));
        }
        return id != null && !destroyed && id.matches(sk, skOff) ? id : null;
    }

    /** The identity already computed, or null: no hashing. */
    public KeyIdentity knownIdentity() {
        KeyIdentity id = identity;
        return destroyed ? null : id;
    }

    private KeyIdentity publish(KeyIdentity fresh) {
        if (!IDENTITY.compareAndSet(this, null, fresh)) {
            fresh.wipe();
            return identity;
        }
        // As in offer(): destroy() sets destroyed before it takes the identity.
        if (destroyed && IDENTITY.compareAndSet(this, fresh, null)) {
            fresh.wipe();
            return null;
        }
        return fresh;
    }

    /**
     * Counts one sighting of this key by a device cache and returns the count before it: a key
     * object seen before is worth its digest and a device slot; one seen for the first time is
     * not (a workload of distinct keys never pays for the cache).
     */
    public int sighted() {
        return sightings.getAndIncrement();
    }

    /**
     * On a hit, copies ŝ1, ŝ2, t̂0 into {@code ws.s1}, {@code ws.s2}, {@code ws.t0} and returns Â
     * (k·ℓ·256 coefficients, row-major, in [0, q); read-only). Returns {@code null} when the cache is
     * empty or destroyed, is for another set, or was filled from other key bytes than
     * {@code sk[skOff ..]}.
     */
    int[] load(ParameterSet p, byte[] sk, int skOff, Workspace ws) {
        if (p != params || destroyed) {
            return null;
        }
        Decoded d = decoded;
        return d != null && d.copyInto(sk, skOff, ws) ? d.matrix : null;
    }

    /**
     * Called after a miss that decoded {@code sk[skOff ..]} successfully: counts the use and, from
     * the second on, fills the cache from {@code ws.s1}, {@code ws.s2}, {@code ws.t0} (NTT domain)
     * and {@code ws.matrix} (Â of this key's ρ).
     */
    void offer(ParameterSet p, byte[] sk, int skOff, Workspace ws) {
        if (p != params || destroyed || decoded != null) {
            return;
        }
        if (uses.get() < 2 && uses.incrementAndGet() < 2) {
            return;
        }
        Decoded d = new Decoded(p, sk, skOff, ws);
        if (!DECODED.compareAndSet(this, null, d)) {
            d.wipe();
            return;
        }
        // destroy() sets destroyed before it takes decoded; this published decoded before reading
        // destroyed: at least one of the two sees the other, and the arrays are wiped.
        if (destroyed) {
            DECODED.compareAndSet(this, d, null);
            d.wipe();
        }
    }

    /** For tests: the live ŝ1, ŝ2, t̂0 arrays themselves (not copies), or {@code null} when empty. */
    int[][] secretArrays() {
        Decoded d = decoded;
        return d == null ? null : new int[][] {d.s1, d.s2, d.t0};
    }

    /** For tests: the live copy of the packed key the cache is bound to, or {@code null} when empty. */
    byte[] boundKey() {
        Decoded d = decoded;
        return d == null ? null : d.packed;
    }

    @Override
    public String toString() {
        return params + " private key cache (" + (destroyed ? "destroyed" : decoded != null ? "decoded" : "empty") + ")";
    }

    /** One fill: the secret arrays, the packed key they came from, Â, and the lock over the secrets. */
    private static final class Decoded {
        private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        /** The packed key the vectors were decoded from. Secret. */
        final byte[] packed;
        /** ŝ1, ŝ2, t̂0: NTT domain, |coefficient| &lt; 9q ({@link Ntt#forward}). Secret. */
        final int[] s1;
        final int[] s2;
        final int[] t0;
        /** Â, row-major, in [0, q). Public. */
        final int[] matrix;
        /** Guarded by lock. */
        private boolean wiped;

        Decoded(ParameterSet p, byte[] sk, int skOff, Workspace ws) {
            int k = p.k();
            int l = p.l();
            packed = Arrays.copyOfRange(sk, skOff, skOff + p.privateKeyBytes());
            s1 = Arrays.copyOf(ws.s1, l * N);
            s2 = Arrays.copyOf(ws.s2, k * N);
            t0 = Arrays.copyOf(ws.t0, k * N);
            matrix = Arrays.copyOf(ws.matrix, k * l * N);
        }

        /** Copies the secrets into ws when the cache is live and bound to sk[skOff ..]. */
        boolean copyInto(byte[] sk, int skOff, Workspace ws) {
            Lock read = lock.readLock();
            read.lock();
            try {
                if (wiped || !ConstantTime.equal(packed, 0, sk, skOff, packed.length)) {
                    return false;
                }
                System.arraycopy(s1, 0, ws.s1, 0, s1.length);
                System.arraycopy(s2, 0, ws.s2, 0, s2.length);
                System.arraycopy(t0, 0, ws.t0, 0, t0.length);
                return true;
            } finally {
                read.unlock();
            }
        }

        void wipe() {
            Lock write = lock.writeLock();
            write.lock();
            try {
                wiped = true;
                Arrays.fill(packed, (byte) 0);
                Arrays.fill(s1, 0);
                Arrays.fill(s2, 0);
                Arrays.fill(t0, 0);
            } finally {
                write.unlock();
            }
        }
    }
}
