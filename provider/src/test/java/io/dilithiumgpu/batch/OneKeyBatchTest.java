package io.dilithiumgpu.batch;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a batch's requests name one key: one source (the same object or an equal one) and one cache. */
class OneKeyBatchTest {
    private record Source(Object key) {}

    @Test
    void oneSourceIsTheSameObjectOrAnEqualOne() {
        Object key = new Object();
        Object cache = new Object();
        Object[] caches = {cache, cache, cache};
        Source one = new Source(key);
        assertTrue(Batch.ofOneKey(new Object[] {one, one, one}, caches, 3));
        assertTrue(Batch.ofOneKey(new Object[] {one, new Source(key), new Source(key)}, caches, 3),
                "a handle's sources, made per call");
        assertFalse(Batch.ofOneKey(new Object[] {one, new Source(new Object()), one}, caches, 3));
        assertFalse(Batch.ofOneKey(new Object[] {one, one, one}, new Object[] {cache, new Object(), cache}, 3));
        assertFalse(Batch.ofOneKey(new Object[] {one, one}, new Object[] {null, null}, 2), "no cache");
        assertFalse(Batch.ofOneKey(new Object[] {one}, caches, 1), "a lone request");
        // Arrays compare as themselves: two copies of one key's bytes are two sources.
        assertFalse(Batch.ofOneKey(new Object[] {new byte[] {1}, new byte[] {1}}, new Object[] {cache, cache}, 2));
        assertFalse(Batch.ofOneKey(new Object[] {one, one, null}, caches, 3));
    }
}
