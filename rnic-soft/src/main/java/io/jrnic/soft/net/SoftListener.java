package io.jrnic.soft.net;

import io.jrnic.mpa.MpaParameters;
import io.jrnic.mpa.MpaResponder;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.soft.mpa.CmFailure;
import io.jrnic.soft.mpa.MpaConfig;
import io.jrnic.soft.mpa.MpaHandshakeHandler;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/** A passive endpoint: every accepted stream runs the responder handshake; valid Requests go to the application. */
public final class SoftListener implements AutoCloseable {
    private final MpaConfig config;
    private final Consumer<PendingRequest> onRequest;
    private final ChannelGroup children = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private volatile Channel server;

    SoftListener(MpaConfig config, Consumer<PendingRequest> onRequest) {
        this.config = config;
        this.onRequest = onRequest;
    }

    void serverChannel(Channel ch) {
        this.server = ch;
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) server.localAddress();
    }

    public MpaConfig config() {
        return config;
    }

    void initChild(SocketChannel ch) {
        PendingRequest[] req = new PendingRequest[1];
        MpaHandshakeHandler h = new MpaHandshakeHandler(new MpaResponder(config.mpa()), new MpaHandshakeHandler.Events() {
            @Override
            public void established(ChannelHandlerContext ctx, MpaParameters params, ByteBuf leftover) {
                leftover.release();
                throw new IllegalStateException("responder reports established through accept");
            }

            @Override
            public void request(ChannelHandlerContext ctx, MpaSetupFrame request) {
                req[0] = new PendingRequest(ch, (MpaHandshakeHandler) ctx.handler(), request, config);
                req[0].startTimer();
                onRequest.accept(req[0]);
            }

            @Override
            public void rejected(byte[] peerPrivateData) {
                throw new IllegalStateException("responder got a Reply");
            }

            @Override
            public void failed(CmFailure failure, String detail) {
                if (req[0] != null) {
                    req[0].streamFailed(failure, detail);
                }
            }
        });
        ch.pipeline().addLast(MpaHandshakeHandler.NAME, h);
        children.add(ch);
    }

    /** Stops listening; streams still in MPA set-up are closed. */
    @Override
    public void close() {
        Channel s = server;
        if (s != null) {
            s.close().syncUninterruptibly();
        }
        for (Channel c : children) {
            if (c.pipeline().get(MpaHandshakeHandler.NAME) != null) {
                c.close();
            }
        }
    }
}
