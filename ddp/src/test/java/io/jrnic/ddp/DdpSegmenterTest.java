package io.jrnic.ddp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DdpSegmenterTest {
    private static final int MULPDU = 1428 + TaggedHeader.HEADER_LENGTH;

    private final DdpSegmenter seg = new DdpSegmenter();

    /** Walks all segments, checking contiguity and L on the last only; returns the count. */
    private int walk(long length, long base) {
        int count = 0;
        long expectedOffset = base;
        long total = 0;
        while (seg.next()) {
            count++;
            assertEquals(expectedOffset, seg.offset());
            assertTrue(seg.length() <= seg.maxPayload());
            total += seg.length();
            assertEquals(total == length, seg.last(), "L on the last segment only");
            expectedOffset += seg.length();
        }
        assertEquals(length, total);
        assertFalse(seg.next(), "stays exhausted");
        return count;
    }

    @Test
    void zeroLengthMessageIsOneLastSegment() {
        seg.resetTagged(0, MULPDU, TaggedHeader.HEADER_LENGTH, 0x1000);
        assertTrue(seg.next());
        assertEquals(0, seg.length());
        assertEquals(0x1000, seg.offset());
        assertTrue(seg.last());
        assertFalse(seg.next());
        assertEquals(1, DdpSegmenter.segmentCount(0, 10));
    }

    @Test
    void taggedOffsetAdvancesAcrossMulpduBoundaries() {
        int payload = MULPDU - TaggedHeader.HEADER_LENGTH;
        for (long len : new long[] {1, payload - 1, payload, payload + 1, 3L * payload, 3L * payload + 7}) {
            seg.resetTagged(len, MULPDU, TaggedHeader.HEADER_LENGTH, 0xFFFF_0000L);
            assertEquals(DdpSegmenter.segmentCount(len, payload), walk(len, 0xFFFF_0000L), "len " + len);
        }
    }

    @Test
    void remainingCountsThePayloadAfterTheCurrentSegment() {
        seg.resetUntagged(40, 28, UntaggedHeader.HEADER_LENGTH); // 10 octets per segment
        assertEquals(40, seg.remaining() + seg.length());
        long[] expected = {30, 20, 10, 0};
        for (long e : expected) {
            assertTrue(seg.next());
            assertEquals(e, seg.remaining());
        }
        assertFalse(seg.next());
        assertEquals(0, seg.remaining());
    }

    @Test
    void exactMultipleHasNoTrailingEmptySegment() {
        seg.resetUntagged(40, 28, UntaggedHeader.HEADER_LENGTH);
        assertEquals(4, walk(40, 0));
        seg.resetUntagged(40, 28, UntaggedHeader.HEADER_LENGTH);
        seg.next();
        seg.next();
        seg.next();
        assertTrue(seg.next());
        assertEquals(30, seg.offset());
        assertEquals(10, seg.length());
        assertTrue(seg.last());
    }

    @Test
    void untaggedMessageOffsetStartsAtZero() {
        int header = UntaggedHeader.HEADER_LENGTH + 28; // e.g. a header with an RDMAP extra part
        seg.resetUntagged(1000, 100 + header, header);
        assertEquals(10, walk(1000, 0));
    }

    @Test
    void rejectsImpossibleParameters() {
        assertThrows(IllegalArgumentException.class, () -> seg.resetTagged(10, 14, 14, 0));
        assertThrows(IllegalArgumentException.class, () -> seg.resetTagged(-1, 100, 14, 0));
        assertThrows(IllegalArgumentException.class, () -> seg.resetTagged(2, 100, 14, -1L));
        assertThrows(IllegalArgumentException.class, () -> seg.resetUntagged(0x1_0000_0001L, 100, 18));
        seg.resetTagged(1, 100, 14, -2L); // last byte at TO 2^64 - 2: fine
        assertEquals(1, walk(1, -2L));
    }
}
