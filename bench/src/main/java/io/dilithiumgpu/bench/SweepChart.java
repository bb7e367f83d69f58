package io.dilithiumgpu.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The PNG chart of a sweep: throughput against batch size (logarithmic), one line per series. */
final class SweepChart {
    private SweepChart() {}

    /** One line of the chart. */
    record Series(String name, double[] batchSizes, double[] opsPerSecond) {}

    /**
     * Writes the chart. AWT runs headless, so no display is needed.
     *
     * @throws IOException when the file cannot be written
     */
    static void write(Path file, String title, List<Series> series) throws IOException {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        XYChart chart = new XYChartBuilder().width(960).height(600).title(title)
                .xAxisTitle("batch size (tasks)").yAxisTitle("operations per second").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisDecimalPattern("#,###");
        chart.getStyler().setXAxisDecimalPattern("#,###");
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        for (Series s : series) {
            chart.addSeries(s.name(), s.batchSizes(), s.opsPerSecond());
        }
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
