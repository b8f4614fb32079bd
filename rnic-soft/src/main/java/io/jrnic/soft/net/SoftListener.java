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
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/** A passive endpoint: every accepted stream runs the responder handshake; valid Requests go to the application. */
public final class SoftListener implements AutoCloseable {
    private final MpaConfig config;
    private final Consumer<PendingRequest> onRequest;
    /**
     * Accepted streams until they close (to close those still in set-up with the listener). A plain set: a Netty
     * ChannelGroup needs an executor, and Netty's global one is a non-daemon thread that outlived the devices.
     */
    private final Set<Channel> children = ConcurrentHashMap.newKeySet();
    private volatile Channel server;
    /** Accepted streams whose Request is not answered yet, oldest first (at most {@link MpaConfig#maxPendingSetups()}). */
    private final ConcurrentLinkedDeque<Channel> pendingStreams = new ConcurrentLinkedDeque<>();
    private final AtomicInteger pending = new AtomicInteger();
    private final LongAdder evicted = new LongAdder();
    private volatile Consumer<String> onSetupFailure = reason -> { };
    /** Marks a stream reset for the limit: its closing is not counted a second time as a failed set-up. */
    private static final io.netty.util.AttributeKey<Boolean> EVICTED =
            io.netty.util.AttributeKey.valueOf(SoftListener.class, "evicted");

    /** Where accepted streams are captured (null: not), and how many were. */
    private final java.nio.file.Path capture;
    private final AtomicInteger captured = new AtomicInteger();

    SoftListener(MpaConfig config, Consumer<PendingRequest> onRequest, java.nio.file.Path capture) {
        this.config = config;
        this.onRequest = onRequest;
        this.capture = capture;
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

    /** Streams in MPA set-up now. */
    public int pendingSetups() {
        return pending.get();
    }

    /** Streams reset because {@link MpaConfig#maxPendingSetups()} newer ones were pending. */
    public long evictedSetups() {
        return evicted.sum();
    }

    /**
     * Told (on an event loop) the reason of every set-up that fails before the consumer answered the Request:
     * {@code LISTENER_FULL} for an evicted stream, else the {@link CmFailure} (e.g. {@code TIMEOUT}). After an
     * accept, failures are the connection's.
     */
    public void onSetupFailure(Consumer<String> c) {
        onSetupFailure = c;
    }

    /**
     * Admits a new stream into MPA set-up. Over the limit, the oldest pending stream is reset (RST, nothing of
     * it kept): a flood of streams that connect and stall holds at most the limit, and each stall costs its
     * sender the slot as soon as newer streams arrive, so a well-behaved client, whose set-up takes one round
     * trip, is served during the flood.
     */
    private Runnable admit(SocketChannel ch) {
        pendingStreams.addLast(ch);
        AtomicBoolean released = new AtomicBoolean();
        Runnable release = () -> {
            if (released.compareAndSet(false, true)) {
                pending.decrementAndGet();
                pendingStreams.remove(ch);
            }
        };
        ch.closeFuture().addListener(f -> release.run());
        if (pending.incrementAndGet() > config.maxPendingSetups()) {
            Channel oldest = pendingStreams.pollFirst();
            if (oldest != null) {
                evicted.increment();
                onSetupFailure.accept("LISTENER_FULL");
                oldest.attr(EVICTED).set(Boolean.TRUE);
                oldest.config().setOption(ChannelOption.SO_LINGER, 0);
                oldest.close();
            }
        }
        return release;
    }

    void initChild(SocketChannel ch) throws java.io.IOException {
        if (capture != null) {
            // first in the pipeline, before the set-up: the capture sees the stream from its first byte
            ch.pipeline().addFirst(Capture.NAME, Capture.handler(Capture.nth(capture, captured.incrementAndGet())));
        }
        Runnable release = admit(ch);
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
                req[0].onAnswered(release);
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
                if ((req[0] == null || !req[0].answered()) && ch.attr(EVICTED).get() == null) {
                    onSetupFailure.accept(failure.name());
                }
            }
        });
        ch.pipeline().addLast(MpaHandshakeHandler.NAME, h);
        children.add(ch);
        ch.closeFuture().addListener(f -> children.remove(ch));
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
