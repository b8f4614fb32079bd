package io.jrnic.interop.decode;

import io.jrnic.rdmap.RdmapOpcode;

/**
 * One decoded FPDU with its DDP and RDMAP fields. Fields a segment does not carry are absent:
 * {@link #hasControl()} false when the ULPDU is shorter than the DDP control field, {@link #hasTaggedFields()}
 * for STag/TO (complete tagged header), {@link #hasUntaggedFields()} for QN/MSN/MO.
 *
 * @param stream       MPA stream index (0-based, order of first appearance)
 * @param dir          direction
 * @param frame        pcap frame where the FPDU starts
 * @param endFrame     pcap frame where it ends
 * @param streamOffset offset of its ULPDU_Length field in the direction's FPDU stream
 * @param ulpduLength  ULPDU_Length
 * @param control      DDP control word, or -1
 * @param stag         STag (unsigned 32 bits), tagged only
 * @param to           tagged offset, tagged only
 * @param qn           queue number, untagged only
 * @param msn          message sequence number, untagged only
 * @param mo           message offset, untagged only
 * @param rsvdUlp      the 32-bit RsvdULP field, untagged only
 * @param crc          CRC outcome
 * @param info         human-readable RDMAP details (Read Request, Terminate, ...)
 */
public record FpduRecord(int stream, Direction dir, long frame, long endFrame, long streamOffset, int ulpduLength,
                         int control, boolean hasTaggedFields, boolean hasUntaggedFields,
                         long stag, long to, long qn, long msn, long mo, long rsvdUlp, CrcStatus crc, String info) {

    public boolean hasControl() {
        return control >= 0;
    }

    public boolean tagged() {
        return hasControl() && (control & 0x8000) != 0;
    }

    public boolean last() {
        return hasControl() && (control & 0x4000) != 0;
    }

    public int opcode() {
        return control & 0x0F;
    }

    /** The RDMAP opcode when the ULPDU has a control field and the 4-bit value is defined, else null. */
    public RdmapOpcode rdmapOpcode() {
        return hasControl() ? RdmapOpcode.fromCode(opcode()) : null;
    }

    /** True when the ULPDU has a control field naming {@code op}. */
    public boolean is(RdmapOpcode op) {
        return hasControl() && opcode() == op.code();
    }
}
