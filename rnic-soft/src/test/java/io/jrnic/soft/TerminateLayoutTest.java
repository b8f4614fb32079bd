package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.ddp.DdpError;
import io.jrnic.mpa.MpaParameters;
import io.jrnic.rdmap.Terminate;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.TerminateInfo;
import io.jrnic.verbs.TerminateLayout;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Terminate layout is a per-connection choice (ConnectOptions.terminateLayout, here on the
 * listener): a raw peer sends a Terminate "DDP untagged, no buffer (1/2/0x02)" with M and D, in the
 * RFC 5040 section 4.8 layout or in Linux siw's little-endian bitfield layout, and the QP reports
 * the triple as its layout reads it, with the layout that matched.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TerminateLayoutTest {
    /** untagged DDP header of a Terminate (QN 2, MSN 1, MO 0, opcode 7, L). */
    private static final String TERMINATE_DDP = "4147" + "00000000" + "00000002" + "00000001" + "00000000";
    /** the terminated Send's DDP header, attached with D. */
    private static final String SEND_HEADER = "4143" + "00000000" + "00000000" + "00000005" + "00000000";
    /** siw: byte 0 = EType << 4 | Layer, flags M 0x01 D 0x02. */
    private static final String SIW = TERMINATE_DDP + "21020300" + "0020" + SEND_HEADER;
    /** RFC: byte 0 = Layer << 4 | EType, flags M 0x80 D 0x40. */
    private static final String RFC = TERMINATE_DDP + "1202c000" + "0020" + SEND_HEADER;

    private static TerminateInfo receive(TerminateLayout layout, String terminateHex) throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0),
                    ConnectOptions.defaults().terminateLayout(layout));
            l.onConnectRequest(r -> r.accept(b.qp, AcceptOptions.defaults()));
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), l.localAddress().getPort())) {
                s.setSoTimeout(10_000);
                MpaParameters p = RawMpaInitiator.handshake(s);
                ByteBuf ulpdu = Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(terminateHex));
                ByteBuf fpdu = Unpooled.buffer();
                p.newEncoder().encode(ulpdu, fpdu);
                ulpdu.release();
                RawMpaInitiator.write(s.getOutputStream(), fpdu);
                TerminateInfo t = b.awaitEvent(AsyncEventType.QP_TERMINATE_RECEIVED).terminate();
                SoftPair.eventually(() -> b.qp.state() == QpState.ERROR);
                return t;
            }
        }
    }

    @Test
    void rfcLayoutIsTheDefaultAndReadsRfcTerminates() throws Exception {
        assertEquals(TerminateLayout.RFC, ConnectOptions.defaults().terminateLayout());
        assertEquals(new TerminateInfo(1, 2, 0x02, true, TerminateLayout.RFC), receive(TerminateLayout.RFC, RFC));
    }

    @Test
    void rfcLayoutReadsSiwBytesAsTheRfcSaysTheyMean() throws Exception {
        // 0x21 read as the RFC lays it out: layer 2 (LLP), EType 1; the attachments do not parse
        assertEquals(new TerminateInfo(2, 1, 0x02, true, TerminateLayout.RFC), receive(TerminateLayout.RFC, SIW));
    }

    @Test
    void siwLayoutReadsSiwTerminates() throws Exception {
        assertEquals(new TerminateInfo(1, 2, 0x02, true, TerminateLayout.SIW), receive(TerminateLayout.SIW, SIW));
    }

    @Test
    void eitherLayoutReadsBothAndReportsWhichMatched() throws Exception {
        TerminateInfo siw = receive(TerminateLayout.EITHER, SIW);
        assertEquals(new TerminateInfo(1, 2, 0x02, true, TerminateLayout.SIW), siw);
        TerminateInfo rfc = receive(TerminateLayout.EITHER, RFC);
        assertEquals(new TerminateInfo(1, 2, 0x02, true, TerminateLayout.RFC), rfc);
        assertEquals(DdpError.NO_BUFFER.errorCode(), rfc.errorCode());
        assertEquals(Terminate.FIXED_LENGTH + 20, RFC.length() / 2, "the test's Terminate: fixed part, length, header");
    }
}
