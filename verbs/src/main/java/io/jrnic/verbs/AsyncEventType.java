package io.jrnic.verbs;

/** Asynchronous events (RDMAC verbs section 8.2 "affiliated" and "unaffiliated" events). */
public enum AsyncEventType {
    /** QP: the orderly LLP close finished (CLOSING -> IDLE). */
    QP_LLP_CLOSED(Kind.QP),
    /** QP: a Terminate arrived; {@link AsyncEvent#terminate()} has its triple. */
    QP_TERMINATE_RECEIVED(Kind.QP),
    /** QP: this side sent a Terminate; {@link AsyncEvent#terminate()} has its triple. */
    QP_TERMINATE_SENT(Kind.QP),
    /** QP: the LLP stream was reset or lost. */
    QP_LLP_ERROR(Kind.QP),
    /** QP: local catastrophic error of this QP (e.g. its CQ overflowed). */
    QP_FATAL(Kind.QP),
    /** QP with an SRQ entered ERROR: no further SRQ receive will complete on it. */
    QP_LAST_WQE_REACHED(Kind.QP),
    /** CQ: a completion could not be queued because the CQ was full; the CQ is in error. */
    CQ_OVERFLOW(Kind.CQ),
    /** SRQ: posted receives fell below the armed limit (the limit disarms itself). */
    SRQ_LIMIT_REACHED(Kind.SRQ),
    /** SRQ: catastrophic SRQ error. */
    SRQ_ERROR(Kind.SRQ),
    /** Device: catastrophic error, the device is unusable. */
    DEVICE_FATAL(Kind.DEVICE);

    /** Which resource an event is affiliated with. */
    public enum Kind { QP, CQ, SRQ, DEVICE }

    private final Kind kind;

    AsyncEventType(Kind kind) {
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
