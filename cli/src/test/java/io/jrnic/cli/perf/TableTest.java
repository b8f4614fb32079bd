package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableTest {
    /** Three RDMA runs (1000, 500, 1500 MB/s: median 1000) against TCP runs of 2000 MB/s. */
    private static final Result WRITE_BW = Result.bwRuns(new PerfCase(Op.WRITE, Kind.BW, 65536, 100),
            List.of(new BwFigure(100, 65536, 6_553_600), new BwFigure(100, 65536, 13_107_200),
                    new BwFigure(100, 65536, 4_369_067)),
            List.of(new BwFigure(100, 65536, 3_276_800), new BwFigure(100, 65536, 3_276_800),
                    new BwFigure(100, 65536, 3_276_800)), null, null);
    private static final Result SEND_LAT = Result.lat(new PerfCase(Op.SEND, Kind.LAT, 64, 4),
            LatFigure.of(new long[] {2000, 4000, 6000, 8000}, 4, 0.5), LatFigure.of(new long[] {1000, 1000, 1000, 1000}, 4, 0.5),
            null, "capped at 1 s");
    private static final Result READ_BLOCK = Result.lat(new PerfCase(Op.READ, Kind.LAT_BLOCK, 64, 2),
            LatFigure.of(new long[] {9000, 11000}, 2, 1.0), LatFigure.of(new long[] {3000, 3000}, 2, 1.0), null, null);
    private static final Result READ_FAILED = Result.bw(new PerfCase(Op.READ, Kind.BW, 64, 10), null,
            new BwFigure(10, 64, 1000), "client: timed out, waiting", null);

    @Test
    void textTableShowsFiguresRatiosAndFailures() {
        StringWriter w = new StringWriter();
        Table.text(new PrintWriter(w), List.of(WRITE_BW, SEND_LAT, READ_FAILED), "banner");
        String s = w.toString();
        assertTrue(s.startsWith("banner"), s);
        assertTrue(s.contains("MB = 10^6 bytes"), s);
        // median run: 100 x 65536 B in 6.5536 ms = 1000 MB/s (runs 500..1500); TCP twice as fast; ratio of medians 0.5
        assertTrue(s.matches("(?s).*write\\s+16/16\\s+65536\\s+100\\s+1000\\.00\\s+0\\.0153\\s+500\\.00-1500\\.00 \\|\\s+100\\s+2000\\.00"
                + "\\s+0\\.0305\\s+2000\\.00-2000\\.00 \\|\\s+0\\.500  ok\n.*"), s);
        // half round trips: 1, 2, 3, 4 us -> min 1, p50 2, p99 4, max 4; TCP p50 0.5; ratio 4
        assertTrue(s.matches("(?s).*send\\s+64\\s+4\\s+1\\.00\\s+2\\.00\\s+4\\.00\\s+4\\.00\\s+- \\|\\s+0\\.50\\s+0\\.50\\s+0\\.50\\s+0\\.50\\s+- \\|\\s+4\\.000  ok \\(capped at 1 s\\)\n.*"), s);
        assertTrue(s.matches("(?s).*read\\s+16/16\\s+64\\s+-\\s+-\\s+-.*FAILED: client: timed out, waiting\n.*"), s);
        assertTrue(s.endsWith("1 of 3 tests FAILED\n"), s);
        assertTrue(s.contains("\nLatency, busy-polling  ("), s);
        assertTrue(!s.contains("Latency, blocking"), s);
    }

    @Test
    void theCpuSectionComesWithCpuAndGivesCoresSecondsPerGbAndTheirRatio() {
        // RDMA: 1 GB in 1 s on 1.8 busy cores (1.8 s/GB); TCP: 1 GB in 1 s on 1.2 (1.2 s/GB); ratio 1.5
        CpuClock.Use rdmaCpu = new CpuClock.Use(1_000_000_000L, 1.7, 1.8);
        CpuClock.Use tcpCpu = new CpuClock.Use(1_000_000_000L, 1.1, 1.2);
        Result r = Result.bw(new PerfCase(Op.WRITE, Kind.BW, 1_000_000, 1000),
                new BwFigure(1000, 1_000_000, 1_000_000_000L, rdmaCpu), new BwFigure(1000, 1_000_000, 1_000_000_000L, tcpCpu),
                null, null);
        StringWriter plain = new StringWriter();
        Table.text(new PrintWriter(plain), List.of(r), null);
        assertTrue(!plain.toString().contains("CPU of the bandwidth rows"), plain.toString());
        StringWriter w = new StringWriter();
        Table.text(new PrintWriter(w), List.of(r, READ_FAILED), null, true);
        String s = w.toString();
        assertTrue(s.matches("(?s).*\\nCPU of the bandwidth rows.*\\nwrite\\s+16/16\\s+1000000 \\|\\s+1\\.80\\s+1\\.800\\s+1\\.70\\s+1\\.700"
                + " \\|\\s+1\\.20\\s+1\\.200\\s+1\\.10\\s+1\\.100 \\|\\s+1\\.500\\n.*"), s);
        // a row whose figures were not read says n/a; a side not measured says -
        assertTrue(s.matches("(?s).*\\nread\\s+16/16\\s+64 \\|\\s+-\\s+-\\s+-\\s+- \\|\\s+n/a\\s+n/a\\s+n/a\\s+n/a \\|\\s+-\\n.*"), s);
        StringWriter csv = new StringWriter();
        Table.csv(new PrintWriter(csv), List.of(r));
        String[] lines = csv.toString().split("\n");
        String[] head = lines[0].split(",", -1);
        String[] row = lines[1].split(",", -1);
        assertEquals("1.800", row[java.util.Arrays.asList(head).indexOf("host_cores")]);
        assertEquals("1.2000", row[java.util.Arrays.asList(head).indexOf("tcp_host_s_per_gb")]);
        assertEquals("1.100", row[java.util.Arrays.asList(head).indexOf("tcp_proc_cores")]);
    }

    @Test
    void busyPollingAndBlockingLatencyAreSeparateSections() {
        StringWriter w = new StringWriter();
        Table.text(new PrintWriter(w), List.of(SEND_LAT, READ_BLOCK), null);
        String s = w.toString();
        int poll = s.indexOf("Latency, busy-polling  (");
        int block = s.indexOf("Latency, blocking  (");
        assertTrue(poll >= 0 && block > poll, s);
        assertTrue(s.indexOf("\nsend ") > poll && s.indexOf("\nsend ") < block, s);
        // whole READs: min 9, p50 9, TCP 3; ratio 3
        assertTrue(s.substring(block).matches("(?s).*\nread\\s+64\\s+2\\s+9\\.00\\s+9\\.00\\s+11\\.00.*\\|\\s+3\\.000  ok\n.*"), s);
        assertTrue(s.endsWith("all 2 tests passed (data verified)\n"), s);
    }

    @Test
    void perMessageRowsSayMsgAndRowsNotRunSayWhyWithoutFailing() {
        Result msg = Result.bw(new PerfCase(Op.SEND, Kind.BW_MSG, 64, 10), new BwFigure(10, 64, 1000),
                new BwFigure(10, 64, 1000), null, null);
        Result vt = Result.skipped(new PerfCase(Op.SEND, Kind.LAT_BLOCK_VT, 64, 10), "needs JDK 21+");
        StringWriter w = new StringWriter();
        Table.text(new PrintWriter(w), List.of(msg, vt), null);
        String s = w.toString();
        assertTrue(s.matches("(?s).*\nsend\\s+msg\\s+64\\s+10\\s.*"), s);
        assertTrue(s.contains("Latency, blocking on virtual threads  ("), s);
        assertTrue(s.contains("not run: needs JDK 21+\n"), s);
        assertTrue(s.endsWith("all 1 tests passed (data verified); 1 not run\n"), s);
        assertTrue(vt.ok() && vt.isSkipped() && !msg.isSkipped());
        StringWriter c = new StringWriter();
        Table.csv(new PrintWriter(c), List.of(vt));
        assertTrue(c.toString().split("\n")[1].startsWith("lat-block-vt,send,64,,"), c.toString());
        assertTrue(c.toString().split("\n")[1].contains(",skipped,needs JDK 21+,"), c.toString());
    }

    @Test
    void csvHasOneRowPerResultAndQuotesDetails() {
        StringWriter w = new StringWriter();
        Table.csv(new PrintWriter(w), List.of(WRITE_BW, SEND_LAT, READ_FAILED));
        String[] lines = w.toString().split("\n");
        assertEquals(4, lines.length);
        assertEquals(Table.CSV_HEADER, lines[0]);
        int columns = Table.CSV_HEADER.split(",").length;
        assertEquals("bw,write,65536,100,1000.00,0.0153,,,,,100,2000.00,0.0305,,,,,0.500,ok,,3,500.00,1500.00,2000.00,2000.00,,,16,16,,,,,,,,",
                lines[1]);
        assertEquals(columns, lines[1].split(",", -1).length);
        assertEquals("lat,send,64,4,,,1.00,2.00,4.00,4.00,4,,,0.50,0.50,0.50,0.50,4.000,ok,capped at 1 s,1,,,,,4.00,0.50,1,1,,,,,,,,", lines[2]);
        assertEquals("bw,read,64,,,,,,,,10,640.00,10.0000,,,,,,FAILED,\"client: timed out, waiting\",1,,,,,,,16,16,,,,,,,,", lines[3]);
        StringWriter b = new StringWriter();
        Table.csv(new PrintWriter(b), List.of(READ_BLOCK));
        String row = b.toString().split("\n")[1];
        assertEquals("lat-block,read,64,2,,,9.00,9.00,11.00,11.00,2,,,3.00,3.00,3.00,3.00,3.000,ok,,1,,,,,11.00,3.00,1,1,,,,,,,,", row);
        assertEquals(columns, row.split(",", -1).length);
    }
}
