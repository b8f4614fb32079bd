package io.jrnic.verbs.spi;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.ConnectionParams;
import java.net.InetSocketAddress;

/** A pending passive connection. The API guarantees exactly one accept or reject. */
public interface ConnectRequestSpi {
    InetSocketAddress localAddress();

    InetSocketAddress remoteAddress();

    /** What the initiator's MPA Request offered (its private data with the MPA v2 IRD/ORD words removed). */
    ConnectionParams offered();

    /**
     * Send the MPA Reply (with IRD/ORD negotiated "relaxed" like siw: responder ORD lowered to the
     * initiator's IRD, responder IRD raised to the initiator's ORD within device limits; RTR chosen
     * WRITE if offered, else READ, else SEND), bind {@code qp}, report CONNECTED on it, then
     * {@code up.established} when the stream is in RDMA mode (after the first FPDU or RTR).
     */
    ConnectionSpi accept(QpSpi qp, AcceptOptions options, ConnectionUpcalls up);

    /** Send an MPA Reply with R set and {@code privateData}, then close the stream. */
    void reject(byte[] privateData);
}
