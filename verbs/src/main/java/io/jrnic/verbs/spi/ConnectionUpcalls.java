package io.jrnic.verbs.spi;

import io.jrnic.verbs.CmEventType;
import io.jrnic.verbs.ConnectionParams;

/** Implemented by the API for one connection attempt. At most one of established/rejected/failed. */
public interface ConnectionUpcalls {
    /** MPA finished, QP in RTS. {@code negotiated} holds the values in effect and the peer's private data. */
    void established(ConnectionParams negotiated);

    /** MPA Reply with R set (initiator side), with the peer's private data. */
    void rejected(byte[] privateData);

    /**
     * Attempt failed: UNREACHABLE (no route / refused / reset before MPA), TIMEOUT (TCP connect or MPA
     * Reply/Request timer), CONNECT_ERROR (malformed or incompatible MPA frame, IRD/ORD or RTR mismatch).
     */
    void failed(CmEventType type, Throwable cause);

    /** An established connection ended (orderly or not). */
    void disconnected();
}
