package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.TaggedHeader;
import io.jrnic.mpa.RtrType;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.Terminate;
import io.jrnic.soft.mem.AccessFlags;
import io.jrnic.soft.mem.MemoryTable;
import io.jrnic.soft.mem.SoftRegion;
import io.jrnic.verbs.QpState;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Direct placement against the copy path (spec-notes/placement.md): two engines in RTS on EmbeddedChannels, CRC on,
 * each with two 96 KiB regions of direct memory inside guard bytes (the same STags on both; {@code ByteBuffer}s, as a
 * service registers them) and two receives posted in region 0's halves. {@link #feed} gives both the same peer stream
 * in the same reads: the placing engine is read as the event loop reads a placing stream (into the slice
 * {@link DirectPlacement#loopRead} lends, or sized to the next head), the copying one gets the same reads' octets
 * through the copy path. {@link #assertAlike} is what must then hold. The seam of {@code PlacementDifferentialTest}
 * (generated streams) and of fuzz's {@code PlacementFuzzTest} (arbitrary ones), hence public.
 */
public final class PlacementPair implements AutoCloseable {
    /** Each region's length. */
    public static final int LEN = 96 * 1024;
    private static final int GUARD = 64;
    private static final byte GUARD_BYTE = (byte) 0xA5;

    /** The size of the placing side's next read; the pair clips it to [1, left] and to a lent slice's room. */
    public interface ReadSizes {
        /**
         * @param room the room of the slice the event loop would read into (the payload's rest, in its target), 0 when
         *             none is lent
         * @param head the octets up to the next head when the loop would read exactly those, else 0
         * @param left the stream's octets not yet read
         */
        int next(int room, int head, int left);
    }

    private final Side copied;
    private final Side placing;
    private final List<Integer> reads = new ArrayList<>();

    /** Both engines, each region holding {@code initial} ({@link #LEN} octets). */
    public PlacementPair(byte[] initial) throws Exception {
        copied = new Side(initial);
        placing = new Side(initial);
        placing.qp.rx.direct().enable();
        for (int i = 0; i < 2; i++) {
            assertEquals(copied.regions[i].stag(), placing.regions[i].stag(), "the two sides' STags differ");
        }
    }

    /** Region {@code i}'s STag (0 or 1), the same on both sides. */
    public int stag(int i) {
        return copied.regions[i].stag();
    }

    /** The peer's {@code stream}: the placing side in reads of {@code sizes}, then the copying side in the same reads. */
    public void feed(byte[] stream, ReadSizes sizes) {
        for (int pos = 0; pos < stream.length && placing.ch.isOpen(); ) {
            DirectPlacement d = placing.qp.rx.direct();
            ByteBuf span = d.loopRead(); // as LoopReadGate's allocate: the payload's rest, in its target
            int left = stream.length - pos;
            int room = span == null ? 0 : span.writableBytes();
            assertTrue(span == null || room > 0, "a slice lent with no room for the payload's rest: " + span);
            int n = Math.max(1, Math.min(sizes.next(room, span == null ? d.headReadLength() : 0, left), left));
            if (span != null) {
                n = Math.min(n, room);
            }
            placing.read((span != null ? span : Unpooled.directBuffer(n)).writeBytes(stream, pos, n));
            reads.add(n);
            pos += n;
        }
        int pos = 0;
        for (int i = 0; i < reads.size() && copied.ch.isOpen(); i++) {
            int n = reads.get(i);
            copied.read(Unpooled.directBuffer(n).writeBytes(stream, pos, n));
            pos += n;
        }
    }

    /** The ULPDUs the placing side sent back so far, in order (the pair releases them when it closes). */
    public List<ByteBuf> sentByPlacingSide() {
        return Collections.unmodifiableList(placing.sent);
    }

    /** The placing side's QP state. */
    public QpState placingState() {
        return placing.qp.state();
    }

    /** The octets the placing side read straight into their targets (counted once their CRC was checked). */
    public long placedOctets() {
        return placing.qp.counters.get(Counter.RX_DIRECT_BYTES);
    }

    /**
     * Whether a placed payload may have left octets the copy path would not have: an FPDU with a bad CRC on either
     * side, or the stream ending inside an FPDU (its payload read in part, its CRC never).
     */
    public boolean placedUnchecked() {
        return copied.qp.counters.get(Counter.CRC_ERRORS) > 0 || placing.qp.counters.get(Counter.CRC_ERRORS) > 0
                || copied.qp.rx.decoder().partialFpduOctets() > 0;
    }

    /**
     * The same QP state and receive completions, the same ULPDUs sent back (Terminates and Read Responses included:
     * a Read Response's payload only when {@code readResponsePayloads}, as an unfenced Read may carry a later Write's
     * octets, placed sooner on one side), no guard byte changed on either side, and with {@code regions} every octet
     * of both regions alike.
     */
    public void assertAlike(String what, boolean regions, boolean readResponsePayloads) {
        assertEquals(copied.qp.state(), placing.qp.state(), what);
        assertEquals(copied.receives, placing.receives, what);
        assertEquals(copied.sent.size(), placing.sent.size(), "ULPDUs sent back: " + what);
        for (int i = 0; i < copied.sent.size(); i++) {
            ByteBuf c = copied.sent.get(i);
            ByteBuf p = placing.sent.get(i);
            boolean same = readResponsePayloads || !isReadResponse(c)
                    ? ByteBufUtil.equals(c, p)
                    : c.readableBytes() == p.readableBytes() && ByteBufUtil.equals(c, c.readerIndex(), p, p.readerIndex(),
                            Math.min(c.readableBytes(), TaggedHeader.HEADER_LENGTH));
            assertTrue(same, "ULPDU " + i + " sent back differs: " + what + "\ncopy path "
                    + ByteBufUtil.hexDump(c, c.readerIndex(), Math.min(48, c.readableBytes())) + "\nplacing   "
                    + ByteBufUtil.hexDump(p, p.readerIndex(), Math.min(48, p.readableBytes())));
        }
        copied.checkGuards(what);
        placing.checkGuards(what);
        if (regions) {
            for (int i = 0; i < 2; i++) {
                assertTrue(ByteBufUtil.equals(copied.backing[i], placing.backing[i]), "region " + i + " differs: " + what);
            }
        }
    }

    private static boolean isReadResponse(ByteBuf ulpdu) {
        int control = ulpdu.getUnsignedShort(ulpdu.readerIndex());
        return DdpControl.isTagged(control) && RdmapControl.opcodeCode(control) == RdmapOpcode.RDMA_READ_RESPONSE.code();
    }

    @Override
    public void close() {
        copied.close();
        placing.close();
    }

    /** One engine in RTS on an EmbeddedChannel. */
    private static final class Side {
        final ByteBuf[] backing = new ByteBuf[2];
        final SoftRegion[] regions = new SoftRegion[2];
        final List<String> receives = new ArrayList<>();
        /** The ULPDUs the engine wrote, copied after each read as a socket takes them (a zero-copy Read Response's octets then). */
        final List<ByteBuf> sent = new ArrayList<>();
        final QpEngine qp;
        final EmbeddedChannel ch = new EmbeddedChannel();

        Side(byte[] initial) throws Exception {
            SecureRandom keys = SecureRandom.getInstance("SHA1PRNG");
            keys.setSeed(1); // both sides' regions get the same STags
            MemoryTable table = new MemoryTable(16, keys);
            for (int i = 0; i < 2; i++) {
                // registered memory as a service registers it, a ByteBuffer: no leak tracking on every octet read
                backing[i] = Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(GUARD + LEN + GUARD));
                backing[i].setBytes(GUARD, initial, 0, LEN);
                for (int g = 0; g < GUARD; g++) {
                    backing[i].setByte(g, GUARD_BYTE).setByte(GUARD + LEN + g, GUARD_BYTE);
                }
                regions[i] = table.register(backing[i].slice(GUARD, LEN), 0, AccessFlags.LOCAL_WRITE
                        | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ, 1, MemoryTable.RANDOM_KEY);
            }
            qp = new QpEngine(table, 1, 8, 8, new QpListener() {
                @Override
                public void transition(io.jrnic.verbs.QpTrigger trigger, Terminate terminate, boolean received) {
                }

                @Override
                public boolean sendRetired(SqEntry e, Status status, int byteLength, Terminate t, boolean received) {
                    return true;
                }

                @Override
                public boolean recvRetired(RqEntry e, Status status, RecvInfo info) {
                    receives.add(e.token + " " + status + " " + info.byteLength);
                    return true;
                }
            });
            ch.pipeline().addLast("mpa", new ChannelInboundHandlerAdapter());
            qp.bind(ch, new StreamParams(true, false, false, 16 * 1024, 4, 4, RtrType.NONE, true, 0), "mpa", null, null);
            for (int i = 0; i < 2; i++) {
                RqEntry r = new RqEntry(null).reuse("r" + i);
                r.sgl.add(regions[0], i * (LEN / 2), LEN / 2);
                qp.inbox().postRecv(r);
            }
            ch.runPendingTasks();
        }

        void read(ByteBuf chunk) {
            ch.writeInbound(chunk);
            ch.runPendingTasks();
            ch.checkException();
            sent.addAll(EmbeddedQp.ulpdusWritten(ch));
        }

        void checkGuards(String what) {
            for (ByteBuf b : backing) {
                for (int g = 0; g < GUARD; g++) {
                    assertEquals(GUARD_BYTE, b.getByte(g), "guard byte before a region changed: " + what);
                    assertEquals(GUARD_BYTE, b.getByte(GUARD + LEN + g), "guard byte after a region changed: " + what);
                }
            }
        }

        void close() {
            ch.finishAndReleaseAll();
            for (ByteBuf b : backing) {
                b.release();
            }
            sent.forEach(ByteBuf::release);
        }
    }
}
