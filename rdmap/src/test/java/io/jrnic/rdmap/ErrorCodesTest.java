package io.jrnic.rdmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.DdpError;
import io.jrnic.mpa.ErrorLayer;
import io.jrnic.mpa.IwarpError;
import org.junit.jupiter.api.Test;

/** Table 4.2 of the wire reference, written out by hand, against {@link ErrorCodes#lookup}. */
class ErrorCodesTest {
    private static final Object[][] TABLE = {
        {0, 0, 0x00, RdmapError.LOCAL_CATASTROPHIC},
        {0, 1, 0x00, RdmapError.INVALID_STAG},
        {0, 1, 0x01, RdmapError.BASE_OR_BOUNDS},
        {0, 1, 0x02, RdmapError.ACCESS_RIGHTS},
        {0, 1, 0x03, RdmapError.STAG_NOT_ASSOCIATED},
        {0, 1, 0x04, RdmapError.TO_WRAP},
        {0, 1, 0x09, RdmapError.STAG_CANNOT_BE_INVALIDATED},
        {0, 1, 0xFF, RdmapError.PROTECTION_UNSPECIFIED},
        {0, 2, 0x05, RdmapError.INVALID_RDMAP_VERSION},
        {0, 2, 0x06, RdmapError.UNEXPECTED_OPCODE},
        {0, 2, 0x07, RdmapError.CATASTROPHIC_STREAM},
        {0, 2, 0x08, RdmapError.CATASTROPHIC_GLOBAL},
        {0, 2, 0x09, RdmapError.OPERATION_STAG_CANNOT_BE_INVALIDATED},
        {0, 2, 0xFF, RdmapError.OPERATION_UNSPECIFIED},
        {1, 0, 0x00, DdpError.LOCAL_CATASTROPHIC},
        {1, 1, 0x00, DdpError.INVALID_STAG},
        {1, 1, 0x01, DdpError.BASE_OR_BOUNDS},
        {1, 1, 0x02, DdpError.STAG_NOT_ASSOCIATED},
        {1, 1, 0x03, DdpError.TO_WRAP},
        {1, 1, 0x04, DdpError.TAGGED_INVALID_VERSION},
        {1, 2, 0x01, DdpError.INVALID_QN},
        {1, 2, 0x02, DdpError.NO_BUFFER},
        {1, 2, 0x03, DdpError.MSN_OUT_OF_RANGE},
        {1, 2, 0x04, DdpError.INVALID_MO},
        {1, 2, 0x05, DdpError.MESSAGE_TOO_LONG},
        {1, 2, 0x06, DdpError.UNTAGGED_INVALID_VERSION},
    };

    @Test
    void everyRdmapAndDdpRowLooksUpToItsEnumConstant() {
        for (Object[] row : TABLE) {
            IwarpError e = ErrorCodes.lookup((int) row[0], (int) row[1], (int) row[2]);
            assertSame(row[3], e, () -> java.util.Arrays.toString(row));
            assertEquals((int) row[0], e.layer().wireValue());
            assertTrue(ErrorCodes.isKnown((int) row[0], (int) row[1], (int) row[2]));
        }
        assertEquals(RdmapError.values().length + DdpError.values().length, TABLE.length, "no enum row untested");
    }

    @Test
    void everyLlpRowLooksUpWithItsDescription() {
        String[] words = {"connection", "CRC", "marker", "Request or Reply", "catastrophic", "IRD", "RTR"};
        for (int code = 0x01; code <= 0x07; code++) {
            IwarpError e = ErrorCodes.lookup(2, 0, code);
            assertSame(io.jrnic.mpa.LlpError.fromCode(code), e);
            assertSame(ErrorLayer.LLP, e.layer());
            assertEquals(0, e.errorType());
            assertEquals(code, e.errorCode());
            assertTrue(e.description().contains(words[code - 1]), e.description());
            assertTrue(ErrorCodes.isKnown(2, 0, code));
        }
    }

    @Test
    void codesOutsideTheTableAreUnknownErrors() {
        // siw was seen sending RDMAP local catastrophic with code 0xFF: not a table row
        IwarpError siwLocal = ErrorCodes.lookup(0, 0, 0xFF);
        assertEquals(new UnknownError(0, 0, 0xFF), siwLocal);
        assertSame(ErrorLayer.RDMAP, siwLocal.layer());
        assertFalse(ErrorCodes.isKnown(0, 0, 0xFF));
        assertTrue(ErrorCodes.lookup(1, 2, 0x00) instanceof UnknownError);
        assertTrue(ErrorCodes.lookup(2, 0, 0x08) instanceof UnknownError);
        assertTrue(ErrorCodes.lookup(2, 1, 0x01) instanceof UnknownError);
        IwarpError layer3 = ErrorCodes.lookup(3, 0, 0);
        assertNull(layer3.layer());
        assertEquals(3, ((UnknownError) layer3).rawLayer());
        assertNotNull(layer3.description());
        assertThrows(IllegalArgumentException.class, () -> ErrorCodes.lookup(16, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> ErrorCodes.lookup(0, 0, 256));
    }
}
