package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.STag;
import io.jrnic.verbs.SendWr;
import io.jrnic.verbs.Stats;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Counters (API and JMX), JFR events and TCP figures of real loopback connections. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ObservabilityTest {
    static final int N = 50;

    @Test
    void sendsAreCountedPerQpAndPerDeviceAndVisibleThroughJmx() throws Exception {
        MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
        ObjectName qpName;
        ObjectName devName;
        try (SoftPair p = new SoftPair()) {
            byte[] buf = new byte[1000];
            MemoryRegion a = p.a.pd.register(buf, Access.LOCAL_WRITE);
            MemoryRegion b = p.b.pd.register(new byte[1000 * N], Access.LOCAL_WRITE);
            for (int i = 0; i < N; i++) {
                p.b.qp.postRecv(RecvWr.of(i, b.sge(i * 1000, 1000)));
            }
            for (int i = 0; i < N; i++) {
                p.a.qp.postSend(SendWr.send().id(i).local(a.sge()).signaled());
            }
            p.a.await(N);
            p.b.await(N);
            Stats sa = p.a.qp.stats();
            SoftPair.eventually(() -> p.b.qp.stats().counter("rxMessages.SEND") == N);
            Stats sb = p.b.qp.stats();
            assertEquals(N, sa.counter("txMessages.SEND"));
            assertTrue(sa.counter("txFpdus") >= N + 1, "N sends plus the RTR: " + sa.counters());
            // 1000-byte payload + DDP/RDMAP 18 + MPA 2 + pad 0 + CRC 4 = 1024 octets per FPDU
            assertTrue(sa.counter("txBytes") >= N * 1024L, sa.counters().toString());
            assertTrue(sb.counter("rxBytes") >= N * 1024L, sb.counters().toString());
            assertEquals(0, sa.counter("crcErrors"));
            assertEquals(0, sa.terminatesSentTotal());
            assertEquals(sa.counter("txMessages.SEND"), p.a.dev.stats().counter("txMessages.SEND"),
                    "the device sums its QPs");
            if (p.a.dev.attributes().vendor().contains("epoll")) {
                assertTrue(sa.tcp().get("rttMicros") >= 0 && sa.tcp().get("sndCwnd") > 0, sa.tcp().toString());
            }
            qpName = new ObjectName("io.jrnic:type=QueuePair,name=" + p.a.dev.objectName().getKeyProperty("name")
                    + ",qp=" + p.a.qp.number());
            devName = p.a.dev.objectName();
            assertEquals((long) N, mbs.getAttribute(qpName, "txMessages.SEND"));
            assertEquals((long) N, mbs.getAttribute(devName, "txMessages.SEND"));
        }
        assertFalse(mbs.isRegistered(qpName), "unregistered with the QP");
        assertFalse(mbs.isRegistered(devName), "unregistered with the device");
    }

    @Test
    void terminatesAreCountedByTripleAndRecordedInJfr(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("t.jfr");
        try (Recording r = new Recording()) {
            r.enable("io.jrnic.ConnectionEstablished");
            r.enable("io.jrnic.Terminate");
            r.enable("io.jrnic.QpStateChange");
            r.start();
            try (SoftPair p = new SoftPair()) {
                MemoryRegion src = p.a.pd.register(new byte[16], Access.LOCAL_WRITE);
                MemoryRegion sink = p.a.pd.register(new byte[8], Access.LOCAL_WRITE);
                p.a.qp.postSend(SendWr.rdmaWrite().id(1).local(src.sge()).remote(STag.compose(4000, 1), 0).signaled(),
                        SendWr.rdmaRead().id(2).local(sink.sge()).remote(0x1234_5600, 0).signaled());
                p.a.await(2);
                TerminateTest.assertTerminate(p, 1, 1, 0x00);
                SoftPair.eventually(() -> p.a.qp.stats().terminatesReceivedTotal() == 1);
                assertEquals(1L, p.b.qp.stats().terminatesSent().get("DDP/0x1/0x0"));
                assertEquals(1L, p.a.qp.stats().terminatesReceived().get("DDP/0x1/0x0"));
                assertEquals(1L, p.b.dev.stats().terminatesSent().get("DDP/0x1/0x0"));
                assertTrue(p.a.qp.stats().counter("flushedWrs") >= 1, "the Read behind the Write was flushed");
            }
            r.stop();
            r.dump(jfr);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        RecordedEvent est = events.stream().filter(e -> e.getEventType().getName().equals("io.jrnic.ConnectionEstablished"))
                .findFirst().orElse(null);
        assertNotNull(est);
        assertEquals(2, est.getInt("mpaRevision"));
        assertTrue(est.getBoolean("peerToPeer"));
        assertEquals("[WRITE]", est.getString("rtr"));
        List<String> terminates = events.stream().filter(e -> e.getEventType().getName().equals("io.jrnic.Terminate"))
                .map(e -> e.getString("direction") + " " + e.getString("layer") + "/" + e.getInt("errorType") + "/"
                        + e.getInt("errorCode"))
                .sorted().collect(Collectors.toList());
        assertEquals(List.of("received DDP/1/0", "sent DDP/1/0"), terminates);
        assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals("io.jrnic.QpStateChange")
                && e.getString("to").equals("ERROR")), "QP state changes recorded");
    }

    @Test
    void bulkWritesCountBackpressureStallsAndReadQueueDepth(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("s.jfr");
        try (Recording r = new Recording()) {
            r.enable("io.jrnic.BackpressureStall");
            r.start();
            try (SoftPair p = new SoftPair()) {
                byte[] big = new byte[4 << 20];
                MemoryRegion src = p.a.pd.register(big, Access.LOCAL_WRITE);
                MemoryRegion dst = p.b.pd.register(new byte[4 << 20], Access.LOCAL_WRITE, Access.REMOTE_WRITE,
                        Access.REMOTE_READ);
                for (int i = 0; i < 8; i++) {
                    p.a.qp.postSend(SendWr.rdmaWrite().id(i).local(src.sge()).remote(dst.advertise(), 0).signaled());
                }
                for (int i = 0; i < 4; i++) {
                    p.a.qp.postSend(SendWr.rdmaRead().id(100 + i).local(src.sge(0, 4096)).remote(dst.advertise(), 0)
                            .signaled());
                }
                p.a.await(12).forEach(c -> assertEquals(CompletionStatus.SUCCESS, c.status()));
                Stats s = p.a.qp.stats();
                assertTrue(s.counter("backpressureStalls") > 0, "32 MiB cannot pass a 64 KiB water mark unstalled");
                assertTrue(s.counter("backpressureNanos") > 0);
                assertTrue(s.counter("outboundReadQueueHighWater") >= 1);
                assertEquals(8, s.counter("txMessages.RDMA_WRITE"));
                assertEquals(4, s.counter("txMessages.RDMA_READ"));
                SoftPair.eventually(() -> p.b.qp.stats().counter("inboundReadQueueHighWater") >= 1);
            }
            r.stop();
            r.dump(jfr);
        }
        assertTrue(RecordingFile.readAllEvents(jfr).stream()
                .anyMatch(e -> e.getEventType().getName().equals("io.jrnic.BackpressureStall")));
        assertTrue(Files.size(jfr) > 0);
    }

    @Test
    void mpaSetupFailuresAreCountedByReasonAndRecorded(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("f.jfr");
        try (Recording r = new Recording(); java.net.ServerSocket garbage = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getLoopbackAddress()); SoftPair.Side a = new SoftPair.Side("A")) {
            r.enable("io.jrnic.ConnectionFailed");
            r.start();
            Thread peer = new Thread(() -> {
                try (java.net.Socket s = garbage.accept()) {
                    s.getInputStream().read(new byte[64]);
                    s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes());
                    s.getInputStream().read(); // until jrnic closes
                } catch (java.io.IOException e) {
                    // jrnic closed first
                }
            });
            peer.start();
            java.util.concurrent.CompletableFuture<?> f = a.cm.connect(
                    new java.net.InetSocketAddress(garbage.getInetAddress(), garbage.getLocalPort()), a.qp,
                    io.jrnic.verbs.ConnectOptions.defaults());
            org.junit.jupiter.api.Assertions.assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> f.get(10, TimeUnit.SECONDS));
            peer.join(10_000);
            assertEquals(Map.of("INVALID_KEY", 1L), a.dev.stats().setupFailures());
            r.stop();
            r.dump(jfr);
        }
        RecordedEvent e = RecordingFile.readAllEvents(jfr).stream()
                .filter(x -> x.getEventType().getName().equals("io.jrnic.ConnectionFailed")).findFirst().orElseThrow();
        assertEquals("CONNECT_ERROR", e.getString("eventType"));
    }

    @Test
    void aCqOverflowIsRecordedAndFlushedReceivesCounted(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("o.jfr");
        try (Recording r = new Recording(); io.jrnic.verbs.RdmaDevice dev = io.jrnic.verbs.Rdma.open("soft")) {
            r.enable("io.jrnic.CqOverflow");
            r.enable("io.jrnic.QpStateChange");
            r.start();
            var pd = dev.allocatePd();
            var cq = dev.createCq(1);
            var qp = pd.createQp(io.jrnic.verbs.QpInit.rc(cq).maxSendWr(4).maxRecvWr(4));
            MemoryRegion mr = pd.register(new byte[64], Access.LOCAL_WRITE);
            qp.postRecv(RecvWr.of(1, mr.sge(0, 32)));
            qp.postRecv(RecvWr.of(2, mr.sge(32, 32)));
            qp.toError();
            SoftPair.eventually(cq::isOverflowed);
            assertEquals(2, qp.stats().counter("flushedWrs"));
            r.stop();
            r.dump(jfr);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        assertEquals(1, events.stream().filter(e -> e.getEventType().getName().equals("io.jrnic.CqOverflow")
                && e.getInt("capacity") == 1).count());
        assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals("io.jrnic.QpStateChange")
                && e.getString("from").equals("IDLE") && e.getString("to").equals("ERROR")));
    }
}
