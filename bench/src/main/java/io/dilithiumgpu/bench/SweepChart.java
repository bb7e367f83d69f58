package io.dilithiumgpu.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The PNG chart of a sweep: throughput against batch size (logarithmic), one line per series
 * through its medians, with the slowest and fastest run of each point as thin dashed lines of the
 * same colour.
 */
final class SweepChart {
    /** Below this ratio of largest to smallest batch, the axis labels every 1–9 × 10^k, not only decades. */
    static final double DECADES_ONLY_FROM = 100;
    private static final BasicStroke RANGE_STROKE =
            new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {4f, 4f}, 0f);

    private SweepChart() {}

    /** One line of the chart: medians, and the min and max of the runs at each batch size. */
    record Series(String name, double[] batchSizes, double[] opsPerSecond, double[] min, double[] max) {}

    /**
     * Writes the chart. AWT runs headless, so no display is needed.
     *
     * @throws IOException when the file cannot be written
     */
    static void write(Path file, String title, List<Series> series) throws IOException {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        XYChart chart = chart(title, series);
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }

    /**
     * The chart: the x axis spans exactly the measured batch sizes, labelled at every decade when
     * they span two decades or more, else at each 1–9 × 10^k (so that a sweep of small batches keeps
     * its labels); min and max lines carry no legend entry.
     */
    static XYChart chart(String title, List<Series> series) {
        XYChart chart = new XYChartBuilder().width(960).height(600).title(title)
                .xAxisTitle("batch size (tasks)").yAxisTitle("operations per second (lines: median; dashed: min, max)")
                .build();
        double smallest = Double.POSITIVE_INFINITY;
        double largest = 0;
        for (Series s : series) {
            for (double x : s.batchSizes()) {
                smallest = Math.min(smallest, x);
                largest = Math.max(largest, x);
            }
        }
        chart.getStyler().setXAxisLogarithmic(true);
        if (largest > 0) {
            chart.getStyler().setXAxisMin(smallest);
            chart.getStyler().setXAxisMax(largest);
            chart.getStyler().setXAxisLogarithmicDecadeOnly(largest / smallest >= DECADES_ONLY_FROM);
        }
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisDecimalPattern("#,###");
        chart.getStyler().setXAxisDecimalPattern("#,###");
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        Color[] palette = chart.getStyler().getSeriesColors();
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            Color color = palette[i % palette.length];
            XYSeries median = chart.addSeries(s.name(), s.batchSizes(), s.opsPerSecond());
            median.setLineColor(color);
            median.setMarkerColor(color);
            for (String bound : List.of("min", "max")) {
                XYSeries range = chart.addSeries(s.name() + " " + bound, s.batchSizes(),
                        bound.equals("min") ? s.min() : s.max());
                range.setShowInLegend(false);
                range.setMarker(SeriesMarkers.NONE);
                range.setLineStyle(RANGE_STROKE);
                range.setLineColor(color);
            }
        }
        return chart;
    }
}
