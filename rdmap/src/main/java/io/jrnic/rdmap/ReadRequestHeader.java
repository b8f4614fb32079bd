package io.jrnic.rdmap;

import io.netty.buffer.ByteBuf;

/**
 * Flyweight over the RDMA Read Request header (RFC 5040 section 4.4), which follows the untagged
 * DDP header: {@code SinkSTag(4) | SinkTO(8) | RDMARDSZ(4) | SrcSTag(4) | SrcTO(8)} = 28 bytes.
 * Offsets are relative to the end of the DDP header. RDMARDSZ is 32-bit unsigned, held in a long.
 */
public final class ReadRequestHeader {
    public static final int SINK_STAG_OFFSET = 0;
    public static final int SINK_TO_OFFSET = 4;
    public static final int RDMARDSZ_OFFSET = 12;
    public static final int SRC_STAG_OFFSET = 16;
    public static final int SRC_TO_OFFSET = 20;
    public static final int LENGTH = 28;

    private ByteBuf buffer;
    private int offset;

    public ReadRequestHeader wrap(ByteBuf buffer, int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    public ByteBuf buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    public int sinkStag() {
        return sinkStag(buffer, offset);
    }

    public ReadRequestHeader sinkStag(int stag) {
        buffer.setInt(offset + SINK_STAG_OFFSET, stag);
        return this;
    }

    public long sinkTaggedOffset() {
        return sinkTaggedOffset(buffer, offset);
    }

    public ReadRequestHeader sinkTaggedOffset(long to) {
        buffer.setLong(offset + SINK_TO_OFFSET, to);
        return this;
    }

    public long readSize() {
        return readSize(buffer, offset);
    }

    public ReadRequestHeader readSize(long size) {
        buffer.setInt(offset + RDMARDSZ_OFFSET, (int) size);
        return this;
    }

    public int srcStag() {
        return srcStag(buffer, offset);
    }

    public ReadRequestHeader srcStag(int stag) {
        buffer.setInt(offset + SRC_STAG_OFFSET, stag);
        return this;
    }

    public long srcTaggedOffset() {
        return srcTaggedOffset(buffer, offset);
    }

    public ReadRequestHeader srcTaggedOffset(long to) {
        buffer.setLong(offset + SRC_TO_OFFSET, to);
        return this;
    }

    public static int sinkStag(ByteBuf buffer, int offset) {
        return buffer.getInt(offset + SINK_STAG_OFFSET);
    }

    public static long sinkTaggedOffset(ByteBuf buffer, int offset) {
        return buffer.getLong(offset + SINK_TO_OFFSET);
    }

    public static long readSize(ByteBuf buffer, int offset) {
        return buffer.getUnsignedInt(offset + RDMARDSZ_OFFSET);
    }

    public static int srcStag(ByteBuf buffer, int offset) {
        return buffer.getInt(offset + SRC_STAG_OFFSET);
    }

    public static long srcTaggedOffset(ByteBuf buffer, int offset) {
        return buffer.getLong(offset + SRC_TO_OFFSET);
    }
}
