package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.mpa.MpaParameters;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.SendWr;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Zero-copy transmit semantics against a raw peer that stops reading: a WR whose memory is still referenced
 * by the outbound buffer is not completed, and moving the QP to ERROR flushes it (no hang, no leak).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ZeroCopyTransmitTest {
    /** Far more than the socket buffers hold (send buffer at most tcp_wmem's 4 MiB, peer's receive buffer 64 KiB). */
    static final int SIZE = 32 << 20;

    @Test
    void aWriteStuckInTheOutboundBufferIsNotCompletedAndIsFlushedOnError() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(r -> r.accept(b.qp, AcceptOptions.defaults()));
            MemoryRegion src = b.pd.register(ByteBuffer.allocateDirect(SIZE), Access.LOCAL_WRITE);
            try (Socket s = new Socket()) {
                s.setReceiveBufferSize(64 * 1024);
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), l.localAddress().getPort()));
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                MpaParameters p = RawMpaInitiator.handshake(s);
                // the initiator's first FPDU opens the responder's transmitter: a zero-length Write to STag 1
                ByteBuf rtr = Unpooled.buffer();
                rtr.writeShort(RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true)).writeInt(1).writeLong(0);
                ByteBuf fpdu = Unpooled.buffer();
                p.newEncoder().encode(rtr, fpdu);
                rtr.release();
                RawMpaInitiator.write(out, fpdu);
                SoftPair.eventually(() -> b.qp.state() == QpState.RTS);

                b.qp.postSend(SendWr.rdmaWrite().id(7).local(src.sge(0, SIZE)).remote(0x1234_5600, 0).signaled());
                // the peer reads nothing: most of the 32 MiB stay in the outbound buffer, the WR must not complete
                Completion[] c = Completion.array(1);
                for (int i = 0; i < 20; i++) {
                    assertEquals(0, b.cq.poll(c, 0, 1), "completed while its memory is still being sent");
                    Thread.sleep(10);
                }
                b.qp.toError();
                Completion done = b.awaitOne();
                assertEquals(7, done.id());
                assertEquals(CompletionStatus.WR_FLUSH_ERROR, done.status());
                assertEquals(QpState.ERROR, b.qp.state());
            }
            src.close();
        }
    }
}
