package io.jrnic.soft.mpa;

import io.jrnic.mpa.MpaParameters;
import io.jrnic.soft.engine.StreamParams;

/** Outcome of one connection attempt: at most one of established/rejected/failed, then disconnected. */
public interface ConnectionEvents {
    /** MPA done and the QP in RTS (responder: after the initiator's first FPDU). */
    void established(StreamParams params, MpaParameters negotiated);

    /** The Reply had R set (initiator). */
    void rejected(byte[] peerPrivateData);

    void failed(CmFailure failure, String detail);

    /** An established connection's stream closed. */
    void disconnected();
}
