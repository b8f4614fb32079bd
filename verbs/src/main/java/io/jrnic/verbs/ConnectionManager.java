package io.jrnic.verbs;

import io.jrnic.verbs.spi.CmSpi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
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
