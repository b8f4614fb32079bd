package io.jrnic.soft.mpa;

import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.MpaFailure;
import io.jrnic.mpa.MpaHandshaker;
import io.jrnic.mpa.MpaInitiator;
import io.jrnic.mpa.MpaParameters;
import io.jrnic.mpa.MpaResponder;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.Outcome;
import io.jrnic.rdmap.Terminate;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The MPA set-up phase of one TCP stream (RFC 5044 section 7.1, RFC 6581), driving the I/O-free
 * {@link MpaInitiator} or {@link MpaResponder}; the QP's data-phase Receiver then replaces it in the
 * pipeline. Initiator: sends the Request when the stream is up, feeds bytes until the Reply is judged;
 * bytes after the Reply go to the Receiver. Responder: feeds until the Request, then waits for the
 * application's {@link #accept} or {@link #reject}. A failure the RFC answers with a Terminate (LLP
 * 0x06 insufficient IRD, 0x07 no matching RTR) sends it, framed as negotiated, then closes. The timer
 * is the negotiator's (Reply 10 s, Request 5 s by default).
 */
public final class MpaHandshakeHandler extends ChannelInboundHandlerAdapter {
    /** The handler's name in the pipeline. */
    public static final String NAME = "mpa";

    /** What the handshake reports, on the channel's event loop. */
    public interface Events {
        /** Initiator: the Reply was acceptable. {@code leftover} (owned by the callee) holds the bytes after it. */
        void established(ChannelHandlerContext ctx, MpaParameters params, ByteBuf leftover);

        /** Responder: a valid Request; answer with {@link #accept} or {@link #reject}. */
        void request(ChannelHandlerContext ctx, MpaSetupFrame request);

        /** Initiator: the Reply had R set. */
        void rejected(byte[] peerPrivateData);

        /** The set-up failed, or the stream closed before it finished. */
        void failed(CmFailure failure, String detail);

        /** As {@link #failed(CmFailure, String)}, with the negotiator's failure when there is one (else null). */
        default void failed(CmFailure failure, MpaFailure mpa, String detail) {
            failed(failure, detail);
        }
    }

    private final MpaHandshaker handshaker;
    private final Events events;
    private ChannelHandlerContext ctx;
    private ByteBuf cumulation;
    private ScheduledFuture<?> timer;
    private boolean requestReceived;
    private boolean finished;
    // Stream hand-over (RDMA mode transition): the stream is already up, set-up starts at start().
    private boolean handOver;
    private boolean started = true;
    private boolean returnChannelOnFailure;
    private boolean channelReturned;
    private long consumed;

    public MpaHandshakeHandler(MpaHandshaker handshaker, Events events) {
        this.handshaker = handshaker;
        this.events = events;
    }

    /**
     * Hand-over mode: the stream is already connected, so channelActive starts nothing; bytes read
     * before {@link #start} are held, and fed after the bytes given to it. With
     * {@code returnChannelOnFailure}, a failure that consumed no byte and sent no Reply (the timer)
     * removes this handler and leaves the stream open ({@link #channelReturned()}).
     */
    public MpaHandshakeHandler handOver(boolean returnChannelOnFailure) {
        this.handOver = true;
        this.started = false;
        this.returnChannelOnFailure = returnChannelOnFailure;
        return this;
    }

    /**
     * Hand-over, on the event loop once added: arms the timer, sends the Request (initiator), then
     * feeds {@code alreadyRead} (released here) followed by the bytes held since the handler was added.
     */
    public void start(ByteBuf alreadyRead) {
        if (started) {
            alreadyRead.release();
            throw new IllegalStateException("already started");
        }
        started = true;
        armTimer();
        if (handshaker instanceof MpaInitiator i) {
            ctx.writeAndFlush(i.request());
        }
        ByteBuf held = cumulation;
        cumulation = null;
        try {
            if (alreadyRead.isReadable() || held != null) {
                cumulation = ctx.alloc().heapBuffer(Math.max(256, alreadyRead.readableBytes()
                        + (held == null ? 0 : held.readableBytes())));
                consumed += alreadyRead.readableBytes();
                cumulation.writeBytes(alreadyRead);
                if (held != null) {
                    cumulation.writeBytes(held);
                }
            }
        } finally {
            alreadyRead.release();
            if (held != null) {
                held.release();
            }
        }
        if (!finished && cumulation != null && cumulation.isReadable()) {
            handle(handshaker.feed(cumulation));
        }
    }

    /** Hand-over: true when a failure left the stream open and this handler removed itself. */
    public boolean channelReturned() {
        return channelReturned;
    }

    public boolean initiator() {
        return handshaker instanceof MpaInitiator;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (!handOver) {
            armTimer();
            if (handshaker instanceof MpaInitiator i) {
                ctx.writeAndFlush(i.request());
            }
        }
        ctx.fireChannelActive();
    }

