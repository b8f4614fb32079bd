package io.jrnic.mpa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class FpduDecoderTest {

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    /** Encodes ULPDUs of the given sizes from position 0. */
    private static ByteBuf stream(boolean crc, boolean markers, int... sizes) {
        FpduEncoder enc = new FpduEncoder(crc, markers);
        ByteBuf out = Unpooled.buffer();
        for (int i = 0; i < sizes.length; i++) {
            enc.encode(Unpooled.wrappedBuffer(bytes(sizes[i], i)), out);
        }
        return out;
    }

    @Test
    void corruptedCrcReportsCrcErrorAndStops() {
        ByteBuf s = stream(true, false, 100, 40);
        try {
            s.setByte(50, s.getByte(50) ^ 0x01);
            Recorder r = new Recorder();
            FpduDecoder dec = new FpduDecoder(true, false, r);
            dec.feed(s);
            assertEquals(1, r.errors.size());
            assertEquals(LlpError.CRC_ERROR, r.errors.get(0).error());
            assertEquals(0, r.errors.get(0).offset());
            assertEquals(0, r.fpdus.size());
            assertTrue(dec.isStopped());
            assertEquals(108, s.readerIndex()); // the bad FPDU consumed, the next one left
            assertEquals(MpaCrc.wireValue(s, 0, 104), dec.crcChecks().lastComputed());
            assertEquals(s.getInt(104), dec.crcChecks().lastReceived());
            dec.feed(s); // ignored
            assertEquals(108, s.readerIndex());
            assertEquals(1, dec.crcChecks().errors());
        } finally {
            s.release();
        }
    }

    @Test
    void continueAfterErrorDeliversTheBadFpduAndGoesOn() {
        ByteBuf s = stream(true, true, 1000, 40, 700);
        try {
            s.setByte(600, s.getByte(600) ^ 0x80);
            s.setShort(512 + 2, 0x0100); // FPDUPTR 256 instead of 508
            Recorder r = new Recorder();
            FpduDecoder dec = new FpduDecoder(true, true, true, 0, r);
            dec.feed(s);
            assertEquals(2, r.errors.size());
            assertEquals(LlpError.MARKER_MISMATCH, r.errors.get(0).error());
            assertEquals(512, r.errors.get(0).offset());
            assertEquals(LlpError.CRC_ERROR, r.errors.get(1).error());
            assertEquals(3, r.fpdus.size());
            assertSame(CrcCheck.BAD, r.fpdus.get(0).crc());
            assertSame(CrcCheck.GOOD, r.fpdus.get(1).crc());
            assertArrayEquals(bytes(700, 2), r.fpdus.get(2).ulpdu());
            assertEquals(1, dec.markerChecks().errors());
            assertEquals(1, dec.crcChecks().errors());
        } finally {
            s.release();
        }
    }

    @Test
    void corruptedMarkerReportsMarkerMismatchWithItsStreamOffset() {
        for (int split : new int[] {0, 513, 700}) {
            ByteBuf s = stream(false, true, 1000, 40);
            try {
                s.setShort(512 + 2, 504); // marker at 512 points 4 octets short
                Recorder r = new Recorder();
                FpduDecoder dec = new FpduDecoder(false, true, r);
                dec.feed(s.slice(0, split));
                dec.feed(s.slice(split, s.readableBytes() - split));
                assertEquals(1, r.errors.size());
                assertEquals(LlpError.MARKER_MISMATCH, r.errors.get(0).error());
                assertEquals(512, r.errors.get(0).offset());
                assertEquals(0, r.fpdus.size());
                assertTrue(dec.isStopped());
            } finally {
                s.release();
            }
        }
    }

    @Test
    void leadingMarkerWithNonZeroFpduPtrIsAMismatch() {
        ByteBuf s = stream(true, true, 20);
        try {
            s.setInt(0, 8);
            Recorder r = new Recorder();
            new FpduDecoder(true, true, r).feed(s);
            assertEquals(LlpError.MARKER_MISMATCH, r.errors.get(0).error());
            assertEquals(0, r.errors.get(0).offset());
        } finally {
            s.release();
        }
    }

    @Test
    void markerReservedBitsAndLowPointerBitsAreIgnoredButCounted() {
        ByteBuf s = stream(false, true, 1000);
        try {
            s.setShort(512, 0xABCD);
            s.setShort(514, 508 | 3);
            Recorder r = new Recorder();
            FpduDecoder dec = new FpduDecoder(false, true, r);
            dec.feed(s);
            assertEquals(0, r.errors.size());
            assertArrayEquals(bytes(1000, 0), r.fpdus.get(0).ulpdu());
            assertEquals(2, dec.markerChecks().seen());
            assertEquals(1, dec.markerChecks().withReservedBits());
        } finally {
            s.release();
        }
    }

    /**
     * ULPDU 506 from position 0 has both edge markers (wire reference 2.4). A peer may leave
     * either out of the CRC; every reading is accepted and counted.
     */
    @Test
    void crcWithOrWithoutEitherEdgeMarkerIsAcceptedAndCounted() {
        int[][] readings = {{0, 516}, {4, 516}, {0, 512}, {4, 512}}; // covered range [from, to)
        for (int k = 0; k < readings.length; k++) {
            ByteBuf s = stream(true, true, 506);
            try {
                s.setInt(516, MpaCrc.wireValue(s, readings[k][0], readings[k][1] - readings[k][0]));
                Recorder r = new Recorder();
                FpduDecoder dec = new FpduDecoder(true, true, r);
                dec.feed(s);
                assertEquals(0, r.errors.size(), "reading " + k);
                assertSame(CrcCheck.GOOD, r.fpdus.get(0).crc());
                assertArrayEquals(bytes(506, 0), r.fpdus.get(0).ulpdu());
                assertEquals(k == 0 || k == 2 ? 1 : 0, dec.crcChecks().leadingMarkerCovered());
                assertEquals(k == 1 || k == 3 ? 1 : 0, dec.crcChecks().leadingMarkerNotCovered());
                assertEquals(k < 2 ? 1 : 0, dec.crcChecks().trailingMarkerCovered());
                assertEquals(k >= 2 ? 1 : 0, dec.crcChecks().trailingMarkerNotCovered());
            } finally {
                s.release();
            }
        }
    }

    @Test
    void crcOffIgnoresTheFieldAndReportsOff() {
        ByteBuf s = stream(false, false, 10);
        try {
            s.setInt(12, 0xDEADBEEF);
            Recorder r = new Recorder();
            new FpduDecoder(false, false, r).feed(s);
            assertSame(CrcCheck.OFF, r.fpdus.get(0).crc());
            assertEquals(0, r.errors.size());
        } finally {
            s.release();
        }
    }

    /** MPA defines no minimum ULPDU_Length: 0 and 1 are framed and delivered (DDP judges them). */
    @Test
    void tinyUlpdusAreDelivered() {
        ByteBuf s = stream(true, false, 0, 1, 13);
        try {
            Recorder r = new Recorder();
            new FpduDecoder(true, false, r).feed(s);
            assertEquals(3, r.fpdus.size());
            assertEquals(0, r.fpdus.get(0).ulpdu().length);
            assertEquals(1, r.fpdus.get(1).ulpdu().length);
            assertEquals(8, r.fpdus.get(1).offset());
        } finally {
            s.release();
        }
    }

    @Test
    void inPlaceDeliveryLeavesTheChunkIndicesAsFedAndConsumed() {
        ByteBuf s = stream(true, false, 100, 200);
        try {
            int[] seen = new int[2];
            FpduDecoder dec = new FpduDecoder(true, false, new FpduListener() {
                @Override
                public void onFpdu(ByteBuf ulpdu, long offset, CrcCheck crc) {
                    seen[0] += ulpdu.readableBytes();
                    ulpdu.skipBytes(ulpdu.readableBytes()); // a reading listener must not disturb framing
                }

                @Override
                public void onError(LlpError error, long offset, String detail) {
                    seen[1]++;
                }
            });
            dec.feed(s);
            assertEquals(300, seen[0]);
            assertEquals(0, seen[1]);
            assertEquals(s.writerIndex(), s.readerIndex());
            assertEquals(s.writerIndex(), dec.streamPosition());
        } finally {
            s.release();
        }
    }

    @Test
    void bytesOfAnIncompleteFpduAreHeldAndCounted() {
        ByteBuf s = stream(true, true, 3000);
        try {
            Recorder r = new Recorder();
            FpduDecoder dec = new FpduDecoder(true, true, r);
            dec.feed(s.slice(0, 5));
            assertEquals(5, dec.bufferedBytes());
            assertEquals(5, dec.streamPosition());
            dec.feed(s.slice(5, s.readableBytes() - 5));
            assertEquals(0, dec.bufferedBytes());
            assertTrue(ByteBufUtil.equals(Unpooled.wrappedBuffer(bytes(3000, 0)),
                    Unpooled.wrappedBuffer(r.fpdus.get(0).ulpdu())));
        } finally {
            s.release();
        }
    }

    @Test
    void streamEndingInsideAnFpduIsTcpConnectionLost() {
        ByteBuf s = stream(true, false, 40, 40);
        try {
            Recorder r = new Recorder();
            FpduDecoder dec = new FpduDecoder(true, false, r);
            dec.feed(s.slice(0, 60));
            assertEquals(false, dec.endOfStream());
            assertEquals(LlpError.TCP_CONNECTION_LOST, r.errors.get(0).error());
            assertEquals(48, r.errors.get(0).offset());
            assertEquals(1, r.fpdus.size());
            Recorder clean = new Recorder();
            FpduDecoder whole = new FpduDecoder(true, false, clean);
            whole.feed(s);
            assertTrue(whole.endOfStream());
            assertEquals(0, clean.errors.size());
        } finally {
            s.release();
        }
    }

    /** Stream position of logical FPDU octet {@code k} (ULPDU_Length = 0) of an FPDU whose length field is at {@code lengthPos}. */
    private static long rawPosition(boolean markers, long lengthPos, long k) {
        long raw = lengthPos + k;
        for (long m = (lengthPos / Markers.INTERVAL + 1) * Markers.INTERVAL; markers && m <= raw; m += Markers.INTERVAL) {
            raw += Markers.LENGTH;
        }
        return raw;
    }

    /**
     * RFC 5044 section 4.1: the decoder reports each FPDU's PAD (stream position and octets), markers
     * accounted for; a non-zero pad is counted, never an error. Every ULPDU length 0..600 in one stream,
     * pads poisoned at positions worked out independently.
     */
    @Test
    void padPositionAndOctetsAreReportedForEveryFpduWithAndWithoutMarkers() {
        for (boolean markers : new boolean[] {false, true}) {
            int[] sizes = new int[601];
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = i;
            }
            ByteBuf s = stream(false, markers, sizes);
            long[] lengthPos = new long[sizes.length];
            long[] padPos = new long[sizes.length];
            try {
                FpduDecoder[] dec = new FpduDecoder[1];
                int[] seen = {0};
                dec[0] = new FpduDecoder(false, markers, new FpduListener() {
                    @Override
                    public void onFpdu(ByteBuf ulpdu, long pos, CrcCheck crc) {
                        int n = seen[0]++;
                        assertEquals(padPos[n], dec[0].pads().lastOffset(), "FPDU of " + n + " octets, markers " + markers);
                        assertEquals(Markers.pad(n), dec[0].pads().lastLength());
                        int expected = 0;
                        for (int i = 0; i < Markers.pad(n); i++) {
                            expected = expected << 8 | (0xA0 + i);
                        }
                        assertEquals(expected, dec[0].pads().last());
                    }

                    @Override
                    public void onError(LlpError error, long pos, String detail) {
                        throw new AssertionError(detail);
                    }
                });
                // where each FPDU's length field and pad are, from the sizes alone (independent of the decoder)
                long pos = 0;
                for (int n = 0; n < sizes.length; n++) {
                    long lp = markers && pos % Markers.INTERVAL == 0 ? pos + Markers.LENGTH : pos;
                    lengthPos[n] = lp;
                    // an empty pad is "just after the ULPDU", before a marker that may follow it
                    padPos[n] = Markers.pad(n) > 0 ? rawPosition(markers, lp, 2L + n) : rawPosition(markers, lp, 1L + n) + 1;
                    for (int i = 0; i < Markers.pad(n); i++) {
                        assertEquals(0, s.getByte((int) padPos[n] + i), "the encoder sends a zero pad");
                        s.setByte((int) padPos[n] + i, 0xA0 + i);
                    }
                    long end = rawPosition(markers, lp, Markers.contentLength(n) - 4L);
                    pos = end + 4;
                }
                assertEquals(s.writerIndex(), pos, "the model covers the stream exactly");
                dec[0].feed(s);
                assertEquals(sizes.length, seen[0]);
                assertEquals(java.util.Arrays.stream(sizes).filter(n -> Markers.pad(n) > 0).count(), dec[0].pads().nonZero());
                assertEquals(0, dec[0].crcChecks().errors() + dec[0].markerChecks().errors());
            } finally {
                s.release();
            }
        }
    }

    @Test
    void padOctetsAreReportedAsHex() {
        ByteBuf s = stream(false, false, 5);
        try {
            s.setByte(7, 0x5A);
            FpduDecoder dec = new FpduDecoder(false, false, new Recorder());
            dec.feed(s);
            assertEquals(7, dec.pads().lastOffset());
            assertEquals("5a", dec.pads().lastHex());
            assertEquals(1, dec.pads().nonZero());
        } finally {
            s.release();
        }
    }
}
