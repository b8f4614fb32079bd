package io.jrnic.soft.net;

import io.jrnic.mpa.MpaException;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.soft.engine.QpEngine;
import io.jrnic.soft.engine.StreamParams;
import io.jrnic.soft.mpa.CmFailure;
import io.jrnic.soft.mpa.ConnectionEvents;
import io.jrnic.soft.mpa.MpaConfig;
import io.jrnic.soft.mpa.MpaHandshakeHandler;
import io.jrnic.soft.mpa.Negotiation;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One connection of a QP, active or passive: reports its outcome once, then disconnection.
 * {@link #disconnect()} is the orderly close, {@link #abort()} the abortive one.
 */
public final class SoftConnection {
    private final QpEngine qp;
    private final ConnectionEvents events;
    private final AtomicBoolean outcome = new AtomicBoolean();
    private final AtomicBoolean disconnected = new AtomicBoolean();
    private volatile Channel channel;
    private volatile StreamParams params;
    private volatile byte[] peerPrivateData = new byte[0];

    SoftConnection(QpEngine qp, ConnectionEvents events) {
        this.qp = qp;
        this.events = events;
    }

    void channel(Channel ch) {
        this.channel = ch;
        ch.closeFuture().addListener(f -> {
            if (params == null) {
                return;
            }
            if (!outcome.get()) {
                failed(CmFailure.CONNECT_ERROR, "stream closed before the initiator's first FPDU");
            } else if (disconnected.compareAndSet(false, true)) {
                events.disconnected();
            }
        });
    }

    public Channel channel() {
        return channel;
    }

    public QpEngine qp() {
        return qp;
    }

    /** The negotiated stream parameters once established, else null. */
    public StreamParams params() {
        return params;
    }

    public byte[] peerPrivateData() {
        return peerPrivateData.clone();
    }

    MpaHandshakeHandler initiatorHandler(MpaConfig config) {
        MpaHandshakeHandler[] self = new MpaHandshakeHandler[1];
        self[0] = new MpaHandshakeHandler(true, config, new MpaHandshakeHandler.Events() {
            @Override
            public void reply(ChannelHandlerContext ctx, MpaSetupFrame reply, ByteBuf leftover) {
                if (reply.reject()) {
                    leftover.release();
                    if (outcome.compareAndSet(false, true)) {
                        events.rejected(reply.privateData());
                    }
                    ctx.close();
                    return;
                }
                StreamParams p;
                try {
                    p = Negotiation.initiator(config, self[0].sentRequest(), reply);
                } catch (MpaException e) {
                    leftover.release();
                    failed(CmFailure.CONNECT_ERROR, e.reason() + ": " + e.getMessage());
                    ctx.close();
                    return;
                }
                established(ctx.channel(), p, reply.privateData(), MpaHandshakeHandler.NAME, leftover);
            }

            @Override
            public void request(ChannelHandlerContext ctx, MpaSetupFrame request) {
                throw new IllegalStateException("initiator got a Request");
            }

            @Override
            public void failed(CmFailure failure, String detail) {
                SoftConnection.this.failed(failure, detail);
            }
        });
        return self[0];
    }

    /** Binds the QP and reports established (now, or for a responder after the first FPDU). */
    void established(Channel ch, StreamParams p, byte[] peerPd, String handlerName, ByteBuf leftover) {
        this.params = p;
        this.peerPrivateData = peerPd;
        Runnable report = () -> {
            if (outcome.compareAndSet(false, true)) {
                events.established(p, peerPd);
                if (!ch.isActive() && disconnected.compareAndSet(false, true)) {
                    events.disconnected();
                }
            }
        };
        try {
            qp.bind(ch, p, handlerName, leftover, p.initiator() ? null : report);
        } catch (RuntimeException e) {
            failed(CmFailure.CONNECT_ERROR, "QP cannot be bound: " + e.getMessage());
            ch.close();
            return;
        }
        if (p.initiator()) {
            report.run();
        }
    }

    void failed(CmFailure f, String detail) {
        if (outcome.compareAndSet(false, true)) {
            events.failed(f, detail);
        }
    }

    /** Orderly close (RFC 5040 section 6): outstanding sends finish, then the stream closes. */
    public void disconnect() {
        if (params != null) {
            qp.disconnect();
        } else {
            SoftTransport.closeQuietly(channel);
        }
    }

    /** Abortive close: the stream is closed now (the QP sees an LLP error if it was connected). */
    public void abort() {
        SoftTransport.closeQuietly(channel);
    }
}
