package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SweepCliTest {

    private static SweepCli.Point point(ParameterSet p, Operation op, int batch, double rate) {
        return point(p, op, SweepCli.CONFIGURED_STREAMS, batch, rate);
    }

    private static SweepCli.Point point(ParameterSet p, Operation op, int streams, int batch, double rate) {
        return new SweepCli.Point(p, op, streams, batch, Stats.summarize(new double[] {rate}));
    }

    @Test
    void seriesPerOperationOfOneSetSortedByBatchSize() {
        List<SweepCli.Point> points = List.of(
                point(ParameterSet.ML_DSA_44, Operation.SIGN, 1000, 30),
                point(ParameterSet.ML_DSA_44, Operation.SIGN, 100, 10),
                point(ParameterSet.ML_DSA_65, Operation.SIGN, 100, 99),
                point(ParameterSet.ML_DSA_44, Operation.VERIFY, 100, 50));
        List<SweepChart.Series> series = SweepCli.series(points, ParameterSet.ML_DSA_44);
        assertEquals(2, series.size());
        assertEquals("sign", series.get(0).name());
        assertArrayEquals(new double[] {100, 1000}, series.get(0).batchSizes());
        assertArrayEquals(new double[] {10, 30}, series.get(0).opsPerSecond());
        assertEquals("verify", series.get(1).name());
        assertArrayEquals(new double[] {50}, series.get(1).opsPerSecond());
        assertEquals(List.of(), SweepCli.series(points, ParameterSet.DILITHIUM5));
    }

    @Test
    void chartsDrawMinAndMaxAndKeepLabelsAtSmallBatches() {
        List<SweepCli.Point> points = List.of(
                new SweepCli.Point(ParameterSet.ML_DSA_44, Operation.SIGN, SweepCli.CONFIGURED_STREAMS, 8,
                        new Stats.Summary(5, 10, 9, 12)),
                new SweepCli.Point(ParameterSet.ML_DSA_44, Operation.SIGN, SweepCli.CONFIGURED_STREAMS, 32,
                        new Stats.Summary(5, 30, 25, 31)));
        List<SweepChart.Series> series = SweepCli.series(points, ParameterSet.ML_DSA_44);
        assertArrayEquals(new double[] {9, 25}, series.get(0).min());
        assertArrayEquals(new double[] {12, 31}, series.get(0).max());
        XYChart small = SweepChart.chart("small", series);
        assertEquals(List.of("sign", "sign min", "sign max"), List.copyOf(small.getSeriesMap().keySet()));
        assertFalse(small.getSeriesMap().get("sign max").isShowInLegend());
        assertEquals(small.getSeriesMap().get("sign").getLineColor(), small.getSeriesMap().get("sign min").getLineColor());
        assertFalse(small.getStyler().isXAxisLogarithmicDecadeOnly(), "8 to 32 has no decade to label");
        assertEquals(8, small.getStyler().getXAxisMin());
        assertEquals(32, small.getStyler().getXAxisMax());

        List<SweepCli.Point> wide = List.of(point(ParameterSet.ML_DSA_44, Operation.SIGN, 100, 1),
                point(ParameterSet.ML_DSA_44, Operation.SIGN, 100_000, 2));
        assertTrue(SweepChart.chart("wide", SweepCli.series(wide, ParameterSet.ML_DSA_44)).getStyler()
                .isXAxisLogarithmicDecadeOnly());
    }

    @Test
    void oneSeriesPerStreamCountWhenStreamsAreSwept() {
        List<SweepCli.Point> points = List.of(
                point(ParameterSet.ML_DSA_44, Operation.SIGN, 4, 1000, 40),
                point(ParameterSet.ML_DSA_44, Operation.SIGN, 1, 1000, 10),
                point(ParameterSet.ML_DSA_44, Operation.SIGN, 1, 100, 5));
        List<SweepChart.Series> series = SweepCli.series(points, ParameterSet.ML_DSA_44);
        assertEquals(List.of("sign, 1 stream", "sign, 4 streams"), series.stream().map(SweepChart.Series::name).toList());
        assertArrayEquals(new double[] {5, 10}, series.get(0).opsPerSecond());
    }

    @Test
    void csvAndTable() {
        List<SweepCli.Point> points = List.of(point(ParameterSet.DILITHIUM3, Operation.KEYGEN, 20_000, 123456.0),
                point(ParameterSet.DILITHIUM3, Operation.KEYGEN, 8, 100, 7.0));
        assertEquals("backend,set,operation,streams,batch,runs,median_ops_per_s,min_ops_per_s,max_ops_per_s\n"
                + "cuda,Dilithium3,keygen,,20000,1,123456,123456,123456\n"
                + "cuda,Dilithium3,keygen,8,100,1,7,7,7\n", SweepCli.csv("cuda", points).content());
        String table = SweepCli.table(points).render();
        assertEquals("set         op      streams   batch    ops/s      min      max\n"
                + "-".repeat(62) + "\n"
                + "Dilithium3  keygen        —  20,000  123,456  123,456  123,456\n"
                + "Dilithium3  keygen        8     100        7        7        7\n", table);
        assertEquals("set         op       batch    ops/s      min      max\n"
                + "-".repeat(53) + "\n"
                + "Dilithium3  keygen  20,000  123,456  123,456  123,456\n",
                SweepCli.table(points.subList(0, 1)).render());
    }

    @Test
    void aWrittenCsvReadsBackToTheSamePoints() throws UsageException {
        List<SweepCli.Point> points = List.of(
                new SweepCli.Point(ParameterSet.ML_DSA_87, Operation.SIGN, SweepCli.CONFIGURED_STREAMS, 10_000,
                        new Stats.Summary(5, 1111350, 1095970, 1117870)),  // six significant digits, as the CSV keeps
                new SweepCli.Point(ParameterSet.DILITHIUM2, Operation.VERIFY, 4, 100, new Stats.Summary(3, 7, 6, 8)));
        String csv = SweepCli.csv("cuda", points).content();
        SweepCli.Measured m = SweepCli.readCsv(List.of(csv.split("\n")));
        assertEquals("cuda", m.backend());
        assertEquals(points, m.points());
    }

    @Test
    void aFileThatIsNotASweepCsvIsAUsageError() {
        assertThrows(UsageException.class, () -> SweepCli.readCsv(List.of("set,op,ops")));
        String header = SweepCli.csv("cuda", List.of()).content().strip();
        assertThrows(UsageException.class, () -> SweepCli.readCsv(List.of(header, "cuda,ML-DSA-44,fly,,100,1,1,1,1")));
        assertThrows(UsageException.class, () -> SweepCli.readCsv(List.of(header, "cuda,ML-DSA-44,sign,,100")));
    }
}
