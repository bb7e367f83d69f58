package io.dilithiumgpu.backend;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;

import java.util.Objects;

/**
 * The records of one {@link Backend#run} call: an operation on a parameter set, {@code n} tasks,
 * and the flat arrays of fixed-size records its tasks read and write, all on the heap
 * ({@code byte[]}) or all in {@link HostBuffer}s, plus a status byte per task. Optionally the
 * keys' caches (signing and verification) and a {@link TaskListener} told of tasks as they end.
 *
 * <p>Fields, in the order {@link #array(int)} and {@link #host(int)} number them (task {@code i}'s
 * record of a field is bytes {@code [i·size, (i+1)·size)}):
 * <ul>
 *   <li>key generation: seeds (32 bytes, secret) in; public keys, private keys (secret) out;</li>
 *   <li>signing: private keys (secret), μ (64 bytes), rnd ({@link ParameterSet#rndBytes()},
 *       secret) in; signatures out;</li>
 *   <li>verification: public keys, μ, signatures in; nothing out but the status.</li>
 * </ul>
 * Arrays and buffers may hold more than {@code n} records (the batcher reuses pooled ones); a
 * backend reads and writes only the first {@code n}. The factories check every length.
 *
 * <p>One-key records ({@link #sign(KeyHandle, int, byte[], byte[], byte[], byte[])},
 * {@link #verify(KeyHandle, int, byte[], byte[], byte[])}, the forms that take a key's record and
 * cache, and their host-buffer forms) sign or verify every task with one key ({@link #oneKey()}):
 * field 0 is then that key's single record, always on the heap ({@link #array(int)} gives it,
 * {@link #host(int)} gives null), and its cache, the only entry of the caches, stands for every
 * task; {@link #key()} is the handle, where one made them.
 *
 * <p>One-key records may carry {@link MessageRecord}s in place of μ ({@link #withMessages}): field
 * 1 is then {@code messages}, {@value MessageRecord#BYTES} bytes a task, and only a backend that
 * {@linkplain Backend#hashesMessages hashes messages} runs them.
 *
 * <p>Immutable; the arrays and buffers it names are the caller's, and {@code with...} returns a
 * new instance naming the same ones.
 */
public final class BatchRecords {
    private final ParameterSet params;
    private final Operation op;
    private final int n;
    private final byte[][] arrays;
    private final HostBuffer[] buffers;
    private final byte[] status;
    private final PrivateKeyCache[] privateKeyCaches;
    private final PublicKeyCache[] publicKeyCaches;
    private final TaskListener listener;
    private final boolean oneKey;
    private final KeyHandle key;
    private final Object[] keySources;
    private final boolean messages;

    private BatchRecords(ParameterSet params, Operation op, int n, byte[][] arrays, HostBuffer[] buffers,
                         byte[] status, PrivateKeyCache[] privateKeyCaches, PublicKeyCache[] publicKeyCaches,
                         TaskListener listener) {
        this(params, op, n, arrays, buffers, status, privateKeyCaches, publicKeyCaches, listener, false, null, null,
                false);
    }

    private BatchRecords(ParameterSet params, Operation op, int n, byte[][] arrays, HostBuffer[] buffers,
                         byte[] status, PrivateKeyCache[] privateKeyCaches, PublicKeyCache[] publicKeyCaches,
                         TaskListener listener, boolean oneKey, KeyHandle key, Object[] keySources, boolean messages) {
        this.oneKey = oneKey;
        this.messages = messages;
        this.key = key;
        this.keySources = keySources;
        this.params = params;
        this.op = op;
        this.n = n;
        this.arrays = arrays;
        this.buffers = buffers;
        this.status = status;
        this.privateKeyCaches = privateKeyCaches;
        this.publicKeyCaches = publicKeyCaches;
        this.listener = listener;
    }

    /**
     * Key generation from seeds: ζ (round 3.1) or ξ (FIPS 204 Algorithm 6, ML-DSA.KeyGen_internal).
     * Every status is {@link TaskStatus#OK}.
     *
     * @throws IllegalArgumentException when n is negative or an array holds fewer than n records
     */
    public static BatchRecords keyGen(ParameterSet params, int n, byte[] seeds, byte[] publicKeys,
                                      byte[] privateKeys, byte[] status) {
        return onHeap(params, Operation.KEYGEN, n, status, seeds, publicKeys, privateKeys);
    }

