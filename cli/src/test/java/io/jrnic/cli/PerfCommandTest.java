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
        assertEquals(9, lines.size(), r.out());
        for (String l : lines.subList(1, 9)) {
            assertTrue(l.contains(",ok,"), l);
        }
        assertEquals(List.of("bw", "bw", "bw", "lat", "lat", "lat", "lat-block", "lat-block"),
                lines.subList(1, 9).stream().map(l -> l.split(",")[0]).toList());
    }

    @Test
    void textRunSaysDecimalMegabytesAndAllPassed() {
        CliRun r = CliRun.of("perf", "--test", "read", "--mode", "bw", "--size", "128", "--iterations", "20", "--no-crc");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("MB = 10^6 bytes"), r.out());
        assertTrue(r.out().contains("CRC off"), r.out());
        assertTrue(r.out().contains("all 1 tests passed (data verified)"), r.out());
        assertTrue(r.out().contains("; direct memory (--memory)"), r.out());
        List<String> header = r.out().lines().takeWhile(l -> !l.isBlank()).toList();
        assertTrue(header.size() <= 3 && header.get(0).startsWith("jrnic perf: ") && header.get(header.size() - 1).contains("ratio = "),
                String.join("\n", header));
    }

    @Test
    void helpCarriesTheMethodTheHeaderLeavesOut() {
        CliRun r = CliRun.of("perf", "--help");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("Method (README.md") && r.out().contains("verifies the bytes it moved"), r.out());
    }

    @Test
    void heapMemoryIsAChoiceAndSaysSo() {
        CliRun r = CliRun.of("perf", "--test", "write", "--mode", "bw", "--size", "8192", "--iterations", "20",
                "--memory", "heap", "--reps", "1");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("; heap memory (--memory)"), r.out());
        assertTrue(r.out().contains("all 1 tests passed (data verified)"), r.out());
        assertEquals(2, CliRun.of("perf", "--memory", "offheap").exit());
    }

    @Test
    void eachRowAlternatesTheRequestedRepetitionsAndSaysSo() {
        CliRun r = CliRun.of("perf", "--test", "write", "--size", "256", "--iterations", "20", "--window", "4",
                "--reps", "3", "--format", "csv");
        assertEquals(0, r.exit(), r.err() + r.out());
        List<String> lines = r.outLines();
        assertEquals(3, lines.size(), r.out());
        String[] header = Table.CSV_HEADER.split(",");
        int reps = List.of(header).indexOf("reps");
        for (String l : lines.subList(1, 3)) {
            String[] f = l.split(",", -1);
            assertEquals("3", f[reps], l);
            double min = Double.parseDouble(f[reps + 1]);
            double max = Double.parseDouble(f[reps + 2]);
            assertTrue(min <= max, l);
        }
        assertEquals(6, r.err().lines().filter(x -> x.startsWith("running write")).count(), r.err());
        assertEquals(6, r.err().lines().filter(x -> x.startsWith("running tcp")).count(), r.err());
        CliRun text = CliRun.of("perf", "--test", "send", "--mode", "lat", "--size", "64", "--iterations", "20",
                "--reps", "2");
        assertEquals(0, text.exit(), text.err() + text.out());
        assertTrue(text.out().contains("alternates 2 RDMA and 2 TCP runs"), text.out());
        // --mode lat: a busy-polling and a blocking row, each in its own section
        assertTrue(text.out().contains("Latency, busy-polling  (") && text.out().contains("Latency, blocking  ("), text.out());
        assertTrue(text.out().contains("all 2 tests passed (data verified)"), text.out());
    }

    @Test
    void busyRunsWithACpuBoundThreadPerCoreAndSaysSo() {
        CliRun r = CliRun.of("perf", "--test", "write", "--mode", "lat", "--size", "64", "--iterations", "50",
                "--reps", "1", "--busy");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("CPU-bound threads (one per core) ran throughout"), r.out());
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("jrnic-perf-busy")),
                "busy threads left running");
    }

    @Test
    void badOptionsExitTwo() {
        assertEquals(2, CliRun.of("perf", "--reps", "0").exit());
        assertEquals(2, CliRun.of("perf", "--size", "0").exit());
        assertEquals(2, CliRun.of("perf", "--mpa-rev", "3").exit());
        assertEquals(2, CliRun.of("perf", "--server", "--connect", "x").exit());
    }
}
