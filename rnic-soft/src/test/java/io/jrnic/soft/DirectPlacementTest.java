package io.jrnic.soft;

import static io.jrnic.soft.SoftPair.bytes;
import static io.jrnic.soft.SoftPair.counter;
import static io.jrnic.soft.SoftPair.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.mpa.CrcCheck;
import io.jrnic.mpa.FpduDecoder;
import io.jrnic.mpa.FpduListener;
import io.jrnic.mpa.LlpError;
import io.jrnic.mpa.MpaParameters;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.Terminate;
import io.jrnic.rdmap.TerminateDecoder;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.TerminateInfo;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.epoll.Epoll;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Direct data placement from the socket (spec-notes/placement.md): the payload of an FPDU cut across reads is read
 * into its registered memory before its CRC is checked. A hand-driven peer cuts an FPDU where it likes (its head and
 * some payload, then, once the responder fed those, the rest), so that the placement is certain. Bulk transfers
 * through both read paths: {@link DirectPlacementBulkTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DirectPlacementTest {
    private static final int PAYLOAD = 40_000;
    /** FPDU octets the raw peer sends first: ULPDU_Length, the headers and some payload. */
    private static final int FIRST = 1000;

    @BeforeEach
    void epoll() {
        Assumptions.assumeTrue(Epoll.isAvailable(), "direct placement needs the epoll transport's reads");
    }

    // ---------------------------------------------------------------- one FPDU cut by a raw peer

    /**
     * Connects to {@code b} as a raw MPA initiator with CRC, sends {@code ulpdu} as one FPDU (its CRC corrupted if
     * asked) in two writes: the first {@link #FIRST} octets, then, once {@code b} fed them, the rest. Returns the
     * Terminate {@code b} sent back (a bad CRC); with a good CRC, null once {@code done} holds (the QP still in RTS).
     */
    private static Terminate cutFpdu(SoftPair.Side b, ByteBuf ulpdu, boolean corruptCrc,
            java.util.function.BooleanSupplier done) throws Exception {
        return cutFpdu(b, ulpdu, corruptCrc, () -> { }, done);
    }

    /** As above, running {@code between} once the head is in and before the rest is sent; null {@code done}: a Terminate is expected. */
    private static Terminate cutFpdu(SoftPair.Side b, ByteBuf ulpdu, boolean corruptCrc, Runnable between,
            java.util.function.BooleanSupplier done) throws Exception {
        Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
        l.onConnectRequest(r -> r.accept(b.qp, AcceptOptions.defaults()));
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), l.localAddress().getPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            MpaParameters p = RawMpaInitiator.handshake(s);
            assertTrue(p.crc());
            ByteBuf fpdu = Unpooled.buffer();
            p.newEncoder().encode(ulpdu, fpdu);
            ulpdu.release();
            if (corruptCrc) {
                int last = fpdu.writerIndex() - 1;
                fpdu.setByte(last, fpdu.getByte(last) ^ 0x01);
            }
            RawMpaInitiator.write(out, fpdu.readRetainedSlice(FIRST));
            SoftPair.eventually(() -> counter(b, "rxBytes") == FIRST); // the head is in: the rest is one read away
            between.run();
            RawMpaInitiator.write(out, fpdu);
            if (done != null) {
                SoftPair.eventually(done);
                assertEquals(QpState.RTS, b.qp.state(), "the stream goes on");
                return null;
            }
            Terminate[] got = new Terminate[1];
            FpduDecoder dec = p.newDecoder(new FpduListener() {
                @Override
                public void onFpdu(ByteBuf u, long pos, CrcCheck crc) {
                    got[0] = TerminateDecoder.decode(u, u.readerIndex(), u.readableBytes(), TerminateDecoder.Mode.STRICT);
                }

                @Override
                public void onError(LlpError error, long pos, String detail) {
                    throw new AssertionError(detail);
                }
            });
            InputStream in = s.getInputStream();
            byte[] chunk = new byte[256];
            while (got[0] == null) {
                int n = in.read(chunk);
                assertTrue(n > 0, "stream closed before a Terminate");
                dec.feed(Unpooled.wrappedBuffer(chunk, 0, n));
            }
            return got[0];
        }
    }

    private static ByteBuf write(MemoryRegion mr, int to, byte[] payload) {
        return RawMpaInitiator.ulpdu(RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true),
                u -> u.writeInt(mr.stag()).writeLong(to).writeBytes(payload));
    }

    private static ByteBuf send(byte[] payload) {
        return RawMpaInitiator.ulpdu(RdmapControl.controlWord(RdmapOpcode.SEND, true),
                u -> u.writeInt(0).writeInt(0).writeInt(1).writeInt(0).writeBytes(payload)); // RsvdULP, QN 0, MSN 1, MO 0
    }

    /** A raw peer's RDMA Write of {@code len} octets at TO {@code at}, cut after {@link #FIRST}: its bytes land in the region. */
    private static void cutWriteLands(SoftPair.Side b, int len, int at, int seed) throws Exception {
        ByteBuffer mem = ByteBuffer.allocateDirect(at + len + 4096);
        MemoryRegion mr = b.pd.register(mem, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        byte[] payload = pattern(len, seed);
        cutFpdu(b, write(mr, at, payload), false, () -> counter(b, "rxFpdus") == 1);
        assertArrayEquals(payload, bytes(mem, at, len));
    }

    @Test
    void aWritePayloadCutAcrossReadsIsReadStraightIntoTheRegion() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            cutWriteLands(b, PAYLOAD, 333, 1);
            assertEquals(1, counter(b, "rxDirectFpdus"), "placed before its CRC was checked");
            assertEquals(PAYLOAD - (FIRST - 2 - 14), counter(b, "rxDirectBytes"), "the rest of the payload, read in place");
        }
    }

    /**
     * Less than {@code DirectPlacement.MIN_PAYLOAD} (16 KiB) of a payload still to come is copied: a jumbo frame's FPDU
     * (8,928 payload octets at MTU 9000) is never placed, since the read it would take costs more than the copy.
     */
    @Test
    void aPayloadRestUnder16KibIsCopiedNotPlaced() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            cutWriteLands(b, 12_000, 55, 4); // 11,016 octets still to come after the first write: placed at the old 8 KiB
            assertEquals(0, counter(b, "rxDirectFpdus"), "copied after its CRC was checked");
            assertEquals(0, counter(b, "rxDirectBytes"));
        }
    }

    @Test
    void aSendPayloadCutAcrossReadsIsReadStraightIntoThePostedReceive() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            ByteBuffer mem = ByteBuffer.allocateDirect(PAYLOAD + 4096);
            MemoryRegion mr = b.pd.register(mem, Access.LOCAL_WRITE);
            b.qp.postRecv(RecvWr.of(5, mr.sge(91, PAYLOAD + 1)));
            byte[] payload = pattern(PAYLOAD - 1, 2); // odd: a pad
            cutFpdu(b, send(payload), false, () -> counter(b, "rxFpdus") == 1);
            assertEquals(1, counter(b, "rxDirectFpdus"), "placed before its CRC was checked");
            Completion c = b.awaitOne();
            assertEquals(CompletionStatus.SUCCESS, c.status());
            assertEquals(CompletionOpcode.RECV, c.opcode());
            assertEquals(PAYLOAD - 1, c.byteLength());
            assertArrayEquals(payload, bytes(mem, 91, PAYLOAD - 1));
            assertEquals(PAYLOAD - 1 - (FIRST - 2 - 18), counter(b, "rxDirectBytes"));
        }
    }

    /**
     * A bad CRC on an FPDU whose payload was read into its target: the Terminate of a copied FPDU (LLP CRC error, no
     * header attached, RFC 5044 section 8), the QP to ERROR, and the target holds the FPDU's octets (what
     * spec-notes/placement.md says a consumer may see: the memory's content is undefined, no completion says it
     * is good).
     */
    @Test
    void aBadCrcOnAPlacedWriteIsTheSameTerminateAndTheRegionMayHoldItsOctets() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            ByteBuffer mem = ByteBuffer.allocateDirect(PAYLOAD);
            MemoryRegion mr = b.pd.register(mem, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            byte[] payload = pattern(PAYLOAD, 3);
            Terminate t = cutFpdu(b, write(mr, 0, payload), true, () -> { }, null);
            assertEquals(2, t.layer());
            assertEquals(0, t.errorType());
            assertEquals(0x02, t.errorCode());
            assertTrue(!t.d() && !t.r(), "nothing of the FPDU is trusted: no header attached");
            assertEquals(new TerminateInfo(2, 0, 0x02, false), b.awaitEvent(AsyncEventType.QP_TERMINATE_SENT).terminate());
            SoftPair.eventually(() -> b.qp.state() == QpState.ERROR);
            assertEquals(1, counter(b, "crcErrors"));
            assertEquals(0, counter(b, "rxDirectFpdus"), "never acted on");
            assertEquals(PAYLOAD - (FIRST - 2 - 14), counter(b, "rxDirectBytes"));
            assertArrayEquals(payload, bytes(mem, 0, PAYLOAD), "placed before the CRC was checked");
        }
    }

    /**
     * The region deregistered while a Write's payload is being placed into it (after its head was checked): once the
     * CRC checked good the Write is checked again as a copied one is, and the STag no longer works: the Terminate of a
     * Write to an invalid STag (DDP tagged 0x00, the DDP header attached), as the copy path sends; the rest of the
     * payload is not written into the deregistered memory.
     */
    @Test
    void aRegionDeregisteredUnderAPlacedWriteIsTheCopyPathsTerminate() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            ByteBuffer mem = ByteBuffer.allocateDirect(PAYLOAD);
            MemoryRegion mr = b.pd.register(mem, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            Terminate t = cutFpdu(b, write(mr, 0, pattern(PAYLOAD, 5)), false, mr::close, null);
            assertEquals(1, t.layer());
            assertEquals(1, t.errorType());
            assertEquals(0x00, t.errorCode());
            assertTrue(t.d(), "the DDP header attached, as for any Write to a bad STag");
            assertEquals(new TerminateInfo(1, 1, 0x00, false), b.awaitEvent(AsyncEventType.QP_TERMINATE_SENT).terminate());
            assertEquals(1, counter(b, "rxDirectFpdus"), "its CRC was good: it was acted on, and refused");
            assertEquals(0, counter(b, "crcErrors"));
            assertEquals(0, counter(b, "rxDirectBytes"), "nothing read into the memory once it was deregistered");
            int before = FIRST - 2 - 14; // placed with the head, before the deregistration
            assertArrayEquals(new byte[PAYLOAD - before], bytes(mem, before, PAYLOAD - before),
                    "the deregistered memory is not written");
        }
    }

    /** The same for a Send: its receive completes only as flushed (no completion reports the data good). */
    @Test
    void aBadCrcOnAPlacedSendFlushesTheReceive() throws Exception {
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            ByteBuffer mem = ByteBuffer.allocateDirect(PAYLOAD);
            MemoryRegion mr = b.pd.register(mem, Access.LOCAL_WRITE);
            b.qp.postRecv(RecvWr.of(9, mr.sge()));
            Terminate t = cutFpdu(b, send(pattern(PAYLOAD, 4)), true, () -> { }, null);
            assertEquals(2, t.layer());
            assertEquals(0x02, t.errorCode());
            assertTrue(!t.d() && !t.r());
            Completion c = b.awaitOne();
            assertEquals(9, c.id());
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, c.status());
            assertEquals(QpState.ERROR, b.qp.state());
            assertTrue(counter(b, "rxDirectBytes") > 0);
        }
    }
}
