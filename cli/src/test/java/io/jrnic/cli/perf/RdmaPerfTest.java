package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RdmaPerfTest {

    /** Batched bandwidth, busy-polling and blocking latency (the per-message and virtual-thread rows: their own tests). */
    private static PerfConfig tiny(List<Integer> sizes, long iters, int window) {
        return new PerfConfig(EnumSet.allOf(Op.class), EnumSet.of(Kind.BW, Kind.LAT, Kind.LAT_BLOCK), sizes, iters, window,
                true, false, 0, 2, 20, true);
    }

    private static void assertAllPassed(List<Result> rs, int expected, long iters) {
        assertEquals(expected, rs.size());
        for (Result r : rs) {
            assertNull(r.failure(), r.test() + ": " + r.failure());
            assertNull(r.note(), r.test() + " capped");
            if (r.test().kind().bandwidth()) {
                assertEquals(iters, r.rdmaBw().iterations(), r.test().toString());
                assertNotNull(r.tcpBw());
            } else {
                assertEquals(iters, r.rdmaLat().iterations(), r.test().toString());
                assertNotNull(r.tcpLat());
                assertTrue(r.rdmaLat().minUs() <= r.rdmaLat().p50Us() && r.rdmaLat().p50Us() <= r.rdmaLat().maxUs());
            }
        }
    }

    @Test
    void everyOperationAndModeRunsAndVerifiesOverLoopback() throws Exception {
        List<Result> rs = PerfRunner.local(tiny(List.of(64, 5000), 40, 8), "soft", 0, null);
        assertAllPassed(rs, 16, 40);
    }

    @Test
    void heapMemoryRunsAndVerifiesEveryTest() throws Exception {
        PerfConfig c = tiny(List.of(7, 5000), 20, 4).withMemory(MemoryKind.HEAP);
        assertEquals(MemoryKind.HEAP, c.memory());
        assertAllPassed(PerfRunner.local(c, "soft", 0, null), 16, 20);
    }

    @Test
    void directMemoryIsTheDefaultAndCarriesLargeMessages() throws Exception {
        // 65536 B: payload segments of direct memory go to the socket without a copy
        PerfConfig c = tiny(List.of(65536), 10, 4).withOps(EnumSet.of(Op.WRITE, Op.SEND));
        assertEquals(MemoryKind.DIRECT, c.memory());
        assertEquals(MemoryKind.DIRECT, PerfConfig.defaults().memory());
        assertAllPassed(PerfRunner.local(c, "soft", 0, null), 5, 10);
    }

    @Test
    void oneByteMessagesWithoutCrc() throws Exception {
        PerfConfig c = tiny(List.of(1), 20, 4).withWire(false, false, 0, 2);
        assertAllPassed(PerfRunner.local(c, "soft", 0, null), 8, 20);
    }

    @Test
    void markersAndASmallMulpdu() throws Exception {
        PerfConfig c = tiny(List.of(3000), 20, 4).withWire(true, true, 512, 2);
        assertAllPassed(PerfRunner.local(c, "soft", 0, null), 8, 20);
    }

    @Test
    void mpaRevisionOne() throws Exception {
        PerfConfig c = tiny(List.of(64), 20, 4).withWire(true, false, 0, 1);
        assertAllPassed(PerfRunner.local(c, "soft", 0, null), 8, 20);
    }

    @Test
    void sendBandwidthIsFlowControlledByCredits() throws Exception {
        // window 64 but the server posts 2 x 64 receives and 500 SENDs: credits must come back
        PerfConfig c = tiny(List.of(256), 500, 64).withOps(EnumSet.of(Op.SEND)).withKinds(EnumSet.of(Kind.BW));
        assertAllPassed(PerfRunner.local(c, "soft", 0, null), 1, 500);
    }

    @Test
    void bandwidthWithMoreThanOneMebibyteOutstanding() throws Exception {
        PerfConfig c = tiny(List.of(65536), 200, 64).withKinds(EnumSet.of(Kind.BW));
        assertAllPassed(PerfRunner.local(c, "soft", 0, null), 3, 200);
    }

    @Test
    void oneBlockingSendLatencyRowVerifiesItsData() throws Exception {
        PerfConfig c = tiny(List.of(64), 15, 4).withOps(EnumSet.of(Op.SEND)).withKinds(EnumSet.of(Kind.LAT_BLOCK));
        List<Result> rs = PerfRunner.local(c, "soft", 0, null);
        assertAllPassed(rs, 1, 15);
        assertEquals(new PerfCase(Op.SEND, Kind.LAT_BLOCK, 64, 15), rs.get(0).test());
    }

    @Test
    void theServerRefusesABlockingWriteLatencyTest() throws Exception {
        PerfConfig c = tiny(List.of(64), 5, 4);
        try (PerfServer s = new PerfServer(c, "soft", new InetSocketAddress("127.0.0.1", 0), 0, null);
             RdmaPerf rp = new RdmaPerf(c, "soft", s.rdmaAddress(), s.baselineAddress())) {
            RdmaPerf.Outcome o = rp.run(new PerfCase(Op.WRITE, Kind.LAT_BLOCK, 64, 5));
            assertNotNull(o.failure());
            assertTrue(o.failure().contains("no write lat-block test"), o.failure());
            assertNull(rp.run(new PerfCase(Op.READ, Kind.LAT_BLOCK, 64, 5)).failure());   // the session goes on
        }
    }

    @Test
    void aSecondClientIsRefusedWhileAnotherHoldsTheServerAndServedOnceItLeft() throws Exception {
        PerfConfig c = tiny(List.of(64), 5, 4);
        PerfCase write = new PerfCase(Op.WRITE, Kind.BW, 64, 5);
        try (PerfServer s = new PerfServer(c, "soft", new InetSocketAddress("127.0.0.1", 0), 0, null)) {
            try (RdmaPerf first = new RdmaPerf(c, "soft", s.rdmaAddress(), s.baselineAddress())) {
                assertNull(first.run(write).failure()); // its control session holds the server
                try (RdmaPerf second = new RdmaPerf(c, "soft", s.rdmaAddress(), s.baselineAddress())) {
                    RdmaPerf.Outcome o = second.run(write);
                    assertTrue(o.failure().startsWith("server busy: "), o.failure());
                    assertEquals(o.failure(), second.busy());
                }
                // a whole client run: every row fails with the refusal, and nothing was measured
                List<Result> rs = PerfRunner.client(c, "soft", s.rdmaAddress(), s.baselineAddress(), null);
                assertEquals(c.plan().size(), rs.size());
                for (Result r : rs) {
                    assertTrue(r.failure() != null && r.failure().startsWith("server busy: "), r.test() + ": " + r.failure());
                    assertNull(r.rdmaBw());
                    assertNull(r.tcpBw());
                    assertNull(r.rdmaLat());
                    assertNull(r.tcpLat());
                }
                assertNull(first.run(write).failure()); // the first client's session went on undisturbed
            }
            // the first client said goodbye: its session ends on the server's own thread, then the next is served
            String last = null;
            for (int attempt = 0; attempt < 100; attempt++) {
                try (RdmaPerf next = new RdmaPerf(c, "soft", s.rdmaAddress(), s.baselineAddress())) {
                    last = next.run(write).failure();
                    if (next.busy() == null) {
                        break;
                    }
                }
                Thread.sleep(50);
            }
            assertNull(last);
        }
    }

    @Test
    void theControlConnectionProbesAVanishedPeerWithinSeconds() throws Exception {
        try (java.net.ServerSocket ss = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
             java.net.Socket s = new java.net.Socket(ss.getInetAddress(), ss.getLocalPort());
             Control c = new Control(s)) {
            assertTrue(s.getKeepAlive());
            if (s.supportedOptions().contains(jdk.net.ExtendedSocketOptions.TCP_KEEPIDLE)) {
                assertEquals(Control.KEEPALIVE_IDLE, s.getOption(jdk.net.ExtendedSocketOptions.TCP_KEEPIDLE));
                assertEquals(Control.KEEPALIVE_INTERVAL, s.getOption(jdk.net.ExtendedSocketOptions.TCP_KEEPINTERVAL));
                assertEquals(Control.KEEPALIVE_PROBES, s.getOption(jdk.net.ExtendedSocketOptions.TCP_KEEPCOUNT));
                assertTrue(Control.KEEPALIVE_IDLE + Control.KEEPALIVE_INTERVAL * Control.KEEPALIVE_PROBES <= 30);
            }
        }
    }

    @Test
    void perMessageAndBatchedRowsVerifyEveryOperation() throws Exception {
        // lists of 3, one signaled per 5, window 8: lists end between signals and the window fills mid-list
        PerfConfig c = tiny(List.of(64, 5000), 50, 8).withKinds(EnumSet.of(Kind.BW, Kind.BW_MSG)).withPosting(3, 5);
        List<Result> rs = PerfRunner.local(c, "soft", 0, null);
        assertAllPassed(rs, 12, 50);
        assertEquals(new PerfCase(Op.WRITE, Kind.BW_MSG, 64, 50, 1, 1), rs.get(0).test());
        assertEquals(new PerfCase(Op.WRITE, Kind.BW, 64, 50, 3, 5), rs.get(1).test());
    }

    @Test
    void batchedSendsPostWhatTheCreditsAllowWhenAWholeListDoesNotFit() throws Exception {
        // 4 MiB SENDs: the server posts 8 receives (32 MiB), less than two lists of 16; credits come 4 at a time
        PerfConfig c = tiny(List.of(4 << 20), 24, 16).withOps(EnumSet.of(Op.SEND)).withKinds(EnumSet.of(Kind.BW))
                .withPosting(16, 16).withReps(1);
        assertEquals(8, PerfConfig.sendSlots(4 << 20, 16, 24));
        assertAllPassed(PerfRunner.local(c, "soft", 0, null), 1, 24);
    }

    @Test
    void virtualThreadRowsRunOnJdk21AndSayWhyNotBefore() throws Exception {
        PerfConfig c = tiny(List.of(64), 15, 4).withKinds(EnumSet.of(Kind.LAT_BLOCK_VT));
        List<Result> rs = PerfRunner.local(c, "soft", 0, null);
        assertEquals(List.of(new PerfCase(Op.READ, Kind.LAT_BLOCK_VT, 64, 15), new PerfCase(Op.SEND, Kind.LAT_BLOCK_VT, 64, 15)),
                rs.stream().map(Result::test).toList());
        if (VirtualThreads.available()) {
            assertAllPassed(rs, 2, 15);
        } else {
            for (Result r : rs) {
                assertTrue(r.isSkipped() && r.ok(), r.toString());
                assertEquals(VirtualThreads.NEEDS, r.note());
            }
        }
    }
}
