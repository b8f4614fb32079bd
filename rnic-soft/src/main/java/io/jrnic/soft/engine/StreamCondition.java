package io.jrnic.soft.engine;

/**
 * What has happened to the stream the QP runs on, fresh for each stream it is bound to: receiving stopped (a
 * Terminate was sent or received, RFC 5040 section 6.2), the LLP failed (the stream's end is an error, not an orderly
 * close), and, on the initiator, the zero-length READ RTR's response is still due (RFC 6581 section 5). Held by the
 * QP's owner ({@code QpEngine.stream}) and read and written only under its token.
 */
final class StreamCondition {
    private boolean rxStopped;
    private boolean llpFailed;
    private boolean rtrReadPending;

    /** A new stream: nothing has happened to it yet. */
    void fresh() {
        rxStopped = false;
        llpFailed = false;
        rtrReadPending = false;
    }

    /** Nothing more of the stream is received (a Terminate was sent or received). */
    void stopReceiving() {
        rxStopped = true;
    }

    boolean rxStopped() {
        return rxStopped;
    }

    /** The stream's end will be an LLP error, not an orderly close. */
    void markLlpFailed() {
        llpFailed = true;
    }

    boolean llpFailed() {
        return llpFailed;
    }

    /** Initiator: the zero-length READ RTR went out; its response is due (RFC 6581 section 5). */
    void rtrReadSent() {
        rtrReadPending = true;
    }

    boolean rtrReadPending() {
        return rtrReadPending;
    }

    /** The RTR READ's response arrived. */
    void rtrReadAnswered() {
        rtrReadPending = false;
    }
}
