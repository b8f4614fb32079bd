package io.jrnic.ddp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class DdpHeadersTest {

    @Test
    void controlWordFieldsSitWhereTheReferenceSays() {
        int c = DdpControl.compose(true, true, 0x47);
        assertEquals(0xC147, c);
        assertTrue(DdpControl.isTagged(c));
        assertTrue(DdpControl.isLast(c));
        assertEquals(1, DdpControl.ddpVersion(c));
        assertEquals(0x47, DdpControl.rsvdUlp(c));
        assertEquals(0, DdpControl.reservedBits(c));
        assertEquals(0x3C00, DdpControl.reservedBits(0xFFFF));
        assertEquals(3, DdpControl.ddpVersion(0x0300));
        assertEquals(0x0143, DdpControl.compose(false, false, 0x43));
        assertEquals(0x4143, DdpControl.withLast(0x0143, true));
        assertEquals(0x0143, DdpControl.withLast(0x4143, false));
        assertEquals(14, DdpControl.headerLength(0x8000));
        assertEquals(18, DdpControl.headerLength(0x0000));
    }

    @Test
    void taggedHeaderRoundTripsAtAnOffsetWithExactBytes() {
        ByteBuf buf = Unpooled.buffer(3 + TaggedHeader.HEADER_LENGTH);
        try {
            TaggedHeader h = new TaggedHeader().wrap(buf, 3);
            h.control(0xC140).stag(0x12345678).taggedOffset(0x8000_0000_0000_0001L);
            byte[] expected = ByteBufUtil.decodeHexDump("000000" + "c140" + "12345678" + "8000000000000001");
            byte[] actual = new byte[expected.length];
            buf.getBytes(0, actual);
            assertArrayEquals(expected, actual);
            assertEquals(0xC140, TaggedHeader.control(buf, 3));
            assertEquals(0x12345678, TaggedHeader.stag(buf, 3));
            assertEquals(0x8000_0000_0000_0001L, TaggedHeader.taggedOffset(buf, 3));
            assertTrue(h.last());
        } finally {
            buf.release();
        }
    }

    @Test
    void untaggedHeaderRoundTripsUnsignedFields() {
        ByteBuf buf = Unpooled.buffer(UntaggedHeader.HEADER_LENGTH);
        try {
            UntaggedHeader h = new UntaggedHeader().wrap(buf, 0);
            h.control(0x0143).rsvdUlp(0xCAFEBABE).queueNumber(0xFFFF_FFFEL).msn(0x8000_0001L)
                    .messageOffset(0xFFFF_FFFFL);
            byte[] expected = ByteBufUtil.decodeHexDump("0143" + "cafebabe" + "fffffffe" + "80000001" + "ffffffff");
            byte[] actual = new byte[expected.length];
            buf.getBytes(0, actual);
            assertArrayEquals(expected, actual);
            assertEquals(0xFFFF_FFFEL, h.queueNumber());
            assertEquals(0x8000_0001L, UntaggedHeader.msn(buf, 0));
            assertEquals(0xFFFF_FFFFL, UntaggedHeader.messageOffset(buf, 0));
            assertEquals(0xCAFEBABE, UntaggedHeader.rsvdUlp(buf, 0));
            assertFalse(h.last());
        } finally {
            buf.release();
        }
    }

    @Test
    void ddpErrorRowsMatchTheReferenceTable() {
        assertEquals(12, DdpError.values().length);
        for (DdpError e : DdpError.values()) {
            assertEquals(io.jrnic.mpa.ErrorLayer.DDP, e.layer());
            assertEquals(e, DdpError.of(e.errorType(), e.errorCode()));
        }
        assertEquals(DdpError.TAGGED_INVALID_VERSION, DdpError.of(1, 0x04));
        assertEquals(DdpError.UNTAGGED_INVALID_VERSION, DdpError.of(2, 0x06));
        assertEquals(DdpError.NO_BUFFER, DdpError.of(2, 0x02));
        assertEquals(null, DdpError.of(2, 0x00));
        assertEquals(null, DdpError.of(1, 0x05));
    }

    /** A segment too short for its DDP header is DDP's error (0/0x00), checked after the version. */
    @Test
    void segmentTooShortForItsHeaderIsDdpLocalCatastrophic() {
        ByteBuf b = Unpooled.buffer(32).writeZero(32);
        try {
            assertEquals(DdpError.LOCAL_CATASTROPHIC, DdpControl.checkHeader(b, 0, 0), "no control word");
            assertEquals(DdpError.LOCAL_CATASTROPHIC, DdpControl.checkHeader(b, 0, 1), "half a control word");
            b.setShort(0, DdpControl.compose(true, true, 0x40));
            assertEquals(DdpError.LOCAL_CATASTROPHIC, DdpControl.checkHeader(b, 0, 13));
            assertNull(DdpControl.checkHeader(b, 0, 14));
            b.setShort(0, DdpControl.compose(false, true, 0x40));
            assertEquals(DdpError.LOCAL_CATASTROPHIC, DdpControl.checkHeader(b, 0, 17));
            assertNull(DdpControl.checkHeader(b, 0, 18));
            b.setShort(0, DdpControl.compose(false, true, 2, 0x40));
            assertEquals(DdpError.UNTAGGED_INVALID_VERSION, DdpControl.checkHeader(b, 0, 4));
            b.setShort(0, DdpControl.compose(true, true, 0, 0x40));
            assertEquals(DdpError.TAGGED_INVALID_VERSION, DdpControl.checkHeader(b, 0, 4));
        } finally {
            b.release();
        }
    }
}
