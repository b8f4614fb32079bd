package io.jrnic.soft.net;

import io.jrnic.mpa.MpaFailure;
import io.jrnic.mpa.MpaInitiator;
import io.jrnic.mpa.MpaParameters;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.Mulpdu;
import io.jrnic.soft.engine.QpEngine;
import io.jrnic.soft.engine.StreamParams;
import io.jrnic.soft.mpa.CmFailure;
import io.jrnic.soft.mpa.ConnectionEvents;
import io.jrnic.soft.mpa.MpaConfig;
import io.jrnic.soft.mpa.MpaHandshakeHandler;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.epoll.EpollSocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One connection of a QP, active or passive: reports its outcome once, then its disconnection.
 * {@link #disconnect()} is the orderly close, {@link #abort()} the abortive one.
 */
public final class SoftConnection {
    private static final int DEFAULT_MSS = 1460;

    private final QpEngine qp;
    private final ConnectionEvents events;
    private final AtomicBoolean outcome = new AtomicBoolean();
    private final AtomicBoolean disconnected = new AtomicBoolean();
    private volatile Channel channel;
    private volatile MpaParameters mpa;
    private volatile StreamParams params;
    private volatile boolean wasEstablished;
    private final java.util.concurrent.CompletableFuture<Void> ended = new java.util.concurrent.CompletableFuture<>();

    SoftConnection(QpEngine qp, ConnectionEvents events) {
        this.qp = qp;
        this.events = events;
    }

    void channel(Channel ch) {
        this.channel = ch;
        ch.closeFuture().addListener(f -> ended.complete(null));
        ch.closeFuture().addListener(f -> {
            if (params == null) {
                return;
            }
            if (!outcome.get()) {
                failed(CmFailure.CONNECT_ERROR, "stream closed before the initiator's first FPDU");
            }
            // the disconnect is reported by the engine once it processed the stream's end (streamEnded)
        });
    }

    public Channel channel() {
        return channel;
    }

    public QpEngine qp() {
        return qp;
    }

    /** What MPA negotiated, once established. */
    public MpaParameters mpaParameters() {
        return mpa;
    }

    /** The stream parameters the engine runs with, once established. */
    public StreamParams params() {
        return params;
    }

    MpaHandshakeHandler initiatorHandler(MpaConfig config) {
        return new MpaHandshakeHandler(new MpaInitiator(config.mpa()), new MpaHandshakeHandler.Events() {
            @Override
            public void established(ChannelHandlerContext ctx, MpaParameters p, ByteBuf leftover) {
                SoftConnection.this.established(ctx.channel(), p, true, config, leftover);
            }

            @Override
            public void request(ChannelHandlerContext ctx, MpaSetupFrame request) {
                throw new IllegalStateException("initiator got a Request");
            }

            @Override
            public void rejected(byte[] peerPrivateData) {
                if (outcome.compareAndSet(false, true)) {
                    events.rejected(peerPrivateData);
                }
            }

            @Override
            public void failed(CmFailure failure, String detail) {
                SoftConnection.this.failed(failure, detail);
            }

            @Override
            public void failed(CmFailure failure, MpaFailure mpa, String detail) {
                SoftConnection.this.failed(failure, mpa, false, detail);
            }
        });
    }

    /** Binds the QP and reports established: now (initiator) or after the first FPDU (responder). */
    void established(Channel ch, MpaParameters p, boolean initiator, MpaConfig config, ByteBuf leftover) {
        int mulpdu = config.mulpdu() > 0 ? config.mulpdu() : Mulpdu.forStream(mss(ch), p.markersTx());
        StreamParams sp = new StreamParams(p.crc(), p.markersTx(), p.markersRx(), mulpdu, p.localIrd(), p.localOrd(),
                p.rtrType(), initiator, initiator ? config.firstFpduDelayMillis() : 0, config.terminates(),
                config.transmitStallTimeoutMillis(), config.rdmapExtensions());
        this.mpa = p;
        this.params = sp;
        Runnable report = () -> {
            if (outcome.compareAndSet(false, true)) {
                wasEstablished = true;
                events.established(sp, p);
                if (!ch.isActive() && disconnected.compareAndSet(false, true)) {
                    events.disconnected();
                }
            }
        };
        try {
            qp.bind(ch, sp, MpaHandshakeHandler.NAME, leftover, initiator ? null : report, this::streamEnded);
        } catch (RuntimeException e) {
            failed(CmFailure.CONNECT_ERROR, "QP cannot be bound: " + e.getMessage());
            ch.close();
            return;
        }
        if (initiator) {
            report.run();
        } else if (p.rtrType() != io.jrnic.mpa.RtrType.NONE && config.acceptTimeoutMillis() > 0) {
            // peer-to-peer: the initiator's stack sends the RTR right after the Reply (RFC 6581), so a
            // missing one is a dead or hostile peer, not a slow application: give up at the accept timeout
            long ms = config.acceptTimeoutMillis();
            ch.eventLoop().schedule(() -> {
                if (!outcome.get()) {
                    failed(CmFailure.TIMEOUT, "no RTR from the initiator within " + ms + " ms of the Reply (RFC 6581)");
                    qp.abortStream();
                }
            }, ms, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    /** The stream's MSS (Linux TCP_MAXSEG with epoll; {@link Mulpdu#forStream} bounds it). */
    private static int mss(Channel ch) {
        int mss = DEFAULT_MSS;
        if (ch instanceof EpollSocketChannel e) {
            try {
                mss = (int) e.tcpInfo().sndMss();
            } catch (RuntimeException ignored) {
                mss = DEFAULT_MSS;
            }
        }
        return mss;
    }

    /**
     * Runs {@code r} once this connection has ended: its stream closed, or its set-up failed before there was a
     * stream (now if that already happened). The connection manager forgets the connection then.
     */
    public void whenEnded(Runnable r) {
        ended.thenRun(r);
    }

    void failed(CmFailure f, String detail) {
        if (outcome.compareAndSet(false, true)) {
            events.failed(f, detail);
        }
        endIfStreamless();
    }

    /** A set-up that failed without a stream (or whose stream is already closed) has ended. */
    private void endIfStreamless() {
        Channel ch = channel;
        if (ch == null || !ch.isOpen()) {
            ended.complete(null);
        }
    }

    /** A set-up failure with the negotiator's reason (null when none) and, for a hand-over, the stream's fate. */
    void failed(CmFailure f, MpaFailure mpa, boolean channelReturned, String detail) {
        if (outcome.compareAndSet(false, true)) {
            events.failed(f, mpa, channelReturned, detail);
        }
        if (channelReturned) {
            ended.complete(null); // the stream is the application's again
        } else {
            endIfStreamless();
        }
    }

    void rejected(byte[] peerPrivateData) {
        if (outcome.compareAndSet(false, true)) {
            events.rejected(peerPrivateData);
        }
    }

    /** Orderly close (RFC 5040 section 6): outstanding sends finish, then the stream closes. */
    public void disconnect() {
        if (params != null) {
            qp.disconnect();
        } else {
            abort();
        }
    }

    /** The engine processed the bound stream's end (the QP left RTS): the disconnect, if it was established. */
    private void streamEnded() {
        if (wasEstablished && disconnected.compareAndSet(false, true)) {
            events.disconnected();
        }
    }

    /** Abortive close: the stream closes now (the QP sees an LLP error if it was connected). */
    public void abort() {
        if (params != null) {
            qp.abortStream();
            return;
        }
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }
}
