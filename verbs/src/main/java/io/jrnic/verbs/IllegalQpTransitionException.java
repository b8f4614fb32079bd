package io.jrnic.verbs;

/** A trigger that is not legal in the QP's current state ({@link QpStateMachine}). */
public final class IllegalQpTransitionException extends VerbsException {
    private final QpState from;
    private final QpTrigger trigger;

    public IllegalQpTransitionException(QpState from, QpTrigger trigger) {
        super("illegal QP transition: " + trigger + " in state " + from);
        this.from = from;
        this.trigger = trigger;
    }

    public QpState from() {
        return from;
    }

    public QpTrigger trigger() {
        return trigger;
    }
}
