package io.jrnic.rdmap;

import io.netty.buffer.ByteBuf;

/**
 * Flyweight over the Terminate header (RFC 5040 section 4.8) after the untagged DDP header:
 * <pre>
 * Layer(4) EType(4) | ErrorCode(8) | M D R Rsvd(13)            Terminate Control, 4 bytes
 * [if D: DDP Segment Length(2) | terminated DDP header (14 / 18)]
 * [if R: terminated RDMAP header (28)]
 * </pre>
 * RFC layout only: byte 0 = layer &lt;&lt; 4 | etype, flags M 0x80, D 0x40, R 0x20 in byte 2.
 * Offsets relative to the end of the DDP header. For siw's layout see {@link TerminateDecoder}.
 */
public final class TerminateHeader {
    public static final int LAYER_ETYPE_OFFSET = 0;
    public static final int ERROR_CODE_OFFSET = 1;
    public static final int FLAGS_OFFSET = 2;
    public static final int CONTROL_LENGTH = 4;
    /** Offset of the DDP Segment Length field, present when D is set. */
    public static final int DDP_SEGMENT_LENGTH_OFFSET = 4;
    /** Offset of the terminated DDP header, present when D is set. */
    public static final int TERMINATED_DDP_HEADER_OFFSET = 6;
    /** Length of the terminated RDMAP header attachment (an RDMA Read Request header). */
    public static final int TERMINATED_RDMAP_HEADER_LENGTH = ReadRequestHeader.LENGTH;

    public static final int FLAG_M = 0x80;
    public static final int FLAG_D = 0x40;
    public static final int FLAG_R = 0x20;
    /** Reserved bits of the flags byte (the 4th byte is all reserved). */
    public static final int FLAGS_RESERVED_MASK = 0x1F;

    private ByteBuf buffer;
    private int offset;

    public TerminateHeader wrap(ByteBuf buffer, int offset) {
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

    public int layer() {
        return layer(buffer, offset);
    }

    public int errorType() {
        return errorType(buffer, offset);
    }

    public int errorCode() {
        return errorCode(buffer, offset);
    }

    public int flags() {
        return flags(buffer, offset);
    }

    public boolean m() {
        return (flags() & FLAG_M) != 0;
    }

    public boolean d() {
        return (flags() & FLAG_D) != 0;
    }

    public boolean r() {
        return (flags() & FLAG_R) != 0;
    }

    /** Writes the Terminate Control word in the RFC layout, reserved bits zero. */
    public TerminateHeader control(int layer, int errorType, int errorCode, boolean m, boolean d, boolean r) {
        buffer.setByte(offset + LAYER_ETYPE_OFFSET, ((layer & 0xF) << 4) | (errorType & 0xF));
        buffer.setByte(offset + ERROR_CODE_OFFSET, errorCode);
        buffer.setByte(offset + FLAGS_OFFSET, (m ? FLAG_M : 0) | (d ? FLAG_D : 0) | (r ? FLAG_R : 0));
        buffer.setByte(offset + FLAGS_OFFSET + 1, 0);
        return this;
    }

    /** DDP Segment Length of the terminated segment; meaningful only when D is set. */
    public int ddpSegmentLength() {
        return buffer.getUnsignedShort(offset + DDP_SEGMENT_LENGTH_OFFSET);
    }

    public TerminateHeader ddpSegmentLength(int length) {
        buffer.setShort(offset + DDP_SEGMENT_LENGTH_OFFSET, length);
        return this;
    }

    public static int layer(ByteBuf buffer, int offset) {
        return buffer.getUnsignedByte(offset + LAYER_ETYPE_OFFSET) >>> 4;
    }

    public static int errorType(ByteBuf buffer, int offset) {
        return buffer.getUnsignedByte(offset + LAYER_ETYPE_OFFSET) & 0xF;
    }

    public static int errorCode(ByteBuf buffer, int offset) {
        return buffer.getUnsignedByte(offset + ERROR_CODE_OFFSET);
    }

    public static int flags(ByteBuf buffer, int offset) {
        return buffer.getUnsignedByte(offset + FLAGS_OFFSET);
    }
}
