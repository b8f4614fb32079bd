package io.jrnic.mpa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Payloads taken before their CRC ({@link FpduDecoder#placePayloads}): the same FPDUs, CRC over the placed octets. */
class FpduPlacementTest {
    private static final int HEAD = 14; // a tagged DDP header's length: the payload starts there
    private static final int MIN = 8192;

    /** Takes every offered payload from ULPDU offset {@link #HEAD} into {@link #memory}, one FPDU after another. */
    private static final class Placer implements FpduListener {
        final ByteBuffer memory = ByteBuffer.allocateDirect(1 << 20);
        final List<byte[]> ulpdus = new ArrayList<>();
        final List<Recorder.Error> errors = new ArrayList<>();
        int free;
        int heads;
        int placed;
        boolean take = true;
        /** Where the payload of the FPDU in flight went. */
        int at;

        @Override
        public boolean onFpduHead(ByteBuf head, int ulpduLength, long fpduStreamOffset, PayloadTarget target) {
            heads++;
            assertTrue(head.readableBytes() >= FpduDecoder.HEAD_PROBE);
            if (!take) {
                return false;
            }
            at = free;
            free += ulpduLength - HEAD;
            target.set(HEAD, memory, at);
            return true;
        }

        @Override
        public void onPlacedFpdu(ByteBuf head, int ulpduLength, long fpduStreamOffset, CrcCheck crc) {
            assertEquals(HEAD, head.readableBytes());
            assertEquals(CrcCheck.GOOD, crc);
            byte[] u = new byte[ulpduLength];
            head.getBytes(head.readerIndex(), u, 0, HEAD);
            memory.duplicate().clear().position(at).get(u, HEAD, ulpduLength - HEAD);
            ulpdus.add(u);
            placed++;
        }

        @Override
        public void onFpdu(ByteBuf ulpdu, long fpduStreamOffset, CrcCheck crc) {
            assertEquals(CrcCheck.GOOD, crc);
            ulpdus.add(ByteBufUtil.getBytes(ulpdu));
        }

        @Override
        public void onError(LlpError error, long streamOffset, String detail) {
            errors.add(new Recorder.Error(error, streamOffset, detail));
        }
    }

    private static List<byte[]> ulpdus(Random rnd, int... sizes) {
        List<byte[]> l = new ArrayList<>();
        for (int s : sizes) {
            byte[] b = new byte[s];
            rnd.nextBytes(b);
            l.add(b);
        }
        return l;
    }

    private static ByteBuf wire(List<byte[]> ulpdus) {
        FpduEncoder enc = new FpduEncoder(true, false);
        ByteBuf w = Unpooled.buffer();
        for (byte[] u : ulpdus) {
            enc.encode(Unpooled.wrappedBuffer(u), w);
        }
        return w;
    }

    /**
     * Feeds {@code wire} cut at random, and whenever the decoder has a payload pending reads it as the caller would
     * (straight into the target, then {@link FpduDecoder#placed}) unless {@code copyOnly}. Returns octets placed so.
     */
    private static long run(FpduDecoder d, ByteBuf wire, Random rnd, boolean copyOnly, Placer p) {
        long direct = 0;
        while (wire.isReadable() && !d.isStopped()) {
            int pending = d.placementPending();
            if (pending > 0 && !copyOnly) {
                int n = Math.min(wire.readableBytes(), 1 + rnd.nextInt(pending));
                ByteBuffer dst = p.memory.duplicate();
                dst.position(d.placementIndex()).limit(d.placementIndex() + n);
                wire.readBytes(dst);
                d.placed(n);
                direct += n;
            } else {
                int n = Math.min(wire.readableBytes(), 1 + rnd.nextInt(30000));
                d.feed(wire.readSlice(n));
            }
        }
        return direct;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void placedPayloadsGiveTheSameUlpdusWhereverTheStreamIsCut(boolean copyOnly) {
        long placedFpdus = 0;
        long directOctets = 0;
        for (int seed = 1; seed <= 20; seed++) {
            Random rnd = new Random(seed);
            List<byte[]> sent = ulpdus(rnd, 65535, 40001, 20, 8192 + 30, 65533, 100, 30000, 65534, 14, 0, 50001);
            Placer p = new Placer();
            FpduDecoder d = new FpduDecoder(true, false, p);
            assertTrue(d.placePayloads(MIN));
            long direct = run(d, wire(sent), rnd, copyOnly, p);
            assertEquals(List.of(), p.errors);
            assertEquals(sent.size(), p.ulpdus.size());
            for (int i = 0; i < sent.size(); i++) {
                assertArrayEquals(sent.get(i), p.ulpdus.get(i), "seed " + seed + " ULPDU " + i);
            }
            assertEquals(sent.size(), d.fpdus());
            assertEquals(0, d.partialFpduOctets());
            placedFpdus += p.placed;
            directOctets += direct;
        }
        assertTrue(placedFpdus > 20, placedFpdus + " payloads placed");
        assertEquals(copyOnly, directOctets == 0, directOctets + " octets read into the target");
    }

    @Test
    void aDeclinedHeadIsStagedAndDeliveredAsBefore() {
        Random rnd = new Random(3);
        List<byte[]> sent = ulpdus(rnd, 65535, 40001);
        Placer p = new Placer();
        p.take = false;
        FpduDecoder d = new FpduDecoder(true, false, p);
        d.placePayloads(MIN);
        ByteBuf w = wire(sent);
        d.feed(w.readSlice(100));
        d.feed(w.readSlice(w.readableBytes()));
        assertEquals(1, p.heads);
        assertEquals(0, p.placed);
        assertEquals(2, p.ulpdus.size());
        assertArrayEquals(sent.get(1), p.ulpdus.get(1));
    }

    @Test
    void aHeadIsOfferedOnlyWhenEnoughPayloadIsStillToCome() {
        Random rnd = new Random(4);
        Placer p = new Placer();
        FpduDecoder d = new FpduDecoder(true, false, p);
        d.placePayloads(MIN);
        ByteBuf w = wire(ulpdus(rnd, 20000));
        d.feed(w.readSlice(20006 + 2 - (MIN - 1) - 4)); // MIN - 1 payload octets (and pad + CRC) still to come
        d.feed(w);
        assertEquals(0, p.heads);
        assertEquals(1, p.ulpdus.size());
    }

    @Test
    void aBadCrcOnAPlacedPayloadIsACrcErrorAndTheOctetsAreInTheTarget() {
        Random rnd = new Random(5);
        byte[] u = ulpdus(rnd, 40000).get(0);
        ByteBuf w = wire(List.of(u, u));
        int crcAt = 2 + 40000 - 4 + 4; // 40000 is 4-aligned: no pad
        w.setByte(crcAt, w.getByte(crcAt) ^ 1);
        Placer p = new Placer();
        FpduDecoder d = new FpduDecoder(true, false, p);
        d.placePayloads(MIN);
        d.feed(w.readSlice(1000));
        assertEquals(40000 - HEAD - (1000 - 2 - HEAD), d.placementPending());
        int n = d.placementPending();
        ByteBuffer dst = p.memory.duplicate();
        dst.position(d.placementIndex()).limit(d.placementIndex() + n);
        w.readBytes(dst);
        d.placed(n);
        d.feed(w);
        assertEquals(1, p.errors.size());
        assertEquals(LlpError.CRC_ERROR, p.errors.get(0).error());
        assertEquals(0, p.errors.get(0).offset());
        assertEquals(0, p.placed);
        assertTrue(d.isStopped());
        assertEquals(1, d.crcChecks().errors());
        assertEquals(0, d.fpdus());
        byte[] inTarget = new byte[40000 - HEAD];
        p.memory.duplicate().position(0).get(inTarget);
        byte[] payload = new byte[40000 - HEAD];
        System.arraycopy(u, HEAD, payload, 0, payload.length);
        assertArrayEquals(payload, inTarget, "the errored FPDU's payload is in the target (spec-notes/placement.md)");
        assertEquals(0, d.placementPending());
    }

    @Test
    void afterAPlacedPayloadTheNextReadIsSizedToTheNextHead() {
        Random rnd = new Random(7);
        Placer p = new Placer();
        FpduDecoder d = new FpduDecoder(true, false, p);
        d.placePayloads(MIN);
        assertEquals(0, d.headReadLength(), "nothing framed yet: read what is there");
        ByteBuf w = wire(ulpdus(rnd, 30001, 30000, 100));
        d.feed(w.readSlice(100));
        assertEquals(0, d.headReadLength(), "the payload is to come first");
        int n = d.placementPending();
        ByteBuffer dst = p.memory.duplicate();
        dst.position(d.placementIndex()).limit(d.placementIndex() + n);
        w.readBytes(dst);
        d.placed(n);
        assertEquals(1 + 4 + 2 + FpduDecoder.HEAD_PROBE, d.headReadLength(), "pad (2 + 30001 octets: 1), CRC, the next head");
        d.feed(w.readSlice(1 + 4 + 2 + 10));
        assertEquals(1, p.placed);
        assertEquals(FpduDecoder.HEAD_PROBE - 10, d.headReadLength(), "the rest of the head begun");
        d.feed(w.readSlice(FpduDecoder.HEAD_PROBE - 10));
        assertEquals(2, p.heads, "offered as soon as its head was in");
        d.feed(w.readSlice(30000 - FpduDecoder.HEAD_PROBE + 2 + 4)); // the payload, pad (2) and CRC
        assertEquals(2 + FpduDecoder.HEAD_PROBE, d.headReadLength(), "after a placed FPDU, a head on speculation");
        d.feed(w);
        assertEquals(3, p.ulpdus.size());
        assertEquals(0, d.headReadLength(), "after a small FPDU: read what is there");
        p.take = false;
        d.feed(wire(ulpdus(rnd, 20000)).readSlice(100));
        assertEquals(0, d.headReadLength(), "declined: no more reads on speculation");
    }

    @Test
    void aDroppedTargetIsNotWrittenAndTheCrcStillChecked() {
        Random rnd = new Random(8);
        byte[] u = ulpdus(rnd, 30000).get(0);
        for (boolean bad : new boolean[] {false, true}) {
            ByteBuf w = wire(List.of(u));
            if (bad) {
                w.setByte(w.writerIndex() - 1, w.getByte(w.writerIndex() - 1) ^ 1);
            }
            Placer p = new Placer();
            FpduDecoder d = new FpduDecoder(true, false, p);
            d.placePayloads(MIN);
            d.feed(w.readSlice(1000));
            d.dropPlacement();
            assertEquals(0, d.placementPending(), "nothing more is read into the target");
            d.feed(w);
            byte[] rest = new byte[30000 - 1000 + 2];
            p.memory.duplicate().clear().position(1000 - 2 - HEAD).get(rest);
            assertArrayEquals(new byte[rest.length], rest, "the target is not written after the drop");
            assertEquals(bad ? 1 : 0, p.errors.size());
            assertEquals(bad ? 0 : 1, p.placed, "delivered (for the listener to refuse) only with a good CRC");
        }
    }

    @Test
    void theStreamEndingInAPlacedPayloadIsAnFpduCutShort() {
        Placer p = new Placer();
        FpduDecoder d = new FpduDecoder(true, false, p);
        d.placePayloads(MIN);
        ByteBuf w = wire(ulpdus(new Random(6), 30000));
        d.feed(w.readSlice(500));
        d.placed(1000);
        assertEquals(1500, d.partialFpduOctets());
        assertEquals(1500, d.streamPosition());
        assertFalse(d.endOfStream());
        assertEquals(LlpError.TCP_CONNECTION_LOST, p.errors.get(0).error());
        assertEquals(0, d.placementPending());
    }

    @Test
    void placementNeedsAStreamWithoutMarkersAndNoMoreOctetsThanPending() {
        assertFalse(new FpduDecoder(true, true, new Placer()).placePayloads(MIN));
        assertFalse(new FpduDecoder(true, false, true, 0, new Placer()).placePayloads(MIN));
        FpduDecoder d = new FpduDecoder(true, false, new Placer());
        d.placePayloads(MIN);
        assertThrows(IllegalStateException.class, () -> d.placed(1));
    }
}
