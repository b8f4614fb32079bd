package io.jrnic.ddp;

import io.netty.buffer.ByteBuf;

/**
 * Flyweight over a tagged DDP segment header (RFC 5041 section 4.3):
 * {@code control(2) | STag(4) | TO(8)} = 14 bytes, big-endian. Offsets are relative to the start
 * of the ULPDU (the byte after MPA's ULPDU_Length). No bounds checks beyond the ByteBuf's own.
 */
public final class TaggedHeader {
    public static final int CONTROL_OFFSET = 0;
    public static final int STAG_OFFSET = 2;
    public static final int TAGGED_OFFSET_OFFSET = 6;
    public static final int HEADER_LENGTH = 14;

    private ByteBuf buffer;
    private int offset;

    public TaggedHeader wrap(ByteBuf buffer, int offset) {
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

    public int control() {
        return control(buffer, offset);
    }

    public TaggedHeader control(int control) {
        buffer.setShort(offset + CONTROL_OFFSET, control);
        return this;
    }

    public boolean last() {
        return DdpControl.isLast(control());
    }

    public int stag() {
        return stag(buffer, offset);
    }

    public TaggedHeader stag(int stag) {
        buffer.setInt(offset + STAG_OFFSET, stag);
        return this;
    }

    /** The Tagged Offset (TO), a 64-bit unsigned value held in a long. */
    public long taggedOffset() {
        return taggedOffset(buffer, offset);
    }

    public TaggedHeader taggedOffset(long to) {
        buffer.setLong(offset + TAGGED_OFFSET_OFFSET, to);
        return this;
    }

    public static int control(ByteBuf buffer, int offset) {
        return buffer.getUnsignedShort(offset + CONTROL_OFFSET);
    }

    public static int stag(ByteBuf buffer, int offset) {
        return buffer.getInt(offset + STAG_OFFSET);
    }

    public static long taggedOffset(ByteBuf buffer, int offset) {
        return buffer.getLong(offset + TAGGED_OFFSET_OFFSET);
    }

    @Override
    public String toString() {
        int c = control();
        return "TaggedHeader{control=0x" + Integer.toHexString(c) + ", L=" + DdpControl.isLast(c)
                + ", STag=0x" + Integer.toHexString(stag()) + ", TO=0x" + Long.toHexString(taggedOffset()) + '}';
    }
}