    private void armTimer() {
        timer = ctx.executor().schedule(() -> handle(handshaker.onTimeout()),
                handshaker.timeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            // hand-over: a removed application handler forwarded a decoded message; it has no bytes to feed
            ReferenceCountUtil.release(msg);
            if (!finished) {
                finished = true;
                cancelTimer();
                ctx.close();
                events.failed(CmFailure.CONNECT_ERROR, null, "a decoded " + msg.getClass().getName()
                        + " was still in the pipeline at hand-over: it has no bytes to give MPA");
            }
            return;
        }
        int n = in.readableBytes();
        try {
            if (finished) {
                return;
            }
            if (cumulation == null) {
                cumulation = ctx.alloc().heapBuffer(Math.max(256, n));
            }
            consumed += n;
            cumulation.writeBytes(in);
        } finally {
            in.release();
        }
        if (started && !requestReceived) {
            handle(handshaker.feed(cumulation));
        } else if (requestReceived && handshaker instanceof MpaResponder r) {
            // bytes before our Reply went out: the timing rule (RFC 5044 section 7.1.1) decides
            Outcome o = r.bytesBeforeReply(n);
            if (o.status() == Outcome.Status.FAILED) {
                fail(o);
            }
        }
    }

    private void handle(Outcome o) {
        switch (o.status()) {
            case NEED_MORE -> {
            }
            case REQUEST_RECEIVED -> {
                requestReceived = true;
                cancelTimer();
                events.request(ctx, o.peerFrame());
            }
            case DONE -> {
                finished = true;
                cancelTimer();
                ByteBuf leftover = cumulation != null ? cumulation : Unpooled.EMPTY_BUFFER;
                cumulation = null;
                events.established(ctx, o.parameters(), leftover);
            }
            case FAILED -> fail(o);
        }
    }

    private void fail(Outcome o) {
        fail(o, null);
    }

    private void fail(Outcome o, String overrideDetail) {
        if (finished) {
            release(o.toSend());
            return;
        }
        finished = true;
        cancelTimer();
        MpaFailure f = o.failure();
        String detail = overrideDetail != null ? overrideDetail : f.detail();
        if (returnChannelOnFailure && consumed == 0 && o.toSend() == null && !f.terminate()
                && ctx.channel().isActive()) {
            channelReturned = true;
            ctx.pipeline().remove(this);
            report(f, detail);
            return;
        }
        if (o.toSend() != null) {
            ctx.write(o.toSend());
        }
        if (f.terminate() && f.llpError() != null && o.parameters() != null) {
            ByteBuf ulpdu = Unpooled.buffer(Terminate.FIXED_LENGTH);
            Terminate.of(f.llpError()).encode(ulpdu);
            FpduEncoder enc = o.parameters().newEncoder();
            ByteBuf out = ctx.alloc().buffer(enc.encodedLength(ulpdu.readableBytes()));
            enc.encode(ulpdu, out);
            ctx.write(out);
        }
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        report(f, detail);
    }

    private void report(MpaFailure f, String detail) {
        switch (f.reason()) {
            case REJECTED_BY_PEER -> events.rejected(f.peerPrivateData());
            case REJECTED_LOCALLY -> {
            }
            case TIMEOUT -> events.failed(CmFailure.TIMEOUT, f, detail);
            default -> events.failed(CmFailure.CONNECT_ERROR, f, f.reason() + ": " + detail);
        }
    }

    /**
     * Responder, on the event loop: answers the Request. On success writes the Reply and returns the
     * parameters (the leftover bytes are then {@link #takeLeftover()}); on failure (no matching RTR,
     * insufficient IRD) sends the Reply and the Terminate, closes, and returns null.
     */
    public MpaParameters accept(byte[] privateData, int ird, int ord) {
        Outcome o = ((MpaResponder) handshaker).accept(privateData, ird, ord);
        if (o.status() != Outcome.Status.DONE) {
            fail(o);
            return null;
        }
        finished = true;
        ctx.writeAndFlush(o.toSend());
        return o.parameters();
    }

    /** Responder, on the event loop: a Reply with R set and the private data, then close. */
    public void reject(byte[] privateData) {
        fail(((MpaResponder) handshaker).reject(privateData));
    }

    /** Bytes received after the Request (owned by the caller; never null). */
    public ByteBuf takeLeftover() {
        ByteBuf b = cumulation != null ? cumulation : Unpooled.EMPTY_BUFFER;
        cumulation = null;
        return b;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelTimer();
        if (!finished) {
            finished = true;
            MpaFailure f = handshaker.onConnectionClosed().failure();
            events.failed(CmFailure.CONNECT_ERROR, f, f == null ? "stream closed during MPA set-up" : f.detail());
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!finished) {
            finished = true;
            cancelTimer();
            events.failed(CmFailure.CONNECT_ERROR, String.valueOf(cause));
        }
        ctx.close();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelTimer();
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private static void release(ByteBuf b) {
        if (b != null) {
            b.release();
        }
    }
}
