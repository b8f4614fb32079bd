package io.jrnic.soft.net;

import io.jrnic.mpa.MpaException;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import io.jrnic.soft.engine.QpEngine;
import io.jrnic.soft.engine.StreamParams;
import io.jrnic.soft.mpa.CmFailure;
import io.jrnic.soft.mpa.ConnectionEvents;
import io.jrnic.soft.mpa.MpaConfig;
import io.jrnic.soft.mpa.MpaHandshakeHandler;
import io.jrnic.soft.mpa.Negotiation;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A valid MPA Request waiting for the application (RFC 5044 section 7.1.4): exactly one of
 * {@link #accept} or {@link #reject}; without an answer within the request timer the stream closes.
 */
public final class PendingRequest {
    private final Channel channel;
    private final MpaHandshakeHandler handler;
    private final MpaSetupFrame request;
    private final MpaConfig listenerConfig;
    private final AtomicBoolean answered = new AtomicBoolean();
    private volatile SoftConnection connection;
    private ScheduledFuture<?> timer;

    PendingRequest(Channel channel, MpaHandshakeHandler handler, MpaSetupFrame request, MpaConfig listenerConfig) {
        this.channel = channel;
        this.handler = handler;
        this.request = request;
        this.listenerConfig = listenerConfig;
    }

    void startTimer() {
        timer = channel.eventLoop().schedule(() -> {
            if (answered.compareAndSet(false, true)) {
                channel.close();
            }
        }, listenerConfig.requestTimeoutMillis(), TimeUnit.MILLISECONDS);
    }

    /** The initiator's Request (its application private data without the revision 2 words). */
    public MpaSetupFrame request() {
        return request;
    }

    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) channel.remoteAddress();
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    public MpaConfig listenerConfig() {
        return listenerConfig;
    }

    /**
     * Sends the Reply under {@code config}, binds {@code qp} (reports CONNECTED), and reports
     * established after the initiator's first FPDU (RFC 5044 section 7.1 timing rule).
     *
     * @throws IllegalStateException when already answered
     */
    public SoftConnection accept(QpEngine qp, MpaConfig config, ConnectionEvents events) {
        if (!answered.compareAndSet(false, true)) {
            throw new IllegalStateException("request already answered (or timed out)");
        }
        SoftConnection conn = new SoftConnection(qp, events);
        connection = conn;
        channel.eventLoop().execute(() -> {
            cancelTimer();
            if (!channel.isActive()) {
                conn.failed(CmFailure.CONNECT_ERROR, "stream closed before accept");
                return;
            }
            MpaSetupFrame reply;
            try {
                reply = Negotiation.reply(config, request);
            } catch (MpaException e) {
                conn.failed(CmFailure.CONNECT_ERROR, e.reason() + ": " + e.getMessage());
                writeAndClose(rejectFrame(new byte[0]));
                return;
            }
            StreamParams p = Negotiation.responder(config, request, reply);
            ByteBuf out = channel.alloc().buffer(reply.encodedLength());
            reply.encode(out);
            channel.writeAndFlush(out);
            conn.channel(channel);
            ByteBuf leftover = handler.takeLeftover();
            conn.established(channel, p, request.privateData(), MpaHandshakeHandler.NAME, leftover);
        });
        return conn;
    }

    /** Sends a Reply with R set and {@code privateData}, then closes (RFC 5044 section 7.1.5). */
    public void reject(byte[] privateData) {
        if (!answered.compareAndSet(false, true)) {
            throw new IllegalStateException("request already answered (or timed out)");
        }
        channel.eventLoop().execute(() -> {
            cancelTimer();
            writeAndClose(rejectFrame(privateData));
        });
    }

    private MpaSetupFrame rejectFrame(byte[] privateData) {
        MpaSetupFrame.Builder b = MpaSetupFrame.builder(MpaSetupFrame.Kind.REPLY)
                .revision(Math.min(request.revision(), listenerConfig.revision())).reject(true)
                .privateData(privateData);
        if (request.v2Words() != null && listenerConfig.revision() == MpaSetupFrame.REVISION_2) {
            b.v2Words(MpaV2Words.of(0, 0)); // siw crashes on H without the words (siw notes)
        }
        return b.build();
    }

    private void writeAndClose(MpaSetupFrame f) {
        ByteBuf out = channel.alloc().buffer(f.encodedLength());
        f.encode(out);
        channel.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
    }

    void streamFailed(CmFailure f, String detail) {
        SoftConnection c = connection;
        if (c != null) {
            c.failed(f, detail);
        }
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
        }
    }
}
