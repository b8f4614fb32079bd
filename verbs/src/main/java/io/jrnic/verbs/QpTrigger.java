package io.jrnic.verbs;

/** What makes a QP change state. Providers report these; consumers cause MODIFY_TO_ERROR / RESET_TO_IDLE. */
public enum QpTrigger {
    /** MPA negotiation finished, the QP is bound to the stream (provider). */
    CONNECTED,
    /** An orderly close started: consumer disconnect, or the peer's FIN arrived with no error (provider). */
    CLOSE_STARTED,
    /** The orderly close finished, both queues empty (provider). */
    CLOSE_COMPLETED,
    /** This side detected an error and sent a Terminate (provider). */
    TERMINATE_SENT,
    /** A Terminate arrived from the peer (provider). */
    TERMINATE_RECEIVED,
    /** After a Terminate was sent, the stream closed or the close timer expired (provider). */
    TERMINATE_DONE,
    /** The stream failed: reset, lost, timeout, or a close with work still outstanding (provider). */
    LLP_ERROR,
    /** Consumer request ({@link QueuePair#toError()}) or destruction. */
    MODIFY_TO_ERROR,
    /** Consumer request ({@link QueuePair#reset()}) to reuse a QP whose queues are empty. */
    RESET_TO_IDLE
}
