package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.RtrType;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.ReadRequestHeader;
import io.jrnic.rdmap.Terminate;
import io.jrnic.soft.mem.AccessFlags;
import io.jrnic.soft.mem.MemoryTable;
import io.jrnic.soft.mem.SoftRegion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Direct placement against the copy path, differentially (spec-notes/placement.md): two engines get the same peer
 * stream of RDMA Writes, Sends and Read Requests (live and bogus STags, offsets in and out of bounds, payloads up to
 * 64 KiB, now and then a corrupted octet) in the same reads: one engine places, read as the event loop reads a
 * placing stream (each read into the slice {@link DirectPlacement#loopRead} lends, or sized to the next head, or of
 * any size, short reads included), the other gets the same reads' octets through the copy path. Both must answer alike (the same ULPDUs back, Terminates and
 * Read Responses included), end in the same state with the same receive completions, and leave every octet of
 * their regions alike, except, after a corrupted FPDU, the octets its payload may have placed before its CRC was
 * checked; no guard byte around a region changes on either side. Cases: {@code -Djrnic.placementCases} (default 50, about 10 s).
 */
class PlacementDifferentialTest {
    private static final int GUARD = 64;
    private static final int LEN = 96 * 1024;
    private static final byte GUARD_BYTE = (byte) 0xA5;
    private static final int CASES = Integer.getInteger("jrnic.placementCases", 50);

    @Test
    void aPlacedStreamEndsAsTheCopiedOneDoes() throws Exception {
        long placedOctets = 0;
        for (int seed = 0; seed < CASES; seed++) {
            placedOctets += runCase(seed);
        }
        assertTrue(placedOctets > 0, "no payload was placed in " + CASES + " cases: the path under test never ran");
    }

    /** One case; returns the octets the placing side read straight into their targets. */
    private static long runCase(int seed) throws Exception {
        Random rnd = new Random(seed);
        byte[] initial = new byte[LEN];
        rnd.nextBytes(initial);
        Side copied = new Side(initial);
        Side placing = new Side(initial);
        placing.qp.rx.direct().enable();
        for (int i = 0; i < 2; i++) { // the peer's STags must name either side's regions
            assertEquals(copied.regions[i].stag(), placing.regions[i].stag());
        }
        Peer peer = new Peer(rnd, copied.regions);
        byte[] stream = peer.stream();
        String what = "case " + seed + " (" + peer.log + ")";

        List<Integer> reads = new ArrayList<>();
        for (int pos = 0; pos < stream.length && placing.ch.isOpen(); ) {
            DirectPlacement d = placing.qp.rx.direct();
            ByteBuf span = d.loopRead(); // as LoopReadGate's allocate: the payload's rest, in its target
            int n;
            ByteBuf chunk;
            if (span != null) {
                n = Math.min(span.writableBytes(), stream.length - pos);
                assertTrue(n > 0, "a slice lent with no room for the payload's rest: " + span + ", " + what);
                n = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(n) : n; // a short read now and then
                chunk = span.writeBytes(stream, pos, n);
            } else {
                int head = d.headReadLength();
                n = head > 0 ? head : 1 + rnd.nextInt(rnd.nextBoolean() ? 2048 : 70_000);
                n = Math.min(n, stream.length - pos);
                chunk = Unpooled.directBuffer(n).writeBytes(stream, pos, n);
            }
            placing.read(chunk);
            reads.add(n);
            pos += n;
        }
        // the same reads through the copy path: the one difference is where the payloads went
        int pos = 0;
        for (int i = 0; i < reads.size() && copied.ch.isOpen(); i++) {
            int n = reads.get(i);
            copied.read(Unpooled.directBuffer(n).writeBytes(stream, pos, n));
            pos += n;
        }

        assertEquals(copied.qp.state(), placing.qp.state(), what);
        assertEquals(copied.receives, placing.receives, what);
        List<ByteBuf> fromCopied = copied.sent;
        List<ByteBuf> fromPlacing = placing.sent;
        assertEquals(fromCopied.size(), fromPlacing.size(), "ULPDUs sent back: " + what);
        for (int i = 0; i < fromCopied.size(); i++) {
            ByteBuf c = fromCopied.get(i);
            ByteBuf p = fromPlacing.get(i);
            assertTrue(ByteBufUtil.equals(c, p), "ULPDU " + i + " sent back differs: " + what + "\ncopy path "
                    + ByteBufUtil.hexDump(c, 0, Math.min(48, c.readableBytes())) + "\nplacing   "
                    + ByteBufUtil.hexDump(p, 0, Math.min(48, p.readableBytes())));
        }
        copied.checkGuards(what);
        placing.checkGuards(what);
        for (int i = 0; i < 2; i++) {
            if (!peer.corrupted) {
                assertTrue(ByteBufUtil.equals(copied.backing[i], placing.backing[i]), "region " + i + " differs: " + what);
            }
        }
        long placed = placing.qp.counters.get(Counter.RX_DIRECT_BYTES);
        copied.close();
        placing.close();
        return placed;
    }

