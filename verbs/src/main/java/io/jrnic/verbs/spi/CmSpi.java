package io.jrnic.verbs.spi;

import io.jrnic.verbs.ConnectOptions;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Connection-manager back end (librdmacm model; MPA set-up per RFC 5044 section 7 and RFC 6581).
 * All methods return promptly; outcomes arrive through the upcalls.
 */
public interface CmSpi {
    /** Binds and listens (port 0: ephemeral). {@code up} receives connect requests (after a valid MPA Request). */
    ListenerSpi listen(InetSocketAddress local, ConnectOptions options, ListenerUpcalls up) throws IOException;

    /**
     * Starts an active connection for {@code qp} (in IDLE): TCP connect, MPA Request with
     * {@code options}, wait for the Reply. Then exactly one of: {@code up.established} (after the QP
     * was moved to RTS with CONNECTED), {@code up.rejected}, {@code up.failed}.
     */
    ConnectionSpi connect(InetSocketAddress remote, QpSpi qp, ConnectOptions options, ConnectionUpcalls up);

    /** Stops every listener and aborts every connection of this CM. */
    void close();
}
