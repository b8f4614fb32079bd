package io.jrnic.rdmap;

import io.jrnic.mpa.ErrorLayer;
import io.jrnic.mpa.IwarpError;

/**
 * RDMAP error codes carried in a Terminate (RFC 5040 section 7.2; registry RFC 6580), layer 0.
 * EType 0 local catastrophic, 1 remote protection, 2 remote operation.
 */
public enum RdmapError implements IwarpError {
    LOCAL_CATASTROPHIC(0, 0x00, "local catastrophic error"),
    INVALID_STAG(1, 0x00, "invalid STag"),
    BASE_OR_BOUNDS(1, 0x01, "base or bounds violation"),
    ACCESS_RIGHTS(1, 0x02, "access rights violation"),
    STAG_NOT_ASSOCIATED(1, 0x03, "STag not associated with RDMAP stream"),
    TO_WRAP(1, 0x04, "TO wrap"),
    STAG_CANNOT_BE_INVALIDATED(1, 0x09, "STag cannot be invalidated"),
    PROTECTION_UNSPECIFIED(1, 0xFF, "unspecified remote protection error"),
    INVALID_RDMAP_VERSION(2, 0x05, "invalid RDMAP version"),
    UNEXPECTED_OPCODE(2, 0x06, "unexpected opcode"),
    CATASTROPHIC_STREAM(2, 0x07, "catastrophic error, localized to RDMAP stream"),
    CATASTROPHIC_GLOBAL(2, 0x08, "catastrophic error, global"),
    OPERATION_STAG_CANNOT_BE_INVALIDATED(2, 0x09, "STag cannot be invalidated"),
    OPERATION_UNSPECIFIED(2, 0xFF, "unspecified remote operation error");

    public static final int ETYPE_LOCAL_CATASTROPHIC = 0;
    public static final int ETYPE_REMOTE_PROTECTION = 1;
    public static final int ETYPE_REMOTE_OPERATION = 2;

    private static final RdmapError[] VALUES = values();

    private final int errorType;
    private final int errorCode;
    private final String description;

    RdmapError(int errorType, int errorCode, String description) {
        this.errorType = errorType;
        this.errorCode = errorCode;
        this.description = description;
    }

    @Override
    public ErrorLayer layer() {
        return ErrorLayer.RDMAP;
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

    /** The RDMAP row for (etype, code), or null when the table has none. */
    public static RdmapError of(int errorType, int errorCode) {
        for (RdmapError e : VALUES) {
            if (e.errorType == errorType && e.errorCode == errorCode) {
                return e;
            }
        }
        return null;
    }
}
