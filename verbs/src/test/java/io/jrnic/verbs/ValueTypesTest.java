package io.jrnic.verbs;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ValueTypesTest {

    @Test
    void stagComposesIndexHighAndKeyLow() {
        STag s = STag.of(0x123456, 0xAB);
        assertEquals(0x123456AB, s.value());
        assertEquals(0x123456, s.index());
        assertEquals(0xAB, s.key());
        assertEquals(0x123456, STag.index(0x123456AB));
        assertEquals(0xAB, STag.key(0x123456AB));
        assertEquals(0xFFFFFF01, STag.compose(0xFFFFFF, 1));
        assertEquals(0xFFFFFF, STag.index(0xFFFFFF01));
    }

    @Test
    void stagKeyChangesKeepIndexAndWrap() {
        assertEquals(0x00000100, STag.nextKey(0x000001FF));
        assertEquals(0x12345600 | 0x42, STag.withKey(0x123456AB, 0x42));
        assertEquals(STag.of(7, 3), STag.of(7, 2).nextKey());
    }

    @Test
    void stagRejectsOutOfRangeParts() {
        assertThrows(IllegalArgumentException.class, () -> STag.compose(0x1000000, 0));
        assertThrows(IllegalArgumentException.class, () -> STag.compose(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> STag.compose(1, 256));
        assertThrows(IllegalArgumentException.class, () -> STag.compose(1, -1));
    }

    @Test
    void stagParsesHexAndDecimal() {
        assertEquals(new STag(0xDEADBEEF), STag.parse("0xdeadbeef"));
        assertEquals(new STag(258), STag.parse("258"));
        assertThrows(IllegalArgumentException.class, () -> STag.parse("0x100000000"));
    }

    @Test
    void remoteBufferWireFormIsSixteenBigEndianBytes() {
        RemoteBuffer rb = new RemoteBuffer(0x01020304, 0x1112131415161718L, 0xF0E0D0C0L);
        byte[] w = rb.toBytes();
        assertArrayEquals(new byte[] {1, 2, 3, 4, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
            (byte) 0xF0, (byte) 0xE0, (byte) 0xD0, (byte) 0xC0}, w);
        assertEquals(rb, RemoteBuffer.parse(w));
    }

    @Test
    void remoteBufferRoundTripsThroughByteBufferAtOffset() {
        RemoteBuffer rb = new RemoteBuffer(-1, -2L, 0xFFFF_FFFFL);
        ByteBuffer bb = ByteBuffer.allocate(40).position(7);
        rb.writeTo(bb);
        assertEquals(23, bb.position());
        assertEquals(rb, RemoteBuffer.parse(bb.flip().position(7)));
        byte[] arr = new byte[20];
        rb.writeTo(arr, 3);
        assertEquals(rb, RemoteBuffer.parse(arr, 3));
    }

    @Test
    void remoteBufferRejectsShortInputAndBadLength() {
        assertThrows(IllegalArgumentException.class, () -> RemoteBuffer.parse(new byte[15]));
        assertThrows(IllegalArgumentException.class, () -> RemoteBuffer.parse(new byte[16], 1));
        assertThrows(IllegalArgumentException.class, () -> RemoteBuffer.parse(ByteBuffer.allocate(8)));
        assertThrows(IllegalArgumentException.class, () -> new RemoteBuffer(1, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> new RemoteBuffer(1, 0, 1L << 32));
    }

    @Test
    void remoteBufferOffsetsAndSlicesStayInside() {
        RemoteBuffer rb = new RemoteBuffer(5, 1000, 100);
        assertEquals(1010, rb.to(10));
        assertEquals(1100, rb.to(100));
        assertThrows(IndexOutOfBoundsException.class, () -> rb.to(101));
        assertEquals(new RemoteBuffer(5, 1020, 30), rb.slice(20, 30));
        assertThrows(IndexOutOfBoundsException.class, () -> rb.slice(90, 11));
    }

    @Test
    void accessRulesRequireLocalWriteForRemoteWriteAndAtomic() {
        int ok = Access.mask(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_ATOMIC);
        assertEquals(ok, Access.validateRegion(ok));
        assertThrows(IllegalArgumentException.class, () -> Access.validateRegion(Access.mask(Access.REMOTE_WRITE)));
        assertThrows(IllegalArgumentException.class, () -> Access.validateRegion(Access.mask(Access.REMOTE_ATOMIC)));
        assertEquals(Access.REMOTE_READ.bit(), Access.validateRegion(Access.mask(Access.REMOTE_READ)));
        assertThrows(IllegalArgumentException.class, () -> Access.validateRegion(64));
    }

    @Test
    void windowsCarryOnlyRemoteRights() {
        assertEquals(6, Access.validateWindow(Access.mask(Access.REMOTE_READ, Access.REMOTE_WRITE)));
        assertThrows(IllegalArgumentException.class, () -> Access.validateWindow(Access.mask(Access.LOCAL_WRITE)));
        assertThrows(IllegalArgumentException.class, () -> Access.validateWindow(Access.mask(Access.MW_BIND)));
    }

    @Test
    void accessMaskBitsAreDistinctAndPrintable() {
        assertEquals(Access.ALL, Access.mask(Access.values()));
        assertEquals("LOCAL_WRITE|REMOTE_READ", Access.toString(3));
        assertEquals("NONE", Access.toString(0));
        assertTrue(Access.MW_BIND.in(Access.ALL));
        assertFalse(Access.MW_BIND.in(15));
    }

    @Test
    void terminateTripleMapsToCompletionStatus() {
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, new TerminateInfo(0, 1, 0x01, true).toStatus());
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, new TerminateInfo(1, 1, 0x00, true).toStatus());
        assertEquals(CompletionStatus.REMOTE_INVALID_REQUEST, new TerminateInfo(1, 2, 0x05, true).toStatus());
        assertEquals(CompletionStatus.REMOTE_OPERATION_ERROR, new TerminateInfo(0, 2, 0x06, true).toStatus());
        assertEquals(CompletionStatus.REMOTE_OPERATION_ERROR, new TerminateInfo(0, 0, 0x00, true).toStatus());
        assertEquals(CompletionStatus.REMOTE_OPERATION_ERROR, new TerminateInfo(1, 0, 0x00, true).toStatus());
        assertEquals(CompletionStatus.TRANSPORT_ERROR, new TerminateInfo(2, 0, 0x02, true).toStatus());
        assertEquals("DDP/1/0x01 base or bounds violation (received)", new TerminateInfo(1, 1, 1, true).toString());
    }

    @Test
    void terminateNamesItsCodeInTheRfcsWords() {
        assertEquals("base or bounds violation", new TerminateInfo(0, 1, 0x01, true).errorName());
        assertEquals("RDMAP/1/0x01 base or bounds violation (sent)", new TerminateInfo(0, 1, 0x01, false).toString());
        assertEquals("invalid MSN - no buffer available", new TerminateInfo(1, 2, 0x02, true).errorName());
        assertEquals("MPA CRC error", new TerminateInfo(2, 0, 0x02, true).errorName());
        assertEquals("unknown error", new TerminateInfo(0, 2, 0x42, true).errorName());
        assertEquals("unknown error", new TerminateInfo(3, 0, 0x00, true).errorName());
    }

    @Test
    void terminateFieldsAreRangeChecked() {
        assertThrows(IllegalArgumentException.class, () -> new TerminateInfo(16, 0, 0, true));
        assertThrows(IllegalArgumentException.class, () -> new TerminateInfo(0, 16, 0, true));
        assertThrows(IllegalArgumentException.class, () -> new TerminateInfo(0, 0, 256, true));
    }
}
