package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.cli.perf.FullWarmUp;
import io.jrnic.cli.perf.Table;
import io.jrnic.cli.perf.VirtualThreads;
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
        assertEquals(14, lines.size(), r.out());
        List<String> rows = lines.subList(1, 14);
        assertEquals(List.of("bw-msg", "bw", "bw-msg", "bw", "bw-msg", "bw", "lat", "lat", "lat", "lat-block", "lat-block",
                        "lat-block-vt", "lat-block-vt"), rows.stream().map(l -> l.split(",")[0]).toList());
        for (String l : rows) {
            // the virtual-thread rows run on JDK 21+ and say why not before
            boolean vt = l.startsWith("lat-block-vt,");
            assertTrue(l.contains(!vt || VirtualThreads.available() ? ",ok," : ",skipped,needs JDK 21+"), l);
        }
        // batched rows: the window (8) caps the default list and signal interval (16); per-message rows: 1 and 1
        List<String> header = List.of(Table.CSV_HEADER.split(","));
        int list = header.indexOf("post_list");
        String[] msg = rows.get(0).split(",", -1);
        String[] batched = rows.get(1).split(",", -1);
        assertEquals(List.of("1", "1", "8", "8"), List.of(msg[list], msg[list + 1], batched[list], batched[list + 1]),
                rows.get(0) + "\n" + rows.get(1));
    }

    /** Also the one run of the module's tests with perf's full warm-up (rounds for 1 s, passes for 4 s; pom.xml). */
    @Test
    void textRunSaysDecimalMegabytesAndAllPassed() throws Exception {
        CliRun r = FullWarmUp.of(() -> CliRun.of("perf", "--test", "read", "--mode", "bw", "--size", "128", "--iterations",
                "20", "--no-crc"));
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("MB = 10^6 bytes"), r.out());
        assertTrue(r.out().contains("CRC off"), r.out());
        // --mode bw: the per-message and the batched row
        assertTrue(r.out().contains("all 2 tests passed (data verified)"), r.out());
        assertTrue(r.out().contains("; direct memory (--memory)"), r.out());
        List<String> header = r.out().lines().takeWhile(l -> !l.isBlank()).toList();
        assertTrue(header.size() <= 3 && header.get(0).startsWith("jrnic perf: ") && header.get(header.size() - 1).contains("ratio = "),
                String.join("\n", header));
    }

    /** {@code --tcp-crc}: the TCP stream carries a CRC per MULPDU (checked by the sink); the header says so. */
    @Test
    void theCrcBaselineRunsBesideEachBandwidthRowAndSaysSo() {
        CliRun r = CliRun.of("perf", "--test", "write", "--mode", "bw", "--size", "20000", "--iterations", "20",
                "--reps", "1", "--tcp-crc", "--format", "csv");
        assertEquals(0, r.exit(), r.err() + r.out());
        CliRun t = CliRun.of("perf", "--test", "write", "--mode", "bw", "--size", "20000", "--iterations", "20",
                "--reps", "1", "--tcp-crc");
        assertEquals(0, t.exit(), t.err() + t.out());
        assertTrue(t.out().startsWith("jrnic perf: soft RNIC (iWARP over TCP) vs raw TCP with a CRC32C per MULPDU (--tcp-crc), "),
                t.out());
        PerfCommand given = new PerfCommand();
        new picocli.CommandLine(given).parseArgs("--tcp-crc");
        assertEquals(io.jrnic.cli.perf.TcpBaseline.CRC, given.config().tcpBaseline());
        PerfCommand none = new PerfCommand();
        new picocli.CommandLine(none).parseArgs("--tcp-crc", "--no-tcp");
        assertEquals(io.jrnic.cli.perf.TcpBaseline.NONE, none.config().tcpBaseline());
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
        assertTrue(r.out().contains("all 2 tests passed (data verified)"), r.out());
        assertEquals(2, CliRun.of("perf", "--memory", "offheap").exit());
    }

    @Test
    void eachRowAlternatesTheRequestedRepetitionsAndSaysSo() {
        CliRun r = CliRun.of("perf", "--test", "write", "--size", "256", "--iterations", "20", "--window", "4",
                "--reps", "3", "--format", "csv");
        assertEquals(0, r.exit(), r.err() + r.out());
        List<String> lines = r.outLines();
        assertEquals(4, lines.size(), r.out());
        String[] header = Table.CSV_HEADER.split(",");
        int reps = List.of(header).indexOf("reps");
        for (String l : lines.subList(1, 4)) {
            String[] f = l.split(",", -1);
            assertEquals("3", f[reps], l);
            double min = Double.parseDouble(f[reps + 1]);
            double max = Double.parseDouble(f[reps + 2]);
            assertTrue(min <= max, l);
        }
        assertEquals(9, r.err().lines().filter(x -> x.startsWith("running write")).count(), r.err());
        assertEquals(9, r.err().lines().filter(x -> x.startsWith("running tcp")).count(), r.err());
        CliRun text = CliRun.of("perf", "--test", "send", "--mode", "lat", "--size", "64", "--iterations", "20",
                "--reps", "2");
        assertEquals(0, text.exit(), text.err() + text.out());
        assertTrue(text.out().contains("alternates 2 RDMA and 2 TCP runs"), text.out());
        // --mode lat: a busy-polling, a blocking and a virtual-thread blocking row, each in its own section
        assertTrue(text.out().contains("Latency, busy-polling  (") && text.out().contains("Latency, blocking  (")
                && text.out().contains("Latency, blocking on virtual threads  ("), text.out());
        assertTrue(text.out().contains(VirtualThreads.available() ? "all 3 tests passed (data verified)\n"
                : "all 2 tests passed (data verified); 1 not run\n"), text.out());
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
    void theStallTimeoutReachesBothSidesConnectOptions() {
        PerfCommand given = new PerfCommand();
        new picocli.CommandLine(given).parseArgs("--stall-timeout", "5");
        assertEquals(java.time.Duration.ofSeconds(5), given.config().connectOptions().transmitStallTimeout());
        assertEquals(java.time.Duration.ofSeconds(5), given.config().clientConnectOptions().transmitStallTimeout());
        PerfCommand byDefault = new PerfCommand();
        new picocli.CommandLine(byDefault).parseArgs();
        assertEquals(io.jrnic.verbs.ConnectOptions.DEFAULT_TRANSMIT_STALL_TIMEOUT,
                byDefault.config().connectOptions().transmitStallTimeout());
    }

    @Test
    void theTcpRtoMinimumReachesThisSidesConnectOptionsAndTheHeader() {
        PerfCommand given = new PerfCommand();
        new picocli.CommandLine(given).parseArgs("--tcp-rto-min", "10");
        assertEquals(java.time.Duration.ofMillis(10), given.config().connectOptions().tcpRtoMin());
        assertEquals(java.time.Duration.ofMillis(10), given.config().clientConnectOptions().tcpRtoMin());
        assertTrue(PerfCommand.banner(given.config(), "here", 0).contains("RDMA streams' minimum RTO 10 ms (--tcp-rto-min)"));
        PerfCommand byDefault = new PerfCommand();
        new picocli.CommandLine(byDefault).parseArgs();
        assertEquals(java.time.Duration.ZERO, byDefault.config().connectOptions().tcpRtoMin());
        assertFalse(PerfCommand.banner(byDefault.config(), "here", 0).contains("RTO"));
    }

    @Test
    void badOptionsExitTwo() {
        assertEquals(2, CliRun.of("perf", "--reps", "0").exit());
        assertEquals(2, CliRun.of("perf", "--size", "0").exit());
        assertEquals(2, CliRun.of("perf", "--mpa-rev", "3").exit());
        assertEquals(2, CliRun.of("perf", "--stall-timeout", "-1").exit());
        assertEquals(2, CliRun.of("perf", "--tcp-rto-min", "201").exit());
        assertEquals(2, CliRun.of("perf", "--server", "--connect", "x").exit());
        CliRun list = CliRun.of("perf", "--post-list", "65");
        assertEquals(2, list.exit());
        assertTrue(list.err().contains("--post-list must be 1..--window (64): 65"), list.err());
        assertEquals(2, CliRun.of("perf", "--cq-mod", "0").exit());
        assertEquals(2, CliRun.of("perf", "--window", "8", "--cq-mod", "9").exit());
    }

    @Test
    void batchedPostingOptionsReachTheRowsAndTheHeader() {
        CliRun r = CliRun.of("perf", "--mode", "bw", "--size", "64,3000", "--iterations", "45", "--window", "16",
                "--post-list", "5", "--cq-mod", "7", "--reps", "1");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("batched bw: lists of 5, 1 signaled per 7 (--post-list, --cq-mod)"), r.out());
        // every op and size: a per-message row next to a batched one, 45 messages each, verified
        for (String op : List.of("write", "read", "send")) {
            for (String size : List.of("64", "3000")) {
                assertTrue(r.out().matches("(?s).*\n" + op + "\\s+msg\\s+" + size + "\\s+45\\s.*\\|\\s+[0-9.]+  ok\n" + op
                        + "\\s+5/7\\s+" + size + "\\s+45\\s.*"), op + " " + size + ":\n" + r.out());
            }
        }
        assertTrue(r.out().contains("all 12 tests passed (data verified)"), r.out());
        CliRun help = CliRun.of("perf", "--help");
        assertTrue(help.out().contains("--post-list") && help.out().contains("--cq-mod"), help.out());
    }
}
