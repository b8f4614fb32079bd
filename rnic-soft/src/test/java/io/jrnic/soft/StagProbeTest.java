package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RecvWr;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * RFC 5042 section 5 over the wire: a raw peer probes a soft responder's STags, one probe per connection
 * (the first Terminate ends a stream, so a guessing peer must reconnect for every guess), with RDMA Writes,
 * Read Requests and Sends with Invalidate. Random STags, the exact STag of another protection domain's
 * region, a deregistered region's STag, and a region lacking the right each get their Terminate, and no
 * byte of any registered region changes. The number of random probes is {@code -Djrnic.stagProbes}
 * (default 300; {@code ./mvnw test -pl rnic-soft -am -Dtest=StagProbeTest -Djrnic.stagProbes=20000} for a
 * longer run); the million-probe figure is the table-level {@code StagGuessingTest}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class StagProbeTest {
    private static final byte FILL = 0x5A;
    private static final int PROBES = Integer.getInteger("jrnic.stagProbes", 300);

    private SoftPair.Side side;
    private ProtectionDomain otherPd;
    private Listener listener;
    private final Queue<QueuePair> qps = new ConcurrentLinkedQueue<>();
    private byte[][] memories;
    private MemoryRegion rw;
    private MemoryRegion readOnly;
    private MemoryRegion writeOnly;
    private MemoryRegion ofOtherPd;
    private MemoryRegion recvMr;

    @BeforeEach
    void responder() {
        side = new SoftPair.Side("probed");
        otherPd = side.dev.allocatePd();
        memories = new byte[4][256];
        for (byte[] m : memories) {
            Arrays.fill(m, FILL);
        }
        rw = side.pd.register(memories[0], Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
                Access.REMOTE_ATOMIC);
        readOnly = side.pd.register(memories[1], Access.REMOTE_READ);
        writeOnly = side.pd.register(memories[2], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        ofOtherPd = otherPd.register(memories[3], Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
        recvMr = side.pd.register(new byte[4096], Access.LOCAL_WRITE);
        listener = side.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
        listener.onConnectRequest(r -> {
            QueuePair qp = side.pd.createQp(QpInit.rc(side.cq).maxSendWr(4).maxRecvWr(4));
            qps.add(qp);
            qp.postRecv(RecvWr.of(1, recvMr.sge(0, 4096)));
            r.accept(qp, AcceptOptions.defaults());
        });
    }

    @AfterEach
    void close() throws Exception {
        for (int i = 0; i < memories.length; i++) {
            for (byte b : memories[i]) {
                assertEquals(FILL, b, "a byte of registered region " + i + " changed");
            }
        }
        listener.close();
        for (QueuePair qp : qps) {
            SoftPair.eventually(() -> qp.state() == QpState.ERROR);
            qp.close();
        }
        side.close();
    }

    /** One connection, the FPDUs of {@code ulpdus} in one write; returns the Terminate the responder sent. */
    private Terminate probe(ByteBuf... ulpdus) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort())) {
            s.setSoTimeout(10_000);
            MpaParameters p = RawMpaInitiator.handshake(s);
            ByteBuf fpdu = Unpooled.buffer();
            var encoder = p.newEncoder();
            for (ByteBuf ulpdu : ulpdus) {
                encoder.encode(ulpdu, fpdu);
                ulpdu.release();
            }
            RawMpaInitiator.write(s.getOutputStream(), fpdu);
            Terminate[] got = new Terminate[1];
            FpduDecoder dec = p.newDecoder(new FpduListener() {
                @Override
                public void onFpdu(ByteBuf u, long pos, CrcCheck crc) {
                    assertEquals(CrcCheck.GOOD, crc);
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

    private static ByteBuf write(int stag) {
        return Unpooled.buffer().writeShort(RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true))
                .writeInt(stag).writeLong(0).writeLong(0x1111_2222_3333_4444L);
    }

    private static ByteBuf readRequest(int srcStag) {
        return Unpooled.buffer().writeShort(RdmapControl.controlWord(RdmapOpcode.RDMA_READ_REQUEST, true))
                .writeInt(0).writeInt(RdmapOpcode.QN_READ_REQUEST).writeInt(1).writeInt(0)
                .writeInt(0x500).writeLong(0).writeInt(16).writeInt(srcStag).writeLong(0);
    }

    private static ByteBuf sendWithInvalidate(int stag) {
        return Unpooled.buffer().writeShort(RdmapControl.controlWord(RdmapOpcode.SEND_WITH_INVALIDATE, true))
                .writeInt(stag).writeInt(RdmapOpcode.QN_SEND).writeInt(1).writeInt(0).writeInt(0xABCD);
    }

    private static ByteBuf fetchAdd(int stag) {
        ByteBuf u = Unpooled.buffer().writeShort(RdmapControl.controlWord(RdmapOpcode.ATOMIC_REQUEST, true))
                .writeInt(0).writeInt(RdmapOpcode.QN_READ_REQUEST).writeInt(1).writeInt(0);
        int h = u.writerIndex();
        u.writeZero(AtomicRequestHeader.LENGTH);
        new AtomicRequestHeader().wrap(u, h).atomicOperation(AtomicRequestHeader.OP_FETCH_ADD).requestId(1)
                .remoteStag(stag).remoteTaggedOffset(0).addOrSwap(1).addOrSwapMask(-1L);
        return u;
    }

    private static String triple(Terminate t) {
        return t.layer() + "/" + t.errorType() + "/0x" + Integer.toHexString(t.errorCode());
    }

    /** The three probing opcodes and the Terminate a wrong STag gets for each (layer/type/code). */
    private record Probe(String name, IntFunction<ByteBuf> ulpdu, String invalid) {
    }

    private static final List<Probe> PROBES_BY_OPCODE = List.of(
            new Probe("RDMA Write", StagProbeTest::write, "1/1/0x0"), // DDP tagged buffer: invalid STag
            new Probe("Read Request", StagProbeTest::readRequest, "0/1/0x0"), // RDMAP remote protection: invalid STag
            new Probe("Send with Invalidate", StagProbeTest::sendWithInvalidate, "0/1/0x9")); // cannot be invalidated

    @Test
    void randomStagsAreRefusedOnEveryOpcodeAcrossReconnects() throws Exception {
        SplittableRandom guess = new SplittableRandom(42);
        int accepted = 0;
        for (int i = 0; i < PROBES; i++) {
            Probe p = PROBES_BY_OPCODE.get(i % PROBES_BY_OPCODE.size());
            int stag = guess.nextInt();
            String got = triple(probe(p.ulpdu().apply(stag)));
            if (!got.equals(p.invalid())) {
                accepted++;
                assertEquals(p.invalid(), got, p.name() + " to random STag 0x" + Integer.toHexString(stag));
            }
            if (i % 1000 == 999) {
                reapTerminatedQps();
            }
        }
        assertEquals(0, accepted);
    }

    /** Long runs: closes the responder's QPs that the probes put in ERROR, polls their flushed receives and drops
     *  the test's record of their async events, so that the heap holds about 1,000 QPs whatever the count. */
    private void reapTerminatedQps() {
        for (var it = qps.iterator(); it.hasNext(); ) {
            QueuePair qp = it.next();
            if (qp.state() == QpState.ERROR) {
                it.remove();
                qp.close();
            }
        }
        Completion[] wc = Completion.array(64);
        while (side.cq.poll(wc, 0, wc.length) > 0) {
            // flushed receives of the closed QPs: nothing to check
        }
        side.events.clear(); // SoftPair records every async event, and each names its QP
    }

    @Test
    void theExactStagOfAnotherProtectionDomainsRegionIsNotAssociated() throws Exception {
        int stag = ofOtherPd.stag();
        assertEquals("1/1/0x2", triple(probe(write(stag))), "DDP: STag not associated with the stream");
        assertEquals("0/1/0x3", triple(probe(readRequest(stag))), "RDMAP: STag not associated with the stream");
        assertEquals("0/1/0x9", triple(probe(sendWithInvalidate(stag))), "cannot be invalidated");
    }

    @Test
    void aDeregisteredRegionIsDeadToEveryOpcode() throws Exception {
        byte[] gone = new byte[64];
        MemoryRegion mr = side.pd.register(gone, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
                Access.REMOTE_ATOMIC);
        int stag = mr.stag();
        mr.close();
        for (Probe p : PROBES_BY_OPCODE) {
            assertEquals(p.invalid(), triple(probe(p.ulpdu().apply(stag))), p.name());
        }
        assertEquals("0/1/0x0", triple(probe(fetchAdd(stag))), "Atomic Request");
        for (byte b : gone) {
            assertEquals(0, b);
        }
    }

    /** RFC 5040 section 6: after the Terminate, nothing more of the stream is placed (one Terminate per stream). */
    @Test
    void nothingBehindTheFirstViolationIsPlaced() throws Exception {
        ByteBuf validWrite = Unpooled.buffer().writeShort(RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true))
                .writeInt(rw.stag()).writeLong(0).writeLong(0x1111_2222_3333_4444L);
        assertEquals("1/1/0x0", triple(probe(write(0x0BAD_0000), validWrite)));
        assertEquals(1, side.dev.stats().terminatesSentTotal(), "one Terminate for the stream");
    }

    @Test
    void remoteRightsAreCheckedPerOpcode() throws Exception {
        assertEquals("0/1/0x2", triple(probe(write(readOnly.stag()))), "Write to a region without REMOTE_WRITE");
        assertEquals("0/1/0x2", triple(probe(readRequest(writeOnly.stag()))), "Read from a region without REMOTE_READ");
        assertEquals("0/1/0x2", triple(probe(fetchAdd(writeOnly.stag()))), "Atomic on a region without REMOTE_ATOMIC");
    }
}
