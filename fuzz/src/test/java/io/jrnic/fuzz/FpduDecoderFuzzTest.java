package io.jrnic.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrnic.mpa.CrcCheck;
import io.jrnic.mpa.FpduDecoder;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.FpduListener;
import io.jrnic.mpa.LlpError;
import io.jrnic.mpa.PayloadTarget;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/** FpduDecoder and FpduEncoder (RFC 5044 sections 4 and 5) with CRC and markers on and off. */
class FpduDecoderFuzzTest {

    /**
     * Arbitrary bytes in fuzzer-chosen chunks. Input: control byte (bit 0 CRC, bit 1 markers, bit 2
     * continueAfterError, bit 3 a non-zero initial stream position, bit 4 payload placement: every head
     * offered is taken, payloads read into the target at every other chunk, spec-notes/placement.md), the
     * position (u16, times 4),
     * chunk sizes, then the stream. Properties: only onFpdu/onError callbacks, no exception; the
     * events, in order, are exactly those of the independent {@link FpduModel} (each ULPDU's
     * length equals its ULPDU_Length field and its bytes are the stream's with markers removed);
     * chunked and one-piece feeding give the same events; endOfStream reports a cut FPDU as
     * TCP_CONNECTION_LOST at its start.
     */
    @FuzzTest(maxDuration = "60s")
    void arbitraryStream(byte[] data) {
        FuzzInput in = new FuzzInput(data);
        int ctrl = in.u8();
        boolean crc = (ctrl & 1) != 0;
        boolean markers = (ctrl & 2) != 0;
        boolean cont = (ctrl & 4) != 0;
        boolean place = (ctrl & 16) != 0;
        long start = (ctrl & 8) != 0 ? 4L * in.u16() : 0;
        int[] sizes = Chunks.readSizes(in);
        byte[] stream = in.rest();

        FpduModel model = new FpduModel(stream, start, markers, crc, cont);
        List<String> expected = new ArrayList<>(model.events);
        if (!model.stopped) {
            if (model.tail > 0) {
                expected.add(FpduModel.error(LlpError.TCP_CONNECTION_LOST.name(), model.tailStart));
            }
            expected.add("END clean=" + (model.tail == 0));
        } else {
            expected.add("END clean=false");
        }
        List<String> chunked = run(stream, start, crc, markers, cont, sizes, place);
        assertEquals(expected, chunked, "chunked feeding against the model");
        List<String> whole = run(stream, start, crc, markers, cont, new int[0], place);
        assertEquals(expected, whole, "one-piece feeding against the model");
    }

    private static List<String> run(byte[] stream, long start, boolean crc, boolean markers, boolean cont,
            int[] sizes, boolean place) {
        Recorder rec = new Recorder();
        FpduDecoder decoder = new FpduDecoder(crc, markers, cont, start, rec);
        rec.place = place && decoder.placePayloads(1);
        int fed = 0;
        int index = 0;
        for (byte[] chunk : Chunks.split(stream, sizes)) {
            int off = 0;
            // every other chunk: a payload pending is read into the target as a caller would (placed), the rest fed
            while ((index & 1) == 0 && off < chunk.length && decoder.placementPending() > 0) {
                int n = Math.min(decoder.placementPending(), chunk.length - off);
                System.arraycopy(chunk, off, rec.target.array(), decoder.placementIndex(), n);
                decoder.placed(n);
                off += n;
            }
            index++;
            ByteBuf buf = Chunks.guarded(Arrays.copyOfRange(chunk, off, chunk.length), 5, 7);
            try {
                decoder.feed(buf);
                if (!decoder.isStopped()) {
                    assertEquals(0, buf.readableBytes(), "feed consumes everything until an error");
                }
                fed += chunk.length;
            } finally {
                buf.release();
            }
        }
        if (!decoder.isStopped()) {
            assertEquals(start + fed, decoder.streamPosition(), "streamPosition");
        }
        long fpdus = decoder.fpdus();
        boolean clean = decoder.endOfStream();
        rec.events.add("END clean=" + clean);
        assertEquals(rec.fpdus, fpdus, "fpdus()");
        return rec.events;
    }

