package io.jrnic.soft.engine;

/** State triggers the engine reports; names equal {@code io.jrnic.verbs.QpTrigger} (RDMAC verbs section 6.2). */
public enum Trigger {
    CONNECTED, CLOSE_STARTED, CLOSE_COMPLETED, TERMINATE_SENT, TERMINATE_RECEIVED, TERMINATE_DONE, LLP_ERROR
}
