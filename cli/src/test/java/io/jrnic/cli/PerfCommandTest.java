package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.cli.perf.Table;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class PerfCommandTest {

    @Test
    void csvRunOfEveryTestExitsZero() {
        CliRun r = CliRun.of("perf", "--size", "64", "--iterations", "30", "--window", "8", "--format", "csv");
        assertEquals(0, r.exit(), r.err() + r.out());
        List<String> lines = r.outLines();
        assertEquals(Table.CSV_HEADER, lines.get(0));
        assertEquals(7, lines.size(), r.out());
        for (String l : lines.subList(1, 7)) {
            assertTrue(l.contains(",ok,"), l);
        }
    }

    @Test
    void textRunSaysDecimalMegabytesAndAllPassed() {
        CliRun r = CliRun.of("perf", "--test", "read", "--mode", "bw", "--size", "128", "--iterations", "20", "--no-crc");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("MB = 10^6 bytes"), r.out());
        assertTrue(r.out().contains("CRC off"), r.out());
        assertTrue(r.out().contains("all 1 tests passed (data verified)"), r.out());
    }

    @Test
    void badOptionsExitTwo() {
        assertEquals(2, CliRun.of("perf", "--size", "0").exit());
        assertEquals(2, CliRun.of("perf", "--mpa-rev", "3").exit());
        assertEquals(2, CliRun.of("perf", "--server", "--connect", "x").exit());
    }
}
