package io.jrnic.cli.perf;

import java.util.Arrays;

/**
 * A latency distribution in microseconds. Percentiles use the nearest-rank method: p-th
 * percentile = the ceil(p/100 * n)-th smallest sample.
 */
public record LatFigure(long iterations, double minUs, double p50Us, double p99Us, double maxUs) {

    /**
     * From the first {@code n} samples in nanoseconds, each multiplied by {@code scale} (0.5 for a
     * half round trip as ib_write_lat / ib_send_lat report, 1 for a whole operation as ib_read_lat).
     */
    public static LatFigure of(long[] samplesNs, int n, double scale) {
        if (n < 1) {
            throw new IllegalArgumentException("no samples");
        }
        long[] s = Arrays.copyOf(samplesNs, n);
        Arrays.sort(s);
        double k = scale / 1000.0;
        return new LatFigure(n, s[0] * k, s[rank(50, n)] * k, s[rank(99, n)] * k, s[n - 1] * k);
    }

    /** Zero-based index of the nearest-rank p-th percentile among n sorted samples. */
    static int rank(int p, int n) {
        return (int) Math.max(0, Math.ceil(p / 100.0 * n) - 1);
    }
}
