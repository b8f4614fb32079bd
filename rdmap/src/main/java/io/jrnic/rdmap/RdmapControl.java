package io.jrnic.rdmap;

import io.jrnic.ddp.DdpControl;

/**
 * RDMAP's reading of the DDP control word's RsvdULP byte (RFC 5040 section 4.1):
 * {@code RV(2) | Rsvd(2) | Opcode(4)}. Static and allocation-free.
 */
public final class RdmapControl {
    /** The RDMAP version defined by RFC 5040. */
    public static final int RDMAP_VERSION = 1;

    private RdmapControl() {
    }

    public static int rdmapVersion(int control) {
        return (control & DdpControl.RDMAP_VERSION_MASK) >>> DdpControl.RDMAP_VERSION_SHIFT;
    }

    public static int opcodeCode(int control) {
        return control & DdpControl.OPCODE_MASK;
    }

    /** The opcode, or null for an undefined value. */
    public static RdmapOpcode opcode(int control) {
        return RdmapOpcode.fromCode(opcodeCode(control));
    }

    /** RDMAP's reserved bits (0x0030), in place. */
    public static int reservedBits(int control) {
        return control & DdpControl.RDMAP_RESERVED_MASK;
    }

    /** The RsvdULP byte for RV = 1 and the opcode. */
    public static int rsvdUlp(RdmapOpcode opcode) {
        return (RDMAP_VERSION << DdpControl.RDMAP_VERSION_SHIFT) | opcode.code();
    }

    /** A complete control word: T from the opcode, DV 1, RV 1. */
    public static int controlWord(RdmapOpcode opcode, boolean last) {
        return DdpControl.compose(opcode.tagged(), last, rsvdUlp(opcode));
    }
}
