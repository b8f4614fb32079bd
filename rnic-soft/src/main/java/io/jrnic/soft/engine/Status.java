package io.jrnic.soft.engine;

/** Outcome of a work request inside the engine; names equal {@code io.jrnic.verbs.CompletionStatus}. */
public enum Status {
    SUCCESS,
    LOCAL_LENGTH_ERROR,
    LOCAL_QP_OPERATION_ERROR,
    LOCAL_PROTECTION_ERROR,
    REMOTE_ACCESS_ERROR,
    REMOTE_OPERATION_ERROR,
    REMOTE_INVALID_REQUEST,
    TRANSPORT_ERROR,
    WR_FLUSH_ERROR;

    /**
     * The status of the work request a received Terminate is about (RFC 5040 section 4.8, layer/etype
     * as in the reference table): LLP -> transport, RDMAP/1 and DDP/1 -> remote access, DDP/2 -> remote
     * invalid request, anything else -> remote operation.
     */
    public static Status ofReceivedTerminate(int layer, int errorType) {
        if (layer == 2) {
            return TRANSPORT_ERROR;
        }
        if (errorType == 1 && layer <= 1) {
            return REMOTE_ACCESS_ERROR;
        }
        if (layer == 1 && errorType == 2) {
            return REMOTE_INVALID_REQUEST;
        }
        return REMOTE_OPERATION_ERROR;
    }
}
