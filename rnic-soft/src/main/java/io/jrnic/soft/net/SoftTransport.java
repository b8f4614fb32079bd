package io.jrnic.soft.net;

import io.jrnic.soft.engine.QpEngine;
import io.jrnic.soft.mpa.CmFailure;
import io.jrnic.soft.mpa.ConnectionEvents;
import io.jrnic.soft.mpa.MpaConfig;
import io.jrnic.soft.mpa.MpaHandshakeHandler;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The device's TCP side: one event loop group (Epoll when available, NIO otherwise) running every
 * stream of the device; active connects (Bootstrap) and listeners (ServerBootstrap).
 */
public final class SoftTransport implements AutoCloseable {
    /** Per-stream outbound limit: above the high mark the Transmitter waits (backpressure). */
    static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 1024 * 1024);

    private final EventLoopGroup group;
    private final Class<? extends SocketChannel> channelClass;
    private final Class<? extends ServerSocketChannel> serverClass;

    public SoftTransport(int threads, boolean preferEpoll) {
        DefaultThreadFactory tf = new DefaultThreadFactory("jrnic-soft", true);
        if (preferEpoll && Epoll.isAvailable()) {
            group = new EpollEventLoopGroup(threads, tf);
            channelClass = EpollSocketChannel.class;
            serverClass = EpollServerSocketChannel.class;
        } else {
            group = new NioEventLoopGroup(threads, tf);
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
     * {@code events} gets exactly one of established/rejected/failed.
     */
    public SoftConnection connect(InetSocketAddress remote, MpaConfig config, QpEngine qp, ConnectionEvents events) {
        SoftConnection conn = new SoftConnection(qp, events);
        Bootstrap b = new Bootstrap().group(group).channel(channelClass)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.connectTimeoutMillis()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(MpaHandshakeHandler.NAME, conn.initiatorHandler(config));
                    }
                });
        ChannelFuture f = b.connect(remote);
        conn.channel(f.channel());
        f.addListener((ChannelFuture cf) -> {
            if (!cf.isSuccess()) {
                Throwable c = cf.cause();
                boolean timeout = c instanceof io.netty.channel.ConnectTimeoutException;
                conn.failed(timeout ? CmFailure.TIMEOUT : CmFailure.UNREACHABLE,
                        c instanceof ConnectException || timeout ? c.getMessage() : String.valueOf(c));
            }
        });
        return conn;
    }

    /** Listens on {@code local} (port 0: ephemeral); every valid MPA Request goes to {@code onRequest}. */
    public SoftListener listen(InetSocketAddress local, MpaConfig config, Consumer<PendingRequest> onRequest)
            throws InterruptedException {
        SoftListener listener = new SoftListener(config, onRequest);
        ServerBootstrap b = new ServerBootstrap().group(group).channel(serverClass)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        listener.initChild(ch);
                    }
                });
        ChannelFuture f = b.bind(local).sync();
        listener.serverChannel(f.channel());
        return listener;
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

}
