package io.jrnic.verbs;

import io.jrnic.verbs.spi.CmSpi;
import io.jrnic.verbs.spi.ConnectRequestSpi;
import io.jrnic.verbs.spi.ConnectionUpcalls;
import io.jrnic.verbs.spi.HandOverUpcalls;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Connection manager in the librdmacm model, for IPv4 and IPv6 alike: passive side
 * {@link #listen}, active side {@link #connect}; events to {@link #onEvent} on the device event thread.
 * Closing it closes its listeners and aborts its connections (QPs stay open, in ERROR).
 */
public final class ConnectionManager extends Resource {
    private final RdmaDevice device;
    private final CmSpi spi;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private volatile Consumer<CmEvent> handler;

    ConnectionManager(RdmaDevice device, CmSpi spi) {
        super(device, "ConnectionManager");
        this.device = device;
        this.spi = spi;
    }

    @Override
    int closeRank() {
        return 0;
    }

    public RdmaDevice device() {
        return device;
    }

    /** Receives every CM event of this manager's connections (ESTABLISHED, REJECTED, ..., DISCONNECTED). */
    public ConnectionManager onEvent(Consumer<CmEvent> h) {
        this.handler = h;
        return this;
    }

    /**
     * Listens on {@code local} (port 0: ephemeral, see {@link Listener#localAddress()}).
     * @throws UncheckedIOException when binding fails
     * @throws IllegalArgumentException options beyond device limits
     */
    public Listener listen(InetSocketAddress local, ConnectOptions options) {
        checkOpen();
        checkOptions(options);
        Listener l = new Listener(this, options);
        try {
            l.start(spi.listen(local, options, l::offer));
        } catch (IOException e) {
            l.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            l.close();
            throw e;
        }
        return l;
    }

    /**
     * Connects {@code qp} (IDLE, this device, not already connecting) to {@code remote}. The future
     * completes, on the device event thread, with the connection once ESTABLISHED (QP in RTS), or
     * exceptionally with {@link ConnectionFailedException} (REJECTED, UNREACHABLE, CONNECT_ERROR, TIMEOUT).
     *
     * @throws QpStateException qp not IDLE
     * @throws IllegalStateException qp already bound to a connection
     * @throws IllegalArgumentException qp of another device, options beyond device limits
     */
    public CompletableFuture<Connection> connect(InetSocketAddress remote, QueuePair qp, ConnectOptions options) {
        checkOpen();
        qp.checkOpen();
        if (qp.pd().device() != device) {
            throw new IllegalArgumentException("QP belongs to another device");
        }
        checkOptions(options);
        Connection c = new Connection(this, qp, remote, options, true);
        qp.bind(c);
        connections.add(c);
        try {
            c.attach(spi.connect(remote, qp.spi(), options, c.upcalls()));
        } catch (RuntimeException e) {
            qp.unbind(c);
            connections.remove(c);
            throw e;
        }
        return c.established();
    }

    /**
     * Hands an already connected TCP stream in streaming mode over to RDMA mode on {@code qp}
     * (the OpenRDMA "RDMA mode transition"; MPA set-up on the same stream, RFC 5044 section 7.1).
     * The bytes between {@code alreadyRead}'s position and limit (what the application read beyond its
     * last streaming-mode message: part of the peer's set-up frame, or more) are copied and fed to MPA
     * before any byte read from the stream; its position is advanced to its limit. Everything the
     * application wrote must already be written (a {@code SocketChannel} has no pending writes of
     * its own). From this call the provider owns {@code channel}: stop reading and writing it, and cancel
     * any selection key of yours. TCP_NODELAY is set. The future completes on the device event thread
     * with the connection once ESTABLISHED (QP in RTS), or exceptionally with
     * {@link HandOverFailedException} (the channel is then closed, or handed back open when
     * {@link HandOverOptions#returnChannelOnFailure} allowed it and nothing was consumed).
     *
     * @throws IllegalArgumentException channel not connected, qp of another device, options beyond device limits
     * @throws QpStateException qp not IDLE
     * @throws IllegalStateException qp already bound to a connection
     * @throws UnsupportedOperationException the provider cannot take over a stream
     */
    public CompletableFuture<Connection> handOver(SocketChannel channel, ByteBuffer alreadyRead, QueuePair qp,
                                                  HandOverOptions options) {
        if (!channel.isOpen() || !channel.isConnected()) {
            throw new IllegalArgumentException("channel not connected: " + channel);
        }
        InetSocketAddress remote;
        try {
            remote = (InetSocketAddress) channel.getRemoteAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ByteBuf bytes = Unpooled.EMPTY_BUFFER;
        if (alreadyRead != null && alreadyRead.hasRemaining()) {
            bytes = Unpooled.buffer(alreadyRead.remaining());
            bytes.writeBytes(alreadyRead);
        }
        return handOverStream(channel, remote, bytes, qp, options);
    }

    /**
     * Provider-specific hand-over front ends (e.g. rnic-soft's {@code SoftHandOver} for a Netty
     * {@code Channel}) call this; applications use their typed entry or {@link #handOver}.
     * {@code alreadyRead} is always released by this call, even when it throws.
     */
    public CompletableFuture<Connection> handOverStream(Object stream, InetSocketAddress remote, ByteBuf alreadyRead,
                                                        QueuePair qp, HandOverOptions options) {
        Connection c;
        try {
            checkOpen();
            qp.checkOpen();
            if (qp.pd().device() != device) {
                throw new IllegalArgumentException("QP belongs to another device");
            }
            if (qp.state() != QpState.IDLE) {
                throw new QpStateException(qp.state(), "only an IDLE QP can take over a stream");
            }
            checkOptions(options.connectOptions());
            c = new Connection(this, qp, remote, options.connectOptions(), options.isInitiator());
            qp.bind(c);
        } catch (RuntimeException e) {
            alreadyRead.release();
            throw e;
        }
        connections.add(c);
        AtomicReference<byte[]> rejectedLocally = new AtomicReference<>();
        ConnectionUpcalls base = c.upcalls();
        HandOverUpcalls up = new HandOverUpcalls() {
            @Override
            public void connectRequest(ConnectRequestSpi request) {
                dispatcher().dispatch(() -> decide(request, options, qp, c, this, base, rejectedLocally));
            }

            @Override
            public void established(ConnectionParams negotiated) {
                base.established(negotiated);
            }

            @Override
            public void rejected(byte[] privateData) {
                base.rejected(privateData);
            }

            @Override
            public void failed(CmEventType type, Throwable cause) {
                base.failed(type, cause);
            }

            @Override
            public void disconnected() {
                base.disconnected();
            }
        };
        try {
            c.attach(spi.handOver(stream, alreadyRead, qp.spi(), options, up));
        } catch (RuntimeException e) {
            qp.unbind(c);
            connections.remove(c);
            throw e;
        }
        return c.established().handle((conn, e) -> {
            if (e == null) {
                return conn;
            }
            throw new CompletionException(handOverFailure(e, rejectedLocally.get()));
        });
    }

    private void decide(ConnectRequestSpi request, HandOverOptions options, QueuePair qp, Connection c,
                        HandOverUpcalls up, ConnectionUpcalls base, AtomicReference<byte[]> rejectedLocally) {
        HandOverVerdict v;
        try {
            v = options.decider().decide(request.offered());
            int limit = options.connectOptions().applicationPrivateDataLimit();
            byte[] pd = v.isAccept() ? v.acceptOptions().privateData() : v.rejectPrivateData();
            if (pd.length > limit) {
                throw new IllegalArgumentException("private data " + pd.length + " > " + limit);
            }
            DeviceAttributes a = device.attributes();
            if (v.isAccept() && (v.acceptOptions().ird() > a.maxIrd() || v.acceptOptions().ord() > a.maxOrd())) {
                throw new IllegalArgumentException("IRD/ORD above device limits " + a.maxIrd() + "/" + a.maxOrd());
            }
        } catch (RuntimeException e) {
            rejectedLocally.set(new byte[0]);
            request.reject(new byte[0]);
            base.failed(CmEventType.CONNECT_ERROR, new MpaSetupException("REJECTED_LOCALLY", -1, false,
                    "the decider failed: " + e));
            return;
        }
        if (v.isAccept()) {
            request.accept(qp.spi(), v.acceptOptions(), up);
        } else {
            rejectedLocally.set(v.rejectPrivateData());
            request.reject(v.rejectPrivateData());
            base.rejected(v.rejectPrivateData());
        }
    }

    private static HandOverFailedException handOverFailure(Throwable e, byte[] rejectedLocally) {
        Throwable t = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (!(t instanceof ConnectionFailedException f)) {
            return new HandOverFailedException(CmEventType.CONNECT_ERROR, "LOCAL", -1, null, false, t);
        }
        if (f.getCause() instanceof MpaSetupException m) {
            return new HandOverFailedException(f.type(), m.reason(), m.llpErrorCode(), f.privateData(),
                    m.channelReturned(), m);
        }
        if (f.type() == CmEventType.REJECTED) {
            return rejectedLocally != null
                    ? new HandOverFailedException(f.type(), "REJECTED_LOCALLY", -1, rejectedLocally, false, f)
                    : new HandOverFailedException(f.type(), "REJECTED_BY_PEER", -1, f.privateData(), false, f);
        }
        return new HandOverFailedException(f.type(), f.type().name(), -1, f.privateData(), false, f.getCause());
    }

    void checkOptions(ConnectOptions o) {
        DeviceAttributes a = device.attributes();
        if (o.ird() > a.maxIrd() || o.ord() > a.maxOrd()) {
            throw new IllegalArgumentException("IRD/ORD " + o.ird() + "/" + o.ord() + " above device limits "
                    + a.maxIrd() + "/" + a.maxOrd());
        }
        if (o.markers() && !a.has(DeviceCapability.MARKERS)) {
            throw new IllegalArgumentException("device does not support MPA markers");
        }
    }

    void track(Connection c) {
        connections.add(c);
    }

    void untrack(Connection c) {
        connections.remove(c);
    }

    void emit(CmEvent ev) {
        Consumer<CmEvent> h = handler;
        if (h != null) {
            device.dispatcher().dispatch(() -> h.accept(ev));
        }
    }

    EventDispatcher dispatcher() {
        return device.dispatcher();
    }

    @Override
    void release() {
        for (Connection c : connections.toArray(new Connection[0])) {
            c.abort();
        }
        connections.clear();
        spi.close();
    }
}
