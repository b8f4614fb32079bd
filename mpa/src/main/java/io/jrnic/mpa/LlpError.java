package io.jrnic.mpa;

/**
 * LLP (MPA) error codes carried in a Terminate message: layer LLP, EType 0 (MPA).
 * RFC 5044 section 8 with RFC 6581 section 7 (codes 0x06, 0x07); registry in RFC 6580.
 */
public enum LlpError implements IwarpError {
    TCP_CONNECTION_LOST(0x01, "TCP connection closed, terminated or lost"),
    CRC_ERROR(0x02, "MPA CRC error"),
    MARKER_MISMATCH(0x03, "MPA marker and ULPDU_Length field mismatch (marker/FPDU start mismatch)"),
    INVALID_SETUP_FRAME(0x04, "invalid MPA Request or Reply frame"),
    LOCAL_CATASTROPHIC(0x05, "local catastrophic error"),
    INSUFFICIENT_IRD(0x06, "insufficient IRD resources"),
    NO_MATCHING_RTR(0x07, "no matching RTR model");

    /** EType of every LLP error: MPA (RFC 6580). */
    public static final int ETYPE_MPA = 0;

    private final int code;
    private final String description;

    LlpError(int code, String description) {
        this.code = code;
        this.description = description;
    }

    @Override
    public ErrorLayer layer() {
        return ErrorLayer.LLP;
    }

    @Override
    public int errorType() {
        return ETYPE_MPA;
    }

    @Override
    public int errorCode() {
        return code;
    }

    @Override
    public String description() {
        return description;
    }

    /** The error with this 8-bit code; IllegalArgumentException for an unassigned code. */
    public static LlpError fromCode(int code) {
        for (LlpError e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown LLP error code 0x" + Integer.toHexString(code));
    }
}
