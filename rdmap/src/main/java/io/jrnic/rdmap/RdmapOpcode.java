package io.jrnic.rdmap;

/**
 * RDMAP opcodes (RFC 5040 section 4.1 and RFC 7306 section 8) with the DDP model each one uses.
 * {@link #extraHeaderLength()} is the fixed RDMAP header that follows the DDP header
 * (for Terminate only its fixed Terminate Control word; the attachments vary).
 */
public enum RdmapOpcode {
    RDMA_WRITE(0x0, true, -1, 0, true, "RDMA Write"),
    RDMA_READ_REQUEST(0x1, false, 1, ReadRequestHeader.LENGTH, false, "RDMA Read Request"),
    RDMA_READ_RESPONSE(0x2, true, -1, 0, true, "RDMA Read Response"),
    SEND(0x3, false, 0, 0, true, "Send"),
    SEND_WITH_INVALIDATE(0x4, false, 0, 0, true, "Send with Invalidate"),
    SEND_WITH_SE(0x5, false, 0, 0, true, "Send with Solicited Event"),
    SEND_WITH_SE_AND_INVALIDATE(0x6, false, 0, 0, true, "Send with Solicited Event and Invalidate"),
    TERMINATE(0x7, false, 2, TerminateHeader.CONTROL_LENGTH, false, "Terminate"),
    IMMEDIATE_DATA(0x8, false, 0, ImmediateDataHeader.LENGTH, false, "Immediate Data"),
    IMMEDIATE_DATA_WITH_SE(0x9, false, 0, ImmediateDataHeader.LENGTH, false, "Immediate Data with Solicited Event"),
    ATOMIC_REQUEST(0xA, false, 1, AtomicRequestHeader.LENGTH, false, "Atomic Request"),
    ATOMIC_RESPONSE(0xB, false, 3, AtomicResponseHeader.LENGTH, false, "Atomic Response");

    /** Untagged queue numbers (RFC 5040 section 5, RFC 7306 section 8.1). */
    public static final int QN_SEND = 0;
    public static final int QN_READ_REQUEST = 1;
    public static final int QN_TERMINATE = 2;
    public static final int QN_ATOMIC_RESPONSE = 3;

    private static final RdmapOpcode[] BY_CODE = values();

    private final int code;
    private final boolean tagged;
    private final int queueNumber;
    private final int extraHeaderLength;
    private final boolean carriesPayload;
    private final String rfcName;

    RdmapOpcode(int code, boolean tagged, int queueNumber, int extraHeaderLength, boolean carriesPayload,
                String rfcName) {
        this.code = code;
        this.tagged = tagged;
        this.queueNumber = queueNumber;
        this.extraHeaderLength = extraHeaderLength;
        this.carriesPayload = carriesPayload;
        this.rfcName = rfcName;
    }

    /** The 4-bit wire value. */
    public int code() {
        return code;
    }

    /** True if the message uses the DDP tagged buffer model (T = 1). */
    public boolean tagged() {
        return tagged;
    }

    /** The DDP queue number for an untagged message, -1 for tagged ones. */
    public int queueNumber() {
        return queueNumber;
    }

    /** Fixed RDMAP header bytes after the DDP header (Terminate: its 4-byte control word only). */
    public int extraHeaderLength() {
        return extraHeaderLength;
    }

    /** True if ULP payload follows the headers (Write, Read Response, the Sends). */
    public boolean carriesPayload() {
        return carriesPayload;
    }

    /** True for the opcodes whose RsvdULP field carries an Invalidate STag (RFC 5040 section 4.3). */
    public boolean carriesInvalidateStag() {
        return this == SEND_WITH_INVALIDATE || this == SEND_WITH_SE_AND_INVALIDATE;
    }

    /** True for the opcodes that ask for a Solicited Event. */
    public boolean solicitedEvent() {
        return this == SEND_WITH_SE || this == SEND_WITH_SE_AND_INVALIDATE || this == IMMEDIATE_DATA_WITH_SE;
    }

    /** True for the RFC 7306 extensions (opcodes 0x8..0xB), which Linux siw does not implement. */
    public boolean rfc7306() {
        return code >= 0x8;
    }

    /** Full DDP + RDMAP header length of one segment of this opcode. */
    public int headerLength() {
        return (tagged ? io.jrnic.ddp.TaggedHeader.HEADER_LENGTH : io.jrnic.ddp.UntaggedHeader.HEADER_LENGTH)
                + extraHeaderLength;
    }

    /** The message name in the RFC's words. */
    public String rfcName() {
        return rfcName;
    }

    /** The opcode for a 4-bit wire value, or null if none is defined (0xC..0xF, or outside 0..15). */
    public static RdmapOpcode fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
