package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AnatomyTest {

    @Test
    void eachGpusShareOfTheTasksRunSinceTheEarlierSnapshot() {
        assertEquals("; tasks per GPU: 60 %, 40 %", Anatomy.gpuShares(new long[] {70, 50}, new long[] {10, 10}));
        assertEquals("; tasks per GPU: 0 %, 100 %", Anatomy.gpuShares(new long[] {0, 8}, new long[0]),
                "devices that opened after the earlier snapshot count from zero");
        assertEquals("", Anatomy.gpuShares(new long[] {100}, new long[] {1}), "one GPU: nothing to split");
        assertEquals("", Anatomy.gpuShares(new long[] {3, 4}, new long[] {3, 4}), "no tasks since");
    }

    @Test
    void theShareOfTasksToldEarlyIsShownOnlyWhenSomeWere() {
        assertEquals(", 97 % of tasks told early", Anatomy.toldEarly(97, 100));
        assertEquals("", Anatomy.toldEarly(0, 100), "verification: nobody told early");
        assertEquals("", Anatomy.toldEarly(0, 0), "no chunks");
    }
}
