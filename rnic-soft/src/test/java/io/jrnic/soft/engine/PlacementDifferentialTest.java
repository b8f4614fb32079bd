package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.ReadRequestHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Direct placement against the copy path, differentially (spec-notes/placement.md): the two engines of a
 * {@link PlacementPair} get the same generated peer stream of RDMA Writes, Sends and Read Requests (live and bogus
 * STags, offsets in and out of bounds, payloads up to 64 KiB, now and then a corrupted octet) in the same reads: one
 * engine places, read as the event loop reads a placing stream (each read into the slice {@link DirectPlacement#loopRead}
 * lends, or sized to the next head, or of any size, short reads included), the other gets the same reads' octets
 * through the copy path. Both must answer alike (the same ULPDUs back, Terminates and
 * Read Responses included), end in the same state with the same receive completions, and leave every octet of
 * their regions alike, except, after a corrupted FPDU, the octets its payload may have placed before its CRC was
 * checked; no guard byte around a region changes on either side. Cases: {@code -Djrnic.placementCases} (default 1,000, about a second).
 */
class PlacementDifferentialTest {
    private static final int LEN = PlacementPair.LEN;
    private static final int CASES = Integer.getInteger("jrnic.placementCases", 1000);

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
        try (PlacementPair pair = new PlacementPair(initial)) {
            Peer peer = new Peer(rnd, new int[] {pair.stag(0), pair.stag(1)});
            byte[] stream = peer.stream();
            pair.feed(stream, (room, head, left) -> room > 0
                    ? rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(Math.min(room, left)) : room // a short read now and then
                    : head > 0 ? head : 1 + rnd.nextInt(rnd.nextBoolean() ? 2048 : 70_000));
            // the peer keeps Writes away from what its Reads read, so Read Responses must match octet for octet too
            pair.assertAlike("case " + seed + " (" + peer.log + ")", !peer.corrupted, true);
            return pair.placedOctets();
        }
    }

    /** The peer's stream: one to six messages, each an FPDU with a good CRC unless it is the one corrupted. */
    private static final class Peer {
        final Random rnd;
        final int[] stags;
        final StringBuilder log = new StringBuilder();
        boolean corrupted;
        private long sendMsn = 1;
        private long readMsn = 1;

        Peer(Random rnd, int[] stags) {
            this.rnd = rnd;
            this.stags = stags;
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
            return rnd.nextInt(10) == 0 ? rnd.nextInt() : stags[region];
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