    /** {@link #keyGen(ParameterSet, int, byte[], byte[], byte[], byte[])} with the records in host buffers. */
    public static BatchRecords keyGen(ParameterSet params, int n, HostBuffer seeds, HostBuffer publicKeys,
                                      HostBuffer privateKeys, byte[] status) {
        return inHost(params, Operation.KEYGEN, n, status, seeds, publicKeys, privateKeys);
    }

    /**
     * Signing of precomputed μ (FIPS 204 Algorithm 7, ML-DSA.Sign_internal, from step 6 on; round
     * 3.1 {@code crypto_sign_signature} after μ). rnd is FIPS 204's rnd, or round 3.1's ρ′. A
     * status is {@link TaskStatus#OK} (the signature written) or {@link TaskStatus#INVALID_KEY}
     * (the record's contents unspecified).
     */
    public static BatchRecords sign(ParameterSet params, int n, byte[] privateKeys, byte[] mus, byte[] rnds,
                                    byte[] signatures, byte[] status) {
        return onHeap(params, Operation.SIGN, n, status, privateKeys, mus, rnds, signatures);
    }

    /** {@link #sign(ParameterSet, int, byte[], byte[], byte[], byte[], byte[])} with the records in host buffers. */
    public static BatchRecords sign(ParameterSet params, int n, HostBuffer privateKeys, HostBuffer mus,
                                    HostBuffer rnds, HostBuffer signatures, byte[] status) {
        return inHost(params, Operation.SIGN, n, status, privateKeys, mus, rnds, signatures);
    }

    /**
     * Verification of precomputed μ (FIPS 204 Algorithm 8, ML-DSA.Verify_internal, from step 7).
     * A status is {@link TaskStatus#OK} (valid) or {@link TaskStatus#REJECTED} (not, malformed
     * hints included).
     */
    public static BatchRecords verify(ParameterSet params, int n, byte[] publicKeys, byte[] mus,
                                      byte[] signatures, byte[] status) {
        return onHeap(params, Operation.VERIFY, n, status, publicKeys, mus, signatures);
    }

    /** {@link #verify(ParameterSet, int, byte[], byte[], byte[], byte[])} with the records in host buffers. */
    public static BatchRecords verify(ParameterSet params, int n, HostBuffer publicKeys, HostBuffer mus,
                                      HostBuffer signatures, byte[] status) {
        return inHost(params, Operation.VERIFY, n, status, publicKeys, mus, signatures);
    }

    /**
     * Signing of {@code n} precomputed μ with one private key (as {@link #sign(ParameterSet, int,
     * byte[], byte[], byte[], byte[], byte[])}, the key given once): a backend with a key cache
     * expands the key once and uploads only μ and rnd per task.
     *
     * @throws IllegalArgumentException when {@code key} is a public key's handle or an array is short
     * @throws IllegalStateException    when {@code key} is destroyed
     */
    public static BatchRecords sign(KeyHandle key, int n, byte[] mus, byte[] rnds, byte[] signatures,
                                    byte[] status) {
        ParameterSet p = requireKey(key, true).params();
        BatchRecords r = onHeap(p, Operation.SIGN, n, status, 1, null, mus, rnds, signatures);
        r.arrays[0] = key.keyInPlace();
        return r.withKey(key);
    }

    /** {@link #sign(KeyHandle, int, byte[], byte[], byte[], byte[])} with μ, rnd and the signatures in host buffers. */
    public static BatchRecords sign(KeyHandle key, int n, HostBuffer mus, HostBuffer rnds, HostBuffer signatures,
                                    byte[] status) {
        ParameterSet p = requireKey(key, true).params();
        BatchRecords r = inHost(p, Operation.SIGN, n, status, 1, null, mus, rnds, signatures);
        r.arrays[0] = key.keyInPlace();
        return r.withKey(key);
    }

    /**
     * Verification of {@code n} signatures on precomputed μ with one public key (as
     * {@link #verify(ParameterSet, int, byte[], byte[], byte[], byte[])}, the key given once).
     *
     * @throws IllegalArgumentException when {@code key} is a private key's handle or an array is short
     */
    public static BatchRecords verify(KeyHandle key, int n, byte[] mus, byte[] signatures, byte[] status) {
        ParameterSet p = requireKey(key, false).params();
        BatchRecords r = onHeap(p, Operation.VERIFY, n, status, 1, null, mus, signatures);
        r.arrays[0] = key.keyInPlace();
        return r.withKey(key);
    }

