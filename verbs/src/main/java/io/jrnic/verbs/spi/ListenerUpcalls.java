package io.jrnic.verbs.spi;

/** Implemented by the API for a listener. */
public interface ListenerUpcalls {
    /** A valid MPA Request arrived. The provider then waits (up to the MPA request timeout) for accept or reject. */
    void connectRequest(ConnectRequestSpi request);
}
