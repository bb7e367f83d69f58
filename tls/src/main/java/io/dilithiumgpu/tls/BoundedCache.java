package io.dilithiumgpu.tls;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A map shared by all handshakes of a process, for values that are pure functions of their keys
 * (a certificate parsed from its bytes): lookups never block each other, and once it holds
 * {@code capacity} entries it starts over empty, so a peer sending ever new certificates costs
 * memory up to the bound and no more.
 */
final class BoundedCache<K, V> {
    private final int capacity;
    private final Map<K, V> map = new ConcurrentHashMap<>();

    BoundedCache(int capacity) {
        this.capacity = capacity;
    }

    /** The value for {@code key}, computed (outside any lock) when absent; a computation that throws caches nothing. */
    <X extends Exception> V get(K key, Computation<K, V, X> compute) throws X {
        V v = map.get(key);
        if (v == null) {
            v = compute.apply(key);
            if (map.size() >= capacity) {
                map.clear();
            }
            map.put(key, v);
        }
        return v;
    }

    int size() {
        return map.size();
    }

    /** A {@link Function} that may throw {@code X}. */
    @FunctionalInterface
    interface Computation<K, V, X extends Exception> {
        V apply(K key) throws X;
    }
}
