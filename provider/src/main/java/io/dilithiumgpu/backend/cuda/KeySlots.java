package io.dilithiumgpu.backend.cuda;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which key is in which slot of one device region (one parameter set, one form: secret or
 * public), and which key goes next: the policy of a {@link DeviceKeyCache}, pure and without
 * CUDA, so that it is tested on any machine. Keys are compared with {@code equals} (the device
 * cache uses {@link io.dilithiumgpu.core.KeyIdentity}).
 *
 * <p>Rules:
 * <ul>
 *   <li>Bounded in bytes: {@code boundBytes / slotBytes} slots, least recently used first out.</li>
 *   <li>Admission: a key takes a slot from its second sighting (a launch before saw it, or the
 *       caller says its key object was seen before), or when one launch holds it at least twice.
 *       A key seen once is only remembered (in a bounded list), so a workload of distinct keys
 *       never expands into the cache.</li>
 *   <li>A slot being filled ({@link State#PENDING}) is used only by the launch that fills it;
 *       others run that key uncached until {@link #expanded} makes it {@link State#READY}.</li>
 *   <li>Pins: every launch that uses a slot pins it until {@link #release}; a pinned slot is never
 *       evicted nor wiped, so that no launch in flight reads a slot that changes under it.</li>
 *   <li>Wipes: a slot whose key leaves (evicted, its key destroyed, its expansion invalid, the
 *       region closed) is wiped before anyone uses it again. An evicted slot goes straight to the
 *       admitted key, which the caller wipes and then fills in stream order
 *       ({@link Claim#wipeFirst()}); every other leaving slot is handed to the caller as a wipe
 *       request and is free only once the caller reports it {@link #wiped}.</li>
 *   <li>A key whose expansion failed (an invalid private key) is never admitted again.</li>
 * </ul>
 *
 * <p>Counts per lookup (one key of one launch): a hit when its slot was ready, else a miss;
 * evictions; bytes held (slots taken, pending ones included). Thread-safe.
 *
 * @param <K> the key identity
 */
final class KeySlots<K> {

    /** A slot's state. */
    enum State { PENDING, READY }

    /** What a launch does with one key. */
    enum Route {
        /** The key's slot is ready: the launch reads it (pinned until {@link #release}). */
        HIT,
        /** The key was given slot {@link Claim#slot()}: the launch expands it there first (pinned). */
        EXPAND,
        /** The launch decodes the key from its packed record, as without the cache. */
        UNCACHED
    }

    /**
     * One key's route for one launch.
     *
     * @param slot      the slot for {@link Route#HIT} and {@link Route#EXPAND}, else -1
     * @param wipeFirst for {@link Route#EXPAND}: the slot held an evicted key, to be wiped before
     *                  the expansion (in the same stream)
     */
    record Claim(Route route, int slot, boolean wipeFirst) {
        static final Claim UNCACHED = new Claim(Route.UNCACHED, -1, false);
    }

    private static final class Entry<K> {
        final K key;
        final int slot;
        State state = State.PENDING;
        int pins = 1;
        /** The key was forgotten (destroyed) while pinned: wiped at the last release. */
        boolean doomed;

        Entry(K key, int slot) {
            this.key = key;
            this.slot = slot;
        }
    }

    private final int slotBytes;
    private final int capacity;
    private final int rememberedLimit;
    /** Entries in access order: the first is the least recently used. */
    private final LinkedHashMap<K, Entry<K>> entries = new LinkedHashMap<>(16, 0.75f, true);
    /** Keys seen once and not admitted, oldest first. */
    private final LinkedHashMap<K, Boolean> seen = new LinkedHashMap<>(16, 0.75f, true);
    /** Keys whose expansion reported an invalid key, oldest first. */
    private final LinkedHashMap<K, Boolean> rejected = new LinkedHashMap<>(16, 0.75f, true);
    private final Deque<Integer> free = new ArrayDeque<>();
    /** Slots handed out as wipe requests, not yet {@link #wiped}. */
    private final Map<Integer, Boolean> wiping = new HashMap<>();
    private int nextUnused;
    private long hits;
    private long misses;
    private long evictions;
    private boolean closed;

    /**
     * @param slotBytes  bytes of one slot, at least 1
     * @param boundBytes the most bytes the region's slots take; {@code boundBytes / slotBytes}
     *                   slots (0: the region caches nothing)
     */
    KeySlots(int slotBytes, long boundBytes) {
        if (slotBytes < 1 || boundBytes < 0) {
            throw new IllegalArgumentException("slot bytes " + slotBytes + ", bound " + boundBytes);
        }
        this.slotBytes = slotBytes;
        this.capacity = (int) Math.min(Integer.MAX_VALUE / 2, boundBytes / slotBytes);
        this.rememberedLimit = Math.max(1024, 4 * capacity);
    }

    /** Slots in the region: its device memory is {@code capacity() × slotBytes()} bytes. */
    int capacity() {
        return capacity;
    }

    int slotBytes() {
        return slotBytes;
    }

    /**
     * The route of {@code key} for one launch that holds it {@code tasks} times.
     *
     * @param seenBefore whether the caller knows the key was sighted before (its key object was)
     */
    synchronized Claim claim(K key, int tasks, boolean seenBefore) {
        if (closed) {
            misses++;
            return Claim.UNCACHED;
        }
        Entry<K> e = entries.get(key);
        if (e != null) {
            if (e.state == State.READY && !e.doomed) {
                e.pins++;
                hits++;
                return new Claim(Route.HIT, e.slot, false);
            }
            misses++;
            return Claim.UNCACHED;
        }
        misses++;
        if (rejected.containsKey(key) || capacity == 0) {
            return Claim.UNCACHED;
        }
        boolean admit = tasks >= 2 || seenBefore || seen.remove(key) != null;
        if (!admit) {
            remember(seen, key);
            return Claim.UNCACHED;
        }
        int slot;
        boolean wipeFirst = false;
        if (!free.isEmpty()) {
            slot = free.pop();
        } else if (nextUnused < capacity) {
            slot = nextUnused++;
        } else {
            Entry<K> victim = leastRecentlyUsedUnpinned();
            if (victim == null) {
                remember(seen, key);
                return Claim.UNCACHED;
            }
            entries.remove(victim.key);
            evictions++;
            slot = victim.slot;
            wipeFirst = true;
        }
        entries.put(key, new Entry<>(key, slot));
        return new Claim(Route.EXPAND, slot, wipeFirst);
    }

    private Entry<K> leastRecentlyUsedUnpinned() {
        for (Entry<K> e : entries.values()) {
            if (e.pins == 0 && e.state == State.READY) {
                return e;
            }
        }
        return null;
    }

    private void remember(LinkedHashMap<K, Boolean> list, K key) {
        list.put(key, Boolean.TRUE);
        if (list.size() > rememberedLimit) {
            Iterator<K> oldest = list.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
    }

    /**
     * The expansion of {@code key}, admitted by a {@link Route#EXPAND} claim, has run: {@code valid}
     * makes its slot ready for every launch (still pinned by the one that filled it); otherwise the
     * key is rejected for good and its slot returned as a wipe request.
     *
     * @return the slot to wipe (then {@link #wiped}), or -1
     */
    synchronized int expanded(K key, boolean valid) {
        Entry<K> e = entries.get(key);
        if (e == null || e.state != State.PENDING) {
            throw new IllegalStateException("no expansion of this key pending");
        }
        if (valid && !e.doomed) {
            e.state = State.READY;
            return -1;
        }
        if (!valid) {
            remember(rejected, key);
        }
        e.pins--;
        entries.remove(key);
        return requestWipe(e.slot);
    }

    /**
     * Unpins the slots a launch used (its {@link Route#HIT} and {@link Route#EXPAND} keys, after
     * {@link #expanded}); an entry forgotten meanwhile leaves, and its slot is a wipe request.
     * An expansion never reported (the launch failed) counts as invalid for this launch only: its
     * slot is wiped and the key may be admitted again.
     *
     * @return slots to wipe (then {@link #wiped}); empty when none
     */
    synchronized List<Integer> release(List<K> keys) {
        List<Integer> wipe = new ArrayList<>();
        for (K key : keys) {
            Entry<K> e = entries.get(key);
            if (e == null) {
                continue;
            }
            if (e.state == State.PENDING) {
                entries.remove(key);
                wipe.add(requestWipe(e.slot));
                continue;
            }
            e.pins--;
            if (e.pins == 0 && (e.doomed || closed)) {
                entries.remove(key);
                wipe.add(requestWipe(e.slot));
            }
        }
        return wipe;
    }

    /**
     * The key was destroyed: its slot leaves now when no launch pins it (returned as a wipe
     * request), else at the last {@link #release}. The key is also forgotten as seen.
     *
     * @return the slot to wipe (then {@link #wiped}), or -1
     */
    synchronized int forget(K key) {
        seen.remove(key);
        Entry<K> e = entries.get(key);
        if (e == null) {
            return -1;
        }
        if (e.pins > 0) {
            e.doomed = true;
            return -1;
        }
        entries.remove(key);
        return requestWipe(e.slot);
    }

    private int requestWipe(int slot) {
        wiping.put(slot, Boolean.TRUE);
        return slot;
    }

    /** The caller has wiped {@code slot} (a wipe request): it is free again. */
    synchronized void wiped(int slot) {
        if (wiping.remove(slot) == null) {
            throw new IllegalStateException("slot " + slot + " was not to be wiped");
        }
        if (!closed) {
            free.push(slot);
        }
    }

    /**
     * Closes the region: no more admissions or hits; every unpinned entry leaves. The caller wipes
     * the whole region once no launch pins a slot ({@link #pinned()} is 0).
     */
    synchronized void close() {
        closed = true;
        entries.values().removeIf(e -> e.pins == 0);
        free.clear();
        seen.clear();
    }

    /** Slots pinned by launches in flight. */
    synchronized int pinned() {
        int n = 0;
        for (Entry<K> e : entries.values()) {
            n += e.pins > 0 ? 1 : 0;
        }
        return n;
    }

    /** The state of {@code key}'s slot, or null when it has none. */
    synchronized State state(K key) {
        Entry<K> e = entries.get(key);
        return e == null ? null : e.state;
    }

    /** The slot of {@code key}, or -1, without touching its recency. */
    synchronized int slotOf(K key) {
        for (Entry<K> e : entries.values()) {
            if (e.key.equals(key)) {
                return e.slot;
            }
        }
        return -1;
    }

    synchronized long hits() {
        return hits;
    }

    synchronized long misses() {
        return misses;
    }

    synchronized long evictions() {
        return evictions;
    }

    /** Bytes of the slots that hold a key or are being filled. */
    synchronized long bytesHeld() {
        return (long) entries.size() * slotBytes;
    }

    /** Keys with a slot, least recently used first, for tests. */
    synchronized List<K> keysByRecency() {
        return new ArrayList<>(entries.keySet());
    }
}
