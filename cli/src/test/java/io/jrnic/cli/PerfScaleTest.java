package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code jrnic perf --scale}, small: the server JVM starts, every set-up and every idle connection succeeds. */
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
    void scaleNeedsAPositiveCount() {
        assertEquals(2, CliRun.of("perf", "--scale", "0").exit());
    }
}
