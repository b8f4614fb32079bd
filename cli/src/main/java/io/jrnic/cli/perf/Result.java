package io.jrnic.cli.perf;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One row: the RDMA figure and the raw-TCP baseline of the same size (either may be null when not measured),
 * and the outcome. With k alternating repetitions ({@link PerfConfig#reps()}) each figure is the median run of
 * its side (the lower median for an even k), ranked by MB/s for bandwidth rows and by p50 for latency rows, and
 * {@code rdmaSpread}/{@code tcpSpread} hold the min and max of that metric over the k runs. {@code failure} is
 * null when the test passed; {@code note} is free text (e.g. "capped at 60 s").
 */
public record Result(PerfCase test, BwFigure rdmaBw, LatFigure rdmaLat, BwFigure tcpBw, LatFigure tcpLat,
                     String failure, String note, int reps, Spread rdmaSpread, Spread tcpSpread) {

    /** Min and max of a row's metric over its repetitions (MB/s or p50 microseconds). */
    public record Spread(double min, double max) {
        static <T> Spread of(List<T> runs, ToDoubleFunction<T> metric) {
            if (runs.isEmpty()) {
                return null;
            }
            double min = Double.MAX_VALUE;
            double max = -Double.MAX_VALUE;
            for (T r : runs) {
                min = Math.min(min, metric.applyAsDouble(r));
                max = Math.max(max, metric.applyAsDouble(r));
            }
            return new Spread(min, max);
        }
    }

    public static Result bw(PerfCase t, BwFigure rdma, BwFigure tcp, String failure, String note) {
        return new Result(t, rdma, null, tcp, null, failure, note, 1, null, null);
    }

    public static Result lat(PerfCase t, LatFigure rdma, LatFigure tcp, String failure, String note) {
        return new Result(t, null, rdma, null, tcp, failure, note, 1, null, null);
    }

    /** A row not run, and why (e.g. virtual threads on a JDK without them): neither passed nor failed. */
    public static Result skipped(PerfCase t, String why) {
        return new Result(t, null, null, null, null, null, why, 0, null, null);
    }

    /** Whether the row was not run ({@link #skipped}). */
    public boolean isSkipped() {
        return failure == null && reps == 0 && rdmaBw == null && rdmaLat == null;
    }

    /** A bandwidth row from k runs of each side: medians by MB/s. */
    public static Result bwRuns(PerfCase t, List<BwFigure> rdma, List<BwFigure> tcp, String failure, String note) {
        ToDoubleFunction<BwFigure> m = BwFigure::megabytesPerSecond;
        return new Result(t, median(rdma, m), null, median(tcp, m), null, failure, note, Math.max(rdma.size(), tcp.size()),
                Spread.of(rdma, m), Spread.of(tcp, m));
    }

    /** A latency row from k runs of each side: medians by p50. */
    public static Result latRuns(PerfCase t, List<LatFigure> rdma, List<LatFigure> tcp, String failure, String note) {
        ToDoubleFunction<LatFigure> m = LatFigure::p50Us;
        return new Result(t, null, median(rdma, m), null, median(tcp, m), failure, note,
                Math.max(rdma.size(), tcp.size()), Spread.of(rdma, m), Spread.of(tcp, m));
    }

    /** The run whose metric is the median (lower median for an even count), or null for none. */
    static <T> T median(List<T> runs, ToDoubleFunction<T> metric) {
        if (runs.isEmpty()) {
            return null;
        }
        List<T> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(metric));
        return sorted.get((sorted.size() - 1) / 2);
    }

    public boolean ok() {
        return failure == null;
    }

    /**
     * RDMA / TCP of the medians: bandwidth ratio for BW rows (equal to the message-rate ratio at equal sizes); p50
     * ratio for LAT rows; NaN if either side is missing.
     */
    public double ratio() {
        if (test.kind().bandwidth()) {
            return rdmaBw == null || tcpBw == null || tcpBw.megabytesPerSecond() == 0 ? Double.NaN
                    : rdmaBw.megabytesPerSecond() / tcpBw.megabytesPerSecond();
        }
        return rdmaLat == null || tcpLat == null || tcpLat.p50Us() == 0 ? Double.NaN : rdmaLat.p50Us() / tcpLat.p50Us();
    }
}
