package io.jrnic.verbs.spi;

import io.jrnic.verbs.RecvWr;

/** A provider's shared receive queue: QPs created with it take receives from it in FIFO order. */
public interface SrqSpi {
    /** Accepts validated receive WRs (lent until retired through the consuming QP's recvDone). */
    void postRecv(RecvWr[] wrs, int offset, int count);

    /** Destroy; every QP using it is already closed. Receives not consumed are flushed by the API. */
    void close();
}
