package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.CmEventType;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.ConnectionFailedException;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RtrType;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Connection set-up over loopback TCP: MPA revisions, CRC, private data, IRD/ORD, RTR, reject, unreachable. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConnectTest {

    @Test
    void providerIsFoundByName() {
        try (RdmaDevice d = Rdma.open("soft")) {
            assertEquals("soft", d.providerName());
            assertTrue(d.attributes().vendor().startsWith("jrnic soft RNIC"));
        }
    }

    @ParameterizedTest(name = "crc {0}")
    @ValueSource(booleans = {false, true})
    void rev2ExchangesPrivateDataAndNegotiatesIrdOrdRelaxed(boolean crc) throws Exception {
        byte[] req = "hello from A".getBytes(StandardCharsets.US_ASCII);
        byte[] rep = "welcome, says B".getBytes(StandardCharsets.US_ASCII);
        ConnectOptions co = ConnectOptions.defaults().crc(crc).ird(4).ord(8).privateData(req)
                .peerToPeer(RtrType.WRITE, RtrType.READ);
        try (SoftPair p = new SoftPair(co, ConnectOptions.defaults(), AcceptOptions.defaults().privateData(rep)
                .ird(2).ord(32), null)) {
            assertArrayEquals(rep, p.connA.peerPrivateData());
            assertArrayEquals(req, p.connB().peerPrivateData());
            assertEquals(2, p.connA.params().mpaRevision());
            assertEquals(crc, p.connA.params().crc());
            assertEquals(crc, p.connB().params().crc());
            // responder ORD lowered to the initiator's IRD, responder IRD raised to the initiator's ORD
            assertEquals(4, p.connB().params().ord());
            assertEquals(8, p.connB().params().ird());
            assertEquals(8, p.connA.params().ord());
            assertEquals(Set.of(RtrType.WRITE), p.connA.params().rtrTypes());
            assertTrue(p.connA.params().peerToPeer());
            assertEquals(QpState.RTS, p.a.qp.state());
            assertEquals(QpState.RTS, p.b.qp.state());
        }
    }

    /** RFC 5044 section 7.1: 257..512 bytes of private data are accepted on receive, whatever our 256 sending cap. */
    @Test
    void privateDataOf257To512IsAcceptedInTheRequestAndTheReply() throws Exception {
        byte[] req = new byte[500];
        byte[] rep = new byte[300];
        java.util.Arrays.fill(req, (byte) 'q');
        java.util.Arrays.fill(rep, (byte) 'r');
        ConnectOptions big = ConnectOptions.defaults().privateDataCap(ConnectOptions.MPA_MAX_PRIVATE_DATA);
        ConnectOptions rtr = ConnectOptions.defaults().peerToPeer(RtrType.WRITE); // the responder is established at once
        try (SoftPair p = new SoftPair(big.peerToPeer(RtrType.WRITE).privateData(req), big, AcceptOptions.defaults().privateData(rep), null)) {
            assertArrayEquals(req, p.connB().peerPrivateData(), "Request of PD_Length 504");
            assertArrayEquals(rep, p.connA.peerPrivateData());
        }
        // the other way round: a default (256-cap) initiator receives a 304-byte Reply
        try (SoftPair p = new SoftPair(rtr, big, AcceptOptions.defaults().privateData(rep), null)) {
            assertArrayEquals(rep, p.connA.peerPrivateData());
        }
        try (SoftPair p = new SoftPair(big.peerToPeer(RtrType.WRITE).privateData(req), ConnectOptions.defaults(),
                AcceptOptions.defaults(), null)) {
            assertArrayEquals(req, p.connB().peerPrivateData(), "a 256-cap listener receives a 504-byte Request");
        }
    }

    @Test
    void rejectCarriesThePrivateDataAndLeavesTheQpIdle() throws Exception {
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            var l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            byte[] why = "busy".getBytes(StandardCharsets.US_ASCII);
            l.onConnectRequest(r -> r.reject(why));
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> a.cm.connect(l.localAddress(), a.qp, ConnectOptions.defaults()).get(10, TimeUnit.SECONDS));
            ConnectionFailedException f = assertInstanceOf(ConnectionFailedException.class, e.getCause());
            assertEquals(CmEventType.REJECTED, f.type());
            assertArrayEquals(why, f.privateData());
            assertEquals(QpState.IDLE, a.qp.state());
        }
    }

    @Test
    void connectToAClosedPortIsUnreachable() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (SoftPair.Side a = new SoftPair.Side("A")) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> a.cm.connect(
                    new InetSocketAddress("127.0.0.1", port), a.qp, ConnectOptions.defaults()).get(10, TimeUnit.SECONDS));
            ConnectionFailedException f = assertInstanceOf(ConnectionFailedException.class, e.getCause());
            assertEquals(CmEventType.UNREACHABLE, f.type());
        }
    }

    @Test
    void peerThatNeverRepliesTimesOut() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
             SoftPair.Side a = new SoftPair.Side("A")) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> a.cm.connect(
                    new InetSocketAddress("127.0.0.1", silent.getLocalPort()), a.qp,
                    ConnectOptions.defaults().mpaReplyTimeout(java.time.Duration.ofMillis(300))).get(10, TimeUnit.SECONDS));
            ConnectionFailedException f = assertInstanceOf(ConnectionFailedException.class, e.getCause());
            assertEquals(CmEventType.TIMEOUT, f.type());
        }
    }

    @Test
    void mpaRevision1ConnectsWithoutIrdOrdWords() throws Exception {
        ConnectOptions rev1 = ConnectOptions.defaults().mpaRevision(1).privateData(new byte[] {1, 2, 3});
        try (SoftPair p = new SoftPair(rev1, ConnectOptions.defaults().mpaRevision(1), AcceptOptions.defaults(), null)) {
            assertEquals(1, p.connA.params().mpaRevision());
            assertEquals(QpState.RTS, p.a.qp.state());
        }
    }

    @Test
    void rev1InitiatorAgainstRev2ResponderGetsARev1Reply() throws Exception {
        try (SoftPair p = new SoftPair(ConnectOptions.defaults().mpaRevision(1), ConnectOptions.defaults(),
                AcceptOptions.defaults(), null)) {
            assertEquals(1, p.connA.params().mpaRevision());
        }
    }
}
