package io.jrnic.rdmap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.DdpError;
import io.jrnic.mpa.IwarpError;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TerminateTest {
    private static final String TERMINATE_DDP_HEADER = "4147" + "00000000" + "00000002" + "00000001" + "00000000";
    private static final String SEND_HEADER_MSN5 = "4143" + "00000000" + "00000000" + "00000005" + "00000000";
    private static final String READ_REQUEST_HEADER = "00000011" + "0000000000002000" + "00001000"
            + "00000022" + "0000000000003000";

    private static byte[] hex(String s) {
        return ByteBufUtil.decodeHexDump(s);
    }

    private static String encodeHex(Terminate t, long msn) {
        ByteBuf buf = Unpooled.buffer();
        try {
            int n = t.encode(buf, msn);
            assertEquals(t.encodedLength(), n);
            assertEquals(n, buf.readableBytes());
            return ByteBufUtil.hexDump(buf);
        } finally {
            buf.release();
        }
    }

    private static Terminate decodeHex(String s, TerminateDecoder.Mode mode) {
        ByteBuf buf = Unpooled.wrappedBuffer(hex(s));
        try {
            return TerminateDecoder.decode(buf, 0, buf.readableBytes(), mode);
        } finally {
            buf.release();
        }
    }

    @Test
    void bareTerminateEncodesToHandWrittenRfcBytes() {
        assertEquals(TERMINATE_DDP_HEADER + "02070000",
                encodeHex(Terminate.of(RdmapError.CATASTROPHIC_STREAM), 1));
        assertEquals("4147" + "00000000" + "00000002" + "00000009" + "00000000" + "20020000",
                encodeHex(Terminate.of(io.jrnic.mpa.LlpError.CRC_ERROR), 9));
    }

    @Test
    void terminateWithDdpHeaderEncodesRfcLayout() {
        ByteBuf seg = Unpooled.wrappedBuffer(hex(SEND_HEADER_MSN5));
        try {
            Terminate t = Terminate.of(DdpError.MESSAGE_TOO_LONG).withDdpSegment(seg, 0, 1024, true);
            assertTrue(t.m());
            assertTrue(t.d());
            assertFalse(t.r());
            // layer 1 << 4 | etype 2 = 0x12, code 0x05, M|D = 0xC0; segment length 0x0400; the header
            assertEquals(TERMINATE_DDP_HEADER + "1205c000" + "0400" + SEND_HEADER_MSN5, encodeHex(t, 1));
            assertEquals(t, decodeHex(encodeHex(t, 1), TerminateDecoder.Mode.STRICT));
        } finally {
            seg.release();
        }
    }

    @Test
    void terminateWithReadRequestAttachmentsRoundTrips() {
        String rr = "4141" + "00000000" + "00000001" + "00000003" + "00000000";
        ByteBuf seg = Unpooled.wrappedBuffer(hex(rr + READ_REQUEST_HEADER));
        try {
            Terminate t = Terminate.of(RdmapError.ACCESS_RIGHTS).withDdpSegment(seg, 0, 46, true)
                    .withRdmapHeader(seg, 18);
            String wire = encodeHex(t, 1);
            assertEquals(TERMINATE_DDP_HEADER + "0102e000" + "002e" + rr + READ_REQUEST_HEADER, wire);
            Terminate back = decodeHex(wire, TerminateDecoder.Mode.STRICT);
            assertEquals(t, back);
            assertSame(RdmapError.ACCESS_RIGHTS, back.error());
            assertArrayEquals(hex(READ_REQUEST_HEADER), back.rdmapHeader());
            assertEquals(46, back.ddpSegmentLength());
        } finally {
            seg.release();
        }
    }

    @Test
    void taggedTerminatedHeaderIs14Bytes() {
        String write = "c140" + "00000100" + "0000000000001000";
        ByteBuf seg = Unpooled.wrappedBuffer(hex(write));
        try {
            Terminate t = Terminate.of(DdpError.BASE_OR_BOUNDS).withDdpSegment(seg, 0, 1442, false);
            assertEquals(TERMINATE_DDP_HEADER + "11014000" + "05a2" + write, encodeHex(t, 1));
            assertEquals(14, decodeHex(encodeHex(t, 1), TerminateDecoder.Mode.STRICT).ddpHeader().length);
        } finally {
            seg.release();
        }
    }

    /** Every RDMAP, DDP and LLP row survives encode then strict decode. */
    @Test
    void everyErrorRoundTripsThroughATerminate() {
        List<IwarpError> all = new ArrayList<>(List.of(RdmapError.values()));
        all.addAll(List.of(DdpError.values()));
        for (int code = 1; code <= 7; code++) {
            all.add(ErrorCodes.lookup(2, 0, code));
        }
        for (IwarpError e : all) {
            Terminate back = decodeHex(encodeHex(Terminate.of(e), 1), TerminateDecoder.Mode.STRICT);
            assertEquals(e.layer().wireValue(), back.layer(), e.toString());
            assertEquals(e.errorType(), back.errorType());
            assertEquals(e.errorCode(), back.errorCode());
            assertEquals(e, back.error());
        }
    }

    @Test
    void siwLayoutDecodesOnlyInQuirkMode() {
        // siw, DDP untagged "no buffer" (layer 1, etype 2, code 0x02), M and D in its low bits
        String siw = TERMINATE_DDP_HEADER + "21020300" + "0020" + SEND_HEADER_MSN5;
        Terminate t = decodeHex(siw, TerminateDecoder.Mode.SIW_QUIRK);
        assertEquals(1, t.layer());
        assertEquals(2, t.errorType());
        assertSame(DdpError.NO_BUFFER, t.error());
        assertTrue(t.m());
        assertTrue(t.d());
        assertFalse(t.r());
        assertEquals(0x20, t.ddpSegmentLength());
        assertArrayEquals(hex(SEND_HEADER_MSN5), t.ddpHeader());
        // strictly read, the flags say no attachment, so the header bytes are trailing garbage
        assertThrows(MalformedTerminateException.class, () -> decodeHex(siw, TerminateDecoder.Mode.STRICT));
        // and we never send that way: re-encoding gives the RFC layout
        assertTrue(encodeHex(t, 1).startsWith(TERMINATE_DDP_HEADER + "1202c000"));
    }

    private static TerminateDecoder.Match matchHex(String s) {
        ByteBuf buf = Unpooled.wrappedBuffer(hex(s));
        try {
            return TerminateDecoder.decodeMatch(buf, 0, buf.readableBytes(), TerminateDecoder.Mode.EITHER);
        } finally {
            buf.release();
        }
    }

    /** Accept either layout and report which matched: siw's bytes read as siw, RFC bytes as RFC. */
    @Test
    void eitherModeReadsBothLayoutsAndReportsWhichMatched() {
        TerminateDecoder.Match siw = matchHex(TERMINATE_DDP_HEADER + "21020300" + "0020" + SEND_HEADER_MSN5);
        assertSame(TerminateDecoder.Mode.SIW_QUIRK, siw.layout());
        assertSame(DdpError.NO_BUFFER, siw.terminate().error());
        assertTrue(siw.terminate().d());
        String rfc = encodeHex(Terminate.of(DdpError.NO_BUFFER), 1);
        TerminateDecoder.Match r = matchHex(rfc);
        assertSame(TerminateDecoder.Mode.STRICT, r.layout());
        assertSame(DdpError.NO_BUFFER, r.terminate().error());
        // RDMAP remote protection 0x09 in the RFC layout: byte 0 = 0x01, which siw would read as layer 1 etype 0
        TerminateDecoder.Match p = matchHex(encodeHex(Terminate.of(RdmapError.STAG_CANNOT_BE_INVALIDATED), 1));
        assertSame(TerminateDecoder.Mode.STRICT, p.layout());
        assertSame(RdmapError.STAG_CANNOT_BE_INVALIDATED, p.terminate().error());
        assertThrows(MalformedTerminateException.class, () -> matchHex(TERMINATE_DDP_HEADER.substring(0, 20)));
    }

    @Test
    void siwReadRequestAttachmentQuirkIsNormalised() {
        // RDMAP remote protection invalid STag (layer 0, etype 1): siw byte 0x10; D|R = 0x06;
        // DDP segment length 0; read size 0x1000 where the attached header's MSN belongs.
        String rr = "4141" + "00000000" + "00000001" + "00001000" + "00000000";
        Terminate t = decodeHex(TERMINATE_DDP_HEADER + "10000600" + "0000" + rr + READ_REQUEST_HEADER,
                TerminateDecoder.Mode.SIW_QUIRK);
        assertSame(RdmapError.INVALID_STAG, t.error());
        assertFalse(t.m());
        assertEquals(46, t.ddpSegmentLength());
        assertArrayEquals(hex(rr), t.ddpHeader());
        assertArrayEquals(hex(READ_REQUEST_HEADER), t.rdmapHeader());
    }

    @Test
    void siwQuirkModeToleratesTrailingBytesStrictDoesNot() {
        String bare = TERMINATE_DDP_HEADER + "00ff0000";
        Terminate t = decodeHex(bare + "00000000", TerminateDecoder.Mode.SIW_QUIRK);
        assertEquals(0xFF, t.errorCode());
        assertTrue(t.error() instanceof UnknownError, "RDMAP local catastrophic 0xFF is not a table row");
        assertThrows(MalformedTerminateException.class,
                () -> decodeHex(bare + "00000000", TerminateDecoder.Mode.STRICT));
        assertEquals(t, decodeHex(bare, TerminateDecoder.Mode.STRICT));
    }

    @Test
    void malformedTerminatesAreRejectedPrecisely() {
        TerminateDecoder.Mode s = TerminateDecoder.Mode.STRICT;
        assertThrows(MalformedTerminateException.class, () -> decodeHex(TERMINATE_DDP_HEADER + "020700", s), "short");
        assertThrows(MalformedTerminateException.class,
                () -> decodeHex("4143" + TERMINATE_DDP_HEADER.substring(4) + "02070000", s), "Send opcode");
        assertThrows(MalformedTerminateException.class,
                () -> decodeHex("0147" + TERMINATE_DDP_HEADER.substring(4) + "02070000", s), "L clear");
        assertThrows(MalformedTerminateException.class,
                () -> decodeHex("4147" + "00000000" + "00000000" + "00000001" + "00000000" + "02070000", s), "QN 0");
        assertThrows(MalformedTerminateException.class,
                () -> decodeHex("4147" + "00000000" + "00000002" + "00000001" + "00000004" + "02070000", s), "MO 4");
        assertThrows(MalformedTerminateException.class,
                () -> decodeHex(TERMINATE_DDP_HEADER + "12054000" + "0400" + SEND_HEADER_MSN5.substring(2), s),
                "D header cut");
        assertThrows(MalformedTerminateException.class,
                () -> decodeHex(TERMINATE_DDP_HEADER + "12054000" + "04", s), "D length cut");
        assertThrows(MalformedTerminateException.class,
                () -> decodeHex(TERMINATE_DDP_HEADER + "01022000" + READ_REQUEST_HEADER.substring(2), s), "R cut");
        ByteBuf buf = Unpooled.wrappedBuffer(hex(TERMINATE_DDP_HEADER + "02070000"));
        try {
            assertThrows(MalformedTerminateException.class, () -> TerminateDecoder.decode(buf, 0, 23, s), "past end");
            assertEquals(RdmapError.CATASTROPHIC_STREAM, TerminateDecoder.decode(buf, 0, 22, s).error());
        } finally {
            buf.release();
        }
    }

    /** Fuzz finding F1 (spec-notes/fuzzing.md): offset + length near Integer.MAX_VALUE must not wrap. */
    @Test
    void lengthsPastTheBufferAreRejectedWithoutIntOverflow() {
        ByteBuf buf = Unpooled.wrappedBuffer(hex("0000000000000041470000000000000002000000010000000012010000"));
        try {
            for (TerminateDecoder.Mode m : TerminateDecoder.Mode.values()) {
                assertThrows(MalformedTerminateException.class,
                        () -> TerminateDecoder.decode(buf, 7, Integer.MAX_VALUE, m), "decode " + m);
                assertThrows(MalformedTerminateException.class,
                        () -> TerminateDecoder.decodeTerminateHeader(buf, 7, Integer.MAX_VALUE, m), "header " + m);
                assertThrows(MalformedTerminateException.class,
                        () -> TerminateDecoder.decodeTerminateHeader(buf, buf.writerIndex() + 1, 4, m), "offset " + m);
            }
        } finally {
            buf.release();
        }
    }

    @Test
    void recordRejectsInconsistentAttachments() {
        assertThrows(IllegalArgumentException.class, () -> new Terminate(16, 0, 0, false, 0, null, null));
        assertThrows(IllegalArgumentException.class, () -> new Terminate(0, 0, 256, false, 0, null, null));
        assertThrows(IllegalArgumentException.class, () -> new Terminate(0, 0, 0, false, 5, null, null));
        assertThrows(IllegalArgumentException.class, () -> new Terminate(0, 0, 0, false, 0, new byte[14], null),
                "14 bytes but T clear");
        assertThrows(IllegalArgumentException.class, () -> new Terminate(0, 0, 0, false, 0, null, new byte[27]));
        byte[] h = hex(SEND_HEADER_MSN5);
        Terminate t = new Terminate(0, 2, 7, false, 70000 & 0xFFFF, h, null);
        h[0] = 0;
        assertEquals(0x41, t.ddpHeader()[0], "defensive copy");
        assertNull(Terminate.of(RdmapError.TO_WRAP).ddpHeader());
    }

}
