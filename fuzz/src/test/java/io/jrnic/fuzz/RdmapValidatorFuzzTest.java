package io.jrnic.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.DdpError;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.mpa.IwarpError;
import io.jrnic.rdmap.ErrorCodes;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapError;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.RdmapValidator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;

/**
 * RdmapValidator.validate (RFC 5040 sections 4 and 7.2, RFC 5041 section 7.2, RFC 7306) on any
 * ULPDU. Input: control byte (bit 0 RFC 7306 enabled, bits 1..3 the ULPDU's offset in the
 * buffer), then the ULPDU. The buffer ends exactly at the ULPDU's end, so a read past it throws.
 */
class RdmapValidatorFuzzTest {

    /**
     * Properties: never throws; the result is null or a DdpError/RdmapError that is a row of the
     * table (ErrorCodes.lookup gives it back); null only for a ULPDU whose headers are acceptable
     * (DV 1, RV 1, a defined and enabled opcode, its buffer model, the headers present, an
     * untagged one on its opcode's QN), and then opcode() names it; the same ULPDU validates the
     * same way at offset 0.
     */
    @FuzzTest(maxDuration = "60s")
    void validate(byte[] data) {
        FuzzInput in = new FuzzInput(data);
        int ctrl = in.u8();
        boolean rfc7306 = (ctrl & 1) != 0;
        int offset = (ctrl >>> 1) & 7;
        byte[] ulpdu = in.rest();

        RdmapValidator validator = new RdmapValidator(rfc7306);
        IwarpError error = validate(validator, ulpdu, offset);
        if (error != null) {
            assertNull(validator.opcode(), "no opcode after an error");
            assertTrue(error instanceof DdpError || error instanceof RdmapError, error::toString);
            assertSame(error, ErrorCodes.lookup(error.layer().wireValue(), error.errorType(), error.errorCode()));
        } else {
            int control = (ulpdu[0] & 0xFF) << 8 | (ulpdu[1] & 0xFF);
            RdmapOpcode op = validator.opcode();
            assertNotNull(op);
            assertEquals(1, DdpControl.ddpVersion(control));
            assertEquals(1, RdmapControl.rdmapVersion(control));
            assertSame(op, RdmapControl.opcode(control));
            assertTrue(rfc7306 || !op.rfc7306(), "RFC 7306 opcode accepted while disabled");
            assertEquals(op.tagged(), DdpControl.isTagged(control), "buffer model");
            assertTrue(ulpdu.length >= DdpControl.headerLength(control) + op.extraHeaderLength(), "headers present");
            if (!op.tagged()) {
                ByteBuf b = Unpooled.wrappedBuffer(ulpdu);
                try {
                    assertEquals(op.queueNumber(), UntaggedHeader.queueNumber(b, 0), "QN");
                } finally {
                    b.release();
                }
            }
        }
        boolean reserved = validator.reservedBitsViolated();
        RdmapOpcode op = validator.opcode();
        assertSame(error, validate(validator, ulpdu, 0), "offset changes the result");
        assertSame(op, validator.opcode());
        assertEquals(reserved, validator.reservedBitsViolated());
    }

    private static IwarpError validate(RdmapValidator validator, byte[] ulpdu, int offset) {
        byte[] all = new byte[offset + ulpdu.length];
        Arrays.fill(all, 0, offset, (byte) 0xFF);
        System.arraycopy(ulpdu, 0, all, offset, ulpdu.length);
        ByteBuf buf = Unpooled.wrappedBuffer(all);
        try {
            return validator.validate(buf, offset, ulpdu.length);
        } finally {
            buf.release();
        }
    }
}
