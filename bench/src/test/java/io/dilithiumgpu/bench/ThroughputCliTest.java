package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(120)
class ThroughputCliTest {

    private static ThroughputCli.Settings settings(String... argv) {
        return Cli.parse(new ThroughputCli(), argv).settings();
    }

    @Test
    void fullRunDefaults() {
        ThroughputCli.Settings s = settings();
        assertEquals(List.of("cuda", "cpu"), s.backends());
        assertFalse(s.backendRequested());
        assertEquals(List.of(ParameterSet.values()), s.sets());
        assertEquals(10_000, s.batch());
        assertEquals(30, s.runs());
        assertEquals(20, s.warmup());
        assertEquals(1, s.warmupSeconds());
        assertEquals(8, s.samples());
        assertNull(s.out());
    }

    @Test
    void quickIsASmallCpuRunAndExplicitOptionsWin() {
        ThroughputCli.Settings q = settings("--quick");
        assertEquals(List.of("cpu"), q.backends());
        assertEquals(ThroughputCli.QUICK_BATCH, q.batch());
        assertEquals(ThroughputCli.QUICK_RUNS, q.runs());
        assertEquals(ThroughputCli.QUICK_WARMUP, q.warmup());
        assertEquals(0, q.warmupSeconds());

        ThroughputCli.Settings s = settings("--quick", "--batch", "1k", "--runs", "11", "--warmup", "0",
                "--backend", "cuda", "--sets", "ML-DSA-87", "--out", "results");
        assertEquals(List.of("cuda"), s.backends());
        assertTrue(s.backendRequested());
        assertEquals(1_000, s.batch());
        assertEquals(11, s.runs());
        assertEquals(0, s.warmup());
        assertEquals(0.5, settings("--quick", "--warmup-seconds", "0.5").warmupSeconds());
        assertEquals(List.of(ParameterSet.ML_DSA_87), s.sets());
        assertEquals(Path.of("results"), s.out());
    }

    @Test
    void rowShowsMedianSpreadAndTheReferencePointsOfTheLevel() {
        ThroughputCli.Result r = new ThroughputCli.Result("cuda", BatchBench.Memory.PINNED, ParameterSet.ML_DSA_65,
                Operation.SIGN, 10_000,
                Stats.summarize(new double[] {1_000_000, 1_200_000, 1_150_000}));
        assertArrayEquals(new String[] {"ML-DSA-65", "sign", "1,150,000", "1,000,000", "1,200,000", "1,150,000",
                "100%", "753,000"}, ThroughputCli.row(r, Baseline.NONE));
    }

    @Test
    void csvCarriesPlainNumbers() {
        ThroughputCli.Result r = new ThroughputCli.Result("cpu", BatchBench.Memory.ARRAYS, ParameterSet.DILITHIUM2,
                Operation.VERIFY, 64,
                Stats.summarize(new double[] {1500.5, 1400, 1600}));
        String csv = ThroughputCli.csv(List.of(r), "host-1").content();
        assertEquals("backend,memory,set,level,operation,batch,runs,median_ops_per_s,min_ops_per_s,max_ops_per_s,"
                + "target_ops_per_s,paper_ops_per_s,host,keys\n"
                + "cpu,arrays,Dilithium2,2,verify,64,3,1500.50,1400,1600,6500000,3660000,host-1,distinct\n", csv);
    }

