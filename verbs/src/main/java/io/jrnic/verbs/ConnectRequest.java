package io.jrnic.verbs;

import io.jrnic.verbs.spi.ConnectRequestSpi;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/** A passive connection attempt: answer with {@link #accept} or {@link #reject} exactly once. */
public final class ConnectRequest {
    private final Listener listener;
    private final ConnectRequestSpi spi;
    private final ConnectionParams offered;
    private final AtomicBoolean answered = new AtomicBoolean();

    ConnectRequest(Listener listener, ConnectRequestSpi spi) {
        this.listener = listener;
        this.spi = spi;
        this.offered = spi.offered();
    }

    public Listener listener() {
        return listener;
    }

    public InetSocketAddress remoteAddress() {
        return spi.remoteAddress();
    }

    public InetSocketAddress localAddress() {
        return spi.localAddress();
    }

    /** The initiator's application private data. */
    public byte[] privateData() {
        return offered.privateData();
    }

    /** The initiator's IRD. */
    public int ird() {
        return offered.ird();
    }

    /** The initiator's ORD. */
    public int ord() {
        return offered.ord();
    }

    public int mpaRevision() {
        return offered.mpaRevision();
    }

    public boolean crcRequested() {
        return offered.crc();
    }

    public boolean markersRequested() {
        return offered.markers();
    }

    public boolean peerToPeer() {
        return offered.peerToPeer();
    }

    public Set<RtrType> rtrTypesOffered() {
        return offered.rtrTypes();
    }

    public ConnectionParams offered() {
        return offered;
    }

    public boolean isAnswered() {
        return answered.get();
    }

    /**
     * Accepts on {@code qp} (IDLE, same device). The future completes with the connection when
     * ESTABLISHED, or exceptionally with {@link ConnectionFailedException}.
     *
     * @throws IllegalStateException already answered, or qp already connecting
     * @throws IllegalArgumentException private data above the listener's limit, IRD/ORD above device limits
     * @throws QpStateException qp not IDLE
     */
    public CompletableFuture<Connection> accept(QueuePair qp, AcceptOptions options) {
        qp.checkOpen();
        ConnectionManager cm = listener.connectionManager();
        if (qp.pd().device() != cm.device()) {
            throw new IllegalArgumentException("QP belongs to another device");
        }
        int limit = listener.options().applicationPrivateDataLimit();
        if (options.privateData().length > limit) {
            throw new IllegalArgumentException("private data " + options.privateData().length + " > " + limit);
        }
        DeviceAttributes a = cm.device().attributes();
        if (options.ird() > a.maxIrd() || options.ord() > a.maxOrd()) {
            throw new IllegalArgumentException("IRD/ORD above device limits " + a.maxIrd() + "/" + a.maxOrd());
        }
        if (qp.state() != QpState.IDLE) {
            throw new QpStateException(qp.state(), "only an IDLE QP can accept");
        }
        if (!answered.compareAndSet(false, true)) {
            throw new IllegalStateException("connect request already answered");
        }
        Connection c = new Connection(cm, qp, spi.remoteAddress(), listener.options(), false);
        qp.bind(c);
        cm.track(c);
        try {
            c.attach(spi.accept(qp.spi(), options, c.upcalls()));
        } catch (RuntimeException e) {
            qp.unbind(c);
            cm.untrack(c);
            throw e;
        }
        return c.established();
    }

    /** Rejects with private data (MPA Reply with R set). @throws IllegalStateException already answered */
    public void reject(byte[] privateData) {
        int limit = listener.options().applicationPrivateDataLimit();
        if (privateData.length > limit) {
            throw new IllegalArgumentException("private data " + privateData.length + " > " + limit);
        }
        if (!answered.compareAndSet(false, true)) {
            throw new IllegalStateException("connect request already answered");
        }
        spi.reject(privateData.clone());
    }

    public void reject() {
        reject(new byte[0]);
    }

    void rejectQuietly() {
        if (answered.compareAndSet(false, true)) {
            spi.reject(new byte[0]);
        }
    }
}
