package io.jrnic.mpa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FpduEncoderTest {

    private static ByteBuf ulpdu(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 13 + seed);
        }
        return Unpooled.wrappedBuffer(b);
    }

    @Test
    void withoutMarkersTheFpduIsLengthUlpduPadCrc() {
        FpduEncoder enc = new FpduEncoder(true, false);
        ByteBuf out = Unpooled.buffer();
        ByteBuf u = ulpdu(15, 1);
        try {
            assertEquals(2 + 15 + 3 + 4, enc.encodedLength(15));
            enc.encode(u, out);
            assertEquals(0, u.readerIndex());
            assertEquals(24, out.readableBytes());
            assertEquals(15, out.getUnsignedShort(0));
            assertTrue(ByteBufUtil.equals(u, 0, out, 2, 15));
            assertEquals(0, out.getMedium(17));
            assertEquals(MpaCrc.wireValue(out, 0, 20), out.getInt(20));
            assertEquals(24, enc.streamPosition());
            // CRC off: the field is sent as zeros
            new FpduEncoder(false, false).encode(u, out.clear());
            assertEquals(0, out.getInt(20));
        } finally {
            out.release();
        }
    }

    /**
     * Hand-computed, markers on from stream position 0: FPDU 1 (ULPDU 1000) starts on a marker
     * (FPDUPTR 0), ULPDU_Length at 4, pad 2, an interior marker at 512 with FPDUPTR 508, 1016
     * octets; FPDU 2 (ULPDU 2) at 1016 ends exactly on the 1024 boundary, so no marker; FPDU 3
     * starts on the marker at 1024 (FPDUPTR 0).
     */
    @Test
    void handComputedMarkerPositionsAndFpduPtrs() {
        FpduEncoder enc = new FpduEncoder(true, true);
        ByteBuf out = Unpooled.buffer();
        ByteBuf u1 = ulpdu(1000, 3);
        ByteBuf u2 = ulpdu(2, 4);
        ByteBuf u3 = ulpdu(30, 5);
        try {
            assertEquals(1016, enc.encodedLength(1000));
            enc.encode(u1, out);
            assertEquals(1016, out.writerIndex());
            assertEquals(0, out.getInt(0));
            assertEquals(1000, out.getUnsignedShort(4));
            assertTrue(ByteBufUtil.equals(u1, 0, out, 6, 506));
            assertEquals(508, out.getInt(512));
            assertTrue(ByteBufUtil.equals(u1, 506, out, 516, 494));
            assertEquals(0, out.getUnsignedShort(1010)); // pad
            assertEquals(MpaCrc.wireValue(out, 0, 1012), out.getInt(1012)); // CRC covers both markers
            enc.encode(u2, out);
            assertEquals(1024, out.writerIndex());
            assertEquals(2, out.getUnsignedShort(1016));
            enc.encode(u3, out);
            assertEquals(0, out.getInt(1024));
            assertEquals(30, out.getUnsignedShort(1028));
            assertEquals(1024 + 4 + 2 + 30 + 4, out.writerIndex());
        } finally {
            out.release();
        }
    }

    /** ULPDU 506 from position 0: leading marker, and a marker at 512 just before the CRC. */
    @Test
    void markerBetweenPadAndCrcIsCoveredByTheCrc() {
        FpduEncoder enc = new FpduEncoder(true, true);
        ByteBuf out = Unpooled.buffer();
        try {
            enc.encode(ulpdu(506, 6), out);
            assertEquals(520, out.readableBytes());
            assertEquals(508, out.getInt(512));
            assertEquals(MpaCrc.wireValue(out, 0, 516), out.getInt(516));
        } finally {
            out.release();
        }
    }

    @Test
    void gatheringEncodeEqualsTheContiguousOne() {
        for (boolean markers : new boolean[] {false, true}) {
            ByteBuf whole = ulpdu(1500, 7);
            ByteBuf a = Unpooled.buffer();
            ByteBuf b = Unpooled.buffer();
            try {
                new FpduEncoder(true, markers, 508).encode(whole, a);
                new FpduEncoder(true, markers, 508).encode(whole.slice(0, 18), whole.slice(18, 1482), b);
                assertEquals(a, b);
                // payload named by absolute index in a larger buffer (registered memory): same bytes, indices kept
                ByteBuf memory = Unpooled.buffer(2000).writeZero(100).writeBytes(whole, 18, 1482).writeZero(100);
                ByteBuf c = Unpooled.buffer();
                new FpduEncoder(true, markers, 508).encode(whole.slice(0, 18), memory, 100, 1482, c);
                assertEquals(a, c);
                assertEquals(0, memory.readerIndex());
                c.release();
                memory.release();
            } finally {
                a.release();
                b.release();
            }
        }
    }

    @Test
    void ulpduLengthLimits() {
        FpduEncoder plain = new FpduEncoder(false, false);
        assertEquals(65535, plain.maxUlpduLength());
        assertThrows(IllegalArgumentException.class, () -> plain.encode(Unpooled.wrappedBuffer(new byte[65536]),
                Unpooled.buffer()));
        // with markers a 65535-octet ULPDU would need an FPDUPTR above 0xFFFC
        FpduEncoder marked = new FpduEncoder(false, true);
        int max = marked.maxUlpduLength();
        assertTrue(max < 65535 && max > 64000, "max " + max);
        assertTrue(Markers.maxFpduPtr(0, max) <= 0xFFFC);
        assertTrue(Markers.maxFpduPtr(0, max + 1) > 0xFFFC);
        ByteBuf out = Unpooled.buffer();
        try {
            assertThrows(IllegalArgumentException.class, () -> marked.encode(Unpooled.wrappedBuffer(new byte[max + 1]), out));
            assertEquals(0, out.writerIndex());
            marked.encode(Unpooled.wrappedBuffer(new byte[max]), out);
            assertEquals(marked.streamPosition(), out.writerIndex());
        } finally {
            out.release();
        }
        assertThrows(IllegalArgumentException.class, () -> new FpduEncoder(true, true, 2));
    }

    /**
     * Property: over many random sizes and start positions, every 512th stream octet holds a
     * marker whose FPDUPTR is 0 at an FPDU start and otherwise the distance back to the
     * ULPDU_Length of the FPDU around it; stripping the markers leaves the plain FPDUs. The
     * check walks the output with its own bookkeeping, not the encoder's arithmetic.
     */
    @Test
    void markersLandEvery512OctetsWithTheRightFpduPtr() {
        Random rnd = new Random(512);
        for (int run = 0; run < 40; run++) {
            long origin = 4L * rnd.nextInt(1000);
            FpduEncoder enc = new FpduEncoder(true, true, origin);
            ByteBuf out = Unpooled.buffer();
            List<ByteBuf> sent = new ArrayList<>();
            try {
                for (int i = 0; i < 30; i++) {
                    int n = rnd.nextInt(4) == 0 ? rnd.nextInt(20) : rnd.nextInt(3000);
                    ByteBuf u = ulpdu(n, i);
                    sent.add(u);
                    enc.encode(u, out);
                }
                verifyStream(out, origin, sent);
            } finally {
                out.release();
            }
        }
    }

    private static void verifyStream(ByteBuf out, long origin, List<ByteBuf> sent) {
        int i = 0; // index in out
        long pos = origin;
        for (ByteBuf u : sent) {
            // an FPDU: markers may precede the length field and appear anywhere inside
            long fpduStart = pos;
            if (pos % 512 == 0) {
                assertEquals(0, out.getInt(i), "leading marker at " + pos);
                i += 4;
                pos += 4;
            }
            long lengthPos = pos;
            int contentLen = 2 + u.readableBytes() + Markers.pad(u.readableBytes()) + 4;
            ByteBuf content = Unpooled.buffer(contentLen);
            while (content.writerIndex() < contentLen) {
                if (pos % 512 == 0) {
                    assertEquals((int) (pos - lengthPos), out.getInt(i), "marker at " + pos + " in FPDU at " + fpduStart);
                    i += 4;
                    pos += 4;
                    continue;
                }
                content.writeByte(out.getByte(i++));
                pos++;
            }
            assertEquals(u.readableBytes(), content.getUnsignedShort(0));
            assertTrue(ByteBufUtil.equals(u, 0, content, 2, u.readableBytes()));
            content.release();
        }
        assertEquals(out.writerIndex(), i);
    }
}