    /** {@link #verify(KeyHandle, int, byte[], byte[], byte[])} with μ and the signatures in host buffers. */
    public static BatchRecords verify(KeyHandle key, int n, HostBuffer mus, HostBuffer signatures, byte[] status) {
        ParameterSet p = requireKey(key, false).params();
        BatchRecords r = inHost(p, Operation.VERIFY, n, status, 1, null, mus, signatures);
        r.arrays[0] = key.keyInPlace();
        return r.withKey(key);
    }

    private static KeyHandle requireKey(KeyHandle key, boolean secret) {
        Objects.requireNonNull(key, "key");
        if (key.isPrivate() != secret) {
            throw new IllegalArgumentException((secret ? "signing needs a private" : "verification needs a public")
                    + " key's handle, not " + key);
        }
        key.requireLive();
        return key;
    }

    private BatchRecords withKey(KeyHandle handle) {
        Object cache = handle.cache();
        PrivateKeyCache[] pc = cache instanceof PrivateKeyCache c ? new PrivateKeyCache[] {c} : null;
        PublicKeyCache[] uc = cache instanceof PublicKeyCache c ? new PublicKeyCache[] {c} : null;
        return new BatchRecords(params, op, n, arrays, buffers, status, pc, uc, listener, true, handle, null, false);
    }

    /**
     * Signing of {@code n} precomputed μ with one private key the caller holds: its packed record
     * {@code privateKey} (read in place, left unchanged until the call returns) and {@code cache},
     * which stands for every task, as a {@link KeyHandle}'s does. A backend with a key cache binds
     * the cache to the bytes ({@link io.dilithiumgpu.core.KeyIdentity}) before it uses a cached form.
     *
     * @throws IllegalArgumentException when the key is not the cache's set's length or an array is short
     */
    public static BatchRecords sign(PrivateKeyCache cache, byte[] privateKey, int n, byte[] mus, byte[] rnds,
                                    byte[] signatures, byte[] status) {
        ParameterSet p = requireKey(Objects.requireNonNull(cache, "cache").params(), privateKey, Operation.SIGN);
        BatchRecords r = onHeap(p, Operation.SIGN, n, status, 1, null, mus, rnds, signatures);
        r.arrays[0] = privateKey;
        return r.withOneKey(new PrivateKeyCache[] {cache}, null);
    }

    /** {@link #sign(PrivateKeyCache, byte[], int, byte[], byte[], byte[], byte[])} with μ, rnd and the signatures in host buffers. */
    public static BatchRecords sign(PrivateKeyCache cache, byte[] privateKey, int n, HostBuffer mus, HostBuffer rnds,
                                    HostBuffer signatures, byte[] status) {
        ParameterSet p = requireKey(Objects.requireNonNull(cache, "cache").params(), privateKey, Operation.SIGN);
        BatchRecords r = inHost(p, Operation.SIGN, n, status, 1, null, mus, rnds, signatures);
        r.arrays[0] = privateKey;
        return r.withOneKey(new PrivateKeyCache[] {cache}, null);
    }

    /**
     * Verification of {@code n} signatures on precomputed μ with one public key the caller holds
     * (as {@link #sign(PrivateKeyCache, byte[], int, byte[], byte[], byte[], byte[])}).
     *
     * @throws IllegalArgumentException when the key is not the cache's set's length or an array is short
     */
    public static BatchRecords verify(PublicKeyCache cache, byte[] publicKey, int n, byte[] mus, byte[] signatures,
                                      byte[] status) {
        ParameterSet p = requireKey(Objects.requireNonNull(cache, "cache").params(), publicKey, Operation.VERIFY);
        BatchRecords r = onHeap(p, Operation.VERIFY, n, status, 1, null, mus, signatures);
        r.arrays[0] = publicKey;
        return r.withOneKey(null, new PublicKeyCache[] {cache});
    }

    /** {@link #verify(PublicKeyCache, byte[], int, byte[], byte[], byte[])} with μ and the signatures in host buffers. */
    public static BatchRecords verify(PublicKeyCache cache, byte[] publicKey, int n, HostBuffer mus,
                                      HostBuffer signatures, byte[] status) {
        ParameterSet p = requireKey(Objects.requireNonNull(cache, "cache").params(), publicKey, Operation.VERIFY);
        BatchRecords r = inHost(p, Operation.VERIFY, n, status, 1, null, mus, signatures);
        r.arrays[0] = publicKey;
        return r.withOneKey(null, new PublicKeyCache[] {cache});
    }

