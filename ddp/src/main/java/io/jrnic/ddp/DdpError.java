package io.jrnic.ddp;

import io.jrnic.mpa.ErrorLayer;
import io.jrnic.mpa.IwarpError;

/**
 * DDP error codes carried in a Terminate (RFC 5041 section 7.2; registry RFC 6580), layer 1.
 * EType 0 local catastrophic, 1 tagged buffer, 2 untagged buffer.
 */
public enum DdpError implements IwarpError {
    LOCAL_CATASTROPHIC(0, 0x00, "local catastrophic error"),
    INVALID_STAG(1, 0x00, "invalid STag"),
    BASE_OR_BOUNDS(1, 0x01, "base or bounds violation"),
    STAG_NOT_ASSOCIATED(1, 0x02, "STag not associated with DDP stream"),
    TO_WRAP(1, 0x03, "TO wrap"),
    TAGGED_INVALID_VERSION(1, 0x04, "invalid DDP version"),
    INVALID_QN(2, 0x01, "invalid QN"),
    NO_BUFFER(2, 0x02, "invalid MSN - no buffer available"),
    MSN_OUT_OF_RANGE(2, 0x03, "invalid MSN - MSN range is not valid"),
    INVALID_MO(2, 0x04, "invalid MO"),
    MESSAGE_TOO_LONG(2, 0x05, "DDP message too long for available buffer"),
    UNTAGGED_INVALID_VERSION(2, 0x06, "invalid DDP version");

    public static final int ETYPE_LOCAL_CATASTROPHIC = 0;
    public static final int ETYPE_TAGGED_BUFFER = 1;
    public static final int ETYPE_UNTAGGED_BUFFER = 2;

    private static final DdpError[] VALUES = values();

    private final int errorType;
    private final int errorCode;
    private final String description;

    DdpError(int errorType, int errorCode, String description) {
        this.errorType = errorType;
        this.errorCode = errorCode;
        this.description = description;
    }

    @Override
    public ErrorLayer layer() {
        return ErrorLayer.DDP;
    }

    @Override
    public int errorType() {
        return errorType;
    }

    @Override
    public int errorCode() {
        return errorCode;
    }

    @Override
    public String description() {
        return description;
    }

    /** The DDP row for (etype, code), or null when the table has none. */
    public static DdpError of(int errorType, int errorCode) {
        for (DdpError e : VALUES) {
            if (e.errorType == errorType && e.errorCode == errorCode) {
                return e;
            }
        }
        return null;
    }
}
