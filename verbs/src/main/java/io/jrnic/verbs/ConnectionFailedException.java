package io.jrnic.verbs;

/** Completes a connect/accept future exceptionally: REJECTED, UNREACHABLE, CONNECT_ERROR or TIMEOUT. */
public final class ConnectionFailedException extends VerbsException {
    private final CmEventType type;
    private final byte[] privateData;

    public ConnectionFailedException(CmEventType type, byte[] privateData, Throwable cause) {
        super("connection failed: " + type + (cause != null ? " (" + cause.getMessage() + ")" : ""), cause);
        this.type = type;
        this.privateData = privateData == null ? new byte[0] : privateData.clone();
    }

    public CmEventType type() {
        return type;
    }

    /** Rejection private data, else empty. */
    public byte[] privateData() {
        return privateData.clone();
    }
}