    @Test
    void cpuRowsCompareWithTheBaselineNotWithTheH100(@TempDir Path dir) throws Exception {
        ThroughputCli.Result before = new ThroughputCli.Result("cpu", BatchBench.Memory.PINNED, ParameterSet.ML_DSA_44,
                Operation.SIGN, 64, Stats.summarize(new double[] {1000}));
        Path file = dir.resolve("throughput.csv");
        ThroughputCli.csv(List.of(before), "host-1").write(file);
        Baseline earlier = Baseline.read(file);
        assertEquals("host-1", earlier.host());

        ThroughputCli.Result now = new ThroughputCli.Result("cpu", BatchBench.Memory.PINNED, ParameterSet.ML_DSA_44,
                Operation.SIGN, 64, Stats.summarize(new double[] {1100}));
        assertArrayEquals(new String[] {"ML-DSA-44", "sign", "1,100", "1,100", "1,100", "1,000", "+10%"},
                ThroughputCli.row(now, earlier));
        assertArrayEquals(new String[] {"ML-DSA-44", "sign", "1,100", "1,100", "1,100"},
                ThroughputCli.row(now, Baseline.NONE));
        ThroughputCli.Result otherBatch = new ThroughputCli.Result("cpu", BatchBench.Memory.PINNED,
                ParameterSet.ML_DSA_44, Operation.SIGN, 128, Stats.summarize(new double[] {1100}));
        assertArrayEquals(new String[] {"ML-DSA-44", "sign", "1,100", "1,100", "1,100", "—", "—"},
                ThroughputCli.row(otherBatch, earlier));
        assertTrue(ThroughputCli.baselineLine(earlier, null, "host-1").contains("measured on this host"));
        assertTrue(ThroughputCli.baselineLine(earlier, null, "host-2").contains("ANOTHER host, host-1"));
        Files.writeString(file, "set,op\n");
        assertThrows(UsageException.class, () -> Baseline.read(file));
    }

    @Test
    void headerStatesTheConditions() {
        String h = ThroughputCli.header(settings("--batch", "10k", "--runs", "12"));
        for (String part : Set.of("batch 10,000 tasks", "a distinct key per task", "32-byte messages",
                "median of 12 timed runs after 20 warm-up runs or more, at least 1 s", "every run checked",
                "records in the backend's host buffers")) {
            assertTrue(h.contains(part), part + " missing from\n" + h);
        }
        assertTrue(ThroughputCli.header(settings("--memory", "arrays")).contains("records in heap byte arrays"));
    }

    /** The whole subcommand on the CPU backend, end to end: table, stage lines only for CUDA, CSV. */
    @ParameterizedTest
    @ValueSource(strings = {"pinned", "arrays"})
    void aQuickCpuRunPrintsEveryStageAndWritesItsCsv(String memory, @TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Cli.run(new String[] {"throughput", "--quick", "--sets", "ML-DSA-44", "--memory", memory,
                        "--out", dir.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(Cli.OK, rc, printed + err.toString(StandardCharsets.UTF_8));
        for (String op : List.of("keygen", "sign", "verify")) {
            assertTrue(printed.matches("(?s).*\\nML-DSA-44 +" + op + " +[0-9,]+ .*"), op + " row in:\n" + printed);
        }
        assertTrue(Files.readString(dir.resolve("throughput.csv")).contains("cpu," + memory + ",ML-DSA-44"));
        assertFalse(printed.contains("of target"), printed);
        assertTrue(printed.contains("baseline of the next --quick run on this host"), printed);
        assertTrue(Files.isRegularFile(Baseline.quickHistory(Host.name())));
    }

    @Test
    void keysTakesDistinctAndCounts() {
        assertEquals(List.of(0), settings().keys());
        assertEquals(List.of(1, 0, 16), settings("--keys", "1,distinct,16").keys());
        assertThrows(Exception.class, () -> settings("--keys", "0"));
        assertThrows(Exception.class, () -> settings("--keys", "some"));
    }

    /** One table per key mode in one run; signing and verification only for a few keys. */
    @Test
    void aQuickRunWithKeysPrintsATablePerMode(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Cli.run(new String[] {"throughput", "--quick", "--sets", "ML-DSA-44", "--keys", "1,distinct",
                        "--out", dir.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(Cli.OK, rc, printed + err.toString(StandardCharsets.UTF_8));
        int one = printed.indexOf("keys: one key");
        int distinct = printed.indexOf("keys: a distinct key per task");
        assertTrue(one >= 0 && distinct > one, printed);
        String oneTable = printed.substring(one, distinct);
        assertFalse(oneTable.contains("keygen"), oneTable);
        assertTrue(oneTable.matches("(?s).*\\nML-DSA-44 +sign +[0-9,]+ .*"), oneTable);
        assertTrue(printed.substring(distinct).matches("(?s).*\\nML-DSA-44 +keygen +[0-9,]+ .*"), printed);
        String csv = Files.readString(dir.resolve("throughput.csv"));
        assertTrue(csv.lines().anyMatch(l -> l.startsWith("cpu,pinned,ML-DSA-44") && l.endsWith(",1")), csv);
        assertTrue(csv.lines().anyMatch(l -> l.contains(",keygen,") && l.endsWith(",distinct")), csv);
    }
}
