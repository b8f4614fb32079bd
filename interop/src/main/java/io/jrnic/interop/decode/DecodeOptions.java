package io.jrnic.interop.decode;

import io.jrnic.mpa.MpaSetupFrame;

/**
 * Options of the decoder.
 *
 * @param siwQuirks      decode Terminate messages in Linux siw's (non-RFC) layout
 * @param maxPrivateData largest PD_Length accepted in a set-up frame (RFC 5044: 512)
 */
public record DecodeOptions(boolean siwQuirks, int maxPrivateData) {
    public static DecodeOptions defaults() {
        return new DecodeOptions(false, MpaSetupFrame.MAX_PRIVATE_DATA);
    }
}
