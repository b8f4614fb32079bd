package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.mpa.MpaParameters;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * RFC 5040 section 6.2.1, orderly close: what was posted and completed before the consumer disconnects reaches
 * the peer before the stream ends. A completion means the message left the work request's memory (it may still
 * be on its way), so the close must not drop the octets still queued behind it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrderlyCloseTest {
    private static final int WRITE_SIZE = 16 << 20;

    @Test
    void aDisconnectRightAfterTheCompletionsStillDeliversTheWriteAndTheSend() throws Exception {
        try (SoftPair p = new SoftPair()) {
            byte[] src = new byte[WRITE_SIZE];
            Arrays.fill(src, (byte) 0x6B);
            byte[] dst = new byte[WRITE_SIZE];
            byte[] note = new byte[64];
            MemoryRegion srcMr = p.a.pd.register(src, Access.LOCAL_WRITE); // heap: copied, completed at the copy
            MemoryRegion dstMr = p.b.pd.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion noteMr = p.b.pd.register(note, Access.LOCAL_WRITE);
            p.b.qp.postRecv(RecvWr.of(7, noteMr.sge(0, 64)));
            p.connB();
            p.a.qp.postSend(SendWr.rdmaWrite().id(1).local(srcMr.sge(0, WRITE_SIZE)).remote(dstMr.stag(), 0).signaled());
            p.a.qp.postSend(SendWr.send().id(2).local(srcMr.sge(0, 64)).signaled());
            List<Completion> sent = p.a.await(2);
            assertEquals(CompletionStatus.SUCCESS, sent.get(0).status());
            assertEquals(CompletionStatus.SUCCESS, sent.get(1).status());
            p.connA.disconnect();

            Completion got = p.b.awaitOne();
            assertEquals(CompletionStatus.SUCCESS, got.status(), "the Send posted before the disconnect arrived");
            assertEquals(64, got.byteLength());
            assertArrayEquals(src, dst, "every octet of the Write was placed");
            p.connA.disconnected().get(10, TimeUnit.SECONDS);
            SoftPair.eventually(() -> p.a.qp.state() == QpState.IDLE && p.b.qp.state() == QpState.IDLE);
        }
    }

    /**
     * The responder posts a 16 MiB Write and a Send and disconnects at once: the stream closes once the SQ drained,
     * that is once the last octets were copied, while a slow reader (a raw peer reading 64 KiB per millisecond
     * through a small window) has not taken them yet. It must still read all of them, then the end of the stream.
     */
    @Test
    void anOrderlyCloseWaitsForTheOctetsAlreadyQueuedToLeave() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            byte[] src = new byte[WRITE_SIZE];
            Arrays.fill(src, (byte) 0x3C);
            MemoryRegion srcMr = b.pd.register(src, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            CompletableFuture<Connection> accepted =
                    new CompletableFuture<>();
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0),
                    ConnectOptions.defaults());
            l.onConnectRequest(r -> r.accept(b.qp, AcceptOptions.defaults())
                    .whenComplete((c, e) -> accepted.complete(c)));
            try (Socket s = new Socket()) {
                s.setReceiveBufferSize(16 * 1024);
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                        l.localAddress().getPort()));
                s.setSoTimeout(20_000);
                MpaParameters mpa = RawMpaInitiator.handshake(s);
                // the initiator's first FPDU (RFC 5044 section 7.1): a zero-length Write into B's region
                RawMpaInitiator.send(s, mpa, RawMpaInitiator.ulpdu(RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true),
                        u -> u.writeInt(srcMr.stag()).writeLong(0)));
                Connection c = accepted.get(10, TimeUnit.SECONDS);
                b.qp.postSend(SendWr.rdmaWrite().id(1).local(srcMr.sge(0, WRITE_SIZE)).remote(0x1234, 0).signaled());
                b.qp.postSend(SendWr.send().id(2).local(srcMr.sge(0, 64)).signaled());
                c.disconnect(); // CLOSING: the stream closes once both are retired

                long[] writeOctets = new long[1];
                int[] sends = new int[1];
                RawMpaInitiator.readToEnd(s, mpa, 1, u -> { // a slow reader: B's socket stays full
                    int op = u.getUnsignedByte(u.readerIndex() + 1) & 0x0F;
                    if (op == RdmapOpcode.RDMA_WRITE.code()) {
                        writeOctets[0] += u.readableBytes() - 14; // tagged DDP header
                    } else {
                        assertEquals(RdmapOpcode.SEND.code(), op);
                        sends[0]++;
                    }
                });
                assertEquals(WRITE_SIZE, writeOctets[0], "every octet of the Write before the end of the stream");
                assertEquals(1, sends[0], "the Send after it");
                List<Completion> done = b.await(2);
                assertEquals(CompletionStatus.SUCCESS, done.get(0).status());
                assertEquals(CompletionStatus.SUCCESS, done.get(1).status());
            }
        }
    }
}
