package io.jrnic.ddp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class TaggedPlacementTest {
    private static final long STREAM = 7;
    private static final int CONTROL = DdpControl.compose(true, true, 0x40);

    record Region(boolean valid, long stream, long baseTaggedOffset, long length, boolean remoteWrite,
                  boolean remoteRead) implements TaggedRegion {
        @Override
        public boolean associatedWith(long streamId) {
            return stream == streamId;
        }
    }

    private final Region va = new Region(true, STREAM, 0x7F00_0000_1000L, 4096, true, false);
    private final Region top = new Region(true, STREAM, -4096L, 4096, true, true);
    private final Region invalidated = new Region(false, STREAM, 0, 4096, true, true);
    private final Region foreign = new Region(true, STREAM + 1, 0, 4096, true, true);
    private final Region zeroBased = new Region(true, STREAM, 0, 4096, true, true);

    private final TaggedPlacement placement = new TaggedPlacement(stag -> switch (stag) {
        case 0x100 -> va;
        case 0x200 -> top;
        case 0x300 -> invalidated;
        case 0x400 -> foreign;
        case 0x500 -> zeroBased;
        default -> null;
    }, STREAM);

    @Test
    void segmentInsideTheRegionIsPlacedRelativeToItsBase() {
        assertNull(placement.check(CONTROL, 0x100, 0x7F00_0000_1010L, 100));
        assertSame(va, placement.region());
        assertEquals(0x10, placement.regionOffset());
        assertNull(placement.check(CONTROL, 0x100, 0x7F00_0000_1000L, 4096), "exactly the whole region");
    }

    @Test
    void checkReadsATaggedHeaderFlyweight() {
        ByteBuf buf = Unpooled.buffer(TaggedHeader.HEADER_LENGTH);
        try {
            TaggedHeader h = new TaggedHeader().wrap(buf, 0).control(CONTROL).stag(0x100).taggedOffset(0x7F00_0000_1FFFL);
            assertNull(placement.check(h, 1));
            assertEquals(DdpError.BASE_OR_BOUNDS, placement.check(h, 2));
        } finally {
            buf.release();
        }
    }

    @Test
    void wrongDdpVersionIsTaggedError0x04() {
        assertEquals(DdpError.TAGGED_INVALID_VERSION, placement.check(DdpControl.compose(true, true, 0, 0x40), 0x100, 0x7F00_0000_1000L, 1));
        assertEquals(DdpError.TAGGED_INVALID_VERSION, placement.check(DdpControl.compose(true, true, 3, 0x40), 0x100, 0x7F00_0000_1000L, 0));
    }

    @Test
    void unknownOrInvalidatedStagIsInvalidStag() {
        assertEquals(DdpError.INVALID_STAG, placement.check(CONTROL, 0x999, 0, 1));
        assertEquals(DdpError.INVALID_STAG, placement.check(CONTROL, 0x300, 0, 1));
        assertNull(placement.region());
    }

    @Test
    void regionOfAnotherStreamIsNotAssociated() {
        assertEquals(DdpError.STAG_NOT_ASSOCIATED, placement.check(CONTROL, 0x400, 0, 1));
    }

    @Test
    void taggedOffsetPlusLengthPast2To64IsToWrap() {
        assertNull(placement.check(CONTROL, 0x200, -4096L, 4095));
        assertNull(placement.check(CONTROL, 0x200, -2L, 1));
        assertEquals(DdpError.TO_WRAP, placement.check(CONTROL, 0x200, -1L, 1));
        assertEquals(DdpError.TO_WRAP, placement.check(CONTROL, 0x200, -16L, 17));
    }

    /** A Write starting below the base is base-and-bounds (1/0x01) even when its TO, near 2^64, would wrap. */
    @Test
    void writeStartingBelowTheRegionBaseIsBaseOrBoundsNotToWrap() {
        assertEquals(DdpError.BASE_OR_BOUNDS, placement.check(CONTROL, 0x500, -16L, 32), "16 below a zero base");
        assertEquals(DdpError.BASE_OR_BOUNDS, placement.check(CONTROL, 0x500, -1L, 1), "1 below a zero base");
        assertEquals(DdpError.BASE_OR_BOUNDS, placement.check(CONTROL, 0x100, 0x7F00_0000_0FF0L, 32), "16 below a VA base");
        assertNull(placement.check(CONTROL, 0x500, 0, 4096));
        assertEquals(DdpError.BASE_OR_BOUNDS, TaggedPlacement.checkBounds(0, 4096, -16L, 32));
        assertEquals(DdpError.TO_WRAP, TaggedPlacement.checkBounds(-4096L, 4096, -16L, 17));
        assertNull(TaggedPlacement.checkBounds(-4096L, 4096, -16L, 15));
    }

    @Test
    void outsideBaseOrBoundsIsBaseOrBounds() {
        assertEquals(DdpError.BASE_OR_BOUNDS, placement.check(CONTROL, 0x100, 0x7F00_0000_0FFFL, 1), "below base");
        assertEquals(DdpError.BASE_OR_BOUNDS, placement.check(CONTROL, 0x100, 0x7F00_0000_1000L, 4097), "past end");
        assertEquals(DdpError.BASE_OR_BOUNDS, placement.check(CONTROL, 0x100, 0x7F00_0000_2000L, 1), "at end");
        assertEquals(DdpError.BASE_OR_BOUNDS, placement.check(CONTROL, 0x100, 0, 1), "far below");
    }

    @Test
    void zeroLengthSegmentSkipsStagChecksUnlessAsked() {
        assertNull(placement.check(CONTROL, 1, 0, 0), "siw RTR: STag 1, TO 0");
        assertNull(placement.region());
        placement.validateZeroLength(true);
        assertEquals(DdpError.INVALID_STAG, placement.check(CONTROL, 1, 0, 0));
        assertNull(placement.check(CONTROL, 0x100, 0x7F00_0000_2000L, 0), "empty range at the end is inside");
    }

    @Test
    void untaggedControlIsMisuse() {
        assertThrows(IllegalArgumentException.class, () -> placement.check(0x4143, 0x100, 0, 1));
    }
}