    /** One engine in RTS on an EmbeddedChannel: two regions of direct memory inside guard bytes, two receives posted. */
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
                backing[i] = Unpooled.directBuffer(GUARD + LEN + GUARD).writeZero(GUARD + LEN + GUARD);
                backing[i].setBytes(GUARD, initial);
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
        }
    }

    /** The peer's stream: one to six messages, each an FPDU with a good CRC unless it is the one corrupted. */
    private static final class Peer {
        final Random rnd;
        final SoftRegion[] regions;
        final StringBuilder log = new StringBuilder();
        boolean corrupted;
        private long sendMsn = 1;
        private long readMsn = 1;

        Peer(Random rnd, SoftRegion[] regions) {
            this.rnd = rnd;
            this.regions = regions;
        }

        byte[] stream() {
            FpduEncoder encoder = new FpduEncoder(true, false);
            ByteBuf out = Unpooled.buffer();
            int messages = 1 + rnd.nextInt(6);
            int corrupt = rnd.nextInt(8) == 0 ? rnd.nextInt(messages) : -1;
            for (int m = 0; m < messages; m++) {
                ByteBuf ulpdu = switch (rnd.nextInt(20)) {
                    case 0, 1, 2 -> readRequest();
                    case 3, 4, 5, 6, 7, 8, 9 -> send();
                    default -> write();
                };
                int at = out.writerIndex();
                encoder.encode(ulpdu, null, out);
                if (m == corrupt) {
                    int i = at + 2 + rnd.nextInt(out.writerIndex() - at - 2); // not the length: the FPDU's CRC fails
                    out.setByte(i, out.getByte(i) ^ (1 << rnd.nextInt(8)));
                    corrupted = true;
                    log.append(" corrupted");
                }
            }
            return ByteBufUtil.getBytes(out);
        }

        private int payloadLength(int room) {
            int n = rnd.nextBoolean() ? rnd.nextInt(64) : 16 * 1024 + rnd.nextInt(65_535 - 16 * 1024 - 32);
            return rnd.nextInt(10) == 0 ? n : Math.min(n, room);
        }

        private int stag(int region) {
            return rnd.nextInt(10) == 0 ? rnd.nextInt() : regions[region].stag();
        }

        private ByteBuf write() {
            int region = rnd.nextInt(2);
            // Writes into region 1 stay above the half that Read Requests read: an unfenced Read may carry a later
            // Write's octets on either path (the initiator's fence orders them), and sooner when they are placed
            long to = rnd.nextInt(10) == 0 ? rnd.nextLong() : region == 1 ? LEN / 2 + rnd.nextInt(LEN / 2) : rnd.nextInt(LEN);
            int n = payloadLength(to >= 0 && to < LEN ? (int) (LEN - to) : 0);
            ByteBuf u = Unpooled.buffer(TaggedHeader.HEADER_LENGTH + n).writeZero(TaggedHeader.HEADER_LENGTH);
            new TaggedHeader().wrap(u, 0).control(RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true))
                    .stag(stag(region)).taggedOffset(to);
            log.append(" W").append(region).append('@').append(to).append('+').append(n);
            return u.writeBytes(randomBytes(n));
        }

        private ByteBuf send() {
            long msn = rnd.nextInt(10) == 0 ? rnd.nextInt(8) : sendMsn++;
            int n = payloadLength(LEN / 2);
            ByteBuf u = Unpooled.buffer(UntaggedHeader.HEADER_LENGTH + n).writeZero(UntaggedHeader.HEADER_LENGTH);
            new UntaggedHeader().wrap(u, 0).control(RdmapControl.controlWord(RdmapOpcode.SEND, true))
                    .queueNumber(0).msn(msn).messageOffset(0);
            log.append(" S").append(msn).append('+').append(n);
            return u.writeBytes(randomBytes(n));
        }

        private ByteBuf readRequest() {
            int n = 1 + rnd.nextInt(4096);
            int from = rnd.nextInt(LEN / 2 - n);
            ByteBuf u = Unpooled.buffer().writeZero(UntaggedHeader.HEADER_LENGTH + ReadRequestHeader.LENGTH);
            new UntaggedHeader().wrap(u, 0).control(RdmapControl.controlWord(RdmapOpcode.RDMA_READ_REQUEST, true))
                    .queueNumber(1).msn(readMsn++).messageOffset(0);
            int h = UntaggedHeader.HEADER_LENGTH;
            u.setInt(h + ReadRequestHeader.SINK_STAG_OFFSET, 0x5151_5100);
            u.setLong(h + ReadRequestHeader.SINK_TO_OFFSET, 0);
            u.setInt(h + ReadRequestHeader.RDMARDSZ_OFFSET, n);
            u.setInt(h + ReadRequestHeader.SRC_STAG_OFFSET, stag(1));
            u.setLong(h + ReadRequestHeader.SRC_TO_OFFSET, from);
            log.append(" R").append(from).append('+').append(n);
            return u;
        }

        private byte[] randomBytes(int n) {
            byte[] b = new byte[n];
            rnd.nextBytes(b);
            return b;
        }
    }
}
