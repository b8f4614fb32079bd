package io.jrnic.soft.net;

import io.jrnic.soft.engine.LoopReadGate;
import io.jrnic.soft.engine.QpEngine;
import io.jrnic.soft.mpa.CmFailure;
import io.jrnic.soft.mpa.ConnectionEvents;
import io.jrnic.soft.mpa.MpaConfig;
import io.jrnic.soft.mpa.MpaHandshakeHandler;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * The device's TCP side: one event loop group (Epoll when available, NIO otherwise) running every
 * stream of the device; active connects (Bootstrap) and listeners (ServerBootstrap). The groups are jrnic's
 * ({@link LoopGroup}) and connects do not use Netty's resolver group: nothing is left for Netty's
 * GlobalEventExecutor to do when the loops end, so no thread outlives {@link #close()}.
 */
public final class SoftTransport implements AutoCloseable {
    /** Per-stream outbound limit: above the high mark the Transmitter waits (backpressure). */
    static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 1024 * 1024);

    private final LoopGroup group;
    private final Class<? extends SocketChannel> channelClass;
    private final Class<? extends ServerSocketChannel> serverClass;
    private LoopGroup foreignGroup; // NIO loop for handed-over java.nio sockets on an epoll device
    private boolean closed; // guarded by this: no foreign group is made after close

    public SoftTransport(int threads, boolean preferEpoll) {
        if (preferEpoll && Epoll.isAvailable()) {
            group = LoopGroup.epoll(threads, "jrnic-soft");
            channelClass = EpollSocketChannel.class;
            serverClass = EpollServerSocketChannel.class;
        } else {
            group = LoopGroup.nio(threads, "jrnic-soft");
            channelClass = NioSocketChannel.class;
            serverClass = NioServerSocketChannel.class;
        }
    }

    /** "epoll" or "nio". */
    public String transportName() {
        return channelClass == EpollSocketChannel.class ? "epoll" : "nio";
    }

    public EventLoopGroup group() {
        return group;
    }

    /**
     * Connects {@code qp} (IDLE) to {@code remote}: TCP, MPA Request, Reply, then RTS.
     * {@code events} gets exactly one of established/rejected/failed. An unresolved {@code remote} is resolved
     * here, on the caller's thread (as {@code new InetSocketAddress(host, port)} does); one that stays unresolved
     * fails the connect (UNREACHABLE).
     */
    public SoftConnection connect(InetSocketAddress remote, MpaConfig config, QpEngine qp, ConnectionEvents events) {
        return connect(remote, config, qp, events, null);
    }

    /** As {@link #connect(InetSocketAddress, MpaConfig, QpEngine, ConnectionEvents)}, writing a pcap to {@code capture} (may be null). */
    public SoftConnection connect(InetSocketAddress remote, MpaConfig config, QpEngine qp, ConnectionEvents events,
                                  java.nio.file.Path capture) {
        SoftConnection conn = new SoftConnection(qp, events);
        // Netty's resolver group would listen to each loop's termination (notified on its GlobalEventExecutor)
        InetSocketAddress to = remote.isUnresolved() ? new InetSocketAddress(remote.getHostString(), remote.getPort())
                : remote;
        Bootstrap b = new Bootstrap().group(group).channel(channelClass).disableResolver()
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.connectTimeoutMillis()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) throws java.io.IOException {
                        ch.config().setRecvByteBufAllocator(new LoopReadGate());
                        DeadPeer.apply(ch, config.deadPeerTimeoutMillis());
                        RtoMin.apply(ch, config.tcpRtoMinMicros());
                        if (capture != null) {
                            ch.pipeline().addFirst(Capture.NAME, Capture.handler(capture));
                        }
                        ch.pipeline().addLast(MpaHandshakeHandler.NAME, conn.initiatorHandler(config));
                    }
                });
        ChannelFuture f = b.connect(to);
        conn.channel(f.channel());
        f.addListener((ChannelFuture cf) -> {
            if (!cf.isSuccess()) {
                Throwable c = cf.cause();
                boolean timeout = c instanceof io.netty.channel.ConnectTimeoutException;
                conn.failed(timeout ? CmFailure.TIMEOUT : CmFailure.UNREACHABLE,
                        c instanceof java.nio.channels.UnresolvedAddressException ? "unresolved address " + to
                        : c instanceof ConnectException || timeout ? c.getMessage() : String.valueOf(c));
            }
        });
        return conn;
    }

    /** Listens on {@code local} (port 0: ephemeral); every valid MPA Request goes to {@code onRequest}. */
    public SoftListener listen(InetSocketAddress local, MpaConfig config, Consumer<PendingRequest> onRequest)
            throws InterruptedException {
        return listen(local, config, onRequest, null);
    }

    /**
     * As {@link #listen(InetSocketAddress, MpaConfig, Consumer)}, writing a pcap of every accepted stream (may be
     * null): the first to {@code capture}, the n-th to it with "-n" before the extension ({@link Capture#nth}).
     */
    public SoftListener listen(InetSocketAddress local, MpaConfig config, Consumer<PendingRequest> onRequest,
                               java.nio.file.Path capture) throws InterruptedException {
        SoftListener listener = new SoftListener(config, onRequest, capture);
        ServerBootstrap b = new ServerBootstrap().group(group).channel(serverClass)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) throws java.io.IOException {
                        ch.config().setRecvByteBufAllocator(new LoopReadGate());
                        DeadPeer.apply(ch, config.deadPeerTimeoutMillis());
                        RtoMin.apply(ch, config.tcpRtoMinMicros());
                        listener.initChild(ch);
                    }
                });
        ChannelFuture f = b.bind(local).sync();
        listener.serverChannel(f.channel());
        return listener;
    }

    /**
     * Stream hand-over of a Netty channel (any transport, any event loop: it stays on its own loop, which
     * must outlive the connection). {@code alreadyRead} (released here) is fed to MPA first. Run at once
     * when called on the channel's event loop (e.g. from the handler that read the last streaming-mode
     * message: the application's decoders then stop at once), else as a task on it.
     */
    public SoftConnection handOver(Channel ch, ByteBuf alreadyRead, MpaConfig config, boolean initiator,
                                   boolean returnChannelOnFailure, QpEngine qp, HandOverEvents events) {
        StreamHandOver h = new StreamHandOver(ch, config, initiator, returnChannelOnFailure, qp, events, null);
        if (ch.eventLoop().inEventLoop()) {
            h.run(alreadyRead);
        } else {
            ch.eventLoop().execute(() -> h.run(alreadyRead));
        }
        return h.connection();
    }

    /**
     * Stream hand-over of a connected {@code java.nio} socket: wrapped in a Netty NIO channel (which owns
     * it from now on) on this device's loops (NIO), or on a NIO loop of its own (epoll devices). Handed
     * back on failure: deregistered from the loop and its blocking mode restored. After {@link #close()}:
     * IllegalStateException, the socket untouched.
     */
    public SoftConnection handOver(java.nio.channels.SocketChannel socket, ByteBuf alreadyRead, MpaConfig config,
                                   boolean initiator, boolean returnChannelOnFailure, QpEngine qp,
                                   HandOverEvents events) {
        LoopGroup loops;
        try {
            loops = nioGroup();
        } catch (IllegalStateException e) {
            alreadyRead.release();
            throw e;
        }
        boolean wasBlocking = socket.isBlocking();
        NioSocketChannel ch;
        try {
            ch = new NioSocketChannel(socket);
        } catch (RuntimeException e) {
            alreadyRead.release();
            throw new IllegalArgumentException("cannot take over " + socket + ": " + e, e);
        }
        ch.config().setAutoRead(false); // nothing read before the MPA handler is in place (run turns it on)
        StreamHandOver h = new StreamHandOver(ch, config, initiator, returnChannelOnFailure, qp, events,
                report -> ch.deregister().addListener(f -> ForeignSocket.restoreBlocking(socket, wasBlocking,
                        ch.eventLoop(), report)));
        loops.register(ch).addListener(f -> {
            if (f.isSuccess()) {
                h.run(alreadyRead); // on the loop: the listener may run after channelActive
            } else {
                alreadyRead.release();
                ch.unsafe().closeForcibly();
                h.connection().failed(CmFailure.CONNECT_ERROR, null, false, "cannot register: " + f.cause());
            }
        });
        return h.connection();
    }

    private synchronized LoopGroup nioGroup() {
        if (closed) {
            throw new IllegalStateException("device closed");
        }
        if (channelClass == NioSocketChannel.class) {
            return group;
        }
        if (foreignGroup == null) {
            foreignGroup = LoopGroup.nio(1, "jrnic-soft-nio");
        }
        return foreignGroup;
    }

    /** Ends the device's loops (queued tasks get at most 2 s) and returns once their threads have ended. */
    @Override
    public void close() {
        LoopGroup f;
        synchronized (this) {
            closed = true;
            f = foreignGroup;
        }
        if (f != null) {
            f.close();
        }
        group.close();
    }

}
