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
    /** Clients served at the same time, at most. */
    public static final int MAX_CONCURRENT = 16;
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
     * Serves clients until {@code maxClients} arrived (0: no limit) or none arrived for {@code idleSeconds},
     * or {@link #close()}; returns the clients accepted. Each client is served on its own thread, as
     * rping's {@code -P} does, so a connection that lingers does not hold up the next client; at most
     * {@link #MAX_CONCURRENT} at a time (more are rejected). Failures go to {@code log}.
     */
    public long serve(long idleSeconds, long maxClients, PrintWriter verbose, PrintWriter log) throws InterruptedException {
        long clients = 0;
        java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(MAX_CONCURRENT);
        java.util.List<Thread> threads = new java.util.ArrayList<>();
        while (!closed && (maxClients == 0 || clients < maxClients)) {
            ConnectRequest req = requests.poll(idleSeconds, TimeUnit.SECONDS);
            if (req == null) {
                break;
            }
            long n = ++clients;
            if (!slots.tryAcquire()) {
                req.reject();
                log.println("client " + n + " rejected: " + MAX_CONCURRENT + " clients already being served");
                continue;
            }
            Thread t = new Thread(() -> {
                try {
                    serveOne(req, n, verbose, log);
                } finally {
                    slots.release();
                }
            }, "rping-client-" + n);
            t.setDaemon(true);
            t.start();
            threads.add(t);
            threads.removeIf(x -> !x.isAlive());
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(Rping.STALL_SECONDS * 2));
        }
        return clients;
    }

    private void serveOne(ConnectRequest req, long n, PrintWriter verbose, PrintWriter log) {
        try (Rping.Endpoint ep = new Rping.Endpoint(dev, false, size)) {
            String outcome;
            try {
                req.accept(ep.createQp(), AcceptOptions.defaults().ird(1).ord(1)).get(Rping.STALL_SECONDS, TimeUnit.SECONDS);
                outcome = Rping.serveClient(ep, size, verbose) + " pings";
            } catch (Exception e) {
                outcome = "failed: " + e;
            }
            synchronized (log) {
                log.println("client " + n + ": " + outcome);
                log.flush();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        dev.close();
    }
}
