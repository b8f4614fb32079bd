package io.jrnic.rdmap;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.UntaggedHeader;
import io.netty.buffer.ByteBuf;

/**
 * Decodes Terminate messages (RFC 5040 section 4.8).
 * <ul>
 * <li>{@link Mode#STRICT}: the RFC layout. Byte 0 = layer &lt;&lt; 4 | etype, byte 1 = code, byte 2
 *     flags M 0x80, D 0x40, R 0x20; reserved bits ignored (RFC: not checked on receive); the attachments
 *     must fill the ULPDU exactly.</li>
 * <li>{@link Mode#SIW_QUIRK}: Linux siw on little-endian hosts (C bitfields): layer in the low nibble
 *     of byte 0, etype in the high nibble, flags M 0x01, D 0x02, R 0x04 in byte 2. Trailing bytes after
 *     the attachments are ignored. When siw attaches an RDMA Read Request's headers it writes DDP
 *     Segment Length 0 and puts the read size where the attached DDP header's MSN belongs: a 0 length
 *     there is replaced by the real length of a Read Request segment (18 + 28 = 46); the attached
 *     bytes are kept as received (so that header's MSN field must not be trusted).</li>
 * <li>{@link Mode#EITHER}: a stack tester's reading of an unknown peer: the RFC layout when it
 *     gives a well-formed Terminate whose triple is a row of the error table, else the siw layout
 *     when that does, else whichever of the two parses (RFC first). {@link #decodeMatch} reports
 *     which layout matched.</li>
 * </ul>
 * jrnic never encodes the siw layout.
 */
public final class TerminateDecoder {
    public enum Mode { STRICT, SIW_QUIRK, EITHER }

    /** A decoded Terminate and the layout it was read in (STRICT or SIW_QUIRK, never EITHER). */
    public record Match(Terminate terminate, Mode layout) {
    }

    /** Length of a Read Request segment: untagged DDP header + Read Request header. */
    static final int READ_REQUEST_SEGMENT_LENGTH = UntaggedHeader.HEADER_LENGTH + ReadRequestHeader.LENGTH;

    private TerminateDecoder() {
    }

    /**
     * Decodes a whole Terminate ULPDU: its DDP header must be untagged, L set, DV 1, RV 1, opcode 0x7,
     * QN 2, MO 0 (any MSN; normally 1).
     *
     * @throws MalformedTerminateException when the bytes are not such a Terminate
     */
    public static Terminate decode(ByteBuf buf, int offset, int ulpduLength, Mode mode) {
        return decodeMatch(buf, offset, ulpduLength, mode).terminate();
    }

    /** As {@link #decode}, also telling which layout matched (the one asked, unless {@link Mode#EITHER}). */
    public static Match decodeMatch(ByteBuf buf, int offset, int ulpduLength, Mode mode) {
        if (ulpduLength < Terminate.FIXED_LENGTH || offset < 0 || offset > buf.writerIndex() || ulpduLength > buf.writerIndex() - offset) {
            throw new MalformedTerminateException("Terminate ULPDU of " + ulpduLength + " bytes, at least "
                    + Terminate.FIXED_LENGTH + " needed (or beyond the buffer)");
        }
        int control = UntaggedHeader.control(buf, offset);
        if (DdpControl.isTagged(control) || !DdpControl.isLast(control)
                || DdpControl.ddpVersion(control) != DdpControl.DDP_VERSION
                || RdmapControl.rdmapVersion(control) != RdmapControl.RDMAP_VERSION
                || RdmapControl.opcode(control) != RdmapOpcode.TERMINATE) {
            throw new MalformedTerminateException("not a Terminate control word: 0x" + Integer.toHexString(control));
        }
        long qn = UntaggedHeader.queueNumber(buf, offset);
        long mo = UntaggedHeader.messageOffset(buf, offset);
        if (qn != RdmapOpcode.QN_TERMINATE || mo != 0) {
            throw new MalformedTerminateException("Terminate with QN " + qn + ", MO " + mo + " (QN 2, MO 0 required)");
        }
        return matchTerminateHeader(buf, offset + UntaggedHeader.HEADER_LENGTH,
                ulpduLength - UntaggedHeader.HEADER_LENGTH, mode);
    }

