package io.jrnic.interop.decode;

/**
 * The protocol checks of {@code jrnic decode}, each with the rule it enforces. ERROR checks are
 * violations of a MUST of the RFCs and make the decode exit non-zero; WARNING checks flag
 * behaviour that is legal but known to break interoperability (Linux siw's timing rule) and
 * NOTE entries report what the capture itself prevents from being checked.
 */
public enum Check {
    // MPA connection set-up (RFC 5044 section 7.1, RFC 6581)
    SETUP_RESERVED_FLAGS(Severity.ERROR, "RFC 5044 section 7.1.1: reserved bits of the MPA Request/Reply flags must be zero"),
    SETUP_INVALID(Severity.ERROR, "RFC 5044 section 7.1.1: malformed MPA Request/Reply frame (LLP error 0x04)"),
    SETUP_PIPELINED(Severity.WARNING, "RFC 5044 section 7.1.2 timing: FPDU bytes in the same TCP segment as a set-up frame (Linux siw drops the connection)"),
    FPDU_BEFORE_REPLY(Severity.ERROR, "RFC 5044 section 7.1.2: the Initiator must not send FPDUs before it has received the MPA Reply"),
    RESPONDER_FIRST(Severity.ERROR, "RFC 5044 section 7.1.2: the Responder must receive a first FPDU from the Initiator before sending FPDUs (RFC 6581 peer-to-peer mode meets this with the RTR message)"),
    FPDU_AFTER_REJECT(Severity.ERROR, "RFC 5044 section 7.1.2: after a Reply with R set no FPDUs may be sent; the connection is closed"),
    // MPA FPDU framing (RFC 5044 section 4)
    CRC_BAD(Severity.ERROR, "RFC 5044 section 4.4: the FPDU CRC-32C must match (LLP error 0x02)"),
    MARKER_MISMATCH(Severity.ERROR, "RFC 5044 section 4.2/4.3: a marker's FPDUPTR must point back to the start of its FPDU (LLP error 0x03)"),
    PAD_NOT_ZERO(Severity.ERROR, "RFC 5044 section 4.1: the PAD octets must be zero"),
    FPDU_FRAMING(Severity.ERROR, "RFC 5044 section 4.1: FPDU framing error (ULPDU_Length, truncated FPDU)"),
    // DDP (RFC 5041)
    DDP_VERSION(Severity.ERROR, "RFC 5041 section 4.1: DDP version (DV) must be 1 (DDP error tagged 0x04 / untagged 0x06)"),
    DDP_RESERVED(Severity.ERROR, "RFC 5041 section 4.1: reserved bits of the DDP control field must be zero"),
    ULPDU_TOO_SHORT(Severity.ERROR, "RFC 5041 section 4.4: the ULPDU must hold the complete DDP (and RDMAP) header"),
    MSN_SEQUENCE(Severity.ERROR, "RFC 5041 section 5.3: MSN starts at 1 and must increase by one per message on a queue"),
    MO_SEQUENCE(Severity.ERROR, "RFC 5041 section 5.3: MO starts at 0 and must continue within a multi-segment untagged message"),
    // RDMAP (RFC 5040, RFC 7306)
    RDMAP_VERSION(Severity.ERROR, "RFC 5040 section 4.1: RDMAP version (RV) must be 1 (RDMAP remote operation error 0x05)"),
    RDMAP_RESERVED(Severity.ERROR, "RFC 5040 section 4.1: reserved bits of the RDMAP control field and unused RsvdULP must be zero"),
    OPCODE_INVALID(Severity.ERROR, "RFC 5040 section 4.1 / RFC 7306 section 8: opcode must be 0x0..0xB (RDMAP remote operation error 0x06)"),
    MODEL_MISMATCH(Severity.ERROR, "RFC 5040 section 4.2: the T flag and queue number must match the opcode's buffer model"),
    RDMAP_LENGTH(Severity.ERROR, "RFC 5040 section 4: message length does not fit its opcode (e.g. Read Request must carry exactly its 28 bytes)"),
    TERMINATE_HEADER(Severity.ERROR, "RFC 5040 section 4.8: a Terminate is the last segment, on QN 2 with MSN 1 and MO 0, and its attachments must fit"),
    FPDU_AFTER_TERMINATE(Severity.ERROR, "RFC 5040 section 6.1: no RDMAP message may follow a Terminate on the stream"),
    // capture limits
    CAPTURE_INCOMPLETE(Severity.NOTE, "capture: bytes missing or set-up frames not captured; the affected stream direction is not (fully) checked");

    public enum Severity { ERROR, WARNING, NOTE }

    private final Severity severity;
    private final String rule;

    Check(Severity severity, String rule) {
        this.severity = severity;
        this.rule = rule;
    }

    public Severity severity() {
        return severity;
    }

    public String rule() {
        return rule;
    }
}
