package io.jrnic.verbs.spi;

import java.net.InetSocketAddress;

/** One connection's back end. */
public interface ConnectionSpi {
    /** Local address of the stream (null before the TCP connection exists). */
    InetSocketAddress localAddress();

    /**
     * Orderly close (RFC 5040 section 6 stream close): report CLOSE_STARTED on the QP, finish or flush
     * outstanding work, close the stream, report CLOSE_COMPLETED (or LLP_ERROR), then {@code disconnected}.
     * Before establishment it abandons the attempt like {@link #abort()}.
     */
    void disconnect();

    /**
     * Abortive close (RST): report LLP_ERROR on the QP if it was in RTS, then {@code disconnected} if it
     * was established, or {@code failed(CONNECT_ERROR)} if not.
     */
    void abort();
}
