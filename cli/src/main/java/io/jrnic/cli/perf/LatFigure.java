package io.jrnic.cli.perf;

import java.util.Arrays;

/**
 * A latency distribution in microseconds (p99.9 last: it was added after the others). Percentiles use the nearest-rank method: p-th
 * percentile = the ceil(p/100 * n)-th smallest sample.
 */
public record LatFigure(long iterations, double minUs, double p50Us, double p99Us, double maxUs, double p999Us) {

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
        return new LatFigure(n, s[0] * k, s[rank(50, n)] * k, s[rank(99, n)] * k, s[n - 1] * k, s[rank(99.9, n)] * k);
    }

    /** Zero-based index of the nearest-rank p-th percentile among n sorted samples (p to a tenth: 99.9). */
    static int rank(double p, int n) {
        long permille = Math.round(p * 10); // exact: ceil(permille * n / 1000) without floating-point rounding
        return (int) Math.max(0, (permille * n + 999) / 1000 - 1);
    }
}
