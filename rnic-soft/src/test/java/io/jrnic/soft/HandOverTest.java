package io.jrnic.soft;

import static io.jrnic.soft.HandOverFixture.bytes;
import static io.jrnic.soft.HandOverFixture.concat;
import static io.jrnic.soft.HandOverFixture.readLine;
import static io.jrnic.soft.HandOverFixture.socketPair;
import static io.jrnic.soft.HandOverFixture.writeAll;
import static io.jrnic.soft.HandOverFixture.writeAndSend;
import static io.jrnic.soft.HandOverFixture.writeLine;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.mpa.CrcMode;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.MpaInitiator;
import io.jrnic.mpa.MpaOptions;
import io.jrnic.mpa.MpaResponder;
import io.jrnic.mpa.Outcome;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.soft.HandOverFixture.Ep;
import io.jrnic.soft.HandOverFixture.Target;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.CmEventType;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ConnectionParams;
import io.jrnic.verbs.HandOverFailedException;
import io.jrnic.verbs.HandOverOptions;
import io.jrnic.verbs.HandOverVerdict;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.RtrType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stream hand-over (RDMA mode transition) of {@code java.nio} sockets: streaming mode first, then
 * MPA on the same stream (RFC 5044 section 7.1), nothing lost; the failure outcomes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandOverTest {
    private static final byte[] HELLO_PD = "initiator-pd".getBytes(StandardCharsets.US_ASCII);

    @Test
    void socketChannelsHandOverAfterStreamingWithTheRequestInTheSameReadAsTheLastLine() throws Exception {
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            SocketChannel[] s = socketPair();
            Target targetB = new Target(b);
            // streaming mode: HELLO both ways, then A asks and B agrees
            writeLine(s[0], "HELLO B");
            ByteBuffer bufB = ByteBuffer.allocate(4096);
            assertEquals("HELLO B", readLine(s[1], bufB, 0));
            writeLine(s[1], "HELLO A");
            ByteBuffer bufA = ByteBuffer.allocate(4096);
            assertEquals("HELLO A", readLine(s[0], bufA, 0));
            writeLine(s[0], "RDMA?");
            // A hands over as initiator at once: its Request follows "RDMA?\n" on the wire
            CompletableFuture<Connection> fa = a.cm.handOver(s[0], bufA.flip(), a.qp, HandOverOptions.initiator(
                    ConnectOptions.defaults().privateData(HELLO_PD).ird(8).ord(4).peerToPeer(RtrType.WRITE)));
            // B's streaming read returns the line and at least part of the Request behind it
            assertEquals("RDMA?", readLine(s[1], bufB, 1));
            assertTrue(bufB.flip().hasRemaining(), "MPA bytes read in streaming mode");
            AtomicReference<ConnectionParams> seen = new AtomicReference<>();
            CompletableFuture<Connection> fb = b.cm.handOver(s[1], bufB, b.qp,
                    HandOverOptions.responder(ConnectOptions.defaults()).onRequest(offered -> {
                        seen.set(offered);
                        return HandOverVerdict.accept(AcceptOptions.defaults().privateData(targetB.advertise()));
                    }));
            Connection ca = fa.get(10, TimeUnit.SECONDS);
            Connection cb = fb.get(10, TimeUnit.SECONDS);
            assertArrayEquals(HELLO_PD, seen.get().privateData());
            assertEquals(8, seen.get().ird());
            assertEquals(4, seen.get().ord());
            assertTrue(seen.get().peerToPeer());
            assertTrue(ca.isActive());
            assertFalse(cb.isActive());
            assertEquals(QpState.RTS, a.qp.state());
            writeAndSend(a, ca, b, targetB, 1);
        }
    }

    /** Request + RTR + SEND, as a peer that does not wait for the Reply would send them. */
    private static byte[] requestThenFpdus(byte[] sendPayload) {
        MpaInitiator init = new MpaInitiator(MpaOptions.builder().crc(CrcMode.WANTED).p2p(true)
                .rtrTypes(io.jrnic.mpa.RtrType.WRITE).build());
        byte[] request = bytes(init.request());
        FpduEncoder enc = new FpduEncoder(true, false);
        ByteBuf rtr = Unpooled.buffer().writeShort(RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true))
                .writeInt(1).writeLong(0); // zero-length RDMA WRITE: the RTR (RFC 6581 section 4)
        ByteBuf send = Unpooled.buffer().writeShort(RdmapControl.controlWord(RdmapOpcode.SEND, true))
                .writeInt(0).writeInt(0).writeInt(1).writeInt(0).writeBytes(sendPayload); // QN 0, MSN 1, MO 0
        ByteBuf out = Unpooled.buffer();
        enc.encode(rtr, out);
        enc.encode(send, out);
        rtr.release();
        send.release();
        return concat(request, bytes(out));
    }

    @Test
    void firstFpdusReadBeforeTheHandOverAreFedAfterTheReplyInOrder() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            SocketChannel[] s = socketPair();
            Target targetB = new Target(b);
            byte[] payload = Arrays.copyOf("first FPDU, read in streaming mode".getBytes(StandardCharsets.US_ASCII), 64);
            writeAll(s[0], concat("LAST LINE\n".getBytes(StandardCharsets.US_ASCII), requestThenFpdus(payload)));
            ByteBuffer buf = ByteBuffer.allocate(4096);
            int expected = requestThenFpdus(payload).length;
            assertEquals("LAST LINE", readLine(s[1], buf, expected));
            assertEquals(expected, buf.flip().remaining(), "the Request and both FPDUs were read in streaming mode");
            // FPDUs pipelined behind the Request break RFC 5044's timing rule: accepted only when lenient
            Connection cb = b.cm.handOver(s[1], buf, b.qp,
                    HandOverOptions.responder(ConnectOptions.defaults()).strictTiming(false)).get(10, TimeUnit.SECONDS);
            assertEquals(QpState.RTS, b.qp.state());
            assertEquals(77, b.awaitOne().id());
            assertArrayEquals(payload, targetB.inbox);
            // the Reply went out: the peer reads a Reply granting the WRITE RTR
            MpaInitiator check = new MpaInitiator(MpaOptions.builder().crc(CrcMode.WANTED).p2p(true)
                    .rtrTypes(io.jrnic.mpa.RtrType.WRITE).build());
            check.request().release();
            assertEquals(Outcome.Status.DONE, readReply(s[0], check).status());
            assertTrue(cb.params().peerToPeer());
            s[0].close();
        }
    }

    private static Outcome readReply(SocketChannel ch, MpaInitiator init) throws Exception {
        ByteBuf acc = Unpooled.buffer();
        try {
            ByteBuffer one = ByteBuffer.allocate(1);
            Outcome o;
            do {
                one.clear();
                assertTrue(ch.read(one) > 0, "Reply cut short");
                acc.writeByte(one.get(0));
                o = init.feed(acc);
            } while (o.status() == Outcome.Status.NEED_MORE);
            return o;
        } finally {
            acc.release();
        }
    }

    private static HandOverFailedException failure(CompletableFuture<Connection> f) throws Exception {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
        return assertInstanceOf(HandOverFailedException.class, e.getCause());
    }

    /** After a closing failure the peer reads end of stream (no byte: nothing sent to it). */
    private static void assertPeerSeesEof(SocketChannel peer) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(256);
        int n;
        while ((n = peer.read(b)) > 0) {
            b.clear();
        }
        assertEquals(-1, n);
    }

    @Test
    void strictTimingFailsAnFpduRightBehindTheRequestWithLlpInvalidSetupFrame() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            SocketChannel[] s = socketPair();
            writeAll(s[0], requestThenFpdus(new byte[16]));
            HandOverFailedException e = failure(b.cm.handOver(s[1], ByteBuffer.allocate(0), b.qp,
                    HandOverOptions.responder(ConnectOptions.defaults()).strictTiming(true)));
            assertEquals(CmEventType.CONNECT_ERROR, e.type());
            assertEquals("BYTES_AFTER_SETUP_FRAME", e.reason());
            assertEquals(0x04, e.llpErrorCode());
            assertFalse(e.channelReturned());
            assertPeerSeesEof(s[0]);
            assertFalse(s[1].isOpen());
            assertEquals(QpState.IDLE, b.qp.state());
        }
    }

    @Test
    void garbageInsteadOfARequestIsInvalidKeyAndClosesTheStream() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            SocketChannel[] s = socketPair();
            writeAll(s[0], "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            HandOverFailedException e = failure(b.cm.handOver(s[1], null, b.qp,
                    HandOverOptions.responder(ConnectOptions.defaults()).returnChannelOnFailure(true)));
            assertEquals(CmEventType.CONNECT_ERROR, e.type());
            assertEquals("INVALID_KEY", e.reason());
            assertEquals(0x04, e.llpErrorCode());
            assertFalse(e.channelReturned(), "bytes were consumed: never handed back");
            assertPeerSeesEof(s[0]);
            assertFalse(s[1].isOpen());
        }
    }

    @Test
    void replyWithRejectIsRejectedByPeerWithItsPrivateData() throws Exception {
        try (SoftPair.Side a = new SoftPair.Side("A")) {
            SocketChannel[] s = socketPair();
            CompletableFuture<Connection> fa = a.cm.handOver(s[0], null, a.qp,
                    HandOverOptions.initiator(ConnectOptions.defaults().privateData(HELLO_PD)));
            MpaResponder resp = new MpaResponder(MpaOptions.defaults());
            ByteBuf acc = Unpooled.buffer();
            ByteBuffer chunk = ByteBuffer.allocate(512);
            Outcome o;
            do {
                chunk.clear();
                assertTrue(s[1].read(chunk) > 0);
                acc.writeBytes(chunk.flip());
                o = resp.feed(acc);
            } while (o.status() == Outcome.Status.NEED_MORE);
            acc.release();
            assertArrayEquals(HELLO_PD, o.peerFrame().privateData());
            byte[] why = "not today".getBytes(StandardCharsets.US_ASCII);
            Outcome r = resp.reject(why);
            writeAll(s[1], bytes(r.toSend()));
            HandOverFailedException e = failure(fa);
            assertEquals(CmEventType.REJECTED, e.type());
            assertEquals("REJECTED_BY_PEER", e.reason());
            assertEquals(-1, e.llpErrorCode());
            assertArrayEquals(why, e.privateData());
            assertFalse(e.channelReturned());
            assertPeerSeesEof(s[1]);
            assertEquals(QpState.IDLE, a.qp.state());
        }
    }

    @Test
    void responderRejectsThroughItsDeciderAndTheInitiatorSeesTheReason() throws Exception {
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            SocketChannel[] s = socketPair();
            byte[] why = "go away".getBytes(StandardCharsets.US_ASCII);
            CompletableFuture<Connection> fa = a.cm.handOver(s[0], null, a.qp,
                    HandOverOptions.initiator(ConnectOptions.defaults()));
            CompletableFuture<Connection> fb = b.cm.handOver(s[1], null, b.qp,
                    HandOverOptions.responder(ConnectOptions.defaults()).onRequest(r -> HandOverVerdict.reject(why)));
            HandOverFailedException ea = failure(fa);
            HandOverFailedException eb = failure(fb);
            assertEquals("REJECTED_BY_PEER", ea.reason());
            assertArrayEquals(why, ea.privateData());
            assertEquals(CmEventType.REJECTED, eb.type());
            assertEquals("REJECTED_LOCALLY", eb.reason());
            assertArrayEquals(why, eb.privateData());
        }
    }

    @Test
    void timeoutClosesTheStreamByDefault() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            SocketChannel[] s = socketPair();
            HandOverFailedException e = failure(b.cm.handOver(s[1], null, b.qp, HandOverOptions.responder(
                    ConnectOptions.defaults().mpaRequestTimeout(Duration.ofMillis(200)))));
            assertEquals(CmEventType.TIMEOUT, e.type());
            assertEquals("TIMEOUT", e.reason());
            assertEquals(-1, e.llpErrorCode());
            assertFalse(e.channelReturned());
            assertPeerSeesEof(s[0]);
        }
    }

    @Test
    void timeoutHandsTheUntouchedStreamBackAndStreamingGoesOn() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            SocketChannel[] s = socketPair();
            HandOverFailedException e = failure(b.cm.handOver(s[1], null, b.qp, HandOverOptions.responder(
                    ConnectOptions.defaults().mpaRequestTimeout(Duration.ofMillis(200))).returnChannelOnFailure(true)));
            assertEquals(CmEventType.TIMEOUT, e.type());
            assertTrue(e.channelReturned());
            assertTrue(s[1].isOpen());
            assertTrue(s[1].isBlocking(), "blocking mode restored");
            writeLine(s[0], "STILL STREAMING");
            ByteBuffer buf = ByteBuffer.allocate(256);
            assertEquals("STILL STREAMING", readLine(s[1], buf, 0));
            writeLine(s[1], "YES");
            assertEquals("YES", readLine(s[0], ByteBuffer.allocate(256), 0));
            assertEquals(QpState.IDLE, b.qp.state());
            s[0].close();
            s[1].close();
        }
    }

    @Test
    void fiftyHandOversInParallelAllCarryWriteAndSend() throws Exception {
        int n = 50;
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            Ep[] epA = new Ep[n];
            Ep[] epB = new Ep[n];
            Target[] targets = new Target[n];
            CompletableFuture<?>[] all = new CompletableFuture<?>[2 * n];
            for (int i = 0; i < n; i++) {
                epA[i] = Ep.create(a, "A" + i);
                epB[i] = Ep.create(b, "B" + i);
                Target t = targets[i] = new Target(epB[i]);
                SocketChannel[] s = socketPair();
                all[2 * i] = a.cm.handOver(s[0], null, epA[i].qp(), HandOverOptions.initiator(
                        ConnectOptions.defaults().peerToPeer(RtrType.WRITE)));
                all[2 * i + 1] = b.cm.handOver(s[1], null, epB[i].qp(), HandOverOptions.responder(
                        ConnectOptions.defaults()).onRequest(r -> HandOverVerdict.accept(
                                AcceptOptions.defaults().privateData(t.advertise()))));
            }
            CompletableFuture.allOf(all).get(30, TimeUnit.SECONDS);
            for (int i = 0; i < n; i++) {
                writeAndSend(epA[i], (Connection) all[2 * i].get(), epB[i], targets[i], 100 + i);
            }
        }
    }
}
