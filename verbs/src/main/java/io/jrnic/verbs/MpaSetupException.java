package io.jrnic.verbs;

import java.io.IOException;

/**
 * Why an MPA set-up failed, as precisely as the provider knows it (the cause of a
 * {@link ConnectionFailedException} or {@link HandOverFailedException}).
 */
public final class MpaSetupException extends IOException {
    private final String reason;
    private final int llpErrorCode;
    private final boolean channelReturned;

    /**
     * @param reason          the provider's precise reason (rnic-soft: an {@code MpaFailure.Reason} name,
     *                        e.g. INVALID_KEY, TIMEOUT, BYTES_AFTER_SETUP_FRAME)
     * @param llpErrorCode    the LLP error code the RFC assigns (RFC 5044 section 8, RFC 6581 section 7),
     *                        -1 when none applies
     * @param channelReturned true when the stream was left open and handed back (hand-over only)
     */
    public MpaSetupException(String reason, int llpErrorCode, boolean channelReturned, String detail) {
        super(reason + (llpErrorCode >= 0 ? " (LLP 0x" + String.format("%02x", llpErrorCode) + ")" : "") + ": " + detail);
        this.reason = reason;
        this.llpErrorCode = llpErrorCode;
        this.channelReturned = channelReturned;
    }

    public String reason() {
        return reason;
    }

    public int llpErrorCode() {
        return llpErrorCode;
    }

    public boolean channelReturned() {
        return channelReturned;
    }
}
