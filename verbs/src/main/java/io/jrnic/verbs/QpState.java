package io.jrnic.verbs;

/** iWARP QP states (RDMAC verbs section 6; the states Linux siw uses). */
public enum QpState {
    /** Created, not (yet, or no longer) bound to an LLP stream. Receives may be pre-posted. */
    IDLE,
    /** Ready to send: bound to an established stream, all work processed. */
    RTS,
    /** Orderly LLP close in progress; new posts rejected, work in progress may finish. */
    CLOSING,
    /** A Terminate was sent; waiting for the stream to close. New posts rejected. */
    TERMINATE,
    /** Broken: outstanding work completes with WR_FLUSH_ERROR; new posts rejected. */
    ERROR
}
