package io.jrnic.verbs;

/**
 * Completes a hand-over future exceptionally. {@link #type()}: REJECTED, CONNECT_ERROR or TIMEOUT;
 * {@link #reason()}: the precise cause (REJECTED_BY_PEER, REJECTED_LOCALLY, or the provider's MPA
 * failure reason, e.g. INVALID_KEY, TIMEOUT, CONNECTION_CLOSED, BYTES_AFTER_SETUP_FRAME);
 * {@link #llpErrorCode()}: the LLP error code (e.g. 0x04 invalid set-up frame) or -1;
 * {@link #channelReturned()}: true when the stream was handed back open (see
 * {@link HandOverOptions#returnChannelOnFailure}), false when it was closed.
 */
public final class HandOverFailedException extends VerbsException {
    private final CmEventType type;
    private final String reason;
    private final int llpErrorCode;
    private final byte[] privateData;
    private final boolean channelReturned;

    public HandOverFailedException(CmEventType type, String reason, int llpErrorCode, byte[] privateData,
                                   boolean channelReturned, Throwable cause) {
        super("hand-over failed: " + type + " " + reason
                + (llpErrorCode >= 0 ? " LLP 0x" + String.format("%02x", llpErrorCode) : "")
                + (channelReturned ? ", channel returned" : ", channel closed")
                + (cause != null && cause.getMessage() != null ? " (" + cause.getMessage() + ")" : ""), cause);
        this.type = type;
        this.reason = reason;
        this.llpErrorCode = llpErrorCode;
        this.privateData = privateData == null ? new byte[0] : privateData.clone();
        this.channelReturned = channelReturned;
    }

    public CmEventType type() {
        return type;
    }

    public String reason() {
        return reason;
    }

    public int llpErrorCode() {
        return llpErrorCode;
    }

    /** The rejection's private data (peer's with REJECTED_BY_PEER, ours with REJECTED_LOCALLY), else empty. */
    public byte[] privateData() {
        return privateData.clone();
    }

    public boolean channelReturned() {
        return channelReturned;
    }
}
