package io.jrnic.soft.net;

import io.jrnic.mpa.MpaFailure;
import io.jrnic.mpa.MpaInitiator;
import io.jrnic.mpa.MpaParameters;
import io.jrnic.mpa.MpaResponder;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.soft.engine.QpEngine;
import io.jrnic.soft.mpa.CmFailure;
import io.jrnic.soft.mpa.MpaConfig;
import io.jrnic.soft.mpa.MpaHandshakeHandler;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.WriteBufferWaterMark;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

/**
 * One stream hand-over (RDMA mode transition, RFC 5044 section 7.1: MPA set-up "at the point both
 * upper layers agreed on"): on the channel's event loop, flushes the application's pending writes (so
 * they precede the MPA Request on the wire), removes the application's handlers from the tail towards
 * the head (a removed ByteToMessageDecoder forwards its cumulation, which lands on the MPA handler
 * already at the tail: older bytes first), sets the RDMA-mode options (TCP_NODELAY, auto-read, the
 * engine's water marks), then starts MPA with {@code alreadyRead} followed by those extracted bytes.
 */
final class StreamHandOver {
    private final Channel ch;
    private final MpaConfig config;
    private final boolean initiator;
    private final boolean returnChannelOnFailure;
    private final SoftConnection conn;
    private final HandOverEvents events;
    private final Consumer<Runnable> onReturned;
    private MpaHandshakeHandler handler;
    private boolean autoRead;
    private Boolean noDelay;
    private WriteBufferWaterMark waterMark;

    /**
     * {@code onReturned}: when the stream is handed back, given the failure report to run once the
     * stream is released (null: report at once).
     */
    StreamHandOver(Channel ch, MpaConfig config, boolean initiator, boolean returnChannelOnFailure, QpEngine qp,
                   HandOverEvents events, Consumer<Runnable> onReturned) {
        this.ch = ch;
        this.config = config;
        this.initiator = initiator;
        this.returnChannelOnFailure = returnChannelOnFailure;
        this.events = events;
        this.onReturned = onReturned;
        this.conn = new SoftConnection(qp, events);
    }

    SoftConnection connection() {
        return conn;
    }

    /** On the event loop: the whole take-over; {@code alreadyRead} is released. */
    void run(ByteBuf alreadyRead) {
        if (!ch.isActive()) {
            alreadyRead.release();
            conn.failed(CmFailure.CONNECT_ERROR, null, false, "stream not connected at hand-over");
            return;
        }
        ch.flush();
        ChannelConfig cc = ch.config();
        autoRead = cc.isAutoRead();
        noDelay = cc.getOption(ChannelOption.TCP_NODELAY);
        waterMark = cc.getWriteBufferWaterMark();
        handler = new MpaHandshakeHandler(initiator ? new MpaInitiator(config.mpa()) : new MpaResponder(config.mpa()),
                new Handshake()).handOver(returnChannelOnFailure);
        ChannelPipeline p = ch.pipeline();
        List<String> names = new ArrayList<>(p.toMap().keySet());
        conn.channel(ch);
        p.addLast(MpaHandshakeHandler.NAME, handler);
        for (int i = names.size() - 1; i >= 0; i--) {
            try {
                p.remove(names.get(i)); // handlerRemoved releases what the handler holds, or forwards it to us
            } catch (NoSuchElementException gone) {
                // removed meanwhile by a neighbour's handlerRemoved
            }
        }
        cc.setOption(ChannelOption.TCP_NODELAY, true);
        cc.setWriteBufferWaterMark(SoftTransport.WATER_MARK);
        cc.setAutoRead(true);
        handler.start(alreadyRead);
    }

    /** The stream stays open: restore what {@link #run} changed, then report. */
    private void restoreThen(Runnable report) {
        ChannelConfig cc = ch.config();
        if (noDelay != null) {
            cc.setOption(ChannelOption.TCP_NODELAY, noDelay);
        }
        cc.setWriteBufferWaterMark(waterMark);
        cc.setAutoRead(autoRead);
        if (onReturned != null) {
            onReturned.accept(report);
        } else {
            report.run();
        }
    }

    private final class Handshake implements MpaHandshakeHandler.Events {
        @Override
        public void established(ChannelHandlerContext ctx, MpaParameters params, ByteBuf leftover) {
            conn.established(ctx.channel(), params, true, config, leftover);
        }

        @Override
        public void request(ChannelHandlerContext ctx, MpaSetupFrame request) {
            PendingRequest r = new PendingRequest(ch, handler, request, config, conn);
            r.startTimer();
            events.request(r);
        }

        @Override
        public void rejected(byte[] peerPrivateData) {
            conn.rejected(peerPrivateData);
        }

        @Override
        public void failed(CmFailure failure, String detail) {
            failed(failure, null, detail);
        }

        @Override
        public void failed(CmFailure failure, MpaFailure mpa, String detail) {
            if (handler.channelReturned()) {
                restoreThen(() -> conn.failed(failure, mpa, true, detail));
            } else {
                conn.failed(failure, mpa, false, detail);
            }
        }
    }

}
