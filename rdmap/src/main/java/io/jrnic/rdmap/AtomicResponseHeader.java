package io.jrnic.rdmap;

import io.netty.buffer.ByteBuf;

/**
 * Flyweight over the Atomic Response header (RFC 7306 section 8.1.2), after the untagged DDP
 * header (QN 3): {@code RequestId(4) | OriginalValue(8)} = 12 bytes. Offsets relative to the end
 * of the DDP header.
 */
public final class AtomicResponseHeader {
    public static final int REQUEST_ID_OFFSET = 0;
    public static final int ORIGINAL_VALUE_OFFSET = 4;
    public static final int LENGTH = 12;

    private ByteBuf buffer;
    private int offset;

    public AtomicResponseHeader wrap(ByteBuf buffer, int offset) {
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

    public int requestId() {
        return requestId(buffer, offset);
    }

    public AtomicResponseHeader requestId(int id) {
        buffer.setInt(offset + REQUEST_ID_OFFSET, id);
        return this;
    }

    public long originalValue() {
        return originalValue(buffer, offset);
    }

    public AtomicResponseHeader originalValue(long value) {
        buffer.setLong(offset + ORIGINAL_VALUE_OFFSET, value);
        return this;
    }

    public static int requestId(ByteBuf buffer, int offset) {
        return buffer.getInt(offset + REQUEST_ID_OFFSET);
    }

    public static long originalValue(ByteBuf buffer, int offset) {
        return buffer.getLong(offset + ORIGINAL_VALUE_OFFSET);
    }
}
