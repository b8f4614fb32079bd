package io.jrnic.cli.tools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.ConnectOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** jrnic ib-send-bw/ib-write-bw/ib-read-bw against themselves over loopback, and the pingpong_dest codec. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PerftestLoopbackTest {
    private static final InetSocketAddress ANY_LOCAL = new InetSocketAddress("127.0.0.1", 0);

    @ParameterizedTest
    @EnumSource(Perftest.Verb.class)
    void clientAndServerAgreeOnTheReport(Perftest.Verb verb) throws Exception {
        Perftest.Params p = new Perftest.Params(verb, 40, 1000);   // 40 / (40/3) : credits written 3 times + at the end
        StringWriter serverOut = new StringWriter();
        StringWriter clientOut = new StringWriter();
        try (Perftest.Server s = new Perftest.Server("soft", ANY_LOCAL, p, ConnectOptions.defaults(), 20)) {
            CompletableFuture<Perftest.BwReport> served = CompletableFuture.supplyAsync(() -> {
                try {
                    return (Perftest.BwReport) s.serve(new PrintWriter(serverOut));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Perftest.BwReport mine = (Perftest.BwReport) Perftest.client("soft", s.localAddress(), p, ConnectOptions.defaults(), 20,
                    new PrintWriter(clientOut));
            Perftest.BwReport theirs = served.get(20, TimeUnit.SECONDS);
            assertTrue(s.clientClosedFirst(), "the client disconnects first (PeerClosesFirst)");
            assertEquals(1000, mine.size());
            assertEquals(40, mine.iters());
            assertTrue(mine.bwAvg() > 0 && mine.msgRate() > 0, mine.toString());
            if (verb != Perftest.Verb.SEND) {
                assertEquals(mine, theirs, "the server prints the client's report (xchg_bw_reports)");
            } else {
                assertEquals(40, theirs.iters());   // the receiver measured its own 40 receives
            }
        }
        assertTrue(clientOut.toString().contains(" 1000       40 "), clientOut.toString());
        assertTrue(serverOut.toString().contains(" 1000       40 "), serverOut.toString());
    }

    @ParameterizedTest
    @EnumSource(Perftest.Verb.class)
    void latencyPingPongCompletesAndEachSideReportsItsOwnTimes(Perftest.Verb verb) throws Exception {
        Perftest.Params p = new Perftest.Params(verb, 300, 64, true);   // 300 > 256: the write counter byte wraps
        // ib_write_lat's server writes first: the initiator's RTR (peer-to-peer) lets the responder send
        ConnectOptions o = verb == Perftest.Verb.WRITE
                ? ConnectOptions.defaults().peerToPeer(io.jrnic.verbs.RtrType.WRITE) : ConnectOptions.defaults();
        StringWriter serverOut = new StringWriter();
        StringWriter clientOut = new StringWriter();
        try (Perftest.Server s = new Perftest.Server("soft", ANY_LOCAL, p, o, 20)) {
            CompletableFuture<Perftest.Report> served = CompletableFuture.supplyAsync(() -> {
                try {
                    return s.serve(new PrintWriter(serverOut));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            PerftestLat.LatReport mine = (PerftestLat.LatReport) Perftest.client("soft", s.localAddress(), p, o, 20, new PrintWriter(clientOut));
            Perftest.Report theirs = served.get(20, TimeUnit.SECONDS);
            assertTrue(s.clientClosedFirst(), "the client disconnects first (PeerClosesFirst)");
            assertEquals(64, mine.size());
            assertEquals(300, mine.iters());
            assertTrue(mine.tMin() <= mine.tTypical() && mine.tTypical() <= mine.tMax() && mine.tMin() <= mine.tAvg()
                    && mine.tAvg() <= mine.tMax() && mine.tMax() > 0, mine.toString());
            if (verb == Perftest.Verb.READ) {
                assertEquals(null, theirs, "ib_read_lat's server measures nothing");
            } else {
                assertEquals(300, ((PerftestLat.LatReport) theirs).iters());
                assertTrue(serverOut.toString().contains(" 64      300 "), serverOut.toString());
            }
        }
        assertTrue(clientOut.toString().contains(" 64      300 "), clientOut.toString());
        assertTrue(clientOut.toString().contains("t_typical[usec]"), clientOut.toString());
    }

    @Test
    void latencyReportTakesMedianAndPercentilesFromTheSamples() {
        long[] nanos = new long[100];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = (100 - i) * 1000L;   // 100 us down to 1 us
        }
        PerftestLat.LatReport r = PerftestLat.LatReport.of(8, nanos);
        assertEquals(1.0, r.tMin());
        assertEquals(100.0, r.tMax());
        assertEquals(51.0, r.tTypical());
        assertEquals(50.5, r.tAvg(), 1e-9);
        assertEquals(99.0, r.p99());
        assertEquals(100.0, r.p999());
        assertTrue(r.line().startsWith(" 8       100        1.00 "), r.line());
    }

    @Test
    void serverGivesUpWhenNoClientComes() {
        Perftest.Params p = new Perftest.Params(Perftest.Verb.WRITE, 1, 1);
        try (Perftest.Server s = new Perftest.Server("soft", ANY_LOCAL, p, ConnectOptions.defaults(), 1)) {
            assertThrows(java.util.concurrent.TimeoutException.class, () -> s.serve(null));
        }
    }

    @Test
    void destIsFiftySixBigEndianBytesWithZeroAlignmentPadding() {
        byte[] gid = HexFormat.of().parseHex("5254006a720100000000000000000000");
        PerftestDest d = new PerftestDest(0, 1, 3, 0x697659, 0x0c898100, 0x561ee3aa6ee4L, gid, 0, 0);
        // the dest perftest 6.06 sent in a siw-to-siw capture, alignment padding (stack garbage there) zeroed
        assertEquals("0000000000000001000000030069765" + "90c89810000000000" + "0000561ee3aa6ee4"
                + "5254006a720100000000000000000000" + "0000000000000000", HexFormat.of().formatHex(d.toBytes()));
        PerftestDest back = PerftestDest.read(d.toBytes(), 0);
        assertEquals(d.vaddr(), back.vaddr());
        assertEquals(d.rkey(), back.rkey());
        assertArrayEquals(gid, back.gid());
        assertThrows(IllegalArgumentException.class, () -> PerftestDest.read(new byte[55], 0));
    }

    @Test
    void paramsFollowPerftestDepthRules() {
        Perftest.Params p = new Perftest.Params(Perftest.Verb.SEND, 5000, 65536);
        assertEquals(128, p.txDepth());
        assertEquals(512, p.rxDepth());
        assertEquals(170, p.creditCount());
        assertThrows(IllegalArgumentException.class, () -> new Perftest.Params(Perftest.Verb.SEND, 0, 1));
    }
}
