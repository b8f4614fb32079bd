package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import io.netty.channel.Channel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A QP moved to ERROR and reset while its previous stream is still open (the peer ignores the Terminate and keeps
 * its end open, so the stream closes only at the Terminate timer): the reset runs on the QP's loop after the
 * consumer's modify to ERROR (spec-notes/engine.md, "One state machine"), the late close of the previous stream
 * leaves the IDLE QP alone, and the QP connects anew and carries a message. (The API binds a QP to one connection
 * until that connection ended, so the new stream comes after the previous one's close.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReconnectAfterResetTest {
    @Test
    void aPreviousStreamsLateCloseDoesNotTouchTheQpOnItsNewStream() throws Exception {
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(r -> r.accept(b.qp, AcceptOptions.defaults()));
            try (Socket raw = new Socket()) {
                raw.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), l.localAddress().getPort()));
                RawMpaInitiator.handshake(raw);
                io.jrnic.soft.engine.QpEngine engine = SoftPair.engineOf(b.qp);
                SoftPair.eventually(() -> engine.state() == QpState.RTS);
                Channel previous = engine.channel();
                b.qp.toError(); // a Terminate to the raw peer, which neither reads nor closes
                SoftPair.eventually(() -> engine.state() == QpState.ERROR);
                b.qp.reset(); // before the previous stream closed
                assertEquals(QpState.IDLE, b.qp.state());
                assertEquals(QpState.IDLE, engine.state());
                assertTrue(previous.isOpen(), "the previous stream closed before the reset: nothing tested");
                assertTrue(previous.closeFuture().await(10, TimeUnit.SECONDS), "the Terminate timer never closed it");
                SoftPair.eventually(() -> b.qp.connection() == null); // the previous connection ended
                assertEquals(QpState.IDLE, engine.state(), "the previous stream's close moved the reset QP");

                byte[] sent = new byte[64];
                Arrays.fill(sent, (byte) 7);
                MemoryRegion src = a.pd.register(sent, Access.LOCAL_WRITE);
                byte[] got = new byte[64];
                MemoryRegion dst = b.pd.register(got, Access.LOCAL_WRITE);
                a.cm.connect(l.localAddress(), a.qp, ConnectOptions.defaults().peerToPeer(io.jrnic.verbs.RtrType.WRITE))
                        .get(10, TimeUnit.SECONDS);
                SoftPair.eventually(() -> b.qp.state() == QpState.RTS);
                b.qp.postRecv(RecvWr.of(7, dst.sge()));
                a.qp.postSend(SendWr.send().id(7).local(src.sge()).signaled());
                Completion c = b.awaitOne();
                assertEquals(CompletionOpcode.RECV, c.opcode());
                assertEquals(CompletionStatus.SUCCESS, c.status(), "B's QP on its new stream: " + b.qp.state());
                assertEquals(QpState.RTS, b.qp.state());
                assertEquals(QpState.RTS, a.qp.state());
                assertArrayEquals(sent, got);
            }
        }
    }
}