    /**
     * The Terminate from its Control word ({@code length} bytes to the end of the ULPDU) in
     * {@code mode}; for {@link Mode#EITHER} the first layout that gives a known error, else the
     * first that parses.
     *
     * @throws MalformedTerminateException when no allowed layout parses
     */
    public static Match matchTerminateHeader(ByteBuf buf, int offset, int length, Mode mode) {
        if (mode != Mode.EITHER) {
            return new Match(decodeTerminateHeader(buf, offset, length, mode), mode);
        }
        Match rfc = tryLayout(buf, offset, length, Mode.STRICT);
        if (rfc != null && isKnown(rfc.terminate())) {
            return rfc;
        }
        Match siw = tryLayout(buf, offset, length, Mode.SIW_QUIRK);
        if (siw != null && (isKnown(siw.terminate()) || rfc == null)) {
            return siw;
        }
        if (rfc != null) {
            return rfc;
        }
        return new Match(decodeTerminateHeader(buf, offset, length, Mode.STRICT), Mode.STRICT); // throws
    }

    private static Match tryLayout(ByteBuf buf, int offset, int length, Mode mode) {
        try {
            return new Match(decodeTerminateHeader(buf, offset, length, mode), mode);
        } catch (MalformedTerminateException e) {
            return null;
        }
    }

    private static boolean isKnown(Terminate t) {
        return ErrorCodes.isKnown(t.layer(), t.errorType(), t.errorCode());
    }

    /**
     * Decodes from the Terminate Control word; {@code length} counts the bytes from there to the end
     * of the ULPDU.
     *
     * @throws MalformedTerminateException when the attachments do not fit the length
     */
    public static Terminate decodeTerminateHeader(ByteBuf buf, int offset, int length, Mode mode) {
        if (mode == Mode.EITHER) {
            return matchTerminateHeader(buf, offset, length, mode).terminate();
        }
        if (length < TerminateHeader.CONTROL_LENGTH || offset < 0 || offset > buf.writerIndex() || length > buf.writerIndex() - offset) {
            throw new MalformedTerminateException("Terminate header of " + length + " bytes (or beyond the buffer)");
        }
        int b0 = buf.getUnsignedByte(offset);
        int code = buf.getUnsignedByte(offset + 1);
        int flags = buf.getUnsignedByte(offset + 2);
        boolean siw = mode == Mode.SIW_QUIRK;
        int layer = siw ? b0 & 0xF : b0 >>> 4;
        int etype = siw ? b0 >>> 4 : b0 & 0xF;
        boolean m = (flags & (siw ? 0x01 : TerminateHeader.FLAG_M)) != 0;
        boolean d = (flags & (siw ? 0x02 : TerminateHeader.FLAG_D)) != 0;
        boolean r = (flags & (siw ? 0x04 : TerminateHeader.FLAG_R)) != 0;

        int pos = offset + TerminateHeader.CONTROL_LENGTH;
        int end = offset + length;
        int segmentLength = 0;
        byte[] ddpHeader = null;
        byte[] rdmapHeader = null;
        if (d) {
            if (end - pos < 2 + DdpControl.LENGTH) {
                throw new MalformedTerminateException("D set but no room for the DDP segment length and header");
            }
            segmentLength = buf.getUnsignedShort(pos);
            int headerLength = DdpControl.headerLength(buf.getUnsignedShort(pos + 2));
            if (end - pos - 2 < headerLength) {
                throw new MalformedTerminateException("D set but the terminated DDP header (" + headerLength
                        + " bytes) is cut short");
            }
            ddpHeader = new byte[headerLength];
            buf.getBytes(pos + 2, ddpHeader);
            pos += 2 + headerLength;
        }
        if (r) {
            if (end - pos < TerminateHeader.TERMINATED_RDMAP_HEADER_LENGTH) {
                throw new MalformedTerminateException("R set but the terminated RDMAP header is cut short");
            }
            rdmapHeader = new byte[TerminateHeader.TERMINATED_RDMAP_HEADER_LENGTH];
            buf.getBytes(pos, rdmapHeader);
            pos += TerminateHeader.TERMINATED_RDMAP_HEADER_LENGTH;
        }
        if (!siw && pos != end) {
            throw new MalformedTerminateException((end - pos) + " bytes after the Terminate attachments");
        }
        if (siw && d && segmentLength == 0 && ddpHeader.length == UntaggedHeader.HEADER_LENGTH
                && RdmapControl.opcode((ddpHeader[0] & 0xFF) << 8 | (ddpHeader[1] & 0xFF))
                        == RdmapOpcode.RDMA_READ_REQUEST) {
            segmentLength = READ_REQUEST_SEGMENT_LENGTH;
        }
        return new Terminate(layer, etype, code, m, segmentLength, ddpHeader, rdmapHeader);
    }
}
