package io.jrnic.rdmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class RdmapHeadersTest {

    @Test
    void opcodeTableMatchesTheReference() {
        assertEquals(12, RdmapOpcode.values().length);
        for (RdmapOpcode op : RdmapOpcode.values()) {
            assertSame(op, RdmapOpcode.fromCode(op.code()));
            assertEquals(op.tagged(), op.queueNumber() < 0);
        }
        for (int code = 0xC; code <= 0xF; code++) {
            assertNull(RdmapOpcode.fromCode(code));
        }
        assertNull(RdmapOpcode.fromCode(-1));
        assertTrue(RdmapOpcode.RDMA_WRITE.tagged());
        assertTrue(RdmapOpcode.RDMA_READ_RESPONSE.tagged());
        assertEquals(1, RdmapOpcode.RDMA_READ_REQUEST.queueNumber());
        assertEquals(46, RdmapOpcode.RDMA_READ_REQUEST.headerLength());
        assertEquals(2, RdmapOpcode.TERMINATE.queueNumber());
        assertEquals(1, RdmapOpcode.ATOMIC_REQUEST.queueNumber());
        assertEquals(3, RdmapOpcode.ATOMIC_RESPONSE.queueNumber());
        assertEquals(52, RdmapOpcode.ATOMIC_REQUEST.extraHeaderLength());
        assertEquals(12, RdmapOpcode.ATOMIC_RESPONSE.extraHeaderLength());
        assertEquals(8, RdmapOpcode.IMMEDIATE_DATA.extraHeaderLength());
        assertEquals(14, RdmapOpcode.RDMA_WRITE.headerLength());
        assertTrue(RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE.carriesInvalidateStag());
        assertTrue(RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE.solicitedEvent());
        assertFalse(RdmapOpcode.SEND.carriesInvalidateStag());
        assertFalse(RdmapOpcode.RDMA_READ_REQUEST.carriesPayload());
        assertTrue(RdmapOpcode.IMMEDIATE_DATA_WITH_SE.rfc7306());
        assertFalse(RdmapOpcode.TERMINATE.rfc7306());
        assertEquals("Send with Solicited Event", RdmapOpcode.SEND_WITH_SE.rfcName());
    }

    @Test
    void controlWordCarriesRdmapVersionAndOpcode() {
        assertEquals(0x4147, RdmapControl.controlWord(RdmapOpcode.TERMINATE, true));
        assertEquals(0xC140, RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true));
        assertEquals(0x0143, RdmapControl.controlWord(RdmapOpcode.SEND, false));
        assertEquals(0x414B, RdmapControl.controlWord(RdmapOpcode.ATOMIC_RESPONSE, true));
        assertEquals(1, RdmapControl.rdmapVersion(0x4147));
        assertSame(RdmapOpcode.TERMINATE, RdmapControl.opcode(0x4147));
        assertEquals(0x30, RdmapControl.reservedBits(0x41F7));
    }

    /** Every opcode: header written with the flyweights, checked by the validator, read back. */
    @Test
    void everyOpcodeRoundTripsThroughTheFlyweightsAndValidates() {
        RdmapValidator validator = new RdmapValidator();
        for (RdmapOpcode op : RdmapOpcode.values()) {
            int payload = op.carriesPayload() ? 5 : 0;
            int length = op.headerLength() + payload;
            ByteBuf buf = Unpooled.buffer(length);
            try {
                buf.writeZero(length);
                int control = RdmapControl.controlWord(op, true);
                int extra;
                if (op.tagged()) {
                    new TaggedHeader().wrap(buf, 0).control(control).stag(0x1000 + op.code()).taggedOffset(0xABCDL);
                    extra = TaggedHeader.HEADER_LENGTH;
                } else {
                    new UntaggedHeader().wrap(buf, 0).control(control)
                            .rsvdUlp(op.carriesInvalidateStag() ? 0x5555 : 0)
                            .queueNumber(op.queueNumber()).msn(9).messageOffset(0);
                    extra = UntaggedHeader.HEADER_LENGTH;
                }
                writeExtra(op, buf, extra);
                assertNull(validator.validate(buf, 0, length), op.name());
                assertSame(op, validator.opcode());
                assertFalse(validator.reservedBitsViolated());
                int c = TaggedHeader.control(buf, 0);
                assertEquals(op.tagged(), DdpControl.isTagged(c));
                assertSame(op, RdmapControl.opcode(c));
                if (op.tagged()) {
                    assertEquals(0x1000 + op.code(), TaggedHeader.stag(buf, 0));
                    assertEquals(0xABCDL, TaggedHeader.taggedOffset(buf, 0));
                } else {
                    assertEquals(op.queueNumber(), UntaggedHeader.queueNumber(buf, 0));
                    assertEquals(9, UntaggedHeader.msn(buf, 0));
                }
                checkExtra(op, buf, extra);
            } finally {
                buf.release();
            }
        }
    }

    private static void writeExtra(RdmapOpcode op, ByteBuf buf, int at) {
        switch (op) {
            case RDMA_READ_REQUEST -> new ReadRequestHeader().wrap(buf, at).sinkStag(0x11).sinkTaggedOffset(0x22)
                    .readSize(0xFFFF_FFF0L).srcStag(0x33).srcTaggedOffset(-2L);
            case TERMINATE -> new TerminateHeader().wrap(buf, at).control(1, 2, 0x05, true, false, false);
            case IMMEDIATE_DATA, IMMEDIATE_DATA_WITH_SE -> new ImmediateDataHeader().wrap(buf, at)
                    .immediateData(0x0102030405060708L);
            case ATOMIC_REQUEST -> new AtomicRequestHeader().wrap(buf, at)
                    .atomicOperation(AtomicRequestHeader.OP_COMPARE_SWAP).requestId(77).remoteStag(0x44)
                    .remoteTaggedOffset(0x1000).addOrSwap(1).addOrSwapMask(-1L).compare(3).compareMask(0xFF);
            case ATOMIC_RESPONSE -> new AtomicResponseHeader().wrap(buf, at).requestId(77).originalValue(-5L);
            default -> { }
        }
    }

    private static void checkExtra(RdmapOpcode op, ByteBuf buf, int at) {
        switch (op) {
            case RDMA_READ_REQUEST -> {
                ReadRequestHeader h = new ReadRequestHeader().wrap(buf, at);
                assertEquals(0x11, h.sinkStag());
                assertEquals(0x22, h.sinkTaggedOffset());
                assertEquals(0xFFFF_FFF0L, ReadRequestHeader.readSize(buf, at));
                assertEquals(0x33, ReadRequestHeader.srcStag(buf, at));
                assertEquals(-2L, h.srcTaggedOffset());
            }
            case TERMINATE -> {
                TerminateHeader h = new TerminateHeader().wrap(buf, at);
                assertEquals(1, h.layer());
                assertEquals(2, h.errorType());
                assertEquals(5, h.errorCode());
                assertTrue(h.m());
                assertFalse(h.d());
                assertFalse(h.r());
                assertEquals(0x12, buf.getUnsignedByte(at));
                assertEquals(0x80, TerminateHeader.flags(buf, at));
            }
            case IMMEDIATE_DATA, IMMEDIATE_DATA_WITH_SE ->
                    assertEquals(0x0102030405060708L, ImmediateDataHeader.immediateData(buf, at));
            case ATOMIC_REQUEST -> {
                AtomicRequestHeader h = new AtomicRequestHeader().wrap(buf, at);
                assertEquals(AtomicRequestHeader.OP_COMPARE_SWAP, AtomicRequestHeader.atomicOperation(buf, at));
                assertEquals(0x00000002, h.opcodeWord());
                assertEquals(77, h.requestId());
                assertEquals(0x44, AtomicRequestHeader.remoteStag(buf, at));
                assertEquals(0x1000, AtomicRequestHeader.remoteTaggedOffset(buf, at));
                assertEquals(1, h.addOrSwap());
                assertEquals(-1L, h.addOrSwapMask());
                assertEquals(3, h.compare());
                assertEquals(0xFF, h.compareMask());
            }
            case ATOMIC_RESPONSE -> {
                assertEquals(77, AtomicResponseHeader.requestId(buf, at));
                assertEquals(-5L, AtomicResponseHeader.originalValue(buf, at));
            }
            default -> { }
        }
    }

    @Test
    void readRequestHeaderBytesAreExact() {
        ByteBuf buf = Unpooled.buffer(ReadRequestHeader.LENGTH);
        try {
            new ReadRequestHeader().wrap(buf, 0).sinkStag(0x01020304).sinkTaggedOffset(0x0506070809101112L)
                    .readSize(0x13141516).srcStag(0x17181920).srcTaggedOffset(0x2122232425262728L);
            assertEquals("01020304" + "0506070809101112" + "13141516" + "17181920" + "2122232425262728",
                    ByteBufUtil.hexDump(buf, 0, ReadRequestHeader.LENGTH));
        } finally {
            buf.release();
        }
    }

    @Test
    void atomicHeadersBytesAreExact() {
        ByteBuf buf = Unpooled.buffer(AtomicRequestHeader.LENGTH);
        try {
            new AtomicRequestHeader().wrap(buf, 0).atomicOperation(AtomicRequestHeader.OP_FETCH_ADD)
                    .requestId(0x0A0B0C0D).remoteStag(0x11223344).remoteTaggedOffset(0x10).addOrSwap(0x20)
                    .addOrSwapMask(0x30).compare(0x40).compareMask(0x50);
            assertEquals("00000000" + "0a0b0c0d" + "11223344" + "0000000000000010" + "0000000000000020"
                    + "0000000000000030" + "0000000000000040" + "0000000000000050",
                    ByteBufUtil.hexDump(buf, 0, AtomicRequestHeader.LENGTH));
            new AtomicResponseHeader().wrap(buf, 0).requestId(0x0A0B0C0D).originalValue(0x0102030405060708L);
            assertEquals("0a0b0c0d" + "0102030405060708", ByteBufUtil.hexDump(buf, 0, AtomicResponseHeader.LENGTH));
        } finally {
            buf.release();
        }
    }
}
