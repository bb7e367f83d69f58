package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SweepCliTest {

    private static SweepCli.Point point(ParameterSet p, Operation op, int batch, double rate) {
        return new SweepCli.Point(p, op, batch, Stats.summarize(new double[] {rate}));
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
    void csvAndTable() {
        List<SweepCli.Point> points = List.of(point(ParameterSet.DILITHIUM3, Operation.KEYGEN, 20_000, 123456.0));
        assertEquals("backend,set,operation,batch,runs,median_ops_per_s,min_ops_per_s,max_ops_per_s\n"
                + "cuda,Dilithium3,keygen,20000,1,123456,123456,123456\n", SweepCli.csv("cuda", points).content());
        String table = SweepCli.table(points).render();
        assertEquals("set         op       batch    ops/s      min      max\n"
                + "-".repeat(53) + "\n"
                + "Dilithium3  keygen  20,000  123,456  123,456  123,456\n", table);
    }
}
