package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.DdpControl;
import io.jrnic.mpa.CrcCheck;
import io.jrnic.mpa.FpduDecoder;
import io.jrnic.mpa.FpduListener;
import io.jrnic.mpa.LlpError;
import io.jrnic.mpa.MpaParameters;
import io.jrnic.rdmap.AtomicRequestHeader;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.Terminate;
import io.jrnic.rdmap.TerminateDecoder;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.TerminateInfo;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A hand-driven peer on a plain socket sends malformed FPDUs to a soft responder, and reads the
 * exact Terminate that comes back (RFC 5040 section 4.8 layout, RFC 5044 section 8 LLP errors).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RawPeerTest {

    /** Connects as an MPA initiator with CRC, sends {@code ulpdu} (optionally corrupted), returns the Terminate read back. */
    private static Terminate exchange(ByteBuf ulpdu, boolean corruptCrc, TerminateInfo expected) throws Exception {
        return exchange(side -> ulpdu, corruptCrc, expected, side -> { });
    }

    /**
     * As above, with the ULPDU built against the responder (e.g. naming a region it registered) and
     * a check of the responder run after the Terminate.
     */
    private static Terminate exchange(Function<SoftPair.Side, ByteBuf> ulpduOf, boolean corruptCrc,
            TerminateInfo expected, Consumer<SoftPair.Side> after) throws Exception {
        return exchange(ConnectOptions.defaults(), ulpduOf, corruptCrc, expected, after);
    }

    /** As above, with the listener's options. */
    private static Terminate exchange(ConnectOptions listen, Function<SoftPair.Side, ByteBuf> ulpduOf, boolean corruptCrc,
            TerminateInfo expected, Consumer<SoftPair.Side> after) throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            ByteBuf ulpdu = ulpduOf.apply(b);
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), listen);
            l.onConnectRequest(r -> r.accept(b.qp, AcceptOptions.defaults()));
            Terminate t;
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), l.localAddress().getPort())) {
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                InputStream in = s.getInputStream();
                MpaParameters p = RawMpaInitiator.handshake(s);
                assertTrue(p.crc());
                ByteBuf fpdu = Unpooled.buffer();
                p.newEncoder().encode(ulpdu, fpdu);
                ulpdu.release();
                if (corruptCrc) {
                    int last = fpdu.writerIndex() - 1;
                    fpdu.setByte(last, fpdu.getByte(last) ^ 0x01);
                }
                write(out, fpdu);
                Terminate[] got = new Terminate[1];
                FpduDecoder dec = p.newDecoder(new FpduListener() {
                    @Override
                    public void onFpdu(ByteBuf u, long pos, CrcCheck crc) {
                        got[0] = TerminateDecoder.decode(u, u.readerIndex(), u.readableBytes(),
                                TerminateDecoder.Mode.STRICT);
                    }

                    @Override
                    public void onError(LlpError error, long pos, String detail) {
                        throw new AssertionError(detail);
                    }
                });
                byte[] chunk = new byte[256];
                while (got[0] == null) {
                    int n = in.read(chunk);
                    assertTrue(n > 0, "stream closed before a Terminate");
                    ByteBuf c = Unpooled.wrappedBuffer(chunk, 0, n);
                    dec.feed(c);
                }
                t = got[0];
            }
            assertEquals(expected.layer(), t.layer());
            assertEquals(expected.errorType(), t.errorType());
            assertEquals(expected.errorCode(), t.errorCode());
            assertEquals(expected, b.awaitEvent(AsyncEventType.QP_TERMINATE_SENT).terminate());
            SoftPair.eventually(() -> b.qp.state() == QpState.ERROR);
            after.accept(b);
            return t;
        }
    }

    private static void write(OutputStream out, ByteBuf b) throws Exception {
        RawMpaInitiator.write(out, b);
    }

    private static ByteBuf ulpdu(int control, Consumer<ByteBuf> rest) {
        return RawMpaInitiator.ulpdu(control, rest);
    }

    private static final Consumer<ByteBuf> TAGGED_ZERO = u -> u.writeInt(0x100).writeLong(0);

    @Test
    void badCrcIsLlpCrcErrorWithoutHeaders() throws Exception {
        Terminate t = exchange(ulpdu(RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true), TAGGED_ZERO), true,
                new TerminateInfo(2, 0, 0x02, false));
        assertTrue(!t.d() && !t.r());
    }

    @Test
    void undefinedOpcodeIsRdmapUnexpectedOpcodeWithTheDdpHeader() throws Exception {
        int control = DdpControl.compose(true, true, (RdmapControl.RDMAP_VERSION << 6) | 0xC);
        Terminate t = exchange(ulpdu(control, TAGGED_ZERO), false, new TerminateInfo(0, 2, 0x06, false));
        assertTrue(t.d() && t.m());
        assertEquals(14, t.ddpSegmentLength());
        assertEquals(0xC, t.ddpHeader()[1] & 0x0F);
    }

    @Test
    void immediateDataIsRefusedAsAnUnexpectedOpcodeWhenTheUlpDoesNotUseRfc7306() throws Exception {
        // untagged, QN 0, MSN 1, MO 0, then the 8 bytes of Immediate Data (RFC 7306 section 8.2)
        int control = DdpControl.compose(false, true, (RdmapControl.RDMAP_VERSION << 6) | 0x8);
        Terminate t = exchange(ConnectOptions.defaults().rdmapExtensions(false),
                side -> ulpdu(control, u -> u.writeInt(0).writeInt(0).writeInt(1).writeInt(0).writeLong(42)), false,
                new TerminateInfo(0, 2, 0x06, false), side -> { });
        assertTrue(t.d() && t.m());
    }

    @Test
    void wrongDdpVersionIsDdpTaggedInvalidVersion() throws Exception {
        int control = DdpControl.compose(true, true, 2, RdmapControl.rsvdUlp(RdmapOpcode.RDMA_WRITE));
        exchange(ulpdu(control, TAGGED_ZERO), false, new TerminateInfo(1, 1, 0x04, false));
    }

    @Test
    void wrongRdmapVersionIsRdmapInvalidVersion() throws Exception {
        int control = DdpControl.compose(true, true, (2 << 6) | RdmapOpcode.RDMA_WRITE.code());
        exchange(ulpdu(control, TAGGED_ZERO), false, new TerminateInfo(0, 2, 0x05, false));
    }

    @Test
    void untaggedQueueNumberFiveIsDdpInvalidQn() throws Exception {
        exchange(ulpdu(RdmapControl.controlWord(RdmapOpcode.SEND, true), u -> u.writeInt(0).writeInt(5).writeInt(1)
                .writeInt(0)), false, new TerminateInfo(1, 2, 0x01, false));
    }

    @Test
    void readRequestOutOfSequenceIsDdpMsnRangeWithTheReadRequestAttached() throws Exception {
        Terminate t = exchange(ulpdu(RdmapControl.controlWord(RdmapOpcode.RDMA_READ_REQUEST, true),
                u -> u.writeInt(0).writeInt(1).writeInt(7).writeInt(0)
                        .writeInt(0x500).writeLong(0).writeInt(16).writeInt(0x600).writeLong(0)), false,
                new TerminateInfo(1, 2, 0x03, false));
        assertTrue(t.d() && t.r());
        assertEquals(46, t.ddpSegmentLength());
        assertNotNull(t.rdmapHeader());
        assertEquals(0x06, t.rdmapHeader()[18], "SrcSTag of the attached Read Request");
    }

    /** RFC 7306: an Atomic Request's target must be 8-byte aligned; TO 4 is RDMAP base or bounds (1/0x01). */
    @Test
    void atomicOnAnUnalignedAddressIsRdmapBaseOrBoundsAndTouchesNothing() throws Exception {
        byte[] target = new byte[64];
        java.util.Arrays.fill(target, (byte) 0x5A);
        MemoryRegion[] mr = new MemoryRegion[1];
        exchange(side -> {
            mr[0] = side.pd.register(target, Access.LOCAL_WRITE, Access.REMOTE_ATOMIC);
            return ulpdu(RdmapControl.controlWord(RdmapOpcode.ATOMIC_REQUEST, true), u -> {
                u.writeInt(0).writeInt(RdmapOpcode.QN_READ_REQUEST).writeInt(1).writeInt(0);
                int h = u.writerIndex();
                u.writeZero(AtomicRequestHeader.LENGTH);
                new AtomicRequestHeader().wrap(u, h).atomicOperation(AtomicRequestHeader.OP_FETCH_ADD).requestId(1)
                        .remoteStag(mr[0].stag()).remoteTaggedOffset(4).addOrSwap(1).addOrSwapMask(-1L);
            });
        }, false, new TerminateInfo(0, 1, 0x01, false), side -> {
            for (byte x : target) {
                assertEquals((byte) 0x5A, x, "no byte of the target changed");
            }
        });
    }

    // ---- RFC deviations a stack tester finds (issue 8), each answered at the layer that detects it

    /** A Send whose MSN lies beyond the receive window (1024 receives deep): the MSN range (DDP 2/0x03) comes before "no buffer". */
    @Test
    void sendWithAnMsnBeyondTheReceiveWindowIsDdpMsnRangeNotNoBuffer() throws Exception {
        exchange(ulpdu(RdmapControl.controlWord(RdmapOpcode.SEND, true),
                u -> u.writeInt(0).writeInt(0).writeInt(5000).writeInt(0).writeInt(0xABCD)), false,
                new TerminateInfo(1, 2, 0x03, false));
    }

    /** A Send whose MSN is inside the window but has no posted receive is still "no buffer" (2/0x02). */
    @Test
    void sendInsideTheWindowWithoutAPostedReceiveIsDdpNoBuffer() throws Exception {
        exchange(ulpdu(RdmapControl.controlWord(RdmapOpcode.SEND, true),
                u -> u.writeInt(0).writeInt(0).writeInt(1).writeInt(0).writeInt(0xABCD)), false,
                new TerminateInfo(1, 2, 0x02, false));
    }

    /** A Write starting 16 bytes below a zero-based region (TO near 2^64) is base-and-bounds 1/0x01, not TO wrap. */
    @Test
    void writeBelowTheRegionBaseIsDdpBaseAndBounds() throws Exception {
        byte[] target = new byte[64];
        exchange(side -> {
            MemoryRegion mr = side.pd.register(target, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            return ulpdu(RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true),
                    u -> u.writeInt(mr.stag()).writeLong(-16L).writeZero(32));
        }, false, new TerminateInfo(1, 1, 0x01, false), side -> {
            for (byte x : target) {
                assertEquals(0, x, "nothing placed");
            }
        });
    }

    /** RFC 5040 section 4.4: a Read Request is its 28-byte header; a longer ULPDU is RDMAP 2/0xFF with D and R. */
    @Test
    void readRequestLongerThanItsHeaderIsRdmapRemoteOperationUnspecified() throws Exception {
        Terminate t = exchange(ulpdu(RdmapControl.controlWord(RdmapOpcode.RDMA_READ_REQUEST, true),
                u -> u.writeInt(0).writeInt(1).writeInt(1).writeInt(0)
                        .writeInt(0x500).writeLong(0).writeInt(0).writeInt(0x600).writeLong(0).writeInt(0xDEAD)), false,
                new TerminateInfo(0, 2, 0xFF, false));
        assertTrue(t.d() && t.r());
        assertEquals(50, t.ddpSegmentLength());
    }

    /** Send with Invalidate, and with SE and Invalidate, of an STag that cannot be invalidated: RDMAP 1/0x09. */
    @Test
    void sendWithInvalidateOfAnStagThatCannotBeInvalidatedIsRdmapRemoteProtection0x09() throws Exception {
        for (RdmapOpcode op : new RdmapOpcode[] {RdmapOpcode.SEND_WITH_INVALIDATE, RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE}) {
            exchange(side -> {
                side.qp.postRecv(io.jrnic.verbs.RecvWr.of(1, side.pd.register(new byte[16], Access.LOCAL_WRITE).sge(0, 16)));
                return ulpdu(RdmapControl.controlWord(op, true),
                        u -> u.writeInt(0x7777_0000).writeInt(0).writeInt(1).writeInt(0).writeInt(0xABCD));
            }, false, new TerminateInfo(0, 1, 0x09, false), side -> { });
        }
    }

    /** An FPDU whose ULPDU is shorter than a DDP header: DDP answers (0/0x00), not RDMAP 2/0xFF. */
    @Test
    void ulpduShorterThanADdpHeaderIsADdpError() throws Exception {
        for (int len : new int[] {1, 10}) {
            Terminate t = exchange(ulpdu(RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true),
                    u -> u.writeZero(8)).writerIndex(len), false,
                    new TerminateInfo(1, 0, 0x00, false));
            assertTrue(!t.d(), "no whole DDP header to attach");
        }
    }

    /** The Request followed, in the same write, by a Send of "ping" (MSN 1) framed with CRC. */
    private static ByteBuf requestWithAPipelinedSend(io.jrnic.mpa.MpaInitiator init) {
        ByteBuf out = init.request();
        ByteBuf send = ulpdu(RdmapControl.controlWord(RdmapOpcode.SEND, true),
                u -> u.writeInt(0).writeInt(0).writeInt(1).writeInt(0).writeBytes("ping".getBytes()));
        new io.jrnic.mpa.FpduEncoder(true, false).encode(send, out);
        send.release();
        return out;
    }

    /** RFC 5044 section 7.1.1: an initiator sends no FPDU before the Reply; one pipelined behind the Request fails the set-up. */
    @Test
    void fpduPipelinedBehindTheRequestFailsTheSetupByDefault() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            java.util.concurrent.atomic.AtomicBoolean asked = new java.util.concurrent.atomic.AtomicBoolean();
            l.onConnectRequest(r -> {
                asked.set(true);
                r.accept(b.qp, AcceptOptions.defaults());
            });
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), l.localAddress().getPort())) {
                s.setSoTimeout(10_000);
                write(s.getOutputStream(), requestWithAPipelinedSend(
                        new io.jrnic.mpa.MpaInitiator(io.jrnic.mpa.MpaOptions.defaults())));
                assertEquals(-1, s.getInputStream().read(), "closed, no Reply");
            }
            assertTrue(!asked.get(), "the application never saw the Request");
            assertEquals(QpState.IDLE, b.qp.state());
        }
    }

    /** Leniency ({@link ConnectOptions#lenientTiming}): the pipelined Send is kept and delivered after the Reply. */
    @Test
    void fpduPipelinedBehindTheRequestIsDeliveredWhenTheListenerIsLenient() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            MemoryRegion mr = b.pd.register(new byte[16], Access.LOCAL_WRITE);
            b.qp.postRecv(io.jrnic.verbs.RecvWr.of(7, mr.sge(0, 16)));
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0),
                    ConnectOptions.defaults().lenientTiming(true));
            l.onConnectRequest(r -> r.accept(b.qp, AcceptOptions.defaults()));
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), l.localAddress().getPort())) {
                s.setSoTimeout(10_000);
                io.jrnic.mpa.MpaInitiator init = new io.jrnic.mpa.MpaInitiator(io.jrnic.mpa.MpaOptions.defaults());
                write(s.getOutputStream(), requestWithAPipelinedSend(init));
                io.jrnic.verbs.Completion c = b.awaitOne();
                assertEquals(7, c.id());
                assertEquals(io.jrnic.verbs.CompletionStatus.SUCCESS, c.status(), c.toString());
                assertEquals(4, c.byteLength());
            }
        }
    }

    /**
     * The timing rule also covers an FPDU that arrives in a later read, while the application has not
     * answered the Request yet: the set-up fails at once (no Reply), and a late accept fails.
     */
    @Test
    void fpduArrivingBeforeTheReplyIsSentFailsTheSetup() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0),
                    ConnectOptions.defaults().mpaRequestTimeout(java.time.Duration.ofSeconds(60)));
            java.util.concurrent.CompletableFuture<io.jrnic.verbs.ConnectRequest> asked =
                    new java.util.concurrent.CompletableFuture<>();
            l.onConnectRequest(asked::complete);
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), l.localAddress().getPort())) {
                s.setSoTimeout(10_000);
                io.jrnic.mpa.MpaInitiator init = new io.jrnic.mpa.MpaInitiator(io.jrnic.mpa.MpaOptions.defaults());
                ByteBuf both = requestWithAPipelinedSend(init);
                ByteBuf request = both.readRetainedSlice(init.requestFrame().encodedLength());
                write(s.getOutputStream(), request);
                io.jrnic.verbs.ConnectRequest req = asked.get(10, TimeUnit.SECONDS);
                write(s.getOutputStream(), both); // the Send, before any Reply
                assertEquals(-1, s.getInputStream().read(), "closed without a Reply (the accept timer is 60 s)");
                java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
                        java.util.concurrent.ExecutionException.class,
                        () -> req.accept(b.qp, AcceptOptions.defaults()).get(10, TimeUnit.SECONDS));
                assertNotNull(e.getCause());
            }
        }
    }
}
