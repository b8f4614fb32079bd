package io.jrnic.cli.perf;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.ConnectRequest;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * rping's persistent server mode ({@code -P}): one listener, clients served one after another, each on
 * its own protection domain, queue pair and buffers; a client that fails (a protocol error, a Terminate,
 * a bogus message) ends only its own connection. What {@code jrnic conform} needs from a target that
 * serves a connection per case without being restarted.
 */
public final class RpingPersistentServer implements AutoCloseable {
    private final RdmaDevice dev;
    private final Listener listener;
    private final int size;
    private final LinkedBlockingQueue<ConnectRequest> requests = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    public RpingPersistentServer(String provider, InetSocketAddress bind, int size, ConnectOptions base) {
        this.size = size;
        this.dev = Rdma.open(provider);
        try {
            listener = dev.connectionManager().listen(bind, Rping.options(base));
        } catch (RuntimeException e) {
            dev.close();
            throw e;
        }
        listener.onConnectRequest(requests::add);
    }

    public InetSocketAddress localAddress() {
        return listener.localAddress();
    }

    /**
     * Serves clients until {@code maxClients} were served (0: no limit) or none arrived for
     * {@code idleSeconds}, or {@link #close()}; returns the clients served. Failures go to {@code log}.
     */
    public long serve(long idleSeconds, long maxClients, PrintWriter verbose, PrintWriter log) throws InterruptedException {
        long clients = 0;
        while (!closed && (maxClients == 0 || clients < maxClients)) {
            ConnectRequest req = requests.poll(idleSeconds, TimeUnit.SECONDS);
            if (req == null) {
                break;
            }
            clients++;
            try (Rping.Endpoint ep = new Rping.Endpoint(dev, false, size)) {
                try {
                    req.accept(ep.createQp(), AcceptOptions.defaults().ird(1).ord(1)).get(Rping.STALL_SECONDS, TimeUnit.SECONDS);
                    long pings = Rping.serveClient(ep, size, verbose);
                    log.println("client " + clients + ": " + pings + " pings");
                } catch (Exception e) {
                    log.println("client " + clients + " failed: " + e);
                }
                log.flush();
            }
        }
        return clients;
    }

    @Override
    public void close() {
        closed = true;
        dev.close();
    }
}