    private static ParameterSet requireKey(ParameterSet p, byte[] key, Operation op) {
        Objects.requireNonNull(key, name(op, 0));
        if (key.length != recordBytes(p, op, 0)) {
            throw new IllegalArgumentException("one-key " + name(op, 0) + " of " + p + " is one record of "
                    + recordBytes(p, op, 0) + " bytes, not " + key.length);
        }
        return p;
    }

    private BatchRecords withOneKey(PrivateKeyCache[] pc, PublicKeyCache[] uc) {
        return new BatchRecords(params, op, n, arrays, buffers, status, pc, uc, listener, true, null, null, false);
    }

    private static BatchRecords onHeap(ParameterSet params, Operation op, int n, byte[] status, byte[]... arrays) {
        return onHeap(params, op, n, status, 0, arrays);
    }

    /** Records whose fields before {@code from} are set by the caller (a one-key batch's key), the others checked. */
    private static BatchRecords onHeap(ParameterSet params, Operation op, int n, byte[] status, int from,
                                       byte[]... arrays) {
        requireCount(params, op, n, status);
        for (int f = from; f < arrays.length; f++) {
            long needed = (long) n * recordBytes(params, op, f);
            Objects.requireNonNull(arrays[f], name(op, f));
            if (arrays[f].length < needed) {
                throw new IllegalArgumentException(name(op, f) + " holds " + arrays[f].length + " bytes; " + n
                        + " tasks of " + recordBytes(params, op, f) + " need " + needed);
            }
        }
        return new BatchRecords(params, op, n, arrays, null, status, null, null, null);
    }

    private static BatchRecords inHost(ParameterSet params, Operation op, int n, byte[] status,
                                       HostBuffer... buffers) {
        requireCount(params, op, n, status);
        for (int f = 0; f < buffers.length; f++) {
            Objects.requireNonNull(buffers[f], name(op, f)).requireRecords(name(op, f), n, recordBytes(params, op, f));
        }
        return new BatchRecords(params, op, n, null, buffers, status, null, null, null);
    }

    /**
     * One-key records in host buffers: fields before {@code from} (the key) are null in
     * {@code buffers} and live in {@link #arrays}, which the caller fills.
     */
    private static BatchRecords inHost(ParameterSet params, Operation op, int n, byte[] status, int from,
                                       HostBuffer... buffers) {
        requireCount(params, op, n, status);
        for (int f = from; f < buffers.length; f++) {
            Objects.requireNonNull(buffers[f], name(op, f)).requireRecords(name(op, f), n, recordBytes(params, op, f));
        }
        return new BatchRecords(params, op, n, new byte[buffers.length][], buffers, status, null, null, null);
    }

