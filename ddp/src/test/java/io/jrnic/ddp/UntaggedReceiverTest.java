package io.jrnic.ddp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class UntaggedReceiverTest {
    private static final int MID = DdpControl.compose(false, false, 0x43);
    private static final int LAST = DdpControl.compose(false, true, 0x43);

    private final UntaggedReceiver rx = new UntaggedReceiver(4, 8);
    private final UntaggedPlacement p = new UntaggedPlacement();
    private final UntaggedCompletion c = new UntaggedCompletion();

    @Test
    void multiSegmentMessageIsPlacedAndCompletedInOrder() {
        assertTrue(rx.postBuffer(0, 100, 64));
        assertNull(rx.accept(MID, 0, 1, 0, 30, p));
        assertEquals(100, p.bufferId());
        assertEquals(0, p.bufferOffset());
        assertFalse(p.messageComplete());
        assertFalse(rx.pollCompletion(0, c), "not complete before L");
        assertNull(rx.accept(LAST, 0, 1, 30, 34, p));
        assertEquals(30, p.bufferOffset());
        assertEquals(34, p.length());
        assertTrue(p.messageComplete());
        assertTrue(rx.pollCompletion(0, c));
        assertEquals(100, c.bufferId());
        assertEquals(64, c.messageLength());
        assertEquals(1, c.msn());
        assertTrue(c.complete());
        assertEquals(2, rx.expectedMsn(0));
        assertEquals(0, rx.postedBuffers(0));
    }

    @Test
    void acceptReadsAnUntaggedHeaderFlyweight() {
        ByteBuf buf = Unpooled.buffer(UntaggedHeader.HEADER_LENGTH);
        try {
            UntaggedHeader h = new UntaggedHeader().wrap(buf, 0);
            h.control(LAST).queueNumber(1).msn(1).messageOffset(0);
            rx.postBuffer(1, 7, 28);
            assertNull(rx.accept(h, 28, p));
            assertEquals(1, p.queueNumber());
            assertEquals(7, p.bufferId());
        } finally {
            buf.release();
        }
    }

    @Test
    void zeroLengthSendConsumesABuffer() {
        rx.postBuffer(0, 5, 0);
        assertNull(rx.accept(LAST, 0, 1, 0, 0, p));
        assertTrue(rx.pollCompletion(0, c));
        assertEquals(0, c.messageLength());
    }

    @Test
    void invalidDdpVersionIsUntaggedError0x06() {
        rx.postBuffer(0, 1, 10);
        assertEquals(DdpError.UNTAGGED_INVALID_VERSION, rx.accept(DdpControl.compose(false, true, 0, 0x43), 0, 1, 0, 1, p));
        assertEquals(DdpError.UNTAGGED_INVALID_VERSION, rx.accept(DdpControl.compose(false, true, 2, 0x43), 0, 1, 0, 1, p));
    }

    @Test
    void queueNumberBeyondTheQueuesIsInvalidQn() {
        assertEquals(DdpError.INVALID_QN, rx.accept(LAST, 4, 1, 0, 0, p));
        assertEquals(DdpError.INVALID_QN, rx.accept(LAST, 0xFFFF_FFFFL, 1, 0, 0, p));
    }

    @Test
    void msnAheadOfPostedBuffersIsNoBuffer() {
        assertEquals(DdpError.NO_BUFFER, rx.accept(LAST, 0, 1, 0, 0, p), "nothing posted");
        rx.postBuffer(0, 1, 10);
        rx.postBuffer(0, 2, 10);
        assertNull(rx.accept(LAST, 0, 2, 0, 10, p), "second posted buffer takes MSN 2");
        assertEquals(2, p.bufferId());
        assertEquals(DdpError.NO_BUFFER, rx.accept(LAST, 0, 3, 0, 1, p));
        assertEquals(DdpError.NO_BUFFER, rx.accept(LAST, 0, 1 + 7, 0, 1, p), "last MSN the 8-deep queue could hold");
    }

    /** The MSN range is checked before "no buffer": an MSN the queue could never hold is 2/0x03, not 2/0x02. */
    @Test
    void msnBeyondTheReceiveWindowIsMsnRangeBeforeNoBuffer() {
        assertEquals(DdpError.MSN_OUT_OF_RANGE, rx.accept(LAST, 0, 1 + 8, 0, 0, p), "nothing posted, beyond the window");
        rx.postBuffer(0, 1, 10);
        assertEquals(DdpError.NO_BUFFER, rx.accept(LAST, 0, 2, 0, 1, p), "inside the window, no buffer");
        assertEquals(DdpError.MSN_OUT_OF_RANGE, rx.accept(LAST, 0, 1 + 8, 0, 1, p));
        assertEquals(DdpError.MSN_OUT_OF_RANGE, rx.accept(LAST, 0, 1 + 0x7FFF_FFFFL, 0, 1, p));
        assertEquals(DdpError.MSN_OUT_OF_RANGE, rx.accept(LAST, 0, 1000, 0, 1, p));
        assertEquals(1, rx.postedBuffers(0), "a rejected segment changes nothing");
    }

    @Test
    void msnBehindExpectedOrAlreadyCompleteIsOutOfRange() {
        rx.postBuffer(0, 1, 10);
        rx.postBuffer(0, 2, 10);
        assertEquals(DdpError.MSN_OUT_OF_RANGE, rx.accept(LAST, 0, 0, 0, 1, p));
        assertEquals(DdpError.MSN_OUT_OF_RANGE, rx.accept(LAST, 0, 0x8000_0001L, 0, 1, p));
        assertNull(rx.accept(LAST, 0, 1, 0, 3, p));
        assertEquals(DdpError.MSN_OUT_OF_RANGE, rx.accept(LAST, 0, 1, 3, 1, p), "complete, unpolled");
        assertTrue(rx.pollCompletion(0, c));
        assertEquals(DdpError.MSN_OUT_OF_RANGE, rx.accept(LAST, 0, 1, 0, 1, p), "replayed MSN");
    }

    @Test
    void msnComparesModulo2To32() {
        UntaggedReceiver small = new UntaggedReceiver(1, 2);
        // MSN 1 expected: MSN 0 and 2^32 - 1 are one and two behind it in serial arithmetic.
        small.postBuffer(0, 1, 1);
        assertEquals(DdpError.MSN_OUT_OF_RANGE, small.accept(LAST, 0, 0, 0, 1, p));
        assertEquals(DdpError.MSN_OUT_OF_RANGE, small.accept(LAST, 0, 0xFFFF_FFFFL, 0, 1, p));
    }

    @Test
    void moThatDoesNotContinueTheMessageIsInvalidMo() {
        rx.postBuffer(0, 1, 100);
        assertEquals(DdpError.INVALID_MO, rx.accept(MID, 0, 1, 10, 10, p), "first segment must have MO 0");
        assertNull(rx.accept(MID, 0, 1, 0, 10, p));
        assertEquals(DdpError.INVALID_MO, rx.accept(LAST, 0, 1, 20, 10, p), "gap");
        assertEquals(DdpError.INVALID_MO, rx.accept(LAST, 0, 1, 5, 10, p), "overlap");
        assertNull(rx.accept(LAST, 0, 1, 10, 10, p));
    }

    @Test
    void messageLongerThanTheBufferIsTooLong() {
        rx.postBuffer(0, 1, 16);
        assertEquals(DdpError.MESSAGE_TOO_LONG, rx.accept(LAST, 0, 1, 0, 17, p));
        assertNull(rx.accept(MID, 0, 1, 0, 16, p));
        assertEquals(DdpError.MESSAGE_TOO_LONG, rx.accept(LAST, 0, 1, 16, 1, p));
        assertNull(rx.accept(LAST, 0, 1, 16, 0, p));
    }

    @Test
    void rejectedSegmentChangesNoState() {
        rx.postBuffer(0, 1, 16);
        assertEquals(DdpError.MESSAGE_TOO_LONG, rx.accept(LAST, 0, 1, 0, 17, p));
        assertNull(rx.accept(LAST, 0, 1, 0, 16, p));
        assertEquals(0, p.bufferOffset());
    }

    @Test
    void checkAnswersAsAcceptWouldAndRecordsNothing() {
        rx.postBuffer(0, 7, 64);
        assertNull(rx.check(MID, 0, 1, 0, 30, p));
        assertEquals(7, p.bufferId());
        assertEquals(0, p.bufferOffset());
        assertNull(rx.check(MID, 0, 1, 0, 30, p), "nothing recorded: the same segment checks again");
        assertEquals(DdpError.INVALID_MO, rx.check(MID, 0, 1, 30, 30, p));
        assertEquals(DdpError.MESSAGE_TOO_LONG, rx.check(LAST, 0, 1, 0, 65, p));
        assertEquals(DdpError.NO_BUFFER, rx.check(LAST, 0, 2, 0, 1, p));
        assertNull(rx.accept(MID, 0, 1, 0, 30, p));
        assertNull(rx.check(LAST, 0, 1, 30, 34, p));
        assertEquals(30, p.bufferOffset());
        assertTrue(p.messageComplete());
        assertFalse(rx.pollCompletion(0, c), "a check completes nothing");
    }

    @Test
    void interleavedMessagesCompleteInMsnOrder() {
        rx.postBuffer(0, 1, 10);
        rx.postBuffer(0, 2, 10);
        assertNull(rx.accept(MID, 0, 1, 0, 5, p));
        assertNull(rx.accept(LAST, 0, 2, 0, 5, p));
        assertFalse(rx.pollCompletion(0, c), "MSN 2 done but MSN 1 not yet");
        assertNull(rx.accept(LAST, 0, 1, 5, 5, p));
        assertTrue(rx.pollCompletion(0, c));
        assertEquals(1, c.bufferId());
        assertTrue(rx.pollCompletion(0, c));
        assertEquals(2, c.bufferId());
        assertFalse(rx.pollCompletion(0, c));
    }

    @Test
    void ringIsBoundedAndFlushReturnsEveryBuffer() {
        UntaggedReceiver small = new UntaggedReceiver(1, 2);
        assertTrue(small.postBuffer(0, 1, 10));
        assertTrue(small.postBuffer(0, 2, 10));
        assertFalse(small.postBuffer(0, 3, 10));
        assertNull(small.accept(MID, 0, 1, 0, 4, p));
        assertTrue(small.pollFlush(0, c));
        assertEquals(1, c.bufferId());
        assertFalse(c.complete());
        assertEquals(4, c.messageLength());
        assertTrue(small.pollFlush(0, c));
        assertEquals(2, c.bufferId());
        assertFalse(small.pollFlush(0, c));
        assertEquals(3, small.expectedMsn(0));
    }

    @Test
    void misuseIsAnException() {
        assertThrows(IllegalArgumentException.class, () -> rx.accept(DdpControl.TAGGED_FLAG | 0x100, 0, 1, 0, 0, p));
        assertThrows(IllegalArgumentException.class, () -> rx.postBuffer(4, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> rx.postBuffer(0, 1, -1));
        assertThrows(IllegalArgumentException.class, () -> new UntaggedReceiver(0, 1));
    }
}
