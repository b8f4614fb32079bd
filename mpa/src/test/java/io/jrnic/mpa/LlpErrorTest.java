package io.jrnic.mpa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LlpErrorTest {
    @Test
    void codesMatchTheRegistryAndRoundTrip() {
        int[] codes = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07};
        LlpError[] errors = {LlpError.TCP_CONNECTION_LOST, LlpError.CRC_ERROR, LlpError.MARKER_MISMATCH,
            LlpError.INVALID_SETUP_FRAME, LlpError.LOCAL_CATASTROPHIC, LlpError.INSUFFICIENT_IRD,
            LlpError.NO_MATCHING_RTR};
        for (int i = 0; i < codes.length; i++) {
            assertEquals(codes[i], errors[i].errorCode());
            assertEquals(ErrorLayer.LLP, errors[i].layer());
            assertEquals(0, errors[i].errorType());
            assertEquals(errors[i], LlpError.fromCode(codes[i]));
        }
        assertThrows(IllegalArgumentException.class, () -> LlpError.fromCode(0));
        assertThrows(IllegalArgumentException.class, () -> LlpError.fromCode(8));
    }
}
