package io.jrnic.interop.decode;

import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.rdmap.TerminateDecoder;

/**
 * Options of the decoder.
 *
 * @param terminates     the layout Terminate messages are read in: STRICT (RFC 5040), SIW_QUIRK (Linux siw's
 *                       bitfield layout) or EITHER (the first that gives a known error; the line says which matched)
 * @param maxPrivateData largest PD_Length accepted in a set-up frame (RFC 5044: 512)
 */
public record DecodeOptions(TerminateDecoder.Mode terminates, int maxPrivateData) {
    public DecodeOptions {
        if (terminates == null) {
            throw new IllegalArgumentException("terminates is STRICT, SIW_QUIRK or EITHER");
        }
    }

    /** {@code siwQuirks}: SIW_QUIRK, else STRICT. */
    public DecodeOptions(boolean siwQuirks, int maxPrivateData) {
        this(siwQuirks ? TerminateDecoder.Mode.SIW_QUIRK : TerminateDecoder.Mode.STRICT, maxPrivateData);
    }

    public static DecodeOptions defaults() {
        return new DecodeOptions(TerminateDecoder.Mode.STRICT, MpaSetupFrame.MAX_PRIVATE_DATA);
    }
}
