package io.jrnic.soft.mpa;

import io.jrnic.mpa.MpaException;
import io.jrnic.mpa.MpaSetupFrame;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The MPA set-up phase of one TCP stream (RFC 5044 section 7.1), in the role of initiator or
 * responder; the data-phase handlers replace it (the QP's Receiver takes its place in the pipeline).
 * Initiator: sends the Request when the stream is up, waits for the Reply (timer), hands bytes that
 * followed the Reply to the Receiver. Responder: waits for the Request (timer), then for the
 * application's accept or reject. Nothing here sends an FPDU: the timing rule is the engine's.
 */
public final class MpaHandshakeHandler extends ChannelInboundHandlerAdapter {
    /** The handler's name in the pipeline. */
    public static final String NAME = "mpa";

    /** What the handshake reports. Called on the channel's event loop. */
    public interface Events {
        /** Initiator: an acceptable Reply. {@code leftover} (owned by the callee) holds bytes after it. */
        void reply(ChannelHandlerContext ctx, MpaSetupFrame reply, ByteBuf leftover);

        /** Responder: a valid Request; answer with accept or reject. */
        void request(ChannelHandlerContext ctx, MpaSetupFrame request);

        /** The set-up failed (initiator), or the stream closed before the answer (responder). */
        void failed(CmFailure failure, String detail);
    }

    private final boolean initiator;
    private final MpaConfig config;
    private final Events events;
    private MpaSetupFrame sent;
    private ByteBuf cumulation;
    private ScheduledFuture<?> timer;
    private boolean frameReceived;
    private boolean finished;

    public MpaHandshakeHandler(boolean initiator, MpaConfig config, Events events) {
        this.initiator = initiator;
        this.config = config;
        this.events = events;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        long timeout = initiator ? config.replyTimeoutMillis() : config.requestTimeoutMillis();
        timer = ctx.executor().schedule(() -> fail(ctx, CmFailure.TIMEOUT,
                "no MPA " + (initiator ? "Reply" : "Request") + " within " + timeout + " ms"), timeout,
                TimeUnit.MILLISECONDS);
        if (initiator) {
            sent = Negotiation.request(config);
            ByteBuf out = ctx.alloc().buffer(sent.encodedLength());
            sent.encode(out);
            ctx.writeAndFlush(out);
        }
        ctx.fireChannelActive();
    }

    /** The Request this initiator sent. */
    public MpaSetupFrame sentRequest() {
        return sent;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            if (finished) {
                return;
            }
            if (cumulation == null) {
                cumulation = ctx.alloc().heapBuffer(Math.max(256, in.readableBytes()));
            }
            cumulation.writeBytes(in);
        } finally {
            in.release();
        }
        if (frameReceived) {
            return; // responder: bytes before accept wait in the cumulation for the Receiver
        }
        MpaSetupFrame f;
        try {
            f = MpaSetupFrame.decode(cumulation, initiator ? MpaSetupFrame.Kind.REPLY : MpaSetupFrame.Kind.REQUEST,
                    config.maxPrivateData());
        } catch (MpaException e) {
            fail(ctx, CmFailure.CONNECT_ERROR, e.reason() + ": " + e.getMessage());
            return;
        }
        if (f == null) {
            return;
        }
        frameReceived = true;
        cancelTimer();
        if (initiator) {
            finished = true;
            ByteBuf leftover = cumulation;
            cumulation = null;
            events.reply(ctx, f, leftover);
        } else {
            events.request(ctx, f);
        }
    }

    /** Responder: the bytes received after the Request, handed over at accept (owned by the caller). */
    public ByteBuf takeLeftover() {
        finished = true;
        ByteBuf b = cumulation;
        cumulation = null;
        return b;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelTimer();
        if (!finished) {
            finished = true;
            events.failed(CmFailure.CONNECT_ERROR, "stream closed during MPA set-up");
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(ctx, CmFailure.CONNECT_ERROR, String.valueOf(cause));
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelTimer();
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
    }

    private void fail(ChannelHandlerContext ctx, CmFailure f, String detail) {
        if (!finished) {
            finished = true;
            cancelTimer();
            events.failed(f, detail);
        }
        ctx.close();
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
