package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code jrnic perf --scale} and {@code --qps}, small: every set-up, idle connection and Write succeeds. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PerfScaleTest {
    @Test
    void aSmallScaleRunSetsUpAndHoldsEveryConnection() {
        CliRun r = CliRun.of("perf", "--scale", "300", "--setup-seconds", "1");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().matches("(?s).*set-up rate .* set-ups/s .* 0 failed.*"), r.out());
        assertTrue(r.out().contains("idle QPs              300 connected at once"), r.out());
        assertTrue(r.out().contains("(0 failed)"), r.out());
        assertTrue(r.out().matches("(?s).*heap per QP +[0-9.,]+ KiB.*"), r.out());
    }

    @Test
    void anAggregateRunOfTwoQpsVerifiesWhatItWroteAndPrintsBothSides() {
        CliRun r = CliRun.of("perf", "--qps", "2", "--reps", "1", "--run-seconds", "1", "--size", "4096");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().matches("(?s).*RDMA WRITE +[0-9,]+ MB/s.*TCP +[0-9,]+ MB/s.*ratio +[0-9.]+.*"), r.out());
        assertEquals(2, CliRun.of("perf", "--qps", "0").exit());
    }

    @Test
    void aSmallSweepWritesItsCsvAndBothPictures(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        CliRun r = CliRun.of("perf", "--sweep", "--size", "64,4096", "--test", "write", "--iterations", "200",
                "--out", dir.toString());
        assertEquals(0, r.exit(), r.err() + r.out());
        java.util.List<String> csv = java.nio.file.Files.readAllLines(dir.resolve("perf-sweep.csv"));
        assertEquals(5, csv.size(), String.join("\n", csv)); // header, bw and lat rows of both sizes
        byte[] png = java.nio.file.Files.readAllBytes(dir.resolve("perf-sweep.png"));
        assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G', "not a PNG");
        String svg = java.nio.file.Files.readString(dir.resolve("perf-sweep.svg"));
        assertTrue(svg.contains("<svg") && svg.contains("RDMA WRITE"), "not the sweep's SVG");
    }

    @Test
    void scaleNeedsAPositiveCount() {
        assertEquals(2, CliRun.of("perf", "--scale", "0").exit());
    }
}
