package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(120)
class GpuScalingTest {

    private static GpuScaling.Column column(String label, int gpus, int batch, double signMedian) {
        return new GpuScaling.Column(label, gpus, batch, Map.of(
                GpuScaling.key(ParameterSet.ML_DSA_44, Operation.SIGN),
                Stats.summarize(new double[] {signMedian * 0.9, signMedian, signMedian * 1.1})));
    }

    @Test
    void oneTableOfEveryCountWithTheRatioToTheFirst() {
        List<GpuScaling.Column> columns = List.of(column("1 GPU", 1, 10_000, 2_000_000),
                column("2 GPUs", 2, 20_000, 3_900_000));
        String table = GpuScaling.table(columns, List.of(ParameterSet.ML_DSA_44)).render();
        String[] lines = table.split("\n");
        assertTrue(lines[0].matches("set +op +1 GPU +min +max +2 GPUs +min +max +2 GPUs / 1 GPU"), lines[0]);
        assertTrue(table.contains("ML-DSA-44  sign    2,000,000  1,800,000  2,200,000  3,900,000  3,510,000  4,290,000"
                + "           1.95×"), table);
        assertTrue(lines[2].matches("ML-DSA-44 +keygen +— +— +— +— +— +— +—"), "unmeasured cells: " + lines[2]);
    }

    @Test
    void theCsvCarriesEachCountsGpusAndBatch() {
        String csv = GpuScaling.csv(List.of(column("1 GPU", 1, 10_000, 2_000_000), column("all GPUs", 0, 0, 1)),
                List.of(ParameterSet.ML_DSA_44), "host-1").content();
        assertEquals("gpus,batch,set,level,operation,runs,median_ops_per_s,min_ops_per_s,max_ops_per_s,host\n"
                + "1,10000,ML-DSA-44,2,sign,3,2000000,1800000,2200000,host-1\n"
                + "0,0,ML-DSA-44,2,sign,3,1,0.900000,1.10000,host-1\n", csv);
    }

    @Test
    void theBatchLineSaysWhatEachCountRuns() {
        GpuCounts counts = GpuCounts.parse("1,all");
        assertTrue(GpuScaling.batchLine(counts, 10_000, false).contains("10,000 tasks per GPU"));
        assertTrue(GpuScaling.batchLine(counts, 10_000, true).contains("10,000 tasks in all, split over its GPUs"));
    }

    /**
     * The whole option end to end: on a host without a GPU each count is reported skipped and the
     * command fails; with one, every stage has its row and the command succeeds.
     */
    @Test
    void theGpusOptionEndToEnd(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Cli.run(new String[] {"throughput", "--gpus", "1,all", "--sets", "ML-DSA-44", "--batch", "64",
                        "--runs", "1", "--warmup", "0", "--out", dir.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("64 tasks per GPU"), printed);
        assertTrue(printed.contains(" / "), "a ratio column: " + printed);
        assertTrue(Files.isRegularFile(dir.resolve("throughput-gpus.csv")));
        if (printed.contains("1 GPU: skipped: ")) {
            assertEquals(Cli.FAILED, rc, printed);
            assertTrue(printed.contains("all GPUs: skipped: "), printed);
        } else {
            assertEquals(Cli.OK, rc, printed + err.toString(StandardCharsets.UTF_8));
            assertTrue(printed.matches("(?s).*\\nML-DSA-44 +verify +[0-9,]+ .*×.*"), printed);
        }
    }

    @Test
    void gpusIsForCudaAloneAndSameTotalNeedsIt() {
        for (String[] argv : List.of(new String[] {"throughput", "--gpus", "1", "--backend", "cpu"},
                new String[] {"throughput", "--gpus", "1", "--quick"},
                new String[] {"throughput", "--same-total"},
                new String[] {"throughput", "--gpus", "0"})) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int rc = Cli.run(argv, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(out, true, StandardCharsets.UTF_8));
            assertEquals(Cli.USAGE, rc, String.join(" ", argv) + ": " + out.toString(StandardCharsets.UTF_8));
        }
    }
}
