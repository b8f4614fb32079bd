package io.jrnic.cli.perf;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.title.LegendTitle;
import org.jfree.data.xy.XYSeries;

/**
 * The two-host picture ({@code interop/netns/twohost-perf.sh}, drawn by {@code jrnic perf --loss-chart CSV}):
 * bandwidth against the random loss on the link, one plot per MTU, rate limit and congestion control, one line per RDMA
 * operation and message size next to iperf3 on the same path; 1 MiB lines dashed. Drawn in the sweep's style
 * ({@link SweepChart}).
 */
public final class LossChart {
    /**
     * The runner's CSV header (one row per measurement); cc is the hosts' TCP congestion control; host_cores and
     * host_s_per_gb the machine's CPU over a bandwidth run (busy cores, core-seconds per GB).
     */
    public static final String HEADER =
            "mtu,rate,loss_pct,loss_dir,cc,tool,test,bytes,bw_mb_s,p50_us,p99_us,p999_us,retransmits,result,host_cores,"
                    + "host_s_per_gb";
    /** The header before the CPU columns (still read). */
    public static final String HEADER_WITHOUT_CPU =
            "mtu,rate,loss_pct,loss_dir,cc,tool,test,bytes,bw_mb_s,p50_us,p99_us,p999_us,retransmits,result";
    /** The header before the cc column (still read: its rows name no congestion control). */
    public static final String HEADER_WITHOUT_CC =
            "mtu,rate,loss_pct,loss_dir,tool,test,bytes,bw_mb_s,p50_us,p99_us,p999_us,retransmits,result";

    private LossChart() {
    }

    /** One bandwidth row of the runner's CSV. */
    record Row(String link, double loss, String series, double mbs) {
    }

    /**
     * The bandwidth rows of jrnic (RDMA) and iperf3 in the runner's CSV; latency rows (empty bw_mb_s), failed rows and
     * jrnic perf's own java.nio baseline (in the CSV, not drawn: iperf3 is the TCP line) are left out.
     */
    static List<Row> read(List<String> lines) {
        boolean withCc = !lines.isEmpty() && (lines.get(0).equals(HEADER) || lines.get(0).equals(HEADER_WITHOUT_CPU));
        if (!withCc && (lines.isEmpty() || !lines.get(0).equals(HEADER_WITHOUT_CC))) {
            throw new IllegalArgumentException("not a twohost-perf CSV (header must be: " + HEADER + ")");
        }
        int o = withCc ? 1 : 0; // columns after loss_dir sit one further right when cc is there
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = Arrays.copyOf(line.split(",", -1), 13 + o);
            boolean drawn = "jrnic".equals(f[4 + o]) || "iperf3".equals(f[4 + o]);
            if (!drawn || f[7 + o] == null || f[7 + o].isEmpty() || !"ok".equals(f[12 + o])) {
                continue;
            }
            String link = "MTU " + f[0] + ", rate " + f[1] + (withCc && !f[4].isEmpty() ? ", " + f[4] : "");
            String size = sizeLabel(Integer.parseInt(f[6 + o]));
            String series = ("iperf3".equals(f[4 + o]) ? "TCP iperf3" : "RDMA " + f[5 + o]) + " " + size;
            rows.add(new Row(link, Double.parseDouble(f[2]), series, Double.parseDouble(f[7 + o])));
        }
        return rows;
    }

    static String sizeLabel(int bytes) {
        return bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? (bytes >> 20) + "M"
                : bytes >= 1024 && bytes % 1024 == 0 ? (bytes >> 10) + "K" : Integer.toString(bytes);
    }

    static JFreeChart chart(List<Row> rows) {
        List<Double> losses = new ArrayList<>(new TreeSet<>(rows.stream().map(Row::loss).toList()));
        String[] labels = losses.stream().map(l -> (l == Math.rint(l) ? Long.toString(l.longValue()) : l.toString()) + " %")
                .toArray(String[]::new);
        SymbolAxis x = new SymbolAxis("random loss on the link", labels);
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(x);
        Map<String, Map<String, XYSeries>> byLink = new LinkedHashMap<>();
        for (Row r : rows) {
            SweepChart.add(byLink.computeIfAbsent(r.link(), k -> new LinkedHashMap<>()), r.series(),
                    losses.indexOf(r.loss()), r.mbs());
        }
        XYPlot first = null;
        for (Map.Entry<String, Map<String, XYSeries>> e : byLink.entrySet()) {
            XYPlot p = SweepChart.plot(e.getValue().values(), new NumberAxis("MB/s, " + e.getKey()));
            for (int i = 0; i < p.getDataset().getSeriesCount(); i++) {
                if (((String) p.getDataset().getSeriesKey(i)).endsWith(" 1M")) {
                    p.getRenderer().setSeriesStroke(i, new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER,
                            10f, new float[] {6f, 4f}, 0f));
                }
            }
            plot.add(p, 1);
            first = first == null ? p : first;
        }
        JFreeChart chart = new JFreeChart("jrnic across two network namespaces (veth): bandwidth against loss, RDMA vs"
                + " TCP (iperf3)", JFreeChart.DEFAULT_TITLE_FONT, plot, false);
        if (first != null) {
            chart.addLegend(new LegendTitle(first));
            chart.getLegend().setPosition(org.jfree.chart.ui.RectangleEdge.BOTTOM);
        }
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    /**
     * Tall enough for each link's plot to keep its axis label legible: 120 px plus 200 a plot, at least
     * {@link SweepChart#HEIGHT} (which up to three plots keep).
     */
    static int height(List<Row> rows) {
        long links = rows.stream().map(Row::link).distinct().count();
        return (int) Math.max(SweepChart.HEIGHT, 120 + 200 * links);
    }

    /** Reads {@code csv}, writes {@code twohost.png} and {@code twohost.svg} into {@code dir}. */
    public static List<Path> write(Path csv, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<Row> rows = read(Files.readAllLines(csv, StandardCharsets.UTF_8));
        Files.createDirectories(dir);
        Path png = dir.resolve("twohost.png");
        Path svg = dir.resolve("twohost.svg");
        SweepChart.save(chart(rows), png, svg, height(rows));
        return List.of(png, svg);
    }
}
