package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The chunk line of `jca`, `batcher` and `throughput`: means per chunk, and the shares of hashed and grouped tasks. */
class ChunkTimesTest {
    @Test
    void theLineGivesMeansPerChunkAndTheSharesOfHashedGroupedAndHelpedTasks() {
        ChunkTimes before = new ChunkTimes(10, 100, 1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7, 8, 9, 10);
        ChunkTimes after = before.plus(new ChunkTimes(4, 400, 40_000, 80_000, 4_000_000, 400_000, 4_000, 8_000, 0, 100,
                300, 0));
        ChunkTimes grown = after.minus(before);
        assertEquals(new ChunkTimes(4, 400, 40_000, 80_000, 4_000_000, 400_000, 4_000, 8_000, 0, 100, 300, 0), grown);
        assertEquals("4 chunks of 100, per chunk: slot wait 10, pack 20, gpu 1000 (launch 100), unpack 1, wipe 2 µs;"
                + " μ hashed on the GPU for 25 % of tasks; 75 % of tasks signed by groups of warps", grown.toString());
        assertEquals("4 chunks of 100, per chunk: slot wait 10, pack 20, gpu 1000 (launch 100), unpack 1, wipe 2 µs",
                new ChunkTimes(4, 400, 40_000, 80_000, 4_000_000, 400_000, 4_000, 8_000, 0, 0, 0, 0).toString());
        assertEquals("1 chunks of 10000, per chunk: slot wait 10, pack 20, gpu 1000 (launch 100), unpack 1, wipe 2 µs;"
                + " 100 % of tasks in launches helped at their end",
                new ChunkTimes(1, 10_000, 10_000, 20_000, 1_000_000, 100_000, 1_000, 2_000, 0, 0, 0, 10_000).toString());
        assertEquals("no chunks", new ChunkTimes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0).toString());
        assertEquals(null, after.minus(null));
    }
}
