package io.jrnic.soft.mpa;

import io.jrnic.mpa.MpaFailure;
import io.jrnic.mpa.MpaParameters;
import io.jrnic.soft.engine.StreamParams;

/** Outcome of one connection attempt: at most one of established/rejected/failed, then disconnected. */
public interface ConnectionEvents {
    /** MPA done and the QP in RTS (responder: after the initiator's first FPDU). */
    void established(StreamParams params, MpaParameters negotiated);

    /** The Reply had R set (initiator). */
    void rejected(byte[] peerPrivateData);

    void failed(CmFailure failure, String detail);

    /**
     * As {@link #failed(CmFailure, String)}, with the negotiator's failure (null when none) and, for a
     * stream hand-over, whether the stream was left open and handed back.
     */
    default void failed(CmFailure failure, MpaFailure mpa, boolean channelReturned, String detail) {
        failed(failure, detail);
    }

    /** An established connection's stream closed. */
    void disconnected();
}
