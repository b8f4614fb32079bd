package io.jrnic.soft.net;

import io.jrnic.mpa.MpaParameters;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.soft.engine.QpEngine;
import io.jrnic.soft.mpa.CmFailure;
import io.jrnic.soft.mpa.ConnectionEvents;
import io.jrnic.soft.mpa.MpaConfig;
import io.jrnic.soft.mpa.MpaHandshakeHandler;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A valid MPA Request waiting for the application (RFC 5044 section 7.1): exactly one of
 * {@link #accept} or {@link #reject}; without an answer within the accept timer the stream closes.
 */
public final class PendingRequest {
    private final Channel channel;
    private final MpaHandshakeHandler handler;
    private final MpaSetupFrame request;
    private final MpaConfig config;
    private final AtomicBoolean answered = new AtomicBoolean();
    private volatile SoftConnection connection;
    private ScheduledFuture<?> timer;
    /** Run once the Request is answered (the listener's pending set-up count). */
    private Runnable onAnswered = () -> { };

    PendingRequest(Channel channel, MpaHandshakeHandler handler, MpaSetupFrame request, MpaConfig config) {
        this(channel, handler, request, config, null);
    }

    /** Hand-over: the connection exists from the start and {@code accept} completes it. */
    PendingRequest(Channel channel, MpaHandshakeHandler handler, MpaSetupFrame request, MpaConfig config,
                   SoftConnection existing) {
        this.channel = channel;
        this.handler = handler;
        this.request = request;
        this.config = config;
        this.connection = existing;
    }

    boolean answered() {
        return answered.get();
    }

    void onAnswered(Runnable r) {
        onAnswered = r;
    }

    void startTimer() {
        timer = channel.eventLoop().schedule(() -> {
            if (answered.compareAndSet(false, true)) {
                channel.close();
                onAnswered.run();
            }
        }, config.acceptTimeoutMillis(), TimeUnit.MILLISECONDS);
    }

    /** The initiator's Request. */
    public MpaSetupFrame request() {
        return request;
    }

    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) channel.remoteAddress();
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** The listener's options. */
    public MpaConfig config() {
        return config;
    }

    /**
     * Sends the Reply (private data, IRD, ORD before the relaxed adjustment), binds {@code qp}
     * (CONNECTED), and reports established after the initiator's first FPDU (RFC 5044 section 7.1).
     *
     * @throws IllegalStateException when already answered or timed out
     */
    public SoftConnection accept(QpEngine qp, byte[] privateData, int ird, int ord, ConnectionEvents events) {
        if (!answered.compareAndSet(false, true)) {
            throw new IllegalStateException("request already answered (or timed out)");
        }
        onAnswered.run();
        SoftConnection existing = connection;
        SoftConnection conn = existing != null ? existing : new SoftConnection(qp, events);
        connection = conn;
        channel.eventLoop().execute(() -> {
            cancelTimer();
            if (!channel.isActive()) {
                conn.failed(CmFailure.CONNECT_ERROR, "stream closed before accept");
                return;
            }
            MpaParameters p;
            try {
                p = handler.accept(privateData, ird, ord);
            } catch (IllegalArgumentException | IllegalStateException e) {
                // bad private data or IRD/ORD, or the set-up already failed (e.g. the timing rule)
                conn.failed(CmFailure.CONNECT_ERROR, e.getMessage());
                channel.close();
                return;
            }
            if (p == null) {
                return; // the handler reported the failure (Terminate sent) through streamFailed
            }
            if (existing == null) {
                conn.channel(channel);
            }
            ByteBuf leftover = handler.takeLeftover();
            conn.established(channel, p, false, config, leftover);
        });
        return conn;
    }

    /** Sends a Reply with R set and {@code privateData}, then closes (RFC 5044 section 7.1). */
    public void reject(byte[] privateData) {
        if (!answered.compareAndSet(false, true)) {
            throw new IllegalStateException("request already answered (or timed out)");
        }
        onAnswered.run();
        channel.eventLoop().execute(() -> {
            cancelTimer();
            handler.reject(privateData);
        });
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
