package io.jrnic.verbs.spi;

import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.HandOverOptions;
import io.netty.buffer.ByteBuf;
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

    /**
     * Hands an already connected stream over to RDMA mode (MPA set-up on it, RFC 5044 section 7.1):
     * {@code stream} is a {@code java.nio.channels.SocketChannel} or a provider-specific stream type;
     * {@code alreadyRead} (owned by the provider from now on, released by it) holds bytes the application
     * read beyond its last streaming-mode message and is fed to MPA before any byte read from the stream.
     * Initiator: sends the Request, then as {@link #connect}. Responder: {@code up.connectRequest} on a
     * valid Request, then as a connect request's accept/reject. Failures go to {@code up.failed} with an
     * {@code MpaSetupException} cause. Default: unsupported (the API then throws).
     *
     * @throws IllegalArgumentException a stream type this provider cannot take over
     */
    default ConnectionSpi handOver(Object stream, ByteBuf alreadyRead, QpSpi qp, HandOverOptions options,
                                   HandOverUpcalls up) {
        alreadyRead.release();
        throw new UnsupportedOperationException("this provider cannot take over a stream");
    }

    /** Stops every listener and aborts every connection of this CM. */
    void close();
}
