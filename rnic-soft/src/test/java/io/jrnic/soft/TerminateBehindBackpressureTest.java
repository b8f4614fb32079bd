package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.DdpControl;
import io.jrnic.mpa.MpaParameters;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.Terminate;
import io.jrnic.rdmap.TerminateDecoder;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * RFC 5040 section 4.8: the Terminate goes out before the stream closes, also when it has to wait behind data the
 * peer has not read yet. A raw peer that does not read asks for a large RDMA Read, so the responder's outbound
 * buffer fills; then it sends an FPDU with an undefined opcode. It must read the Read Response octets that were
 * queued, then the Terminate, then the end of the stream.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TerminateBehindBackpressureTest {
    private static final int READ_SIZE = 16 << 20;

    @Test
    void aTerminateQueuedBehindUnreadDataStillReachesThePeerBeforeTheFin() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            MemoryRegion mr = b.pd.register(new byte[READ_SIZE], Access.LOCAL_WRITE, Access.REMOTE_READ);
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(r -> r.accept(b.qp, AcceptOptions.defaults()));
            try (Socket s = new Socket()) {
                s.setReceiveBufferSize(16 * 1024); // a small window: the responder's socket fills quickly
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), l.localAddress().getPort()));
                s.setSoTimeout(20_000);
                MpaParameters p = RawMpaInitiator.handshake(s);
                // Read Request, MSN 1: 16 MiB of the region into a sink the peer will never look at
                RawMpaInitiator.send(s, p, RawMpaInitiator.ulpdu(RdmapControl.controlWord(RdmapOpcode.RDMA_READ_REQUEST, true),
                        u -> u.writeInt(0).writeInt(1).writeInt(1).writeInt(0)
                                .writeInt(0x500).writeLong(0).writeInt(READ_SIZE).writeInt(mr.stag()).writeLong(0)));
                io.jrnic.soft.engine.QpEngine engine = SoftPair.engineOf(b.qp);
                // bound on B's loop once the Reply went out; then the Read Response fills the outbound buffer
                SoftPair.eventually(() -> engine.channel() != null && !engine.channel().isWritable());
                int undefined = DdpControl.compose(true, true, (RdmapControl.RDMAP_VERSION << 6) | 0xC);
                RawMpaInitiator.send(s, p, RawMpaInitiator.ulpdu(undefined, u -> u.writeInt(0x100).writeLong(0)));
                b.awaitEvent(AsyncEventType.QP_TERMINATE_SENT);

                Terminate[] terminate = new Terminate[1];
                long[] readResponseBytes = new long[1];
                RawMpaInitiator.readToEnd(s, p, 0, u -> { // to the end of the stream: the FIN after the Terminate
                    assertTrue(terminate[0] == null, "an FPDU after the Terminate");
                    int op = u.getUnsignedByte(u.readerIndex() + 1) & 0x0F;
                    if (op == RdmapOpcode.TERMINATE.code()) {
                        terminate[0] = TerminateDecoder.decode(u, u.readerIndex(), u.readableBytes(),
                                TerminateDecoder.Mode.STRICT);
                    } else {
                        assertEquals(RdmapOpcode.RDMA_READ_RESPONSE.code(), op);
                        readResponseBytes[0] += u.readableBytes();
                    }
                });
                assertNotNull(terminate[0], "the stream ended after " + readResponseBytes[0]
                        + " octets of Read Response, without the Terminate");
                assertEquals(0, terminate[0].layer());
                assertEquals(2, terminate[0].errorType());
                assertEquals(0x06, terminate[0].errorCode());
                assertTrue(readResponseBytes[0] > 1 << 20, "the Terminate waited behind unread data: "
                        + readResponseBytes[0]);
            }
        }
    }
}
