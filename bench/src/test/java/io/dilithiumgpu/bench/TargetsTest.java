package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TargetsTest {

    @Test
    void targetsByOperationAndLevel() {
        assertEquals(7_500_000, Targets.target(Operation.KEYGEN, 2));
        assertEquals(1_150_000, Targets.target(Operation.SIGN, 3));
        assertEquals(2_500_000, Targets.target(Operation.VERIFY, 5));
    }

    @Test
    void paperFiguresByOperationAndLevel() {
        assertEquals(3_250_000, Targets.paper(Operation.KEYGEN, 2));
        assertEquals(1_130_000, Targets.paper(Operation.SIGN, 2));
        assertEquals(3_660_000, Targets.paper(Operation.VERIFY, 2));
        assertEquals(753_000, Targets.paper(Operation.SIGN, 3));
        assertEquals(1_090_000, Targets.paper(Operation.KEYGEN, 5));
        assertEquals(1_220_000, Targets.paper(Operation.VERIFY, 5));
    }

    @Test
    void targetsBeatThePaperEverywhere() {
        for (Operation op : Operation.values()) {
            for (int level : new int[] {2, 3, 5}) {
                assertEquals(true, Targets.target(op, level) > Targets.paper(op, level), op + " level " + level);
            }
        }
    }

    @Test
    void onlyLevels235() {
        assertThrows(IllegalArgumentException.class, () -> Targets.target(Operation.SIGN, 4));
    }
}
