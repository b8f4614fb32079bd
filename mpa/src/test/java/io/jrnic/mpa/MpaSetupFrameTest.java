package io.jrnic.mpa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.mpa.MpaSetupFrame.Kind;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class MpaSetupFrameTest {

    private static byte[] pd(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + 1);
        }
        return b;
    }

    private static MpaSetupFrame roundTrip(MpaSetupFrame f, int cap) {
        ByteBuf buf = Unpooled.buffer();
        try {
            f.encode(buf);
            assertEquals(f.encodedLength(), buf.readableBytes());
            buf.writeByte(0x5A); // a following byte must stay unconsumed
            MpaSetupFrame back = MpaSetupFrame.decode(buf, f.kind(), cap);
            assertEquals(1, buf.readableBytes());
            return back;
        } finally {
            buf.release();
        }
    }

    @Test
    void siwStyleRequestHasTheExactWireBytes() {
        MpaSetupFrame f = MpaSetupFrame.builder(Kind.REQUEST).crc(true)
                .v2Words(new MpaV2Words(1, 1, true, false, true, true)).build();
        ByteBuf buf = Unpooled.buffer();
        try {
            f.encode(buf);
            assertEquals("4d504120494420526571204672616d65" + "50" + "02" + "0004" + "8001" + "c001",
                    ByteBufUtil.hexDump(buf));
        } finally {
            buf.release();
        }
    }

    @Test
    void everyFlagCombinationRoundTripsInBothRevisionsAndKinds() {
        for (Kind kind : Kind.values()) {
            for (int rev = 1; rev <= 2; rev++) {
                for (int flags = 0; flags < 256; flags++) {
                    boolean h = (flags & MpaSetupFrame.FLAG_ENHANCED) != 0;
                    MpaSetupFrame.Builder b = MpaSetupFrame.builder(kind).revision(rev)
                            .markers((flags & 0x80) != 0).crc((flags & 0x40) != 0).reject((flags & 0x20) != 0)
                            .enhanced(h).reservedFlags(flags & 0x0F).privateData(pd(flags % 9));
                    if (rev == 2 && h) {
                        b.v2Words(new MpaV2Words(flags * 64, 0x3FFF - flags, (flags & 1) != 0, (flags & 2) != 0,
                                (flags & 4) != 0, (flags & 8) != 0));
                    }
                    MpaSetupFrame f = b.build();
                    assertEquals(flags, f.flags());
                    MpaSetupFrame back = roundTrip(f, 512);
                    assertEquals(f, back);
                    assertEquals(flags & 0x0F, back.reservedFlags());
                }
            }
        }
    }

    @Test
    void privateDataUpToTheCapDecodesAndOverTheCapFails() {
        for (int cap : new int[] {256, 512}) {
            MpaSetupFrame atCap = MpaSetupFrame.builder(Kind.REPLY).v2Words(MpaV2Words.of(128, 128))
                    .privateData(pd(cap - 4)).build();
            assertArrayEquals(pd(cap - 4), roundTrip(atCap, cap).privateData());
            MpaSetupFrame over = atCap.toBuilder().privateData(pd(cap - 3)).build();
            ByteBuf buf = Unpooled.buffer();
            try {
                over.encode(buf);
                // the cap is checked on the header alone: fails before the private data arrives
                ByteBuf header = buf.slice(0, MpaSetupFrame.HEADER_LENGTH);
                MpaException e = assertThrows(MpaException.class, () -> MpaSetupFrame.decode(header, Kind.REPLY, cap));
                assertEquals(LlpError.INVALID_SETUP_FRAME, e.error());
                assertEquals(MpaFailure.Reason.PRIVATE_DATA_TOO_LONG, e.reason());
                assertEquals(0, header.readerIndex());
            } finally {
                buf.release();
            }
        }
    }

    @Test
    void everyIncompletePrefixReturnsNullAndConsumesNothing() {
        MpaSetupFrame f = MpaSetupFrame.builder(Kind.REQUEST).markers(true)
                .v2Words(MpaV2Words.of(3, 4)).privateData(pd(10)).build();
        ByteBuf buf = Unpooled.buffer();
        try {
            f.encode(buf);
            for (int n = 0; n < buf.readableBytes(); n++) {
                ByteBuf prefix = buf.slice(0, n);
                assertNull(MpaSetupFrame.decode(prefix, Kind.REQUEST, 512), "prefix " + n);
                assertEquals(0, prefix.readerIndex());
            }
        } finally {
            buf.release();
        }
    }

    @Test
    void wrongKeyFailsOnTheFirstWrongByte() {
        ByteBuf buf = Unpooled.copiedBuffer(Kind.REPLY.key(), 0, 10); // "MPA ID Re" then p (q expected)
        try {
            assertNull(MpaSetupFrame.decode(buf.slice(0, 9), Kind.REQUEST, 512));
            MpaException e = assertThrows(MpaException.class, () -> MpaSetupFrame.decode(buf, Kind.REQUEST, 512));
            assertEquals(MpaFailure.Reason.INVALID_KEY, e.reason());
            assertEquals(LlpError.INVALID_SETUP_FRAME, e.error());
        } finally {
            buf.release();
        }
    }

    @Test
    void revisionsOtherThanOneAndTwoFail() {
        for (int rev : new int[] {0, 3, 255}) {
            ByteBuf buf = Unpooled.buffer();
            try {
                MpaSetupFrame.builder(Kind.REQUEST).revision(rev).build().encode(buf);
                MpaException e = assertThrows(MpaException.class, () -> MpaSetupFrame.decode(buf, Kind.REQUEST, 512));
                assertEquals(MpaFailure.Reason.INVALID_REVISION, e.reason());
                assertEquals(LlpError.INVALID_SETUP_FRAME, e.error());
            } finally {
                buf.release();
            }
        }
    }

    @Test
    void revisionTwoWithEnhancedButNoWordsFails() {
        ByteBuf buf = Unpooled.buffer();
        try {
            buf.writeBytes(Kind.REPLY.key()).writeByte(0x10).writeByte(2).writeShort(2).writeShort(0);
            MpaException e = assertThrows(MpaException.class, () -> MpaSetupFrame.decode(buf, Kind.REPLY, 512));
            assertEquals(MpaFailure.Reason.INVALID_LENGTH, e.reason());
        } finally {
            buf.release();
        }
    }

    @Test
    void revisionOneKeepsHAsAFlagAndTreatsAllPrivateDataAsApplicationData() {
        ByteBuf buf = Unpooled.buffer();
        try {
            buf.writeBytes(Kind.REQUEST.key()).writeByte(0x1F).writeByte(1).writeShort(4).writeInt(0x80018001);
            MpaSetupFrame f = MpaSetupFrame.decode(buf, Kind.REQUEST, 512);
            assertTrue(f.enhanced());
            assertNull(f.v2Words());
            assertEquals(0x0F, f.reservedFlags());
            assertEquals(4, f.privateData().length);
            assertFalse(buf.isReadable());
        } finally {
            buf.release();
        }
    }

    @Test
    void builderRefusesInconsistentFrames() {
        assertThrows(IllegalArgumentException.class,
                () -> MpaSetupFrame.builder(Kind.REQUEST).revision(1).v2Words(MpaV2Words.of(1, 1)).build());
        assertThrows(IllegalArgumentException.class,
                () -> MpaSetupFrame.builder(Kind.REQUEST).revision(2).enhanced(true).build());
        assertThrows(IllegalArgumentException.class, () -> MpaV2Words.of(0x4000, 0));
        assertThrows(IllegalArgumentException.class, () -> MpaSetupFrame.builder(Kind.REQUEST).reservedFlags(0x10));
    }
}
