package io.jrnic.rdmap;

import io.netty.buffer.ByteBuf;

/**
 * Flyweight over the 8 bytes of Immediate Data (RFC 7306 section 8.2) that follow the untagged
 * DDP header of an Immediate Data (0x8) or Immediate Data with SE (0x9) message.
 * Offsets are relative to the end of the DDP header.
 */
public final class ImmediateDataHeader {
    public static final int IMMEDIATE_DATA_OFFSET = 0;
    public static final int LENGTH = 8;

    private ByteBuf buffer;
    private int offset;

    public ImmediateDataHeader wrap(ByteBuf buffer, int offset) {
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

    public long immediateData() {
        return immediateData(buffer, offset);
    }

    public ImmediateDataHeader immediateData(long data) {
        buffer.setLong(offset + IMMEDIATE_DATA_OFFSET, data);
        return this;
    }

    public static long immediateData(ByteBuf buffer, int offset) {
        return buffer.getLong(offset + IMMEDIATE_DATA_OFFSET);
    }
}
