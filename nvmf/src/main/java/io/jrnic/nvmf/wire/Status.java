package io.jrnic.nvmf.wire;

/**
 * NVMe status field values (NVMe base 1.4 section 4.6.1.2; NVMe over Fabrics 1.1 section 3.3 for
 * the Connect-specific codes): {@code SCT << 8 | SC}, plus {@link #DNR}.
 */
public final class Status {
    /** Do Not Retry, bit 14 of the status field. */
    public static final int DNR = 1 << 14;

    // Generic command status (SCT 0)
    public static final int SUCCESS = 0x000;
    public static final int INVALID_OPCODE = 0x001;
    public static final int INVALID_FIELD = 0x002;
    public static final int COMMAND_ID_CONFLICT = 0x003;
    public static final int DATA_TRANSFER_ERROR = 0x004;
    public static final int INTERNAL_ERROR = 0x006;
    public static final int ABORTED_BY_REQUEST = 0x007;
    public static final int INVALID_NAMESPACE = 0x00B;
    public static final int COMMAND_SEQUENCE_ERROR = 0x00C;
    public static final int DATA_SGL_LENGTH_INVALID = 0x00F;
    public static final int SGL_DESCRIPTOR_TYPE_INVALID = 0x011;
    public static final int SGL_OFFSET_INVALID = 0x016;
    public static final int LBA_OUT_OF_RANGE = 0x080;

    // Command specific status (SCT 1)
    public static final int INVALID_QUEUE_IDENTIFIER = 0x101;
    public static final int ASYNC_EVENT_LIMIT_EXCEEDED = 0x105;
    public static final int INVALID_LOG_PAGE = 0x109;
    public static final int FEATURE_NOT_SAVEABLE = 0x10D;
    /** Fabrics Connect: Incompatible Format (RECFMT). */
    public static final int CONNECT_INCOMPATIBLE_FORMAT = 0x180;
    public static final int CONNECT_CONTROLLER_BUSY = 0x181;
    public static final int CONNECT_INVALID_PARAMETERS = 0x182;
    public static final int CONNECT_INVALID_HOST = 0x184;

    // Media and data integrity errors (SCT 2)
    public static final int WRITE_FAULT = 0x280;
    public static final int UNRECOVERED_READ_ERROR = 0x281;

    private Status() {
    }

    public static int sct(int status) {
        return (status >>> 8) & 7;
    }

    public static int sc(int status) {
        return status & 0xFF;
    }

    public static String describe(int status) {
        return String.format("SCT %d SC 0x%02x%s", sct(status), sc(status), (status & DNR) != 0 ? " DNR" : "");
    }
}
