package io.jrnic.rdmap;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.mpa.IwarpError;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * A Terminate message (RFC 5040 section 4.8): the error triple, the M flag, and the optional
 * attachments. D is set exactly when {@code ddpHeader} is present (14 bytes for a tagged, 18 for an
 * untagged terminated segment, with {@code ddpSegmentLength}); R exactly when {@code rdmapHeader}
 * (28 bytes) is present. {@link #encode} writes the RFC layout only; siw's layout is only decoded,
 * opt-in, by {@link TerminateDecoder}. The arrays are copied in and out.
 *
 * @param ddpSegmentLength length of the terminated DDP segment (0..65535); 0 when D is clear
 */
public record Terminate(int layer, int errorType, int errorCode, boolean m, int ddpSegmentLength,
                        byte[] ddpHeader, byte[] rdmapHeader) {

    /** Bytes of the ULPDU before the attachments: untagged DDP header + Terminate Control. */
    public static final int FIXED_LENGTH = UntaggedHeader.HEADER_LENGTH + TerminateHeader.CONTROL_LENGTH;
    /** The MSN of the first (and only) Terminate on a stream (RFC 5040 section 5.1: QN 2 starts at 1). */
    public static final long DEFAULT_MSN = 1;

    public Terminate {
        if ((layer & ~0xF) != 0 || (errorType & ~0xF) != 0 || (errorCode & ~0xFF) != 0) {
            throw new IllegalArgumentException("layer " + layer + ", etype " + errorType + ", code " + errorCode);
        }
        if (ddpHeader == null) {
            if (ddpSegmentLength != 0) {
                throw new IllegalArgumentException("DDP segment length without a DDP header");
            }
        } else {
            int expected = (ddpHeader.length > 0 && (ddpHeader[0] & 0x80) != 0)
                    ? TaggedHeader.HEADER_LENGTH : UntaggedHeader.HEADER_LENGTH;
            if (ddpHeader.length != expected) {
                throw new IllegalArgumentException("terminated DDP header of " + ddpHeader.length
                        + " bytes; its T bit asks for " + expected);
            }
            if ((ddpSegmentLength & ~0xFFFF) != 0) {
                throw new IllegalArgumentException("DDP segment length " + ddpSegmentLength);
            }
            ddpHeader = ddpHeader.clone();
        }
        if (rdmapHeader != null) {
            if (rdmapHeader.length != TerminateHeader.TERMINATED_RDMAP_HEADER_LENGTH) {
                throw new IllegalArgumentException("terminated RDMAP header of " + rdmapHeader.length + " bytes");
            }
            rdmapHeader = rdmapHeader.clone();
        }
    }

    /** A Terminate for the error, M clear, no attachments. */
    public static Terminate of(IwarpError error) {
        return new Terminate(error.layer().wireValue(), error.errorType(), error.errorCode(), false, 0, null, null);
    }

    /**
     * Attaches the terminated segment's DDP header (D), copied from {@code buf} at {@code offset}
     * (14 or 18 bytes, by its T bit), with the segment's length and M.
     */
    public Terminate withDdpSegment(ByteBuf buf, int offset, int segmentLength, boolean fullyReceived) {
        int len = DdpControl.headerLength(buf.getUnsignedShort(offset));
        byte[] h = new byte[len];
        buf.getBytes(offset, h);
        return new Terminate(layer, errorType, errorCode, fullyReceived, segmentLength, h, rdmapHeader);
    }

    /** Attaches the terminated RDMAP header (R): the 28 bytes at {@code offset} (a Read Request header). */
    public Terminate withRdmapHeader(ByteBuf buf, int offset) {
        byte[] h = new byte[TerminateHeader.TERMINATED_RDMAP_HEADER_LENGTH];
        buf.getBytes(offset, h);
        return new Terminate(layer, errorType, errorCode, m, ddpSegmentLength, ddpHeader, h);
    }

    public boolean d() {
        return ddpHeader != null;
    }

    public boolean r() {
        return rdmapHeader != null;
    }

    @Override
    public byte[] ddpHeader() {
        return ddpHeader == null ? null : ddpHeader.clone();
    }

    @Override
    public byte[] rdmapHeader() {
        return rdmapHeader == null ? null : rdmapHeader.clone();
    }

    /** The error the triple names (never null: {@link UnknownError} outside the table). */
    public IwarpError error() {
        return ErrorCodes.lookup(layer, errorType, errorCode);
    }

    /** The ULPDU length of the encoded Terminate. */
    public int encodedLength() {
        return FIXED_LENGTH + (d() ? 2 + ddpHeader.length : 0) + (r() ? rdmapHeader.length : 0);
    }

    /** {@link #encode(ByteBuf, long)} with MSN 1. */
    public int encode(ByteBuf dst) {
        return encode(dst, DEFAULT_MSN);
    }

    /**
     * Writes the whole Terminate ULPDU at the writer index (RFC 5040 section 4.8): untagged DDP header
     * with L, DV 1, RV 1, opcode 0x7, RsvdULP 0, QN 2, the MSN, MO 0; the Terminate Control in the RFC
     * layout; then the attachments.
     *
     * @return the bytes written ({@link #encodedLength()})
     */
    public int encode(ByteBuf dst, long msn) {
        int start = dst.writerIndex();
        dst.writeShort(RdmapControl.controlWord(RdmapOpcode.TERMINATE, true));
        dst.writeInt(0);
        dst.writeInt(RdmapOpcode.QN_TERMINATE);
        dst.writeInt((int) msn);
        dst.writeInt(0);
        dst.writeByte((layer << 4) | errorType);
        dst.writeByte(errorCode);
        dst.writeByte((m ? TerminateHeader.FLAG_M : 0) | (d() ? TerminateHeader.FLAG_D : 0)
                | (r() ? TerminateHeader.FLAG_R : 0));
        dst.writeByte(0);
        if (d()) {
            dst.writeShort(ddpSegmentLength);
            dst.writeBytes(ddpHeader);
        }
        if (r()) {
            dst.writeBytes(rdmapHeader);
        }
        return dst.writerIndex() - start;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Terminate t && layer == t.layer && errorType == t.errorType && errorCode == t.errorCode
                && m == t.m && ddpSegmentLength == t.ddpSegmentLength && Arrays.equals(ddpHeader, t.ddpHeader)
                && Arrays.equals(rdmapHeader, t.rdmapHeader);
    }

    @Override
    public int hashCode() {
        return ((((layer * 31 + errorType) * 31 + errorCode) * 31 + (m ? 1 : 0)) * 31 + ddpSegmentLength) * 31
                + Arrays.hashCode(ddpHeader) * 17 + Arrays.hashCode(rdmapHeader);
    }

    @Override
    public String toString() {
        return "Terminate{layer=" + layer + ", etype=" + errorType + ", code=0x" + Integer.toHexString(errorCode)
                + " (" + error().description() + "), M=" + m + ", D=" + d() + ", R=" + r()
                + (d() ? ", ddpSegmentLength=" + ddpSegmentLength : "") + '}';
    }
}
