package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;

/** Receives what an {@link FpduDecoder} finds in the byte stream. */
public interface FpduListener {
    /**
     * One FPDU.
     *
     * @param ulpdu            the ULPDU (DDP segment), markers removed, as the readable bytes;
     *                         valid only during the call (retain a slice or copy to keep it);
     *                         do not release it
     * @param fpduStreamOffset stream position of the FPDU's ULPDU_Length field
     * @param crc              the CRC check result
     */
    void onFpdu(ByteBuf ulpdu, long fpduStreamOffset, CrcCheck crc);

    /**
     * A framing error: CRC_ERROR or MARKER_MISMATCH.
     *
     * @param streamOffset the ULPDU_Length position (CRC) or the marker's position (marker)
     */
    void onError(LlpError error, long streamOffset, String detail);
}
