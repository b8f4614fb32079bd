package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;

/**
 * The PAD of each FPDU {@link FpduDecoder} frames (RFC 5044 section 4.1: 0..3 octets, sent as zero, not checked on
 * receive): where the last one lay in the stream and its octets (valid during {@code onFpdu} and until the next
 * FPDU), with markers accounted for, and how many FPDUs had a pad that was not zero. A non-zero pad is never an
 * error here: tools report it. Not thread safe.
 */
public final class ReceivedPads {
    private long lastOffset;
    private int lastLength;
    private int last;
    private long nonZero;

    /**
     * The pad of an FPDU with ULPDU_Length {@code ulpduLength} ends at {@code padEnd} of {@code buf}, stream position
     * {@code padEndPos}, where the CRC (or a marker just before it) begins; FPDUs and markers are 4-aligned, so its
     * 0..3 octets are contiguous and no marker falls inside them.
     */
    void record(ByteBuf buf, int padEnd, long padEndPos, int ulpduLength) {
        int n = Markers.pad(ulpduLength);
        int v = 0;
        for (int i = padEnd - n; i < padEnd; i++) {
            v = v << 8 | buf.getUnsignedByte(i);
        }
        lastLength = n;
        lastOffset = padEndPos - n;
        last = v;
        if (v != 0) {
            nonZero++;
        }
    }

    /**
     * Stream position of the first PAD octet of the last FPDU framed; for an empty pad, the position just after the
     * ULPDU (before a marker that may follow it).
     */
    public long lastOffset() {
        return lastOffset;
    }

    /** PAD octets of the last FPDU framed: 0..3. */
    public int lastLength() {
        return lastLength;
    }

    /** The PAD octets of the last FPDU framed, big-endian in the low {@link #lastLength()} bytes (0 when zero). */
    public int last() {
        return last;
    }

    /** The PAD octets of the last FPDU framed as hex ("" for an empty pad). */
    public String lastHex() {
        StringBuilder b = new StringBuilder();
        for (int i = lastLength - 1; i >= 0; i--) {
            b.append(String.format("%02x", (last >>> (8 * i)) & 0xFF));
        }
        return b.toString();
    }

    /** FPDUs framed whose PAD was not all zero. */
    public long nonZero() {
        return nonZero;
    }
}
