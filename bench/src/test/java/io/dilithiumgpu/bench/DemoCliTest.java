package io.dilithiumgpu.bench;

import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoCliTest {
    private static final DemoCli.Outcome GOOD = new DemoCli.Outcome(ParameterSet.ML_DSA_44, 1312, 1334, 54, 2420,
            true, true, true, true);
    private static final DemoCli.Outcome ROUND3 = new DemoCli.Outcome(ParameterSet.DILITHIUM2, 1312, 1336, 2554, 2420,
            true, true, true, null);

    @Test
    void anyWrongAnswerMakesTheOutcomeWrong() {
        assertTrue(GOOD.correct());
        assertTrue(ROUND3.correct(), "round 3.1 has no context to check");
        assertFalse(new DemoCli.Outcome(ParameterSet.ML_DSA_44, 1312, 1334, 54, 2420, false, true, true, true).correct());
        assertFalse(new DemoCli.Outcome(ParameterSet.ML_DSA_44, 1312, 1334, 54, 2420, true, false, true, true).correct());
        assertFalse(new DemoCli.Outcome(ParameterSet.ML_DSA_44, 1312, 1334, 54, 2420, true, true, false, true).correct());
        assertFalse(new DemoCli.Outcome(ParameterSet.ML_DSA_44, 1312, 1334, 54, 2420, true, true, true, false).correct());
    }

    @Test
    void tablesSpellOutResults() {
        String done = DemoCli.doneTable(List.of(GOOD, ROUND3,
                new DemoCli.Outcome(ParameterSet.ML_DSA_87, 2592, 2614, 54, 4627, true, false, false, false))).render();
        String[] lines = done.split("\n");
        assertTrue(lines[2].matches("ML-DSA-44\\s+1,312 B\\s+1,334 B\\s+54 B\\s+2,420 B\\s+round-trips\\s+valid\\s+"
                + "rejected\\s+rejected"), lines[2]);
        assertTrue(lines[3].endsWith("rejected         —"), lines[3]);
        assertTrue(lines[4].matches(".*INVALID\\s+ACCEPTED\\s+ACCEPTED"), lines[4]);

        String speed = DemoCli.speedTable(List.of(new DemoCli.Speed(ParameterSet.ML_DSA_44, 1234.4, 98765.6))).render();
        assertTrue(speed.endsWith("ML-DSA-44       1,234        98,766\n"), speed);
    }

    @Test
    void csvLeavesSpeedEmptyWhereItWasNotMeasured() {
        String csv = DemoCli.csv(List.of(GOOD, ROUND3), List.of(new DemoCli.Speed(ParameterSet.ML_DSA_44, 10.5, 20))).content();
        assertEquals("set,public_key_bytes,x509_bytes,pkcs8_bytes,signature_bytes,keys_round_trip,verified,"
                + "changed_message_rejected,other_context_rejected,sign_ops_per_s,verify_ops_per_s\n"
                + "ML-DSA-44,1312,1334,54,2420,true,true,true,true,10.5000,20\n"
                + "Dilithium2,1312,1336,2554,2420,true,true,true,,,\n", csv);
    }
}
