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

    /**
     * The head of an FPDU whose payload has not all arrived, offered only by a decoder built to place payloads
     * ({@link FpduDecoder#placePayloads}): {@code head}'s readable bytes are the ULPDU's first octets (at least
     * {@link FpduDecoder#HEAD_PROBE}, or the whole ULPDU header if shorter), {@code ulpduLength} its full length.
     * To take the payload before its CRC is checked, fill {@code target} and return true: the decoder then
     * delivers the FPDU through {@link #onPlacedFpdu} once its CRC checked good, or reports {@link LlpError#CRC_ERROR}
     * with the payload already in the target. Must not act on the FPDU yet (its CRC is unknown).
     */
    default boolean onFpduHead(ByteBuf head, int ulpduLength, long fpduStreamOffset, PayloadTarget target) {
        return false;
    }

    /**
     * An FPDU whose payload went to the {@link PayloadTarget} given by {@link #onFpduHead}, its CRC checked:
     * {@code head}'s readable bytes are the ULPDU's octets before the target's ULPDU offset (its headers), the
     * rest of the {@code ulpduLength} octets lie in the target.
     */
    default void onPlacedFpdu(ByteBuf head, int ulpduLength, long fpduStreamOffset, CrcCheck crc) {
        throw new IllegalStateException("a listener that takes payloads must take placed FPDUs");
    }
}
