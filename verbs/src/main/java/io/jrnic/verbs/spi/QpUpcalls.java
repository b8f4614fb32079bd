package io.jrnic.verbs.spi;

import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.QpTrigger;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import io.jrnic.verbs.TerminateInfo;

/** Implemented by the API for one QP; the provider reports through it. Thread-safe. */
public interface QpUpcalls {
    /** The API object (for its context, CQs and attributes). */
    QueuePair queuePair();

    /** Current state as the API holds it. */
    QpState state();

    /**
     * Retires the oldest outstanding send WR, which must be {@code wr}, with SUCCESS and byte length
     * = its total SGE length (0 for IMMEDIATE_DATA and local opcodes, 8 for atomics).
     * @return false when the completion was lost (CQ overflow) or the QP is closed
     */
    boolean sendDone(SendWr wr);

    /**
     * Retires {@code wr} with the filled completion {@code c} (status, byteLength, terminate;
     * opcode defaults to the WR's). The API sets id and qp. {@code c} may be reused after return.
     */
    boolean sendDone(SendWr wr, Completion c);

    /**
     * Retires a receive: {@code c} carries status, opcode (RECV / RECV_IMMEDIATE), byteLength,
     * invalidated STag, immediate data, solicited bit, terminate. {@code wr} must be the oldest of
     * the QP's RQ, or any outstanding WR of the QP's SRQ.
     */
    boolean recvDone(RecvWr wr, Completion c);

    /**
     * Applies a provider trigger through {@link io.jrnic.verbs.QpStateMachine}; raises the matching
     * async event (TERMINATE_SENT/RECEIVED with {@code terminate}, LLP_ERROR, CLOSE_COMPLETED) and
     * QP_LAST_WQE_REACHED when a QP with an SRQ enters ERROR.
     * @return the new state
     * @throws io.jrnic.verbs.IllegalQpTransitionException when illegal (provider bug)
     */
    QpState transition(QpTrigger trigger, TerminateInfo terminate);

    /**
     * In ERROR only: retires every remaining send WR and RQ receive with WR_FLUSH_ERROR, in order
     * (the SRQ is not flushed). @return how many were flushed
     * @throws IllegalStateException when the QP is not in ERROR
     */
    int flushAll();

    /** Raise an affiliated QP event not covered by transition (e.g. QP_FATAL). */
    void event(AsyncEventType type, TerminateInfo terminate);
}
