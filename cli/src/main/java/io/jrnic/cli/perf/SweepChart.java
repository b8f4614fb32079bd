package io.jrnic.cli.perf;

import java.awt.Color;
import java.awt.Rectangle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/**
 * The sweep's picture: bandwidth (MB/s, median run) and latency (p50, microseconds) against the message size on a
 * base-2 log axis, one line per RDMA operation and one for the TCP baseline. Drawn with JFreeChart (the long-lived
 * reference charting library for Java, no dependencies of its own) and written as PNG (ImageIO) and as SVG through
 * JFreeSVG, by the same maintainer; runs headless.
 */
public final class SweepChart {
    static final int WIDTH = 1000;
    static final int HEIGHT = 900;

    /** The same colour for a line in both plots. */
    private static final Map<String, Color> COLOURS = Map.of("RDMA WRITE", new Color(0xD62728), "RDMA READ",
            new Color(0x2CA02C), "RDMA SEND", new Color(0xFF7F0E), "TCP", new Color(0x1F77B4));

    private SweepChart() {
    }

    /** Byte counts as 2, 64, 4K, 1M. */
    private static final class SizeFormat extends java.text.NumberFormat {
        @Override
        public StringBuffer format(double v, StringBuffer to, java.text.FieldPosition pos) {
            return format(Math.round(v), to, pos);
        }

        @Override
        public StringBuffer format(long v, StringBuffer to, java.text.FieldPosition pos) {
            return to.append(v >= 1 << 20 && v % (1 << 20) == 0 ? (v >> 20) + "M"
                    : v >= 1024 && v % 1024 == 0 ? (v >> 10) + "K" : Long.toString(v));
        }

        @Override
        public Number parse(String source, java.text.ParsePosition pos) {
            throw new UnsupportedOperationException();
        }
    }

    public static void write(List<Result> results, PerfConfig cfg, Path png, Path svg) throws IOException {
        System.setProperty("java.awt.headless", "true");
        save(chart(results, cfg), png, svg);
    }

    /** Writes {@code chart} as PNG and SVG, {@link #WIDTH} x {@link #HEIGHT} (shared with {@link LossChart}). */
    static void save(JFreeChart chart, Path png, Path svg) throws IOException {
        save(chart, png, svg, HEIGHT);
    }

    /** The same, {@code height} pixels high (a chart of many stacked plots). */
    static void save(JFreeChart chart, Path png, Path svg, int height) throws IOException {
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, height);
        SVGGraphics2D g = new SVGGraphics2D(WIDTH, height);
        chart.draw(g, new Rectangle(0, 0, WIDTH, height));
        Files.writeString(svg, g.getSVGDocument(), StandardCharsets.UTF_8);
    }

    static JFreeChart chart(List<Result> results, PerfConfig cfg) {
        LogAxis size = new LogAxis("message size (bytes)");
        size.setBase(2);
        size.setSmallestValue(1);
        size.setAutoTickUnitSelection(false);
        size.setTickUnit(new NumberTickUnit(1)); // one tick per power of two
        size.setNumberFormatOverride(new SizeFormat());
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(size);
        XYPlot bw = subplot(results, Kind.BW, new NumberAxis("bandwidth (MB/s, median run)"));
        plot.add(bw, 1);
        LogAxis us = new LogAxis("latency p50 (microseconds; busy-polling, TCP: ping-pong)");
        us.setBase(2);
        us.setSmallestValue(0.1);
        us.setAutoTickUnitSelection(false);
        us.setTickUnit(new NumberTickUnit(1)); // one tick per doubling
        us.setNumberFormatOverride(new java.text.DecimalFormat("#,##0.#"));
        plot.add(subplot(results, Kind.LAT, us), 1);
        JFreeChart chart = new JFreeChart("jrnic perf --sweep: soft RNIC (MPA v" + cfg.mpaRevision() + ", CRC "
                + (cfg.crc() ? "on" : "off") + ") vs TCP on 127.0.0.1", JFreeChart.DEFAULT_TITLE_FONT, plot, false);
        chart.addLegend(new LegendTitle(bw)); // one legend: both plots use the same names and colours
        chart.getLegend().setPosition(org.jfree.chart.ui.RectangleEdge.BOTTOM);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    private static XYPlot subplot(List<Result> results, Kind kind, org.jfree.chart.axis.ValueAxis y) {
        Map<String, XYSeries> series = new LinkedHashMap<>();
        for (Result r : results) {
            if (r.test().kind() != kind || r.failure() != null) {
                continue;
            }
            double x = r.test().size();
            String op = "RDMA " + r.test().op().name();
            if (kind == Kind.BW) {
                add(series, op, x, r.rdmaBw() == null ? Double.NaN : r.rdmaBw().megabytesPerSecond());
                // one TCP line: the baseline of the first operation measured at this size
                add(series, "TCP", x, r.tcpBw() == null ? Double.NaN : r.tcpBw().megabytesPerSecond());
            } else {
                add(series, op, x, r.rdmaLat() == null ? Double.NaN : r.rdmaLat().p50Us());
                add(series, "TCP", x, r.tcpLat() == null ? Double.NaN : r.tcpLat().p50Us());
            }
        }
        return plot(series.values(), y);
    }

    /**
     * A plot of {@code series} in the sweep's style: lines with points, each coloured by its name's operation
     * ("RDMA WRITE", "RDMA READ", "RDMA SEND", "TCP"; a name may go on after it, e.g. "RDMA WRITE 64K"), white
     * background, light grid (shared with {@link LossChart}).
     */
    static XYPlot plot(java.util.Collection<XYSeries> series, org.jfree.chart.axis.ValueAxis y) {
        XYSeriesCollection data = new XYSeriesCollection();
        series.forEach(data::addSeries);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            renderer.setSeriesPaint(i, colour((String) data.getSeriesKey(i)));
        }
        XYPlot p = new XYPlot(data, null, y, renderer);
        p.setBackgroundPaint(Color.WHITE);
        p.setDomainGridlinePaint(Color.LIGHT_GRAY);
        p.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return p;
    }

    /** The colour of the operation {@code name} begins with; grey for any other. */
    static Color colour(String name) {
        for (Map.Entry<String, Color> e : COLOURS.entrySet()) {
            if (name.startsWith(e.getKey())) {
                return e.getValue();
            }
        }
        return Color.GRAY;
    }

    static void add(Map<String, XYSeries> series, String name, double x, double y) {
        if (Double.isNaN(y) || y <= 0) {
            return;
        }
        XYSeries s = series.computeIfAbsent(name, n -> new XYSeries(n, true, false));
        if (s.indexOf(x) < 0) {
            s.add(x, y);
        }
    }
}
