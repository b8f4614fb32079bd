package io.jrnic.cli.perf;

import io.jrnic.verbs.ConnectRequest;
import io.jrnic.verbs.ConnectionManager;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The passive side of {@code jrnic perf}: an RDMA listener on the RDMA port and, on the baseline
 * port, the out-of-band control channel plus the raw-TCP sink and the blocking (on a platform or a virtual
 * thread) and busy-polling echoes. One control session runs one
 * test at a time; each test gets its own CQ, QP, memory regions and RDMA connection. One client at a time, as
 * iperf3: the control session that arrives while another holds the server is answered {@link Control#BUSY} to each of
 * its tests, so that no second client's test, connection or baseline traffic runs beside the first's.
 */
public final class PerfServer implements AutoCloseable {
    private final PerfConfig config;
    private final RdmaDevice device;
    private final ProtectionDomain pd;
    private final ConnectionManager cm;
    private final Listener listener;
    private final ServerSocketChannel baseline;
    private final Thread acceptor;
    private final PrintWriter log;
    private volatile ServerTest pending;
    /** Held by the one control session being served ({@link #controlSession}). */
    private final AtomicBoolean held = new AtomicBoolean();
    private volatile boolean closed;

    /**
     * Starts listening. {@code rdma} may have port 0 (ephemeral); {@code baselinePort} 0 means
     * ephemeral too, -1 means RDMA port + 1.
     */
    public PerfServer(PerfConfig config, String provider, InetSocketAddress rdma, int baselinePort, PrintWriter log)
            throws IOException {
        this.config = config;
        this.log = log;
        this.device = Rdma.open(provider);
        try {
            this.pd = device.allocatePd();
            this.cm = device.connectionManager();
            this.listener = cm.listen(rdma, config.connectOptions());
            listener.onConnectRequest(this::onConnectRequest);
            int bp = baselinePort >= 0 ? baselinePort : listener.localAddress().getPort() + 1;
            this.baseline = ServerSocketChannel.open();
            baseline.bind(new InetSocketAddress(rdma.getAddress(), bp));
        } catch (IOException | RuntimeException e) {
            device.close();
            throw e;
        }
        this.acceptor = new Thread(this::acceptLoop, "jrnic-perf-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public InetSocketAddress rdmaAddress() {
        return listener.localAddress();
    }

    public InetSocketAddress baselineAddress() throws IOException {
        return (InetSocketAddress) baseline.getLocalAddress();
    }

    /** Blocks until the server is closed (for {@code jrnic perf --server}). */
    public void join() throws InterruptedException {
        acceptor.join();
    }

    private void acceptLoop() {
        while (!closed) {
            SocketChannel ch;
            try {
                ch = baseline.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (!closed) {
                    log("accept failed: " + e);
                }
                return;
            }
            Thread t = new Thread(() -> serve(ch), "jrnic-perf-conn");
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(SocketChannel ch) {
        ScheduledFuture<?> dog = null;
        try (ch) {
            ByteBuffer kind = ByteBuffer.allocate(1);
            TcpPerf.readFully(ch, kind);
            switch (kind.get(0)) {
                case TcpPerf.SINK -> {
                    dog = TcpPerf.watchdog(ch, config.maxNanos() * 2 + 30_000_000_000L);
                    TcpPerf.sink(ch);
                }
                case TcpCrcStream.SINK -> {
                    dog = TcpPerf.watchdog(ch, config.maxNanos() * 2 + 30_000_000_000L);
                    TcpCrcStream.sink(ch);
                }
                case TcpPerf.ECHO -> {
                    dog = TcpPerf.watchdog(ch, config.maxNanos() * 2 + 30_000_000_000L);
                    TcpPerf.echo(ch);
                }
                case TcpPerf.VIRTUAL_ECHO -> {
                    dog = TcpPerf.watchdog(ch, config.maxNanos() * 2 + 30_000_000_000L);
                    if (!VirtualThreads.available()) {
                        log("a virtual-thread echo " + VirtualThreads.NEEDS);
                        return;
                    }
                    try {
                        VirtualThreads.call(() -> {
                            TcpPerf.echo(ch);
                            return null;
                        });
                    } catch (IOException | RuntimeException e) {
                        throw e;
                    } catch (Exception e) {
                        log("virtual-thread echo: " + e);
                    }
                }
                case TcpPerf.BUSY_ECHO -> {
                    dog = TcpPerf.watchdog(ch, config.maxNanos() * 2 + 30_000_000_000L);
                    TcpPerf.busyEcho(ch, config.maxNanos() * 2 + 30_000_000_000L);
                }
                case Control.CONTROL -> controlSession(new Control(ch.socket()));
                default -> log("unknown connection kind " + kind.get(0));
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                log("connection ended: " + e);
            }
        } finally {
            if (dog != null) {
                dog.cancel(false);
            }
        }
    }

    private void controlSession(Control ctl) throws IOException {
        if (!held.compareAndSet(false, true)) {
            for (Control.Begin b; !closed && (b = ctl.readBegin(30_000)) != null; ) {
                ctl.busy("the server is running another client's tests (one client at a time); try again later");
            }
            return;
        }
        try {
            serveTests(ctl);
        } finally {
            held.set(false);
        }
    }

    private void serveTests(Control ctl) throws IOException {
        while (!closed) {
            Control.Begin b = ctl.readBegin(3_600_000);
            if (b == null) {
                return;
            }
            ServerTest t;
            try {
                t = new ServerTest(config, device, pd, b, ctl);
            } catch (RuntimeException e) {
                ctl.ready(false, 0, "server cannot prepare " + b.test().name() + ": " + e);
                continue;
            }
            try {
                pending = t;
                ctl.ready(true, t.initialCredits(), null);
                String failure = t.runOnItsThread();
                long clientDone = t.endCount != null ? t.endCount : ctl.readEnd(b.maxNanos() / 1_000_000 + 30_000);
                if (failure == null && clientDone >= 0 && t.servedIterations() >= 0 && t.servedIterations() < clientDone) {
                    failure = "server saw " + t.servedIterations() + " of the client's " + clientDone + " iterations";
                }
                // tear the test down before answering: the client's next measurement (often the TCP baseline)
                // must not share the cores with this test's disconnect and close
                t.close();
                ctl.result(failure);
            } finally {
                pending = null;
                t.close();
            }
        }
    }

    /** Runs on the device's event thread: the connect request of the test prepared last. */
    private void onConnectRequest(ConnectRequest req) {
        ServerTest t = pending;
        if (t == null || !t.claim()) {
            req.reject();
            return;
        }
        t.accept(req);
    }

    private void log(String s) {
        if (log != null) {
            log.println("jrnic perf server: " + s);
            log.flush();
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            baseline.close();
        } catch (IOException ignored) {
            // closing
        }
        device.close();
    }
}
