package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JcaCliTest {
    private static final List<Integer> LEVELS = List.of(1, 16, 4096);
    private static final OpenLoopTimeline.Window WINDOW = new OpenLoopTimeline.Window(-50, 300, 1.25, 12.5, 0.5,
            11, 7.5, Double.NaN, 0, 3, 1, 2, 0.75);
    private static final JcaCli.Result OURS = new JcaCli.Result(ParameterSet.ML_DSA_44, Operation.VERIFY,
            JcaLoad.Style.REUSE, Contender.DILITHIUM_GPU, LEVELS, new double[] {900, 12_000, 10_500}, 6_000, 12_000,
            1_500_000, 9_250_000, 15_000_000, 20_000_000, List.of(WINDOW));
    private static final JcaCli.Result SUN = new JcaCli.Result(ParameterSet.ML_DSA_44, Operation.VERIFY,
            JcaLoad.Style.REUSE, Contender.SUN, LEVELS, new double[] {1_800, 8_000, 7_000}, 4_000, 8_000,
            250_000, 1_000_000, 1_500_000, 2_000_000, List.of());
    private static final JcaCli.Result BC_ROUND3 = new JcaCli.Result(ParameterSet.DILITHIUM2, Operation.SIGN,
            JcaLoad.Style.GET_INSTANCE, Contender.BC, LEVELS, new double[] {500, 1_000, 1_000}, 500, 1_000,
            2_000_000, 3_000_000, 3_500_000, 4_000_000, List.of());

    @Test
    void signAndVerifyByDefaultAndNeverKeygen() throws UsageException {
        assertEquals(List.of(Operation.SIGN, Operation.VERIFY), Cli.parse(new JcaCli()).operations());
        assertEquals(List.of(Operation.VERIFY), Cli.parse(new JcaCli(), "--ops", "verify").operations());
        assertEquals(List.of(Operation.SIGN, Operation.VERIFY),
                Cli.parse(new JcaCli(), "--ops", "Verify,sign,SIGN").operations());
        assertThrows(UsageException.class, () -> Cli.parse(new JcaCli(), "--ops", "keygen,sign").operations());
    }

    @Test
    void providersAndStylesAreListsInTheOrderGiven() throws UsageException {
        assertEquals(List.of(Contender.DILITHIUM_GPU, Contender.SUN, Contender.BC), Cli.parse(new JcaCli()).contenders());
        assertEquals(List.of(Contender.BC, Contender.DILITHIUM_GPU_CPU),
                Cli.parse(new JcaCli(), "--providers", "bc,dilithiumgpu/CPU,BC").contenders());
        assertThrows(CommandLine.ParameterException.class,
                () -> Cli.parse(new JcaCli(), "--providers", "DilithiumGPU,SunEC"));
        assertEquals(List.of(JcaLoad.Style.REUSE), Cli.parse(new JcaCli()).styles());
        assertEquals(List.of(JcaLoad.Style.GET_INSTANCE, JcaLoad.Style.REUSE),
                Cli.parse(new JcaCli(), "--style", "getinstance,reuse").styles());
        assertThrows(CommandLine.ParameterException.class, () -> Cli.parse(new JcaCli(), "--style", "pool"));
    }

    @Test
    void theReferenceIsSunForMlDsaAndBouncyCastleForRound3() {
        assertEquals(Contender.SUN, JcaCli.reference(List.of(OURS, SUN)));
        JcaCli.Result bc = new JcaCli.Result(ParameterSet.ML_DSA_44, Operation.VERIFY, JcaLoad.Style.REUSE,
                Contender.BC, LEVELS, new double[] {1, 2, 3}, 1, 1, 1, 1, 1, 1, List.of());
        assertEquals(Contender.BC, JcaCli.reference(List.of(OURS, bc)), "BC where SUN was not measured");
        assertEquals(Contender.BC, JcaCli.reference(List.of(BC_ROUND3)));
        assertNull(JcaCli.reference(List.of(OURS)));
        assertEquals(Contender.BC, JcaCli.reference(ParameterSet.DILITHIUM2, List.of(Contender.SUN, Contender.BC)));
        assertEquals(Contender.SUN, JcaCli.reference(ParameterSet.ML_DSA_87, List.of(Contender.BC, Contender.SUN)));
        assertEquals(3, JcaCli.groups(List.of(OURS, SUN, BC_ROUND3, OURS)).size());
    }

    @Test
    void peakIsTheBestLevel() {
        assertEquals(12_000, OURS.peak());
    }

    @Test
    void tableHasAColumnPerConcurrencyLevelAndARatioRowPerOtherProvider() {
        String table = JcaCli.table(List.of(OURS, SUN), LEVELS).render();
        String[] lines = table.split("\n");
        assertEquals(5, lines.length, table);
        assertTrue(lines[0].matches("set\\s+op\\s+style\\s+provider\\s+1 caller\\s+16 callers\\s+4,096 callers\\s+"
                + "peak ops/s\\s+load ops/s\\s+p50\\s+p99\\s+p99\\.9"), lines[0]);
        assertTrue(lines[2].matches("ML-DSA-44\\s+verify\\s+reuse\\s+DilithiumGPU\\s+900\\s+12,000\\s+10,500\\s+"
                + "12,000\\s+6,000\\s+1\\.500 ms\\s+9\\.250 ms\\s+15\\.000 ms"), lines[2]);
        assertTrue(lines[3].matches("ML-DSA-44\\s+verify\\s+reuse\\s+SUN\\s+1,800\\s+8,000\\s+7,000\\s+8,000\\s+"
                + "4,000\\s+0\\.250 ms\\s+1\\.000 ms\\s+1\\.500 ms"), lines[3]);
        assertTrue(lines[4].matches("ML-DSA-44\\s+verify\\s+reuse\\s+DilithiumGPU / SUN\\s+0\\.50×\\s+1\\.50×\\s+"
                + "1\\.50×\\s+1\\.50×\\s+—\\s+—\\s+—\\s+—"), lines[4]);
    }

    @Test
    void csvFilesCarryStyleProviderAndRatio() {
        assertEquals("set,operation,style,provider,callers,ops_per_s,reference,ratio_to_reference\n"
                        + "ML-DSA-44,verify,reuse,DilithiumGPU,1,900,SUN,0.500000\n"
                        + "ML-DSA-44,verify,reuse,DilithiumGPU,16,12000,SUN,1.50000\n"
                        + "ML-DSA-44,verify,reuse,DilithiumGPU,4096,10500,SUN,1.50000\n"
                        + "ML-DSA-44,verify,reuse,SUN,1,1800,SUN,\n"
                        + "ML-DSA-44,verify,reuse,SUN,16,8000,SUN,\n"
                        + "ML-DSA-44,verify,reuse,SUN,4096,7000,SUN,\n",
                JcaCli.throughputCsv(List.of(OURS, SUN)).content());
        assertEquals("set,operation,style,provider,arrival_rate_per_s,calls,p50_ms,p99_ms,max_ms,p999_ms\n"
                        + "ML-DSA-44,verify,reuse,DilithiumGPU,6000,12000,1.50000,9.25000,20,15\n",
                JcaCli.latencyCsv(List.of(OURS)).content());
        assertEquals("set,operation,style,provider,window_start_ms,calls,mean_ms,max_ms,issued_late_ms,started_late_ms,"
                        + "this_jvm_cores,other_processes_cores,steal_cores,jit_cpu_ms,gc_pauses,gc_ms,batched_share\n"
                        + "ML-DSA-44,verify,reuse,DilithiumGPU,-50,300,1.25000,12.5000,0.500000,11,7.50000,,0,3,1,2,"
                        + "0.750000\n",
                JcaCli.timelineCsv(List.of(OURS, SUN)).content(), "SUN's run has no windows; NaN is left empty");
    }

    @Test
    void eachLevelIsTheMedianOfItsRounds() {
        assertArrayEquals(new double[] {2, 25}, JcaCli.medians(new double[][] {{1, 30}, {2, 20}, {9, 25}}));
        assertArrayEquals(new double[] {1.5}, JcaCli.medians(new double[][] {{1}, {2}}));
        assertArrayEquals(new double[0], JcaCli.medians(new double[][] {{}}));
    }

    @Test
    void eachRoundsRatiosAgainstTheReferenceOfTheSameRound() {
        Map<Contender, double[][]> byRound = new LinkedHashMap<>();
        byRound.put(Contender.DILITHIUM_GPU, new double[][] {{900, 12_000}, {1_000, 9_000}});
        byRound.put(Contender.SUN, new double[][] {{1_800, 8_000}, {1_000, 10_000}});
        byRound.put(Contender.BC, new double[][] {{450, 4_000}, {250, 2_500}});
        assertEquals(List.of("[jca] ML-DSA-44 verify reuse round 1 of 2: DilithiumGPU / SUN 0.50× 1.50×;"
                                + " BC / SUN 0.25× 0.50×",
                        "[jca] ML-DSA-44 verify reuse round 2 of 2: DilithiumGPU / SUN 1.00× 0.90×; BC / SUN 0.25× 0.25×"),
                JcaCli.roundRatios(ParameterSet.ML_DSA_44, Operation.VERIFY, JcaLoad.Style.REUSE, byRound));
        assertEquals(List.of(), JcaCli.roundRatios(ParameterSet.ML_DSA_44, Operation.VERIFY, JcaLoad.Style.REUSE,
                Map.of(Contender.DILITHIUM_GPU, new double[][] {{1}, {2}})), "no reference, no ratio");
        assertEquals(List.of(), JcaCli.roundRatios(ParameterSet.ML_DSA_44, Operation.VERIFY, JcaLoad.Style.REUSE,
                Map.of(Contender.DILITHIUM_GPU, new double[][] {{1}}, Contender.SUN, new double[][] {{2}})),
                "one round: the table has its ratios");
    }

    @Test
    void aLatencyCrossesToTheOtherJvmIntact() {
        JcaCells.Latency l = new JcaCells.Latency(1234.5678901, 50, 1_500_000, 9_250_001, 15_000_000, 20_000_003,
                List.of(WINDOW, new OpenLoopTimeline.Window(0, 301, 0.3, 0.9, 0.01, 0.02, 9.5, 6.25, 0.1, 0, 0, 0, Double.NaN)));
        assertEquals(l, CpuJcaProcess.decode(CpuJcaProcess.encode(l)));
        JcaCells.Latency none = new JcaCells.Latency(10, 1, 1, 1, 1, 1, List.of());
        assertEquals(none, CpuJcaProcess.decode(CpuJcaProcess.encode(none)));
    }

    /**
     * The second JVM's side of the exchange, over BouncyCastle in this JVM: ready with the sets it
     * has, a reply per request, a refusal for a wrong request's set, and the end of input ending it.
     */
    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void theSecondJvmAnswersEachCellAsked() throws Exception {
        List<String> notes = new ArrayList<>(List.of("a note\nover two lines"));
        JcaCells cells = InProcessJcaCells.open(Contender.BC, "BC", List.of(ParameterSet.ML_DSA_44),
                List.of(Operation.SIGN), List.of(JcaLoad.Style.REUSE), 10_000_000, 20_000_000, 30_000_000, notes);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        String requests = "CLOSED ML-DSA-44 sign reuse 2\nOPEN ML-DSA-44 sign reuse 1000.0\n";
        int exit = CpuJcaProcess.serve(cells, List.of(ParameterSet.ML_DSA_44, ParameterSet.ML_DSA_65), notes,
                new BufferedReader(new StringReader(requests)), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals(Cli.OK, exit);
        List<String> lines = List.of(bytes.toString(StandardCharsets.UTF_8).split("\n"));
        assertEquals(4, lines.size(), lines.toString());
        assertEquals("NOTE a note over two lines", lines.get(0));
        assertEquals("READY ML-DSA-44", lines.get(1));
        assertTrue(lines.get(2).startsWith("OPS ") && Double.parseDouble(lines.get(2).substring(4)) > 0, lines.get(2));
        JcaCells.Latency l = CpuJcaProcess.decode(lines.get(3).substring("LATENCY ".length()));
        assertEquals(1000.0, l.rate());
        assertEquals(30, l.calls(), "0.03 s at 1,000/s");
        List<OpenLoopTimeline.Window> windows = l.timeline();
        assertEquals(0.0, windows.get(windows.size() - 1).startMillis(), "the measured part in one window: " + windows);
        assertEquals(30, windows.get(windows.size() - 1).calls());
        assertTrue(windows.size() >= 3 && windows.get(0).startMillis() <= -100, "a lead-in of 0.01 s at least, then"
                + " until the JIT is quiet, at most 0.03 s, decided at a window's end for the window after the next: "
                + windows);
        assertThrows(IllegalArgumentException.class, () -> CpuJcaProcess.answer(cells, "CLOSED ML-DSA-44 sign 2"));
        assertThrows(IllegalArgumentException.class, () -> CpuJcaProcess.answer(cells, "RUN ML-DSA-44 sign reuse 2"));
    }

    /**
     * A tiny run of every provider (a new Signature per call, the style whose calls do the most):
     * it must finish with every result checked, a row and a ratio row for each provider, and the
     * CSV files.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void tinyRunOfEveryProviderSideBySide(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int exit = Cli.run(new String[] {"jca", "--providers", "DilithiumGPU,DilithiumGPU/cpu,SUN,BC",
            "--sets", "ML-DSA-44", "--style", "getInstance", "--callers", "2", "--rounds", "2",
            "--seconds", "0.03", "--warmup-seconds", "0.01", "--jit-quiet-seconds", "0.02", "--out", dir.toString()},
                out, System.err);
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(Cli.OK, exit, text);
        assertTrue(text.contains("\nwarm-up: per provider, a pass of 64 callers, 0.01 s per set and operation; then ")
                && text.contains(JitActivity.ofThisJvm() == null ? "no wait for the JIT"
                        : JitQuiet.rule(JitActivity.ofThisJvm()) + ", for at most 0.02 s;")
                && text.contains("; every provider before the first cell\n"), text);
        assertTrue(text.contains("\norder: per set, operation and style, level by level, each provider's cell right"
                + " after the other's, their order reversed at every other level and round; 2 rounds, each cell the"
                + " median of its 2; then each provider's open loop\n"), text);
        boolean sun = Contender.SUN.provider(ParameterSet.ML_DSA_44) != null;
        String reference = sun ? "SUN" : "BC";
        for (String op : List.of("sign", "verify")) {
            for (String provider : sun ? List.of("DilithiumGPU", "DilithiumGPU/cpu", "SUN", "BC")
                    : List.of("DilithiumGPU", "DilithiumGPU/cpu", "BC")) {
                String row = "ML-DSA-44\\s+" + op + "\\s+getInstance\\s+" + provider;
                assertTrue(text.matches("(?s).*\n" + row + "\\s+[0-9].*"), row + ":\n" + text);
                assertTrue(text.matches("(?s).*\n" + row + " / " + reference + "\\s+[0-9].*")
                        == !provider.equals(reference), row + " / " + reference + ":\n" + text);
            }
        }
        assertEquals(!sun, text.contains("SUN ML-DSA-44: not measured"), text);
        int providers = sun ? 4 : 3;
        assertEquals(1 + 2 * providers, Files.readAllLines(dir.resolve(JcaCli.THROUGHPUT_CSV)).size());
        assertEquals(1 + 2 * providers, Files.readAllLines(dir.resolve(JcaCli.LATENCY_CSV)).size());
        List<String> timeline = Files.readAllLines(dir.resolve(JcaCli.TIMELINE_CSV));
        for (String provider : sun ? List.of("DilithiumGPU", "DilithiumGPU/cpu", "SUN", "BC")
                : List.of("DilithiumGPU", "DilithiumGPU/cpu", "BC")) {
            List<String[]> rows = timeline.stream().filter(l -> l.startsWith("ML-DSA-44,"))
                    .map(l -> l.split(",")).filter(f -> f[3].equals(provider)).toList();
            assertEquals(2, rows.stream().filter(f -> f[4].equals("0")).count(), provider + " sign and verify: one"
                    + " measured window each (0.03 s), the second JVM's too:\n" + timeline);
            assertTrue(rows.stream().filter(f -> f[4].startsWith("-")).count() >= 2 * 2, provider + ": lead-in windows"
                    + " before:\n" + timeline);
        }
    }

    /** {@code --rate}: the open loop alone, at the rate given; every signature still checked. */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aGivenRateRunsTheOpenLoopAlone(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int exit = Cli.run(new String[] {"jca", "--providers", "DilithiumGPU", "--sets", "ML-DSA-44",
            "--rate", "1_000", "--seconds", "0.05", "--warmup-seconds", "0.01", "--jit-quiet-seconds", "0.02",
            "--out", dir.toString()},
                out, System.err);
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(Cli.OK, exit, text);
        assertTrue(text.contains("calls arrive every 1/rate s at 1,000 per second"), text);
        assertTrue(text.matches("(?s).*\nset\\s+op\\s+style\\s+provider\\s+peak ops/s\\s+load ops/s\\s+p50\\s+p99"
                + "\\s+p99\\.9\n.*"), text);
        List<String> latency = Files.readAllLines(dir.resolve(JcaCli.LATENCY_CSV));
        assertEquals(3, latency.size(), String.join("\n", latency));
        for (String row : latency.subList(1, 3)) {
            String[] f = row.split(",");
            assertEquals(1000.0, Double.parseDouble(f[4]), row);
            assertEquals(50, Integer.parseInt(f[5]), "0.05 s at 1,000/s: " + row);
            assertTrue(Double.parseDouble(f[6]) <= Double.parseDouble(f[7])
                    && Double.parseDouble(f[7]) <= Double.parseDouble(f[9])
                    && Double.parseDouble(f[9]) <= Double.parseDouble(f[8]), "p50 ≤ p99 ≤ p99.9 ≤ max: " + row);
        }
        assertEquals(List.of("set,operation,style,provider,callers,ops_per_s,reference,ratio_to_reference"),
                Files.readAllLines(dir.resolve(JcaCli.THROUGHPUT_CSV)), "no closed loop");
    }

    /** Round 3.1 Dilithium comes from BouncyCastle's PQC provider, which registers it only when asked. */
    @Test
    void bouncyCastleSignsAndVerifiesRound3() throws Exception {
        java.security.Provider bc = Contender.BC.provider(ParameterSet.DILITHIUM2);
        java.security.KeyPair keys = java.security.KeyPairGenerator.getInstance("Dilithium2", bc).generateKeyPair();
        java.security.Signature s = java.security.Signature.getInstance("Dilithium2", bc);
        s.initSign(keys.getPrivate());
        s.update(new byte[32]);
        byte[] sig = s.sign();
        assertEquals(ParameterSet.DILITHIUM2.signatureBytes(), sig.length);
        s.initVerify(keys.getPublic());
        s.update(new byte[32]);
        assertTrue(s.verify(sig));
        assertNull(Contender.SUN.provider(ParameterSet.DILITHIUM2), "the JDK has no round 3.1");
    }
}
