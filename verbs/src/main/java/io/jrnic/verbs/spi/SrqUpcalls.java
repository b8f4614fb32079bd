package io.jrnic.verbs.spi;

import io.jrnic.verbs.SharedReceiveQueue;

/** Implemented by the API for one SRQ. The limit event is computed by the API. */
public interface SrqUpcalls {
    SharedReceiveQueue srq();

    /** Raise SRQ_ERROR. */
    void error();
}
