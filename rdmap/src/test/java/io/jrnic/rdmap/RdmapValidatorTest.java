package io.jrnic.rdmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.DdpError;
import io.jrnic.mpa.IwarpError;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class RdmapValidatorTest {
    private final RdmapValidator validator = new RdmapValidator();

    /** An untagged ULPDU: control, RsvdULP, QN, MSN 1, MO 0, then {@code extra} zero bytes. */
    private IwarpError untagged(RdmapValidator v, int control, int rsvdUlp, long qn, int extra) {
        ByteBuf buf = Unpooled.buffer(18 + extra);
        try {
            buf.writeShort(control).writeInt(rsvdUlp).writeInt((int) qn).writeInt(1).writeInt(0).writeZero(extra);
            return v.validate(buf, 0, buf.readableBytes());
        } finally {
            buf.release();
        }
    }

    private IwarpError tagged(int control, int payload) {
        ByteBuf buf = Unpooled.buffer(14 + payload);
        try {
            buf.writeShort(control).writeInt(0x100).writeLong(0).writeZero(payload);
            return validator.validate(buf, 0, buf.readableBytes());
        } finally {
            buf.release();
        }
    }

    @Test
    void wellFormedSendPasses() {
        assertNull(untagged(validator, 0x4143, 0, 0, 4));
        assertEquals(RdmapOpcode.SEND, validator.opcode());
    }

    @Test
    void ddpVersionIsCheckedFirst() {
        // DV 0 with RV 0 and opcode 0xF: the DDP error wins (siw's order)
        assertEquals(DdpError.TAGGED_INVALID_VERSION, tagged(0xC00F, 0));
        assertEquals(DdpError.UNTAGGED_INVALID_VERSION, untagged(validator, 0x420F, 0, 0, 0));
    }

    @Test
    void rdmapVersionIsRemoteOperation0x05() {
        assertEquals(RdmapError.INVALID_RDMAP_VERSION, untagged(validator, 0x4103, 0, 0, 0));
        assertEquals(RdmapError.INVALID_RDMAP_VERSION, tagged(0xC180, 0));
        assertEquals(RdmapError.INVALID_RDMAP_VERSION, tagged(0xC1C0, 0));
    }

    @Test
    void undefinedOpcodeIsRemoteOperation0x06() {
        for (int op = 0xC; op <= 0xF; op++) {
            assertEquals(RdmapError.UNEXPECTED_OPCODE, untagged(validator, 0x4140 | op, 0, 0, 64));
        }
    }

    @Test
    void rfc7306OpcodesAreUnexpectedWhenDisabledLikeSiw() {
        RdmapValidator siwLike = new RdmapValidator(false);
        assertEquals(RdmapError.UNEXPECTED_OPCODE, untagged(siwLike, 0x4148, 0, 0, 8));
        assertNull(untagged(validator, 0x4148, 0, 0, 8));
    }

    @Test
    void tFlagThatContradictsTheOpcodeIsUnexpectedOpcode() {
        assertEquals(RdmapError.UNEXPECTED_OPCODE, tagged(0xC143, 10), "Send with T set");
        assertEquals(RdmapError.UNEXPECTED_OPCODE, untagged(validator, 0x4140, 0, 0, 0), "Write with T clear");
    }

    @Test
    void queueNumbers() {
        assertEquals(RdmapError.UNEXPECTED_OPCODE, untagged(validator, 0x4141, 0, 0, 28), "Read Request on QN 0");
        assertEquals(RdmapError.UNEXPECTED_OPCODE, untagged(validator, 0x4143, 0, 1, 0), "Send on QN 1");
        assertEquals(DdpError.INVALID_QN, untagged(validator, 0x4143, 0, 4, 0));
        assertEquals(DdpError.INVALID_QN, untagged(validator, 0x4143, 0, 0xFFFF_FFFFL, 0));
        assertNull(untagged(validator, 0x4141, 0, 1, 28));
    }

    @Test
    void truncatedRdmapHeaderIsUnspecifiedRemoteOperation() {
        assertEquals(RdmapError.OPERATION_UNSPECIFIED, untagged(validator, 0x4141, 0, 1, 27), "Read Request short");
    }

    /** A ULPDU too short for its DDP header is answered by DDP (0/0x00), never RDMAP 2/0xFF. */
    @Test
    void ulpduShorterThanTheDdpHeaderIsDdpError() {
        ByteBuf buf = Unpooled.buffer(20);
        try {
            buf.writeShort(0xC140).writeZero(18);
            for (int len : new int[] {0, 1, 4, 13}) {
                assertEquals(DdpError.LOCAL_CATASTROPHIC, validator.validate(buf, 0, len), "tagged ULPDU of " + len);
            }
            buf.setShort(0, 0x4143);
            assertEquals(DdpError.LOCAL_CATASTROPHIC, validator.validate(buf, 0, 17), "untagged ULPDU of 17");
            assertNull(validator.validate(buf, 0, 18));
        } finally {
            buf.release();
        }
    }

    /** RFC 5040 section 4.4: a Read Request is its header; bytes beyond it are remote operation 0xFF. */
    @Test
    void readRequestLongerThanItsHeaderIsTerminated() {
        assertNull(untagged(validator, 0x4141, 0, 1, ReadRequestHeader.LENGTH));
        assertEquals(RdmapError.OPERATION_UNSPECIFIED, untagged(validator, 0x4141, 0, 1, ReadRequestHeader.LENGTH + 1));
        assertEquals(RdmapError.OPERATION_UNSPECIFIED, untagged(validator, 0x4141, 0, 1, ReadRequestHeader.LENGTH + 100));
        assertEquals(RdmapError.OPERATION_UNSPECIFIED,
                untagged(validator, 0x414A, 0, 1, AtomicRequestHeader.LENGTH + 4), "Atomic Request too");
        assertNull(untagged(validator, 0x4147, 0, 2, 4 + 30), "a Terminate's attachments vary");
    }

    @Test
    void reservedBitsAreReportedButNeverTerminate() {
        assertNull(tagged(0xC140 | 0x0400, 0));
        assertTrue(validator.reservedBitsViolated());
        assertNull(tagged(0xC140 | 0x0010, 0));
        assertTrue(validator.reservedBitsViolated());
        assertNull(untagged(validator, 0x4143, 0xDEAD, 0, 0), "RsvdULP of a plain Send");
        assertTrue(validator.reservedBitsViolated());
        assertNull(untagged(validator, 0x4144, 0xDEAD, 0, 0), "Invalidate STag of Send with Invalidate");
        assertFalse(validator.reservedBitsViolated());
        assertEquals(0, DdpControl.reservedBits(0xC140));
    }
}
