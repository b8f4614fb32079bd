package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.interop.fault.FaultPlan;
import io.jrnic.interop.fault.FaultProxy;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.SendWr;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Peers that stall: what the soft RNIC holds for them, and that it lets go. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SlowPeerTest {
    private static final int MIB = 1 << 20;
    private static final int WRITES = 32;

    /** Memory Netty holds: the pooled allocator's direct and heap arenas and Netty's own direct-memory count. */
    private static long nettyHeld() {
        long untracked = Math.max(0, io.netty.util.internal.PlatformDependent.usedDirectMemory());
        return PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory()
                + PooledByteBufAllocator.DEFAULT.metric().usedHeapMemory() + untracked;
    }

    /**
     * A peer that stops reading (the proxy stalls after 2 MiB: zero window): 32 MiB of RDMA Writes posted, the
     * transmitter stops at the channel's water mark, so the memory held for the stream stays bounded (measured:
     * the growth of the memory Netty holds) and the work requests wait; when the stream is cut every one of
     * them completes.
     */
    @Test
    void aPeerThatStopsReadingHoldsBoundedMemoryAndEveryWriteCompletesAtTheCut() throws Exception {
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            MemoryRegion src = a.pd.register(new byte[MIB], Access.LOCAL_WRITE);
            MemoryRegion dst = b.pd.register(new byte[MIB], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(r -> r.accept(b.qp, AcceptOptions.defaults()));
            int early = 0;
            FaultProxy proxy = FaultProxy.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    l.localAddress(), FaultPlan.of(1).withStall(2L * MIB, 0));
            try {
                a.cm.connect(proxy.address(), a.qp, ConnectOptions.defaults()).get(10, TimeUnit.SECONDS);
                long before = nettyHeld();
                for (int i = 0; i < WRITES; i++) {
                    a.qp.postSend(SendWr.rdmaWrite().id(i).local(src, 0, MIB).remote(dst.stag(), 0).signaled());
                }
                SoftPair.eventually(() -> a.dev.stats().counter("backpressureStalls") > 0);
                // the relay stopped reading and the sender's channel is full: all it will hold for this stream
                SoftPair.eventually(() -> proxy.events().stream().anyMatch(e -> e.contains("stall at")));
                io.jrnic.soft.engine.QpEngine engine = SoftPair.engineOf(a.qp);
                SoftPair.eventually(() -> engine.channel() != null && !engine.channel().isWritable());
                long held = nettyHeld() - before;
                 System.out.println("SlowPeerTest: " + (held >> 10) + " KiB more Netty memory held (pooled direct + heap arenas, "
                        + "tracked direct), " + WRITES
                        + " MiB posted, backpressure stalls " + a.dev.stats().counter("backpressureStalls"));
                assertTrue(held < 8L * MIB, (held >> 10) + " KiB of Netty memory held for a stalled stream with "
                        + WRITES + " MiB posted");
                Completion[] batch = Completion.array(WRITES);
                early = a.cq.poll(batch, 0, WRITES);
                assertTrue(early < WRITES, "all Writes completed through a stalled stream");
            } finally {
                proxy.close(); // the relay's connections end: the stream is lost
            }
            List<Completion> rest = a.await(WRITES - early); // bounded by the test's timeout: no hang
            assertEquals(WRITES - early, rest.size());
        }
    }

    /**
     * A peer-to-peer initiator that completes the MPA exchange but never sends its RTR: the responder gives up at
     * the accept timeout (the accept fails with a timeout, the stream is reset) instead of holding the stream.
     */
    @Test
    void aPeerToPeerInitiatorThatNeverSendsItsRtrIsDroppedAtTheAcceptTimeout() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            java.util.concurrent.CompletableFuture<java.util.concurrent.CompletableFuture<io.jrnic.verbs.Connection>> acc =
                    new java.util.concurrent.CompletableFuture<>();
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0),
                    ConnectOptions.defaults().mpaRequestTimeout(Duration.ofMillis(300)));
            l.onConnectRequest(r -> acc.complete(r.accept(b.qp, AcceptOptions.defaults())));
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), l.localAddress().getPort())) {
                io.jrnic.mpa.MpaParameters p = RawMpaInitiator.handshake(s, io.jrnic.mpa.MpaOptions.builder().revision(2)
                        .p2p(true).rtrTypes(io.jrnic.mpa.RtrType.WRITE).build());
                assertTrue(p.rtrType() != io.jrnic.mpa.RtrType.NONE, "peer-to-peer negotiated");
                java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
                        java.util.concurrent.ExecutionException.class, () -> acc.get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS));
                assertTrue(e.getCause() instanceof io.jrnic.verbs.ConnectionFailedException
                        && e.getCause().getMessage().contains("TIMEOUT"), String.valueOf(e.getCause()));
                s.setSoTimeout(10_000);
                try {
                    assertEquals(-1, s.getInputStream().read());
                } catch (IOException reset) {
                    // reset: the stream is gone
                }
            }
            SoftPair.eventually(() -> b.qp.state() == io.jrnic.verbs.QpState.ERROR);
        }
    }

    /** Half an MPA Request, then nothing: the listener closes the stream at the request timeout. */
    @Test
    void halfARequestIsClosedAtTheRequestTimeout() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0),
                    ConnectOptions.defaults().mpaRequestTimeout(Duration.ofMillis(200)));
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), l.localAddress().getPort())) {
                OutputStream out = s.getOutputStream();
                out.write("MPA ID Req Frame".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, 10);
                out.flush();
                s.setSoTimeout(30_000);
                try {
                    assertEquals(-1, s.getInputStream().read());
                } catch (IOException reset) {
                    // closed with a reset: also closed
                }
            }
            SoftPair.eventually(() -> b.dev.stats().setupFailures().containsKey("TIMEOUT"));
        }
    }

    /**
     * A peer that completes the set-up and then reads one byte per second (a slow-read attack): the responder's
     * 32 MiB Write fills the socket and the outbound buffer, the memory held stays bounded (the transmitter waits
     * at the water mark), and at the transmit stall timeout the stream is reset: the Write completes with
     * WR_FLUSH_ERROR, the QP is in ERROR and the counter {@code transmitStallTimeouts} says why.
     */
    @Test
    void aPeerThatReadsOneBytePerSecondIsResetAtTheTransmitStallTimeout() throws Exception {
        int size = 32 * MIB;
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0),
                    ConnectOptions.defaults().transmitStallTimeout(Duration.ofSeconds(2)));
            l.onConnectRequest(r -> r.accept(b.qp, AcceptOptions.defaults()));
            MemoryRegion src = b.pd.register(new byte[size], Access.LOCAL_WRITE);
            try (Socket s = new Socket()) {
                s.setReceiveBufferSize(64 * 1024);
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), l.localAddress().getPort()));
                s.setSoTimeout(1_000);
                io.jrnic.mpa.MpaParameters p = RawMpaInitiator.handshake(s);
                // the initiator's first FPDU opens the responder's transmitter: a zero-length Write
                io.netty.buffer.ByteBuf rtr = io.netty.buffer.Unpooled.buffer();
                rtr.writeShort(io.jrnic.rdmap.RdmapControl.controlWord(io.jrnic.rdmap.RdmapOpcode.RDMA_WRITE, true))
                        .writeInt(1).writeLong(0);
                io.netty.buffer.ByteBuf fpdu = io.netty.buffer.Unpooled.buffer();
                p.newEncoder().encode(rtr, fpdu);
                rtr.release();
                RawMpaInitiator.write(s.getOutputStream(), fpdu);
                SoftPair.eventually(() -> b.qp.state() == io.jrnic.verbs.QpState.RTS);

                long before = nettyHeld();
                b.qp.postSend(SendWr.rdmaWrite().id(7).local(src, 0, size).remote(0x1234_5600, 0).signaled());
                java.io.InputStream in = s.getInputStream();
                long read = 0;
                long held = 0;
                // one byte per second until the responder gives up (bounded: 30 s at most)
                for (int second = 0; second < 30 && b.qp.state() != io.jrnic.verbs.QpState.ERROR; second++) {
                    if (in.read() >= 0) {
                        read++;
                    }
                    if (second == 0) {
                        held = nettyHeld() - before;
                    }
                    Thread.sleep(1_000);
                }
                System.out.println("SlowPeerTest: a 1 B/s reader read " + read + " bytes before the reset; "
                        + (held >> 10) + " KiB more Netty memory held with " + (size >> 20) + " MiB posted");
                assertEquals(io.jrnic.verbs.QpState.ERROR, b.qp.state(), "the 1 B/s reader was not dropped");
                assertTrue(held < 8L * MIB, (held >> 10) + " KiB of Netty memory held for a 1 B/s reader");
                assertTrue(streamEnds(in), "the stream of the 1 B/s reader stays open");
                Completion done = b.awaitOne();
                assertEquals(7, done.id());
                assertEquals(io.jrnic.verbs.CompletionStatus.WR_FLUSH_ERROR, done.status());
                assertEquals(io.jrnic.verbs.QpState.ERROR, b.qp.state());
                assertEquals(1, b.dev.stats().counter("transmitStallTimeouts"));
            }
            src.close();
        }
    }

    /** Reads what the socket still holds: true when it ends (EOF or reset) within 64 MiB and 10 s. */
    private static boolean streamEnds(java.io.InputStream in) {
        byte[] chunk = new byte[64 * 1024];
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try {
            for (long total = 0; total < 64L * MIB && System.nanoTime() < deadline; ) {
                int n = in.read(chunk);
                if (n < 0) {
                    return true;
                }
                total += n;
            }
        } catch (java.net.SocketTimeoutException e) {
            return false; // nothing more and no end
        } catch (IOException e) {
            return true; // reset
        }
        return false;
    }
}
