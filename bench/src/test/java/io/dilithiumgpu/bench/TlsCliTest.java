package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TlsCliTest {
    private static final long SECOND = 1_000_000_000L;

    /** 100 samples on the other threads: 20 in ML-DSA, 30 in key exchange, 50 in the JSSE. */
    private static final CpuSplit.Counts SAMPLES = counts(7, CpuSplit.Part.ML_DSA, 20, CpuSplit.Part.KEY_EXCHANGE, 30,
            CpuSplit.Part.JSSE, 50);

    private static CpuSplit.Counts counts(long provider, Object... partAndCount) {
        Long[] others = new Long[CpuSplit.Part.values().length];
        java.util.Arrays.fill(others, 0L);
        for (int i = 0; i < partAndCount.length; i += 2) {
            others[((CpuSplit.Part) partAndCount[i]).ordinal()] = ((Integer) partAndCount[i + 1]).longValue();
        }
        return new CpuSplit.Counts(provider, List.of(others));
    }

    private static TlsLoad.Level level(int clients, long handshakes) {
        return new TlsLoad.Level(clients, handshakes, SECOND, 2_000_000, 9_000_000, handshakes * 400_000,
                handshakes * 50_000, 0, 3 * handshakes, 0, handshakes, SAMPLES);
    }

    private static TlsCli.ColumnResult column(TlsLoad.Column c, long at1, long at256) {
        return new TlsCli.ColumnResult(c, c.usesProvider() ? c.label : null, null,
                List.of(level(1, at1), level(256, at256)), Cli.OK);
    }

    @Test
    void levelsTravelBetweenTheJvmsUnchanged() {
        TlsLoad.Level l = new TlsLoad.Level(1024, 123_456, 5 * SECOND, 1_234_567, 98_765_432, 7_000_000_000L,
                -1, 12, 370_356, 3, 9_876, SAMPLES);
        assertEquals(l, TlsCli.decode(TlsCli.encode(l)));
    }

    @Test
    void tableComparesEachColumnWithBouncyCastleAtTheSameLevel() {
        String[] lines = TlsCli.table(List.of(column(TlsLoad.Column.BC, 100, 1000),
                column(TlsLoad.Column.CPU, 110, 1500)), List.of(1, 256)).render().split("\n");
        assertTrue(lines[0].matches("clients\\s+column\\s+handshakes/s\\s+x bc\\s+p50 ms\\s+p99 ms\\s+host cpu us/hs"
                + "\\s+ml-dsa us/hs\\s+rest us/hs\\s+provider threads us/hs\\s+ml-dsa ops/hs\\s+direct/batch/jdk"
                + "\\s+mean batch"), lines[0]);
        // ml-dsa: the provider's threads (50 us) and 20 % of the other threads' 350 us
        assertTrue(lines[2].matches("\\s*1\\s+bc\\s+100\\s+1\\.00\\s+2\\.00\\s+9\\.00\\s+400\\s+120\\s+280"
                + "\\s+-\\s+-\\s+-\\s+-"), lines[2]);
        assertTrue(lines[5].matches("\\s*256\\s+cpu\\s+1500\\s+1\\.50\\s+2\\.00\\s+9\\.00\\s+400\\s+120\\s+280\\s+50"
                + "\\s+3\\.00\\s+0/100/0\\s+3\\.0"), lines[5]);
    }

    @Test
    void splitTableSharesTheOtherThreadsCpuBySamples() {
        String[] lines = TlsCli.splitTable(List.of(column(TlsLoad.Column.CPU, 100, 1000)), List.of(1)).render()
                .split("\n");
        assertTrue(lines[0].matches("clients\\s+column\\s+ml-dsa\\s+key exchange\\s+aead\\s+random\\s+hash/hkdf"
                + "\\s+certificates\\s+sockets\\s+jsse\\s+other\\s+samples"), lines[0]);
        assertTrue(lines[2].matches("\\s*1\\s+cpu\\s+120\\s+105\\s+0\\s+0\\s+0\\s+0\\s+0\\s+175\\s+0\\s+107"), lines[2]);
    }

    @Test
    void repeatedColumnsAreNumberedAndComparedWithTheirRound() {
        List<TlsCli.ColumnResult> runs = List.of(column(TlsLoad.Column.BC, 100, 1000),
                column(TlsLoad.Column.CPU, 110, 1500), column(TlsLoad.Column.BC, 50, 500),
                column(TlsLoad.Column.CPU, 100, 1000));
        assertEquals(List.of("bc", "cpu", "bc#2", "cpu#2"), TlsCli.labels(runs));
        String[] lines = TlsCli.table(runs, List.of(1)).render().split("\n");
        assertTrue(lines[3].matches("\\s*1\\s+cpu\\s+110\\s+1\\.10\\s.*"), lines[3]);
        assertTrue(lines[5].matches("\\s*1\\s+cpu#2\\s+100\\s+2\\.00\\s.*"), lines[5]);
    }

    /** A client count given twice (to see a level settle) has a row for each of its runs. */
    @Test
    void aLevelGivenTwiceHasARowPerRun() {
        TlsCli.ColumnResult bc = new TlsCli.ColumnResult(TlsLoad.Column.BC, null, null,
                List.of(level(64, 100), level(64, 200)), Cli.OK);
        TlsCli.ColumnResult cpu = new TlsCli.ColumnResult(TlsLoad.Column.CPU, "cpu", null,
                List.of(level(64, 300), level(64, 800)), Cli.OK);
        String[] lines = TlsCli.table(List.of(bc, cpu), List.of(64, 64)).render().split("\n");
        assertTrue(lines[3].matches("\\s*64\\s+cpu\\s+300\\s+3\\.00\\s.*"), lines[3]);
        assertTrue(lines[4].matches("\\s*64\\s+bc\\s+200\\s+1\\.00\\s.*"), lines[4]);
        assertTrue(lines[5].matches("\\s*64\\s+cpu\\s+800\\s+4\\.00\\s.*"), lines[5]);
    }

    @Test
    void targetNeedsCudaAheadAt256ClientsAndNeverBehind() {
        TlsCli.ColumnResult bc = column(TlsLoad.Column.BC, 100, 1000);
        assertTrue(TlsCli.targetLine(List.of(bc, column(TlsLoad.Column.CUDA, 100, 1200)))
                .endsWith("1.20 x at 256 clients (target 1.2 x): met; never below bc"));
        assertTrue(TlsCli.targetLine(List.of(bc, column(TlsLoad.Column.CUDA, 99, 1100)))
                .endsWith("1.10 x at 256 clients (target 1.2 x): NOT met; below bc at [1] clients"));
        assertNull(TlsCli.targetLine(List.of(bc, column(TlsLoad.Column.CPU, 100, 5000))));
    }

    @Test
    void unknownSetOrColumnIsAUsageError() {
        assertThrows(UsageException.class, () -> Cli.parse(new TlsCli(), "--set", "ML-DSA-99")
                .run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
        assertThrows(UsageException.class, () -> Cli.parse(new TlsCli(), "--columns", "bc,gpu")
                .run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    }

    /** This provider's ML-DSA calls over every route. */
    private static long calls() {
        long[] r = TlsLoad.routes();
        return r[0] + r[1] + r[2];
    }

    /**
     * Sequential handshakes of the cpu column: each is a full one (no resumption) with this
     * provider doing all three ML-DSA operations; the bc column leaves the provider alone.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyHandshakeIsFullAndTheColumnsUseTheirOwnMlDsa() throws Exception {
        try (TlsLoad ours = TlsLoad.open(TlsLoad.Column.CPU, "ML-DSA-44");
             TlsLoad theirs = TlsLoad.open(TlsLoad.Column.BC, "ML-DSA-44")) {
            long before = calls();
            for (int i = 0; i < 3; i++) {
                ours.handshake();
            }
            assertEquals(9, calls() - before);
            before = calls();
            theirs.handshake();
            assertEquals(0, calls() - before);
        }
    }

    /** A warm-up slice drives full handshakes from its clients, and stops them all at its end. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aWarmUpSliceRunsHandshakesAndStopsItsClients() throws Exception {
        try (TlsLoad load = TlsLoad.open(TlsLoad.Column.CPU, "ML-DSA-44")) {
            long before = calls();
            load.drive(2, TimeUnit.MILLISECONDS.toNanos(300));
            long during = calls() - before;
            assertTrue(during >= 3, "at least one handshake: " + during);
            assertEquals(0, during % 3, "whole handshakes only: " + during);
            long after = calls();
            Thread.sleep(100);
            assertEquals(after, calls(), "no client left running");
        }
    }
}
