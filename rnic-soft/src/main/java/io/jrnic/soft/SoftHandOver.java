package io.jrnic.soft;

import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ConnectionManager;
import io.jrnic.verbs.HandOverOptions;
import io.jrnic.verbs.QueuePair;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * Stream hand-over of a Netty {@link Channel} (rnic-soft only: the provider-neutral verbs API takes a
 * {@code java.nio.channels.SocketChannel}, see {@link ConnectionManager#handOver}). The RDMA mode
 * transition of RFC 5044 section 7.1 on a stream the application used in streaming mode.
 */
public final class SoftHandOver {
    private SoftHandOver() {
    }

    /**
     * Hands {@code channel} (connected, any Netty socket transport; it stays on its own event loop,
     * which must outlive the connection) over to RDMA mode on {@code qp}, a QP of {@code cm}'s soft device.
     * <ol>
     * <li>the channel's pending writes are flushed: all the application wrote precedes the MPA Request;</li>
     * <li>every handler of the pipeline is removed (tail first) and so released; bytes a removed decoder
     *     still held (a ByteToMessageDecoder's cumulation) are fed to MPA, after {@code alreadyRead};</li>
     * <li>TCP_NODELAY on, auto-read on, the engine's write water marks; then MPA (initiator: Request
     *     sent; responder: the Request goes to {@link HandOverOptions#decider()}).</li>
     * </ol>
     * Call it from the handler that read the last streaming-mode message (on the event loop: the
     * decoders stop at once), or stop reading first (auto-read off). {@code alreadyRead} (may be null)
     * is always released by this call. The future is that of {@link ConnectionManager#handOverStream}:
     * the connection once ESTABLISHED, or a {@code HandOverFailedException}; a channel handed back on
     * failure is open, its pipeline empty, auto-read and TCP_NODELAY as they were.
     */
    public static CompletableFuture<Connection> handOver(ConnectionManager cm, Channel channel, ByteBuf alreadyRead,
                                                         QueuePair qp, HandOverOptions options) {
        ByteBuf bytes = alreadyRead == null ? Unpooled.EMPTY_BUFFER : alreadyRead;
        if (!channel.isActive()) {
            bytes.release();
            throw new IllegalArgumentException("channel not connected: " + channel);
        }
        return cm.handOverStream(channel, (InetSocketAddress) channel.remoteAddress(), bytes, qp, options);
    }
}
