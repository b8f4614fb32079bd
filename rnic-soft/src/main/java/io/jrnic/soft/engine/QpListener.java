package io.jrnic.soft.engine;

import io.jrnic.rdmap.Terminate;

/**
 * What a {@link QpEngine} reports to its owner (the verbs adapter, or a test). Called on the QP's
 * event loop (or on the caller's thread for a QP never bound to a stream). Send entries are retired
 * in posting order, receive entries in posting order.
 */
public interface QpListener {
    /**
     * A state change. {@code terminate} is the Terminate sent or received (else null).
     */
    void transition(io.jrnic.verbs.QpTrigger trigger, Terminate terminate, boolean received);

    /**
     * Retires a send work request. {@code terminate} is set when a Terminate caused the error.
     *
     * @return false when the completion was lost (CQ overflow): the engine treats it as a local
     *     catastrophic error
     */
    boolean sendRetired(SqEntry entry, Status status, int byteLength, Terminate terminate, boolean received);

    /** Retires a receive; {@code info} describes the message (reused after return). */
    boolean recvRetired(RqEntry entry, Status status, RecvInfo info);
}
