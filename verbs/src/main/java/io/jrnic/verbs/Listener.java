package io.jrnic.verbs;

import io.jrnic.verbs.spi.ConnectRequestSpi;
import io.jrnic.verbs.spi.ListenerSpi;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A listening endpoint. Connect requests go to {@link #onConnectRequest} on the device event thread;
 * requests arriving before a handler is set are held and delivered when it is. Closing it stops
 * listening and rejects requests not yet answered.
 */
public final class Listener extends Resource {
    private final ConnectionManager cm;
    private final ConnectOptions options;
    private final List<ConnectRequest> pending = new ArrayList<>();
    private volatile ListenerSpi spi;
    private Consumer<ConnectRequest> handler;

    Listener(ConnectionManager cm, ConnectOptions options) {
        super(cm, "Listener");
        this.cm = cm;
        this.options = options;
    }

    void start(ListenerSpi s) {
        this.spi = s;
    }

    public ConnectOptions options() {
        return options;
    }

    public ConnectionManager connectionManager() {
        return cm;
    }

    /** The bound address, with the real port. */
    public InetSocketAddress localAddress() {
        checkOpen();
        return spi.localAddress();
    }

    /** Sets the handler; each request must be answered with accept or reject exactly once. */
    public Listener onConnectRequest(Consumer<ConnectRequest> h) {
        checkOpen();
        List<ConnectRequest> drained;
        synchronized (this) {
            handler = h;
            drained = new ArrayList<>(pending);
            pending.clear();
        }
        for (ConnectRequest r : drained) {
            cm.dispatcher().dispatch(() -> h.accept(r));
        }
        return this;
    }

    void offer(ConnectRequestSpi req) {
        ConnectRequest r = new ConnectRequest(this, req);
        Consumer<ConnectRequest> h;
        synchronized (this) {
            if (isClosedFlag()) {
                h = null;
            } else {
                h = handler;
                if (h == null) {
                    pending.add(r);
                    return;
                }
            }
        }
        if (h == null) {
            r.rejectQuietly();
        } else {
            cm.dispatcher().dispatch(() -> h.accept(r));
        }
    }

    @Override
    void release() {
        List<ConnectRequest> drained;
        synchronized (this) {
            drained = new ArrayList<>(pending);
            pending.clear();
        }
        for (ConnectRequest r : drained) {
            r.rejectQuietly();
        }
        ListenerSpi s = spi;
        if (s != null) {
            s.close();
        }
    }
}
