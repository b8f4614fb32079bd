package io.jrnic.ddp;

import io.netty.buffer.ByteBuf;

/**
 * The 16-bit DDP control word at the start of every DDP segment (RFC 5041 sections 4.2 and 4.3):
 * T, L, reserved, DV in the first byte; the second byte is the "RsvdULP" byte that belongs to the
 * ULP (RDMAP puts its version RV and opcode there, RFC 5040 section 4.1). DDP exposes that byte raw;
 * {@code io.jrnic.rdmap.RdmapControl} interprets it. All helpers are static and allocation-free.
 */
public final class DdpControl {
    /** T: tagged buffer model. */
    public static final int TAGGED_FLAG = 0x8000;
    /** L: last segment of the DDP message. */
    public static final int LAST_FLAG = 0x4000;
    /** Reserved bits of the DDP byte; sent as zero, not checked on receive (RFC 5041 section 4.2). */
    public static final int RESERVED_MASK = 0x3C00;
    public static final int DDP_VERSION_MASK = 0x0300;
    public static final int DDP_VERSION_SHIFT = 8;
    /** The DDP version defined by RFC 5041. */
    public static final int DDP_VERSION = 1;
    /** RDMAP version field (RFC 5040 section 4.1), inside the RsvdULP byte. */
    public static final int RDMAP_VERSION_MASK = 0x00C0;
    public static final int RDMAP_VERSION_SHIFT = 6;
    /** Reserved bits of RDMAP's byte (RFC 5040 section 4.1). */
    public static final int RDMAP_RESERVED_MASK = 0x0030;
    /** RDMAP opcode field (RFC 5040 section 4.1), inside the RsvdULP byte. */
    public static final int OPCODE_MASK = 0x000F;
    /** The ULP-owned second byte of the control word. */
    public static final int RSVD_ULP_MASK = 0x00FF;
    /** Length of the control word in bytes. */
    public static final int LENGTH = 2;

    private DdpControl() {
    }

    public static boolean isTagged(int control) {
        return (control & TAGGED_FLAG) != 0;
    }

    public static boolean isLast(int control) {
        return (control & LAST_FLAG) != 0;
    }

    /** The 2-bit DV field. */
    public static int ddpVersion(int control) {
        return (control & DDP_VERSION_MASK) >>> DDP_VERSION_SHIFT;
    }

    /** The reserved bits of the DDP byte, in place (0 when well formed). */
    public static int reservedBits(int control) {
        return control & RESERVED_MASK;
    }

    /** The raw RsvdULP byte (second byte of the word), owned by the ULP. */
    public static int rsvdUlp(int control) {
        return control & RSVD_ULP_MASK;
    }

    /** Builds a control word with DV = 1 and the given ULP byte. */
    public static int compose(boolean tagged, boolean last, int rsvdUlp) {
        return compose(tagged, last, DDP_VERSION, rsvdUlp);
    }

    /** Builds a control word with an explicit DV (tests and fuzzing use other versions). */
    public static int compose(boolean tagged, boolean last, int ddpVersion, int rsvdUlp) {
        return (tagged ? TAGGED_FLAG : 0)
                | (last ? LAST_FLAG : 0)
                | ((ddpVersion << DDP_VERSION_SHIFT) & DDP_VERSION_MASK)
                | (rsvdUlp & RSVD_ULP_MASK);
    }

    /** Returns the control word with L set or cleared. */
    public static int withLast(int control, boolean last) {
        return last ? (control | LAST_FLAG) : (control & ~LAST_FLAG);
    }

    /** DDP header length implied by the T bit: 14 tagged, 18 untagged. */
    public static int headerLength(int control) {
        return isTagged(control) ? TaggedHeader.HEADER_LENGTH : UntaggedHeader.HEADER_LENGTH;
    }

    /**
     * The first DDP checks of a received segment (RFC 5041 sections 4.2-4.4 and 7.2), before any
     * field beyond the control word is read: a segment too short for its control word or for the
     * header its T bit implies (14 tagged, 18 untagged) is {@link DdpError#LOCAL_CATASTROPHIC}
     * (DDP/0/0x00: the table has no closer row, and it is DDP that cannot parse the segment; no header
     * can be attached); DV not 1 is {@link DdpError#TAGGED_INVALID_VERSION} or
     * {@link DdpError#UNTAGGED_INVALID_VERSION}.
     *
     * @return null when the DDP header is whole and of version 1, else the error for the Terminate
     */
    public static DdpError checkHeader(ByteBuf buf, int offset, int segmentLength) {
        if (segmentLength < LENGTH) {
            return DdpError.LOCAL_CATASTROPHIC;
        }
        int control = buf.getUnsignedShort(offset);
        if (ddpVersion(control) != DDP_VERSION) {
            return isTagged(control) ? DdpError.TAGGED_INVALID_VERSION : DdpError.UNTAGGED_INVALID_VERSION;
        }
        return segmentLength < headerLength(control) ? DdpError.LOCAL_CATASTROPHIC : null;
    }
}
