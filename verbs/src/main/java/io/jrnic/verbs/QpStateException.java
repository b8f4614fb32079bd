package io.jrnic.verbs;

/**
 * A post or state change is not allowed in the QP's current state. Sends may be posted only in
 * RTS; receives in IDLE or RTS (so they can be pre-posted before connecting).
 */
public final class QpStateException extends VerbsException {
    private final QpState state;

    public QpStateException(QpState state, String message) {
        super(message + " (QP state " + state + ")");
        this.state = state;
    }

    public QpState state() {
        return state;
    }
}
