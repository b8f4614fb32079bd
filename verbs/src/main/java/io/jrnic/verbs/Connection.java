package io.jrnic.verbs;

import io.jrnic.verbs.spi.ConnectionSpi;
import io.jrnic.verbs.spi.ConnectionUpcalls;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * An RDMA connection (one QP bound to one MPA stream). Futures complete on the device event thread.
 * {@link #close()} is an orderly {@link #disconnect()}; it does not close the QP.
 */
public final class Connection implements AutoCloseable {
    /** Lifecycle, advanced only forward. */
    public enum State { CONNECTING, ESTABLISHED, FAILED, DISCONNECTED }

    private final ConnectionManager cm;
    private final QueuePair qp;
    private final InetSocketAddress remote;
    private final ConnectOptions options;
    private final boolean active;
    private final CompletableFuture<Connection> established = new CompletableFuture<>();
    private final CompletableFuture<Void> disconnected = new CompletableFuture<>();
    private ConnectionSpi spi;
    private boolean disconnectRequested;
    private boolean abortRequested;
    private volatile State state = State.CONNECTING;
    private volatile ConnectionParams params;

    Connection(ConnectionManager cm, QueuePair qp, InetSocketAddress remote, ConnectOptions options, boolean active) {
        this.cm = cm;
        this.qp = qp;
        this.remote = remote;
        this.options = options;
        this.active = active;
    }

    public QueuePair queuePair() {
        return qp;
    }

    /** The QP's context. */
    public Object context() {
        return qp.context();
    }

    /** True on the side that called connect. */
    public boolean isActive() {
        return active;
    }

    public State state() {
        return state;
    }

    public InetSocketAddress remoteAddress() {
        return remote;
    }

    public synchronized InetSocketAddress localAddress() {
        return spi == null ? null : spi.localAddress();
    }

    /** The options this side used (the listener's for a passive connection). */
    public ConnectOptions options() {
        return options;
    }

    /** Negotiated values; null before ESTABLISHED. */
    public ConnectionParams params() {
        return params;
    }

    /** The peer's application private data (empty before ESTABLISHED). */
    public byte[] peerPrivateData() {
        ConnectionParams p = params;
        return p == null ? new byte[0] : p.privateData();
    }

    public int ird() {
        return requireParams().ird();
    }

    public int ord() {
        return requireParams().ord();
    }

    public boolean crc() {
        return requireParams().crc();
    }

    public boolean markers() {
        return requireParams().markers();
    }

    private ConnectionParams requireParams() {
        ConnectionParams p = params;
        if (p == null) {
            throw new IllegalStateException("connection not established");
        }
        return p;
    }

    public CompletableFuture<Connection> established() {
        return established;
    }

    public CompletableFuture<Void> disconnected() {
        return disconnected;
    }

    /** Orderly close; the future completes at DISCONNECTED. Idempotent. */
    public CompletableFuture<Void> disconnect() {
        ConnectionSpi s;
        synchronized (this) {
            if (state == State.DISCONNECTED || state == State.FAILED || disconnectRequested) {
                return disconnected;
            }
            disconnectRequested = true;
            s = spi;
        }
        if (s != null) {
            s.disconnect();
        }
        return disconnected;
    }

    @Override
    public void close() {
        disconnect();
    }

    void abort() {
        ConnectionSpi s;
        synchronized (this) {
            if (state == State.DISCONNECTED || state == State.FAILED || abortRequested) {
                return;
            }
            abortRequested = true;
            s = spi;
        }
        if (s != null) {
            s.abort();
        }
    }

    void attach(ConnectionSpi s) {
        boolean d;
        boolean a;
        synchronized (this) {
            spi = s;
            d = disconnectRequested;
            a = abortRequested;
        }
        if (a) {
            s.abort();
        } else if (d) {
            s.disconnect();
        }
    }

    void qpClosed() {
        abort();
    }

    private synchronized void advance(State from, State to) {
        if (state != from) {
            throw new IllegalStateException("connection upcall " + to + " in state " + state);
        }
        state = to;
    }

    ConnectionUpcalls upcalls() {
        return new ConnectionUpcalls() {
            @Override
            public void established(ConnectionParams negotiated) {
                advance(State.CONNECTING, State.ESTABLISHED);
                params = negotiated;
                Observe.established(Connection.this, negotiated);
                cm.emit(new CmEvent(CmEventType.ESTABLISHED, Connection.this, qp.context(), negotiated.privateData(), null));
                cm.dispatcher().dispatch(() -> established.complete(Connection.this));
            }

            @Override
            public void rejected(byte[] privateData) {
                fail(CmEventType.REJECTED, privateData, null);
            }

            @Override
            public void failed(CmEventType type, Throwable cause) {
                if (type == CmEventType.ESTABLISHED || type == CmEventType.DISCONNECTED || type == CmEventType.REJECTED) {
                    throw new IllegalArgumentException("failed() takes UNREACHABLE, CONNECT_ERROR or TIMEOUT, not " + type);
                }
                fail(type, null, cause);
            }

            private void fail(CmEventType type, byte[] pd, Throwable cause) {
                advance(State.CONNECTING, State.FAILED);
                Observe.failed(Connection.this, type, cause);
                qp.unbind(Connection.this);
                cm.untrack(Connection.this);
                cm.emit(new CmEvent(type, Connection.this, qp.context(), pd, cause));
                ConnectionFailedException ex = new ConnectionFailedException(type, pd, cause);
                cm.dispatcher().dispatch(() -> {
                    established.completeExceptionally(ex);
                    disconnected.complete(null);
                });
            }

            @Override
            public void disconnected() {
                advance(State.ESTABLISHED, State.DISCONNECTED);
                Observe.disconnected(Connection.this);
                qp.unbind(Connection.this);
                cm.untrack(Connection.this);
                cm.emit(new CmEvent(CmEventType.DISCONNECTED, Connection.this, qp.context(), null, null));
                cm.dispatcher().dispatch(() -> disconnected.complete(null));
            }
        };
    }

    @Override
    public String toString() {
        return "Connection[" + state + " remote=" + remote + " qp=" + qp + "]";
    }
}
