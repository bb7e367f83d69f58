package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.KeyIdentity;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.JCudaDriver;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One chunk of signing or verification run on its device's {@link DeviceKeyCache}: the chunk's
 * tasks grouped by key ({@link KeyGroups}), each key's route chosen by the region's
 * {@link KeySlots} (a ready slot, a slot to fill now, or uncached), the admitted keys expanded
 * into their slots ({@code expand_*}, waited for: an invalid private key leaves its slot and its
 * tasks run uncached, where the kernel reports {@code INVALID_KEY} for them as {@code sign_*}
 * does), then one {@code sign_keyed_*} / {@code verify_keyed_*} launch whose {@code keyOf} points
 * each task at its slot or at one packed record of the uncached keys, only those uploaded, mixed
 * or not.
 *
 * <p>Records: heap records go through the slot's pinned block, packed in an order that puts each
 * key's tasks side by side ({@link KeyGroups#launchOrder}), so that the slot they read stays in
 * L2, and unpacked back into task order. Records in registered host memory keep the caller's
 * order (they are copied straight from and to it; sorting them would cost a host copy of every
 * record). Outputs are downloaded after the launch, except the signatures and statuses of a
 * published signing chunk, which the kernel writes into host memory, each status after its
 * signature: its listener is told of each task as the status appears ({@link EarlyReporter}), as
 * for a plain published chunk, so that a caller waits for its own rejection loop, not the launch's
 * longest.
 *
 * <p>Secrets: the uncached private keys and the rnds are wiped from the pinned and device blocks
 * as in a plain chunk; the packed private keys an expansion read are wiped from both once it has
 * run. The slots stay pinned from the routing until {@link #finish}, which releases them whatever
 * happened.
 *
 * <p>Belongs to the thread that holds the slot; {@link ChunkRun} calls it.
 */
final class KeyedRun {
    /**
     * Up to this many tasks a verification chunk on registered host memory packs its records into
     * the slot's pinned block and uploads them with one copy: a host copy of a few hundred KB
     * costs less than a driver call per field.
     */
    static final int PACKED_TASKS = 64;

    /** How a launch's per-task records reach the kernel. */
    enum Inputs {
        /**
         * Read by the kernel where they lie, in the caller's registered memory, and the key
         * references in the slot's mapped pinned block: nothing is uploaded and nothing secret
         * enters device memory. Signing chunks whose keys are all cached: μ and rnd are a few
         * dozen bytes a task.
         */
        IN_PLACE,
        /** Packed into the slot's pinned block with the key references and uploaded with one copy. */
        PACKED,
        /** Copied straight from the caller's registered memory to the device block, a copy per field. */
        PER_FIELD
    }

    private final StreamSlot slot;
    private final Chunk c;
    private final String where;
    private final DeviceKeyCache.Region region;
    private final boolean secret;
    private final int keyBytes;
    private final KeyGroups groups;
    private final List<KeyDigest> keys;
    private final KeySlots.Claim[] claims;
    /** A one-key chunk: every task's key is record 0 of {@code c.arrays[0]} and key object {@code c.keys[0]}. */
    private final boolean oneKey;
    /** Keys whose slots this run pinned, for {@link KeySlots#release}. */
    private final List<KeyDigest> pinned = new ArrayList<>();
    private KeyedLayout layout;
    /** The entry point launched ({@link SigningWidth} picks a signing chunk's), counted in flight until {@link #cleanUp}. */
    private Kernel kernel;
    private KeyedTasks tasks;
    /** Launch position j runs task order[j] of the chunk; null: task order. */
    private int[] order;
    private Inputs inputs;
    /**
     * Whether the kernel writes the signatures into the caller's mapped records and the statuses,
     * each after its signature, into the slot's mapped pinned block, in task order.
     */
    private boolean published;
    private long started;
    private long packed;
    private long submitted;

    private KeyedRun(StreamSlot slot, Chunk c, String where, DeviceKeyCache.Region region, KeyGroups groups,
                     List<KeyDigest> keys, KeySlots.Claim[] claims) {
        this.slot = slot;
        this.c = c;
        this.where = where;
        this.region = region;
        this.secret = region.secret;
        this.keyBytes = secret ? c.params.privateKeyBytes() : c.params.publicKeyBytes();
        this.groups = groups;
        this.keys = keys;
        this.claims = claims;
        this.oneKey = oneKey(c);
        for (int g = 0; g < claims.length; g++) {
            if (claims[g].route() != KeySlots.Route.UNCACHED) {
                pinned.add(keys.get(g));
            }
        }
    }

    /**
     * Routes chunk {@code c}'s keys on {@code slot}'s device and, when some key reads or fills a
     * slot, expands the admitted keys and launches the chunk on cached keys; the calling thread
     * holds the slot and has the device's context current.
     *
     * @return the run, to be {@link #finish}ed; null when the chunk has no key objects, its device
     *         no cache for the set, or no key of it is cached or admitted: it then runs as a plain
     *         chunk, unchanged
     * @throws BackendException on a CUDA error; the run's pins are released and its secrets wiped
     */
    static KeyedRun start(StreamSlot slot, Chunk c, String where, long started) {
        if (c.keys == null || (c.op != Operation.SIGN && c.op != Operation.VERIFY)) {
            return null;
        }
        DeviceKeyCache cache = slot.device().keyCache();
        DeviceKeyCache.Region region = cache == null ? null : cache.region(c.params, c.op == Operation.SIGN);
        if (region == null) {
            if (oneKey(c) || c.messages) {
                throw new IllegalStateException("a one-key chunk on a device without a key cache for " + c.params);
            }
            return null;
        }
        KeyedRun run = route(slot, c, where, region);
        if (run == null) {
            return null;
        }
        run.started = started;
        try {
            run.expand();
            run.order = c.pinned == null && !run.oneKey ? run.groups.launchOrder() : null;
            run.tasks = run.groups.keyOf(run.slotOfGroup(), run.order);
            run.launch();
            return run;
        } catch (RuntimeException | Error e) {
            run.cleanUp(e);
            throw e;
        }
    }

    /**
     * Whether the chunk is of one-key records: one key object for a call of several tasks (for a
     * call of one task both readings agree: its key is record 0).
     */
    private static boolean oneKey(Chunk c) {
        int last = c.plan.chunks() - 1;
        return oneKey(c.keys, c.plan.first(last) + c.plan.count(last));
    }

    /** Whether a call of {@code tasks} tasks with these key objects (or null) is of one-key records. */
    static boolean oneKey(Object[] keys, int tasks) {
        return keys != null && keys.length == 1 && tasks > 1;
    }

    /**
     * Groups the chunk's tasks by key and claims each key's route; null when no key reads or
     * fills a slot (never for a one-key chunk, whose tasks have no key records of their own).
     */
    private static KeyedRun route(StreamSlot slot, Chunk c, String where, DeviceKeyCache.Region region) {
        boolean one = oneKey(c);
        KeyGroups byObject = one ? KeyGroups.one(c.count) : KeyGroups.of(c.keys, c.first, c.count);
        if (byObject.groups() == 0) {
            return null;
        }
        boolean occupied = region.slots.bytesHeld() > 0;
        int keyBytes = region.secret ? c.params.privateKeyBytes() : c.params.publicKeyBytes();
        List<KeyIdentity> ids = new ArrayList<>(byObject.groups());
        List<KeyDigest> digests = new ArrayList<>(byObject.groups());
        Map<KeyDigest, Boolean> seenBefore = new HashMap<>();
        for (int g = 0; g < byObject.groups(); g++) {
            Object ref = one ? c.keys[0] : c.keys[c.first + byObject.firstTask(g)];
            boolean seen = sighted(ref) > 0;
            KeyIdentity id = null;
            // Hash a key only when it may be cached: seen before, twice here, or a cache to look in;
            // never a key object of another set (a caller's mistake: its tasks run uncached).
            boolean sameSet = paramsOf(ref) == c.params;
            if (sameSet && (one || seen || occupied || byObject.tasks(g) >= 2 || knownIdentity(ref) != null)) {
                id = identity(ref, c, byObject.firstTask(g), keyBytes);
            }
            ids.add(id);
            KeyDigest digest = id == null ? null : KeyDigest.of(id);
            digests.add(digest);
            if (digest != null) {
                seenBefore.merge(digest, seen, Boolean::logicalOr);
            }
        }
        if (one && ids.get(0) == null) {
            // A one-key chunk whose key has no identity (its handle destroyed meanwhile): uncached, as one group.
            return new KeyedRun(slot, c, where, region, KeyGroups.one(c.count), java.util.Collections.singletonList(null),
                    new KeySlots.Claim[] {KeySlots.Claim.UNCACHED});
        }
        for (int i = 0; i < c.count && !one; i++) {
            int g = byObject.groupOf(i);
            if (g >= 0 && ids.get(g) != null && byObject.firstTask(g) != i
                    && !sameSource(c, i, byObject.firstTask(g)) && !matches(ids.get(g), c, i, keyBytes)) {
                byObject.detach(i);
            }
        }
        List<KeyDigest> keys = new ArrayList<>();
        KeyGroups groups = byObject.byKey(digests, keys);
        if (groups.groups() == 0) {
            return null;
        }
        KeySlots.Claim[] claims = new KeySlots.Claim[groups.groups()];
        boolean used = false;
        CudaStats stats = region.cache().stats();
        for (int g = 0; g < claims.length; g++) {
            claims[g] = region.slots.claim(keys.get(g), groups.tasks(g), seenBefore.getOrDefault(keys.get(g), false));
            stats.keyLookup(claims[g].route() == KeySlots.Route.HIT, claims[g].wipeFirst());
            used |= claims[g].route() != KeySlots.Route.UNCACHED;
        }
        return used || one ? new KeyedRun(slot, c, where, region, groups, keys, claims) : null;
    }

    private static int sighted(Object ref) {
        return ref instanceof PrivateKeyCache p ? p.sighted() : ((PublicKeyCache) ref).sighted();
    }

    private static ParameterSet paramsOf(Object ref) {
        return ref instanceof PrivateKeyCache p ? p.params() : ((PublicKeyCache) ref).params();
    }

    private static KeyIdentity knownIdentity(Object ref) {
        return ref instanceof PrivateKeyCache p ? p.knownIdentity() : ((PublicKeyCache) ref).knownIdentity();
    }

    /** The identity of task i's key object, bound to task i's key bytes; null when they are not its key's. */
    private static KeyIdentity identity(Object ref, Chunk c, int i, int keyBytes) {
        int off = oneKey(c) ? 0 : (c.first + i) * keyBytes;
        if (c.pinned != null && !oneKey(c)) {
            ByteBuffer view = c.views[0];
            return ref instanceof PrivateKeyCache p ? p.identity(view, off) : ((PublicKeyCache) ref).identity(view, off);
        }
        byte[] a = c.arrays[0];
        return ref instanceof PrivateKeyCache p ? p.identity(a, off) : ((PublicKeyCache) ref).identity(a, off);
    }

    /**
     * Whether tasks i and j of the chunk had their key records copied from one source, so that
     * task i holds task j's bytes: j's were matched against the identity, i's need not be.
     */
    private static boolean sameSource(Chunk c, int i, int j) {
        Object source = c.keySources == null ? null : c.keySources[c.first + i];
        return source != null && source == c.keySources[c.first + j];
    }

    private static boolean matches(KeyIdentity id, Chunk c, int i, int keyBytes) {
        int off = (c.first + i) * keyBytes;
        return c.pinned != null ? id.matches(c.views[0], off) : id.matches(c.arrays[0], off);
    }

    /** Copies task i's packed key into the pinned block at {@code at}. */
    private void copyKey(int i, long at) {
        int off = oneKey ? 0 : (c.first + i) * keyBytes;
        ByteBuffer h = slot.host().duplicate();
        if (c.pinned != null && !oneKey) {
            h.put(Math.toIntExact(at), c.views[0], off, keyBytes);
        } else {
            h.put(Math.toIntExact(at), c.arrays[0], off, keyBytes);
        }
    }

    private CUdeviceptr device(KeyedLayout.Part part) {
        return slot.deviceBlock().withByteOffset(part.offset());
    }

    /** Expands the admitted keys into their slots and waits; an invalid key's slot is wiped and freed. */
    private void expand() {
        List<Integer> admitted = new ArrayList<>();
        for (int g = 0; g < claims.length; g++) {
            if (claims[g].route() == KeySlots.Route.EXPAND) {
                admitted.add(g);
            }
        }
        if (admitted.isEmpty()) {
            return;
        }
        if (!region.allocate(where)) {
            List<KeyDigest> dropped = new ArrayList<>();
            for (int g : admitted) {
                claims[g] = KeySlots.Claim.UNCACHED;
                dropped.add(keys.get(g));
            }
            pinned.removeAll(dropped);
            for (int w : region.slots.release(dropped)) {
                region.cache().wipe(region, w, "no memory");
            }
            return;
        }
        int m = admitted.size();
        KeyedLayout el = KeyedLayout.expand(c.params, secret, m);
        KeyedLayout.Part keyPart = el.part("keys");
        KeyedLayout.Part slotOf = el.part("slotOf");
        KeyedLayout.Part status = el.status();
        ByteBuffer h = slot.host().duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (int j = 0; j < m; j++) {
            int g = admitted.get(j);
            copyKey(groups.firstTask(g), keyPart.offset() + (long) j * keyBytes);
            h.putInt(Math.toIntExact(slotOf.offset() + 4L * j), claims[g].slot());
        }
        String at = "expand, " + where;
        try {
            slot.submitCopies(on -> CudaCall.check("cuMemcpyHtoDAsync(" + el.inputBytes() + " bytes, " + at + ")",
                    () -> JCudaDriver.cuMemcpyHtoDAsync(slot.deviceBlock(), slot.hostBlock(), el.inputBytes(), on)),
                    false, null, at);
            for (int g : admitted) {
                if (claims[g].wipeFirst()) {
                    int s = claims[g].slot();
                    CudaCall.check("cuMemsetD8Async(wipe evicted key slot, " + at + ")",
                            () -> JCudaDriver.cuMemsetD8Async(region.slot(s), (byte) 0, region.slots.slotBytes(),
                                    slot.stream()));
                }
            }
            slot.markStatusUnwritten(status.offset(), m, at);
            slot.launch(region.kernels.expand(secret),
                    new CUdeviceptr[] {device(keyPart), device(slotOf), region.base(), device(status)}, m, at);
            CudaCall.check("cuMemcpyDtoHAsync(expand status, " + at + ")",
                    () -> JCudaDriver.cuMemcpyDtoHAsync(slot.hostBlock().withByteOffset(status.offset()),
                            slot.deviceBlock().withByteOffset(status.offset()), m, slot.stream()));
            if (secret) {
                slot.wipeDevice(List.of(new long[] {keyPart.offset(), keyPart.bytes()}), 0, at, null, false);
            }
            slot.awaitStream(false, at);
        } finally {
            if (secret) {
                StreamSlot.zero(slot.host(), keyPart.offset(), keyPart.bytes());
            }
        }
        for (int j = 0; j < m; j++) {
            int g = admitted.get(j);
            byte s = slot.host().get(Math.toIntExact(status.offset() + j));
            if (!BatchAbi.expandStatusAllowed(secret, s)) {
                throw new BackendException(region.kernels.expand(secret).name() + " on "
                        + slot.device().description() + " left key " + j + " with status " + (s & 0xFF));
            }
        }
        for (int j = 0; j < m; j++) {
            int g = admitted.get(j);
            boolean valid = slot.host().get(Math.toIntExact(status.offset() + j)) == BatchAbi.STATUS_OK;
            int wipe = region.slots.expanded(keys.get(g), valid);
            if (!valid || wipe >= 0) {
                claims[g] = KeySlots.Claim.UNCACHED;
                pinned.remove(keys.get(g));
            }
            if (wipe >= 0) {
                region.cache().wipe(region, wipe, "invalid or destroyed key");
            }
        }
    }

    /** Each group's slot after the routing and the expansions, or -1 where it runs uncached. */
    private int[] slotOfGroup() {
        int[] slotOfGroup = new int[claims.length];
        for (int g = 0; g < claims.length; g++) {
            slotOfGroup[g] = claims[g].route() == KeySlots.Route.UNCACHED ? -1 : claims[g].slot();
        }
        return slotOfGroup;
    }

    /**
     * Lays the chunk's key references and records out for the kernel, launches it on the cached
     * keys and queues what must come back. The records reach the kernel as {@link #inputs} says.
     * Where the caller's records are in registered host memory, a signing chunk's kernel writes
     * its signatures straight into them; its statuses, and every verification chunk's, go into the
     * slot's mapped pinned block, so that nothing is downloaded after the launch.
     */
    private void launch() {
        int n = c.count;
        CUdeviceptr signaturesAt = c.op == Operation.SIGN && c.pinned != null
                && c.plan.transfer() == ChunkPlan.Transfer.PUBLISHED ? mappedRecords(3) : null;
        CUdeviceptr musAt = signaturesAt == null ? null : mappedRecords(1);
        CUdeviceptr rndsAt = signaturesAt == null ? null : mappedRecords(2);
        boolean inPlace = musAt != null && rndsAt != null && tasks.uncachedRecords() == 0;
        layout = KeyedLayout.launch(c.params, c.op, n, tasks.uncachedRecords(), c.messages, signaturesAt != null,
                inPlace);
        if (layout.totalBytes() > slot.blockBytes()) {
            throw new IllegalStateException("a keyed chunk of " + n + " tasks does not fit its slot");
        }
        KeyedLayout.Part keyPart = layout.part(secret ? "privateKeys" : "publicKeys");
        KeyedLayout.Part keyOf = layout.part("keyOf");
        for (int j = 0; j < tasks.uncachedRecords(); j++) {
            copyKey(tasks.records()[j], keyPart.offset() + (long) j * keyBytes);
        }
        ByteBuffer h = slot.host().duplicate().order(ByteOrder.LITTLE_ENDIAN);
        h.position(Math.toIntExact(keyOf.offset()));
        tasks.writeKeyOf(h.asIntBuffer());
        List<Integer> fields = taskInputFields();
        if (inPlace) {
            inputs = Inputs.IN_PLACE;
        } else if (c.pinned == null || (c.op == Operation.VERIFY && n <= PACKED_TASKS)) {
            inputs = Inputs.PACKED;
            musAt = device(partOf(1));
            rndsAt = secret ? device(layout.part("rnds")) : null;
            for (int f : fields) {
                pack(f, h);
            }
        } else {
            inputs = Inputs.PER_FIELD;
            musAt = device(partOf(1));
            rndsAt = secret ? device(layout.part("rnds")) : null;
        }
        KeyedLayout.Part status = layout.status();
        published = signaturesAt != null && order == null;
        boolean statusMapped = signaturesAt != null || c.op == Operation.VERIFY;
        if (statusMapped) {
            StreamSlot.markUnwritten(slot.host(), status.offset(), n);
        }
        packed = System.nanoTime();
        if (inputs != Inputs.IN_PLACE) {
            long staged = inputs == Inputs.PACKED ? layout.inputBytes() : keyOf.end();
            slot.submitCopies(on -> {
                CudaCall.check("cuMemcpyHtoDAsync(" + staged + " bytes, " + where + ")",
                        () -> JCudaDriver.cuMemcpyHtoDAsync(slot.deviceBlock(), slot.hostBlock(), staged, on));
                if (inputs == Inputs.PER_FIELD) {
                    for (int f : fields) {
                        KeyedLayout.Part part = partOf(f);
                        Pointer from = c.pinned[f].withByteOffset((long) c.first * part.recordBytes());
                        CudaCall.check("cuMemcpyHtoDAsync(" + part.name() + ", " + part.bytes() + " bytes, " + where + ")",
                                () -> JCudaDriver.cuMemcpyHtoDAsync(device(part), from, part.bytes(), on));
                    }
                }
            }, c.plan.ordered(), c.plan.ordered() || secret ? slot.uploadEvent(c.plan.sleep()) : null, where);
        }
        if (!statusMapped) {
            slot.markStatusUnwritten(status.offset(), n, where);
        }
        CUdeviceptr none = new CUdeviceptr();
        CUdeviceptr keysAt = tasks.uncachedRecords() > 0 ? device(keyPart) : none;
        CUdeviceptr keyOfAt = inputs == Inputs.IN_PLACE ? slot.hostBlockMapped().withByteOffset(keyOf.offset())
                : device(keyOf);
        CUdeviceptr slotsAt = tasks.cached() > 0 ? region.base() : none;
        CUdeviceptr statusAt = statusMapped ? slot.hostBlockMapped().withByteOffset(status.offset()) : device(status);
        // μ or message records: the kernel hashes the latter (batch_abi.h), the other pointer null.
        CUdeviceptr msgsAt = c.messages ? musAt : none;
        musAt = c.messages ? none : musAt;
        CUdeviceptr[] args = c.op == Operation.SIGN
                ? new CUdeviceptr[] {keysAt, keyOfAt, slotsAt, musAt, msgsAt, rndsAt,
                        signaturesAt != null ? signaturesAt : device(layout.part("signatures")), statusAt}
                : new CUdeviceptr[] {keysAt, keyOfAt, slotsAt, musAt, msgsAt, device(layout.part("signatures")),
                        statusAt};
        kernel = secret ? region.cache().width.acquire(region.kernels, n, c.plan.chunks() == 1,
                inPlace && oneKey && c.plan.aloneOnDevice(c.first))
                : region.kernels.keyed(false);
        slot.launch(kernel, args, n, where);
        if (c.op == Operation.SIGN && signaturesAt == null) {
            if (c.pinned == null) {
                long from = layout.outputOffset();
                CudaCall.check("cuMemcpyDtoHAsync(" + (layout.totalBytes() - from) + " bytes, " + where + ")",
                        () -> JCudaDriver.cuMemcpyDtoHAsync(slot.hostBlock().withByteOffset(from),
                                slot.deviceBlock().withByteOffset(from), layout.totalBytes() - from, slot.stream()));
            } else {
                KeyedLayout.Part sigs = layout.part("signatures");
                Pointer to = c.pinned[3].withByteOffset((long) c.first * sigs.recordBytes());
                CudaCall.check("cuMemcpyDtoHAsync(signatures, " + sigs.bytes() + " bytes, " + where + ")",
                        () -> JCudaDriver.cuMemcpyDtoHAsync(to, device(sigs), sigs.bytes(), slot.stream()));
                CudaCall.check("cuMemcpyDtoHAsync(status, " + where + ")",
                        () -> JCudaDriver.cuMemcpyDtoHAsync(slot.hostBlock().withByteOffset(status.offset()),
                                device(status), n, slot.stream()));
            }
        }
        submitted = System.nanoTime();
    }

    /** Copies field f's records of the chunk into its part of the pinned block, in launch order. */
    private void pack(int f, ByteBuffer h) {
        KeyedLayout.Part part = partOf(f);
        int size = part.recordBytes();
        int n = c.count;
        for (int j = 0, run; j < n; j += run) {
            // Consecutive launch positions of consecutive tasks go in one copy.
            run = 1;
            while (j + run < n && task(j + run) == task(j) + run) {
                run++;
            }
            int at = Math.toIntExact(part.offset() + (long) j * size);
            int from = (c.first + task(j)) * size;
            if (c.pinned == null) {
                h.put(at, c.arrays[f], from, run * size);
            } else {
                h.put(at, c.views[f], from, run * size);
            }
        }
    }

    /**
     * The device address of this chunk's records of field f in the caller's registered memory,
     * for the kernel to read or write them there; null when the driver maps none.
     */
    private CUdeviceptr mappedRecords(int f) {
        CUdeviceptr base = slot.device().mappedHost(c.pinned[f]);
        int size = switch (f) {
            case 1 -> c.messages ? BatchAbi.MESSAGE_BYTES : BatchAbi.MU_BYTES;
            case 2 -> c.op == Operation.SIGN ? c.params.rndBytes() : c.params.signatureBytes();
            case 3 -> c.params.signatureBytes();
            default -> throw new IllegalArgumentException("field " + f);
        };
        return base == null ? null : base.withByteOffset((long) c.first * size);
    }

    /**
     * The fields of the records ({@link io.dilithiumgpu.backend.BatchRecords} order) that are
     * per-task inputs: μ and rnd for signing, μ and the signature for verification.
     */
    private static List<Integer> taskInputFields() {
        return List.of(1, 2);
    }

    /** The layout's array of records field f. */
    private KeyedLayout.Part partOf(int f) {
        String mus = c.messages ? "messages" : "mus";
        return switch (c.op) {
            case SIGN -> layout.part(f == 1 ? mus : f == 2 ? "rnds" : "signatures");
            case VERIFY -> layout.part(f == 1 ? mus : "signatures");
            case KEYGEN -> throw new IllegalStateException();
        };
    }

    /**
     * Waits for the launch (telling the chunk's listener of each task as it ends, when the chunk
     * is published), checks every status, delivers the outputs and statuses into the caller's
     * records, runs {@code outputsReady}, then wipes the run's secrets and releases its slots
     * whatever happened; adds the chunk's times to {@code stats} when it succeeded.
     *
     * @throws BackendException on a CUDA error or a status the operation does not allow
     */
    void finish(CudaStats stats, Runnable outputsReady) {
        boolean sleep = c.plan.sleep();
        Throwable failure = null;
        long computed = packed;
        long unpacked = packed;
        long wipeStart = 0;
        try {
            slot.device().bind(where);
            if (secret && inputs != Inputs.IN_PLACE) {
                CUevent uploaded = slot.uploadEvent(sleep);
                CudaCall.check("cuEventSynchronize(upload, " + where + ")",
                        () -> JCudaDriver.cuEventSynchronize(uploaded));
                zeroHostSecrets();
            }
            if (published && c.early != null) {
                stats.toldEarly(EarlyReporter.report(slot, c, layout.status().offset(), where));
            }
            slot.awaitStream(sleep, where);
            computed = System.nanoTime();
            deliver();
            unpacked = System.nanoTime();
            outputsReady.run();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            wipeStart = System.nanoTime();
            boolean wide = kernel == region.kernels.signWide();
            boolean helped = kernel == region.kernels.signHelped();
            cleanUp(failure);
            if (failure == null) {
                stats.chunkRan(c.count, started - c.queuedNanos, packed - started, computed - packed,
                        submitted - packed, unpacked - computed, System.nanoTime() - wipeStart, sleep);
                if (c.messages) {
                    stats.messagesRan(c.count);
                }
                if (wide) {
                    stats.wideRan(c.count);
                }
                if (helped) {
                    stats.helpedRan(c.count);
                }
            }
        }
    }

    /** Checks the statuses and copies the outputs into the caller's records; failed tasks' records zeroed. */
    private void deliver() {
        int n = c.count;
        KeyedLayout.Part status = layout.status();
        int statusField = c.arrays.length - 1;
        byte[] out = c.arrays[statusField];
        ByteBuffer h = slot.host().duplicate();
        // The statuses in launch order, in one copy; checked before any reaches the caller's array.
        byte[] launched = new byte[n];
        h.get(Math.toIntExact(status.offset()), launched);
        for (int j = 0; j < n; j++) {
            byte s = launched[j];
            if (!BatchAbi.statusAllowed(c.op, s)) {
                throw new BackendException(region.kernels.keyed(secret).name() + " on " + slot.device().description()
                        + " left task " + (c.first + task(j)) + " with status " + (s & 0xFF)
                        + (s == StreamSlot.UNWRITTEN ? " (never written)" : " (not a status of " + c.op + ")"));
            }
        }
        if (order == null) {
            System.arraycopy(launched, 0, out, c.first, n);
        } else {
            for (int j = 0; j < n; j++) {
                out[c.first + order[j]] = launched[j];
            }
        }
        if (c.op != Operation.SIGN) {
            return;
        }
        KeyedLayout.Part sigs = layout.part("signatures");
        int size = sigs.recordBytes();
        if (c.pinned == null) {
            for (int j = 0; j < n; j++) {
                h.get(Math.toIntExact(sigs.offset() + (long) j * size), c.arrays[3], (c.first + task(j)) * size, size);
            }
        }
        for (int i = c.first; i < c.first + n; i++) {
            if (out[i] != BatchAbi.STATUS_OK) {
                if (c.pinned == null) {
                    java.util.Arrays.fill(c.arrays[3], i * size, (i + 1) * size, (byte) 0);
                } else {
                    StreamSlot.zeroRecord(c.views[3], i * size, size);
                }
            }
        }
    }

    /** The chunk's task at launch position j. */
    private int task(int j) {
        return order == null ? j : order[j];
    }

    /** Zeroes the secret inputs from the pinned block: the uncached private keys and, for heap records, the rnds. */
    private void zeroHostSecrets() {
        if (layout == null || !secret) {
            return;
        }
        KeyedLayout.Part keyPart = layout.part("privateKeys");
        StreamSlot.zero(slot.host(), keyPart.offset(), keyPart.bytes());
        if (c.pinned == null) {
            KeyedLayout.Part rnds = layout.part("rnds");
            StreamSlot.zero(slot.host(), rnds.offset(), rnds.bytes());
        }
    }

    /**
     * Wipes the run's secrets from the pinned and device blocks (after a failure also the
     * workspace, and waits) and releases its slots; an error here is added to {@code failure}, or
     * thrown when there is none.
     */
    private void cleanUp(Throwable failure) {
        try {
            if (layout != null && secret) {
                if (failure != null) {
                    zeroHostSecrets();
                }
                KeyedLayout.Part keyPart = layout.part("privateKeys");
                KeyedLayout.Part rnds = layout.part("rnds");
                long workspace = (kernel != null ? kernel : region.kernels.keyed(secret)).config()
                        .workspaceBytes(c.count, slot.device().multiprocessors());
                List<long[]> ranges = new ArrayList<>();
                if (keyPart.bytes() > 0) {
                    ranges.add(new long[] {keyPart.offset(), keyPart.bytes()});
                }
                if (inputs != Inputs.IN_PLACE) {
                    ranges.add(new long[] {rnds.offset(), rnds.bytes()});
                }
                // Read in place, a chunk's secrets never entered the device block: only a failed
                // launch's workspace is left to wipe.
                if (!ranges.isEmpty() || failure != null) {
                    slot.wipeDevice(ranges, workspace, where, failure, c.plan.sleep());
                }
            } else if (failure != null && secret) {
                // Failed before its launch was laid out: the expansion's packed keys may be anywhere in the blocks.
                StreamSlot.zero(slot.host(), 0, slot.blockBytes());
                slot.wipeDevice(List.<long[]>of(new long[] {0, slot.blockBytes()}), slot.workspaceBytes(), where,
                        failure, c.plan.sleep());
            }
        } finally {
            if (kernel != null && secret) {
                region.cache().width.release(kernel, c.count);
                kernel = null;
            }
            for (int w : region.slots.release(pinned)) {
                region.cache().wipe(region, w, "released");
            }
            pinned.clear();
        }
    }
}
