package io.jrnic.mpa;

/**
 * A protocol violation found while decoding MPA input: the {@link LlpError} the RFC assigns,
 * and the finer {@link MpaFailure.Reason} (for example INVALID_KEY vs INVALID_REVISION, both
 * LLP 0x04).
 */
public final class MpaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient LlpError error;
    private final transient MpaFailure.Reason reason;

    public MpaException(LlpError error, MpaFailure.Reason reason, String message) {
        super(message);
        this.error = error;
        this.reason = reason;
    }

    public LlpError error() {
        return error;
    }

    public MpaFailure.Reason reason() {
        return reason;
    }
}