    /**
     * Round trip: FpduEncoder output for fuzzer-chosen ULPDUs, chopped at fuzzer-chosen points,
     * decodes to exactly the same ULPDUs, each with CRC GOOD (OFF without CRC), at the stream
     * positions the encoder reported, with no error and a clean end. Input: control byte (bit 0
     * CRC, bit 1 markers, bits 2..3 the length range, bit 4 payload placement as in arbitraryStream), initial
     * position (u32, times 4), ULPDU
     * count (u8 % 8 + 1) and lengths (u16 each, reduced to the range and to the encoder's
     * maxUlpduLength), a content seed (u64), chunk sizes.
     */
    @FuzzTest(maxDuration = "60s")
    void roundTrip(byte[] data) {
        FuzzInput in = new FuzzInput(data);
        int ctrl = in.u8();
        boolean crc = (ctrl & 1) != 0;
        boolean markers = (ctrl & 2) != 0;
        int range = new int[] {64, 1100, 8192, 65536}[(ctrl >>> 2) & 3];
        long start = 4L * in.u32();
        int count = in.u8() % 8 + 1;
        int[] lengths = new int[count];
        for (int i = 0; i < count; i++) {
            lengths[i] = in.u16() % range;
        }
        SplittableRandom random = new SplittableRandom(in.u64());
        int[] sizes = Chunks.readSizes(in);

        FpduEncoder encoder = new FpduEncoder(crc, markers, start);
        ByteBuf wire = Unpooled.buffer();
        List<byte[]> sent = new ArrayList<>();
        List<Long> positions = new ArrayList<>();
        byte[] stream;
        try {
            for (int length : lengths) {
                int u = Math.min(length, encoder.maxUlpduLength());
                byte[] ulpdu = new byte[u];
                random.nextBytes(ulpdu);
                long fpduStart = encoder.streamPosition();
                positions.add(fpduStart + (markers && fpduStart % 512 == 0 ? 4 : 0));
                int expectedRaw = encoder.encodedLength(u);
                int before = wire.writerIndex();
                ByteBuf src = Unpooled.wrappedBuffer(ulpdu);
                try {
                    encoder.encode(src, wire);
                } finally {
                    src.release();
                }
                assertEquals(expectedRaw, wire.writerIndex() - before, "encodedLength");
                assertEquals(fpduStart + expectedRaw, encoder.streamPosition());
                assertEquals(0, (wire.writerIndex() - before) % 4, "FPDUs are multiples of 4 octets");
                sent.add(ulpdu);
            }
            stream = new byte[wire.readableBytes()];
            wire.readBytes(stream);
        } finally {
            wire.release();
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < sent.size(); i++) {
            expected.add(FpduModel.fpdu(positions.get(i), crc ? "GOOD" : "OFF", sent.get(i)));
        }
        expected.add("END clean=true");
        assertEquals(expected, run(stream, start, crc, markers, false, sizes, (ctrl & 16) != 0));
        // the independent reading agrees with the encoder as well
        FpduModel model = new FpduModel(stream, start, markers, crc, false);
        assertEquals(expected.subList(0, sent.size()), model.events);
        assertEquals(0, model.tail);
    }

    /**
     * Records the callbacks; nothing else may be called. With {@code place}, takes every head offered: the ULPDU's
     * second half of what is shown stays the head, the rest goes to {@link #target} at 0; a placed FPDU is recorded
     * as its head and the target's octets, as if it had been copied.
     */
    static final class Recorder implements FpduListener {
        final List<String> events = new ArrayList<>();
        final ByteBuffer target = ByteBuffer.allocate(1 << 16);
        boolean place;
        long fpdus;

        @Override
        public boolean onFpduHead(ByteBuf head, int ulpduLength, long fpduStreamOffset, PayloadTarget t) {
            assertTrue(place, "a head offered without placement");
            assertTrue(head.readableBytes() >= Math.min(FpduDecoder.HEAD_PROBE, ulpduLength));
            t.set(head.readableBytes() / 2, target, 0);
            return true;
        }

        @Override
        public void onPlacedFpdu(ByteBuf head, int ulpduLength, long fpduStreamOffset, CrcCheck crc) {
            assertTrue(crc != CrcCheck.BAD, "a placed FPDU delivered with a bad CRC");
            byte[] b = new byte[ulpduLength];
            int h = head.readableBytes();
            head.getBytes(head.readerIndex(), b, 0, h);
            System.arraycopy(target.array(), 0, b, h, ulpduLength - h);
            events.add(FpduModel.fpdu(fpduStreamOffset, crc.name(), b));
            fpdus++;
        }

        @Override
        public void onFpdu(ByteBuf ulpdu, long fpduStreamOffset, CrcCheck crc) {
            byte[] b = new byte[ulpdu.readableBytes()];
            ulpdu.getBytes(ulpdu.readerIndex(), b);
            events.add(FpduModel.fpdu(fpduStreamOffset, crc.name(), b));
            fpdus++;
        }

        @Override
        public void onError(LlpError error, long streamOffset, String detail) {
            assertTrue(error == LlpError.CRC_ERROR || error == LlpError.MARKER_MISMATCH
                    || error == LlpError.TCP_CONNECTION_LOST, error::name);
            events.add(FpduModel.error(error.name(), streamOffset));
        }
    }
}
