package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GcTimeTest {
    @Test
    void onlyCollectorsThatRanAreNamedWithTheirCountAndTime() {
        GcTime before = new GcTime(Map.of("young", new long[] {10, 100}, "old", new long[] {1, 50}));
        GcTime after = new GcTime(Map.of("young", new long[] {13, 1_185}, "old", new long[] {1, 50}));
        assertEquals("gc: young 3 in 1,085 ms", after.since(before));
        assertEquals("gc: none", before.since(before));
    }

    @Test
    void anExplicitCollectionIsCounted() {
        GcTime now = GcTime.now();
        System.gc();
        String since = GcTime.now().since(now);
        assertNotEquals("gc: none", since);
        assertTrue(since.matches("gc: .+ [0-9,]+ in [0-9,]+ ms.*"), since);
    }
}
