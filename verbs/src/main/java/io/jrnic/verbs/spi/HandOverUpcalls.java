package io.jrnic.verbs.spi;

/** Implemented by the API for a hand-over: the connection upcalls plus the responder's Request. */
public interface HandOverUpcalls extends ConnectionUpcalls {
    /**
     * Responder: a valid MPA Request arrived on the handed-over stream. The API answers with exactly
     * one {@code accept} (with the hand-over's QP and these same upcalls) or {@code reject}.
     */
    void connectRequest(ConnectRequestSpi request);
}
