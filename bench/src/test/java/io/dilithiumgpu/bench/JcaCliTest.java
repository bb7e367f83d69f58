package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JcaCliTest {
    private static final JcaCli.Result RESULT = new JcaCli.Result(ParameterSet.ML_DSA_44, Operation.VERIFY,
            List.of(1, 16, 4096), new double[] {900, 12_000, 10_500}, 6_000, 12_000, 1_500_000, 9_250_000, 20_000_000);

    @Test
    void signAndVerifyByDefaultAndNeverKeygen() throws UsageException {
        assertEquals(List.of(Operation.SIGN, Operation.VERIFY), Cli.parse(new JcaCli()).operations());
        assertEquals(List.of(Operation.VERIFY), Cli.parse(new JcaCli(), "--ops", "verify").operations());
        assertEquals(List.of(Operation.SIGN, Operation.VERIFY),
                Cli.parse(new JcaCli(), "--ops", "Verify,sign,SIGN").operations());
        assertThrows(UsageException.class, () -> Cli.parse(new JcaCli(), "--ops", "keygen,sign").operations());
    }

    @Test
    void peakIsTheBestLevel() {
        assertEquals(12_000, RESULT.peak());
    }

    @Test
    void tableHasAColumnPerConcurrencyLevel() {
        String table = JcaCli.table(List.of(RESULT), RESULT.callers()).render();
        String[] lines = table.split("\n");
        assertTrue(lines[0].matches("set\\s+op\\s+1 caller\\s+16 callers\\s+4,096 callers\\s+peak ops/s\\s+"
                + "load ops/s\\s+p50\\s+p99"), lines[0]);
        assertTrue(lines[2].matches("ML-DSA-44\\s+verify\\s+900\\s+12,000\\s+10,500\\s+12,000\\s+6,000\\s+"
                + "1\\.500 ms\\s+9\\.250 ms"), lines[2]);
    }

    @Test
    void csvFiles() {
        assertEquals("set,operation,callers,ops_per_s\n"
                + "ML-DSA-44,verify,1,900\nML-DSA-44,verify,16,12000\nML-DSA-44,verify,4096,10500\n",
                JcaCli.throughputCsv(List.of(RESULT)).content());
        assertEquals("set,operation,arrival_rate_per_s,calls,p50_ms,p99_ms,max_ms\n"
                + "ML-DSA-44,verify,6000,12000,1.50000,9.25000,20\n", JcaCli.latencyCsv(List.of(RESULT)).content());
    }
}
