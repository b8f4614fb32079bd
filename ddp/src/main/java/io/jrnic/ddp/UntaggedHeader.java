package io.jrnic.ddp;

import io.netty.buffer.ByteBuf;

/**
 * Flyweight over an untagged DDP segment header (RFC 5041 section 4.4):
 * {@code control(2) | RsvdULP(4) | QN(4) | MSN(4) | MO(4)} = 18 bytes, big-endian. Offsets are
 * relative to the start of the ULPDU. QN, MSN and MO are 32-bit unsigned values held in longs;
 * RsvdULP is raw 32 bits (RDMAP's Invalidate STag, RFC 5040 section 4.3).
 */
public final class UntaggedHeader {
    public static final int CONTROL_OFFSET = 0;
    public static final int RSVD_ULP_OFFSET = 2;
    public static final int QN_OFFSET = 6;
    public static final int MSN_OFFSET = 10;
    public static final int MO_OFFSET = 14;
    public static final int HEADER_LENGTH = 18;

    private static final long U32 = 0xFFFF_FFFFL;

    private ByteBuf buffer;
    private int offset;

    public UntaggedHeader wrap(ByteBuf buffer, int offset) {
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

    public UntaggedHeader control(int control) {
        buffer.setShort(offset + CONTROL_OFFSET, control);
        return this;
    }

    public boolean last() {
        return DdpControl.isLast(control());
    }

    public int rsvdUlp() {
        return rsvdUlp(buffer, offset);
    }

    public UntaggedHeader rsvdUlp(int value) {
        buffer.setInt(offset + RSVD_ULP_OFFSET, value);
        return this;
    }

    public long queueNumber() {
        return queueNumber(buffer, offset);
    }

    public UntaggedHeader queueNumber(long qn) {
        buffer.setInt(offset + QN_OFFSET, (int) qn);
        return this;
    }

    public long msn() {
        return msn(buffer, offset);
    }

    public UntaggedHeader msn(long msn) {
        buffer.setInt(offset + MSN_OFFSET, (int) msn);
        return this;
    }

    public long messageOffset() {
        return messageOffset(buffer, offset);
    }

    public UntaggedHeader messageOffset(long mo) {
        buffer.setInt(offset + MO_OFFSET, (int) mo);
        return this;
    }

    public static int control(ByteBuf buffer, int offset) {
        return buffer.getUnsignedShort(offset + CONTROL_OFFSET);
    }

    public static int rsvdUlp(ByteBuf buffer, int offset) {
        return buffer.getInt(offset + RSVD_ULP_OFFSET);
    }

    public static long queueNumber(ByteBuf buffer, int offset) {
        return buffer.getInt(offset + QN_OFFSET) & U32;
    }

    public static long msn(ByteBuf buffer, int offset) {
        return buffer.getInt(offset + MSN_OFFSET) & U32;
    }

    public static long messageOffset(ByteBuf buffer, int offset) {
        return buffer.getInt(offset + MO_OFFSET) & U32;
    }

    @Override
    public String toString() {
        int c = control();
        return "UntaggedHeader{control=0x" + Integer.toHexString(c) + ", L=" + DdpControl.isLast(c)
                + ", RsvdULP=0x" + Integer.toHexString(rsvdUlp()) + ", QN=" + queueNumber()
                + ", MSN=" + msn() + ", MO=" + messageOffset() + '}';
    }
}
