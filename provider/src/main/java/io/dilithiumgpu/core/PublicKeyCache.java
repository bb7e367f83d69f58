package io.dilithiumgpu.core;

import static io.dilithiumgpu.core.ParameterSet.N;

import java.lang.ref.SoftReference;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * What verification with one public key needs and would otherwise recompute every time:
 * Â = ExpandA(ρ) (FIPS 204 Algorithm 32) and t̂1 = NTT(t1·2^d) (Algorithm 8, step 9). A public key
 * owns one; {@link Scheme#verify(ParameterSet, byte[], int, PublicKeyCache, byte[], int, byte[], int)}
 * reads and fills it.
 *
 * <p>Life cycle: empty until the second verification through it (verifications that miss are
 * counted, the first one only counts), then filled by the thread that runs that verification (a
 * CPU backend worker) from the public key bytes it was handed; never on a caller's thread, never
 * for GPU work. Concurrent fills may race; one is published by compare-and-set. The fill keeps a
 * copy of the public key and is used only for verifications handed the same bytes; others take the
 * plain path.
 *
 * <p>Everything here is public, so nothing is wiped, and the fill is held through a
 * {@link SoftReference}: the garbage collector may reclaim it under memory pressure, and the next
 * verification that misses fills it again (from the bytes it is handed, which it is then bound
 * to). Published arrays are never written again and are read without a lock.
 *
 * <p>Thread-safe. Exposes no key bytes.
 */
public final class PublicKeyCache {
    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<PublicKeyCache, SoftReference> DECODED =
            AtomicReferenceFieldUpdater.newUpdater(PublicKeyCache.class, SoftReference.class, "decoded");

    private final ParameterSet params;
    /** Verifications that missed the empty cache; it is filled at the second. */
    private final AtomicInteger uses = new AtomicInteger();
    private volatile SoftReference<Decoded> decoded;
    /** The key's identity for device caches, computed at the first {@link #identity} call. */
    private volatile KeyIdentity identity;
    /** Batches of a device cache that saw this key ({@link #sighted()}). */
    private final AtomicInteger sightings = new AtomicInteger();

    /** An empty cache for a public key of set {@code params}. */
    public PublicKeyCache(ParameterSet params) {
        this.params = params;
    }

    /** The parameter set of the public key this cache belongs to. */
    public ParameterSet params() {
        return params;
    }

    /** Whether the cache holds Â and t̂1 now (not before the second verification, nor once reclaimed). */
    public boolean isDecoded() {
        return current() != null;
    }

    /**
     * The fill bound to {@code pk[pkOff ..]}, or {@code null} when the cache is empty (or was
     * reclaimed), is for another set, or holds another key's vectors.
     */
    Decoded load(ParameterSet p, byte[] pk, int pkOff) {
        if (p != params) {
            return null;
        }
        Decoded d = current();
        return d != null && d.matches(pk, pkOff) ? d : null;
    }

    /**
     * Called after a miss that computed Â into {@code ws.matrix} and t̂1 into {@code ws.t1} from
     * {@code pk[pkOff ..]}: counts the use and, from the second on, fills the cache from them.
     */
    void offer(ParameterSet p, byte[] pk, int pkOff, Workspace ws) {
        if (p != params) {
            return;
        }
        SoftReference<Decoded> seen = decoded;
        if (seen != null && seen.get() != null) {
            return;
        }
        if (uses.get() < 2 && uses.incrementAndGet() < 2) {
            return;
        }
        DECODED.compareAndSet(this, seen, new SoftReference<>(new Decoded(p, pk, pkOff, ws)));
    }

    /**
     * The key's {@link KeyIdentity}, for a cache of its expanded form in device memory: computed
     * from {@code pk[pkOff ..]} at the first call (SHA-256 of the whole packed key) and bound to
     * those bytes. Returns {@code null} when {@code pk[pkOff ..]} is not the key the identity was
     * computed from (the caller then treats the key as uncached).
     */
    public KeyIdentity identity(byte[] pk, int pkOff) {
        KeyIdentity id = identity;
        if (id == null) {
            id = KeyIdentity.of(pk, pkOff, params.publicKeyBytes(), false);
            identity = id;
        }
        return id.matches(pk, pkOff) ? id : null;
    }

    /** {@link #identity(byte[], int)} for the packed key at absolute offset {@code pkOff} of {@code pk}. */
    public KeyIdentity identity(ByteBuffer pk, int pkOff) {
        KeyIdentity id = identity;
        if (id == null) {
            id = KeyIdentity.of(pk, pkOff, params.publicKeyBytes(), false);
            identity = id;
        }
        return id.matches(pk, pkOff) ? id : null;
    }

    /** The identity already computed, or null: no hashing. */
    public KeyIdentity knownIdentity() {
        return identity;
    }

    /**
     * Counts one sighting of this key by a device cache and returns the count before it (see
     * {@link PrivateKeyCache#sighted()}).
     */
    public int sighted() {
        return sightings.getAndIncrement();
    }

    /** For tests: drops the fill as the garbage collector may. */
    void reclaim() {
        SoftReference<Decoded> ref = decoded;
        if (ref != null) {
            ref.clear();
        }
    }

    private Decoded current() {
        SoftReference<Decoded> ref = decoded;
        return ref == null ? null : ref.get();
    }

    @Override
    public String toString() {
        return params + " public key cache (" + (isDecoded() ? "decoded" : "empty") + ")";
    }

    /** One fill: the public key it came from, Â and t̂1. Immutable once published. */
    static final class Decoded {
        private final byte[] packed;
        /** Â, row-major, in [0, q). */
        final int[] matrix;
        /** t̂1 = NTT(t1·2^d), |coefficient| &lt; 9q ({@link Ntt#forward}). */
        final int[] t1;

        private Decoded(ParameterSet p, byte[] pk, int pkOff, Workspace ws) {
            int k = p.k();
            packed = Arrays.copyOfRange(pk, pkOff, pkOff + p.publicKeyBytes());
            matrix = Arrays.copyOf(ws.matrix, k * p.l() * N);
            t1 = Arrays.copyOf(ws.t1, k * N);
        }

        /** Whether pk[pkOff ..] is the key this was filled from; public data, so a plain comparison. */
        boolean matches(byte[] pk, int pkOff) {
            return Arrays.equals(packed, 0, packed.length, pk, pkOff, pkOff + packed.length);
        }
    }
}