    private static void requireCount(ParameterSet params, Operation op, int n, byte[] status) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(status, "status");
        if (n < 0) {
            throw new IllegalArgumentException("negative task count " + n);
        }
        if (status.length < n) {
            throw new IllegalArgumentException("status holds " + status.length + " bytes; " + n + " tasks need " + n);
        }
    }

    /**
     * These records with each signing task's private-key cache: {@code caches[i]} belongs to the
     * key of task i, or is null. A backend that decodes keys itself may use and fill them
     * ({@link PrivateKeyCache} says how); results are the same without them.
     *
     * @param caches at least n entries, or null for none
     * @throws IllegalStateException    when these are not signing records
     * @throws IllegalArgumentException when caches holds fewer than n entries
     */
    public BatchRecords withCaches(PrivateKeyCache[] caches) {
        return withCaches(caches, null);
    }

    /**
     * As {@link #withCaches(PrivateKeyCache[])}, with where each task's key record was copied
     * from: {@code keySources[i]} is the object task i's key bytes were read from, or null. The
     * caller vouches that tasks of the same non-null source hold equal key bytes (it copied them
     * all from that one source, which did not change meanwhile), so that a backend that binds a
     * key cache to its bytes ({@link io.dilithiumgpu.core.KeyIdentity}) may check one task of a
     * source and cache and take the others of both as checked. Tasks without a source, or whose
     * cache differs, are checked each on its own.
     *
     * @param keySources at least n entries, or null for none
     * @throws IllegalArgumentException when caches or keySources hold fewer than n entries
     */
    public BatchRecords withCaches(PrivateKeyCache[] caches, Object[] keySources) {
        requireOp(Operation.SIGN, "private-key caches");
        requireEntries(caches == null ? n : caches.length, "caches");
        requireEntries(keySources == null ? n : keySources.length, "key sources");
        requireNoKey();
        return new BatchRecords(params, op, n, arrays, buffers, status, caches, null, listener, false, null, keySources,
                false);
    }

    /** As {@link #withCaches(PrivateKeyCache[])}, with public-key caches for verification records. */
    public BatchRecords withCaches(PublicKeyCache[] caches) {
        return withCaches(caches, null);
    }

    /** As {@link #withCaches(PrivateKeyCache[], Object[])}, with public-key caches for verification records. */
    public BatchRecords withCaches(PublicKeyCache[] caches, Object[] keySources) {
        requireOp(Operation.VERIFY, "public-key caches");
        requireEntries(caches == null ? n : caches.length, "caches");
        requireEntries(keySources == null ? n : keySources.length, "key sources");
        requireNoKey();
        return new BatchRecords(params, op, n, arrays, buffers, status, null, caches, listener, false, null, keySources,
                false);
    }

    /**
     * These records with {@code early} to be told of tasks as they end, before the call returns
     * ({@link TaskListener} says when); null for none. Backends that cannot tell early report
     * every outcome in the status bytes only.
     */
    public BatchRecords withListener(TaskListener early) {
        return new BatchRecords(params, op, n, arrays, buffers, status, privateKeyCaches, publicKeyCaches, early, oneKey,
                key, keySources, messages);
    }

    /**
     * These one-key records with task i's μ given by {@link MessageRecord} i of {@code messages}
     * (M′ for the backend to hash with the key's tr, or μ itself) instead of field 1: for a backend
     * that {@linkplain Backend#hashesMessages hashes messages}. The key must be the records' own
     * (tr is read from it, or hashed from a public key, where a backend hashes on the host).
     *
     * @throws IllegalStateException    when these are not one-key records of heap arrays, or carry messages already
     * @throws IllegalArgumentException when {@code messages} holds fewer than n records
     */
    public BatchRecords withMessages(byte[] messages) {
        requireMessagesFit(false);
        Objects.requireNonNull(messages, "messages");
        if (messages.length < (long) n * MessageRecord.BYTES) {
            throw new IllegalArgumentException("messages hold " + messages.length + " bytes; " + n + " tasks of "
                    + MessageRecord.BYTES + " need " + (long) n * MessageRecord.BYTES);
        }
        return withField1(messages, null, true);
    }

    /** As {@link #withMessages(byte[])}, for one-key records in host buffers. */
    public BatchRecords withMessages(HostBuffer messages) {
        requireMessagesFit(true);
        Objects.requireNonNull(messages, "messages").requireRecords("messages", n, MessageRecord.BYTES);
        return withField1(null, messages, true);
    }

    private void requireMessagesFit(boolean host) {
        if (!oneKey || op == Operation.KEYGEN || messages || inHost() != host) {
            throw new IllegalStateException("message records replace the μ of one-key signing or verification records "
                    + (host ? "in host buffers" : "on the heap") + ", not of " + op + " records"
                    + (oneKey ? "" : " of a key per task") + (messages ? " with messages" : ""));
        }
    }

    /** These records with μ records {@code mus} in place of their message records ({@link MessageRecord#runOnMu}). */
    BatchRecords withMus(byte[] mus) {
        return withField1(mus, null, false);
    }

    /** As {@link #withMus(byte[])}, for records in host buffers. */
    BatchRecords withMus(HostBuffer mus) {
        return withField1(null, mus, false);
    }

    /** These records with field 1 replaced by {@code array} (heap records) or {@code buffer}: messages or μ. */
    private BatchRecords withField1(byte[] array, HostBuffer buffer, boolean messages) {
        byte[][] a = arrays;
        HostBuffer[] b = buffers;
        if (buffer == null) {
            a = arrays.clone();
            a[1] = array;
        } else {
            b = buffers.clone();
            b[1] = buffer;
        }
        return new BatchRecords(params, op, n, a, b, status, privateKeyCaches, publicKeyCaches, listener, oneKey, key,
                keySources, messages);
    }

    private void requireNoKey() {
        if (oneKey) {
            throw new IllegalStateException("one-key records have their key's cache already");
        }
    }

    private void requireOp(Operation wanted, String what) {
        if (op != wanted) {
            throw new IllegalStateException(what + " belong to " + wanted + " records, not " + op);
        }
    }

    private void requireEntries(int length, String what) {
        if (length < n) {
            throw new IllegalArgumentException(what + " hold " + length + " entries; " + n + " tasks need " + n);
        }
    }

    public ParameterSet params() { return params; }

    public Operation op() { return op; }

    /** The number of tasks, n. */
    public int count() { return n; }

    /** Whether the records are in {@link HostBuffer}s ({@link #host(int)}) rather than arrays ({@link #array(int)}). */
    public boolean inHost() { return buffers != null; }

    /** The record fields of the operation, the status excluded: 3 for key generation and verification,
            4 for signing. */
    public int fields() { return fieldCount(op); }

    /** Field f's records on the heap; null when they are in host buffers (a one-key batch's key: always its one record). */
    public byte[] array(int f) { return arrays == null ? null : arrays[f]; }

    /** Field f's records in a host buffer; null when they are on the heap (and for a one-key batch's key). */
    public HostBuffer host(int f) { return buffers == null ? null : buffers[f]; }

    /**
     * Whether these are one-key records: field 0 is one key's single record, on the heap, and the
     * caches hold that key's cache alone, standing for every task.
     */
    public boolean oneKey() { return oneKey; }

    /** Whether field 1 holds {@link MessageRecord}s rather than μ ({@link #withMessages}). */
    public boolean messages() { return messages; }

    /** The handle of one-key records made from a {@link KeyHandle}, or null (per-task keys, or a key given as bytes). */
    public KeyHandle key() { return key; }

    /** The status bytes, one per task, written by the backend. */
    public byte[] status() { return status; }

    /** Private-key caches (signing), or null. */
    public PrivateKeyCache[] privateKeyCaches() { return privateKeyCaches; }

    /** Public-key caches (verification), or null. */
    public PublicKeyCache[] publicKeyCaches() { return publicKeyCaches; }

    /**
     * Where each task's key record was copied from, or null: see
     * {@link #withCaches(PrivateKeyCache[], Object[])}.
     */
    public Object[] keySources() { return keySources; }

    /** Told of tasks as they end, or null. */
    public TaskListener listener() { return listener; }

    /** Bytes of one record of field f. */
    public int recordBytes(int f) { return messages && f == 1 ? MessageRecord.BYTES : recordBytes(params, op, f); }

    /** Field f's name, as in the factories' parameters ({@code seeds}, {@code privateKeys}, ...). */
    public String name(int f) { return messages && f == 1 ? "messages" : name(op, f); }

    /** Whether field f is read (an input) rather than written. */
    public boolean input(int f) {
        return switch (op) {
            case KEYGEN -> f == 0;
            case SIGN -> f < 3;
            case VERIFY -> true;
        };
    }

    /** Whether field f holds secrets (seeds, private keys, rnd), which copies must not outlive the call. */
    public boolean secret(int f) {
        return switch (op) {
            case KEYGEN -> f == 0 || f == 2;
            case SIGN -> f == 0 || f == 2;
            case VERIFY -> false;
        };
    }

    private static int fieldCount(Operation op) {
        return op == Operation.SIGN ? 4 : 3;
    }

    private static String name(Operation op, int f) {
        String[] names = switch (op) {
            case KEYGEN -> new String[] {"seeds", "publicKeys", "privateKeys"};
            case SIGN -> new String[] {"privateKeys", "mus", "rnds", "signatures"};
            case VERIFY -> new String[] {"publicKeys", "mus", "signatures"};
        };
        return names[f];
    }

    private static int recordBytes(ParameterSet p, Operation op, int f) {
        return switch (op) {
            case KEYGEN -> f == 0 ? ParameterSet.SEED_BYTES : f == 1 ? p.publicKeyBytes() : p.privateKeyBytes();
            case SIGN -> switch (f) {
                case 0 -> p.privateKeyBytes();
                case 1 -> ParameterSet.MU_BYTES;
                case 2 -> p.rndBytes();
                default -> p.signatureBytes();
            };
            case VERIFY -> f == 0 ? p.publicKeyBytes() : f == 1 ? ParameterSet.MU_BYTES : p.signatureBytes();
        };
    }
}
