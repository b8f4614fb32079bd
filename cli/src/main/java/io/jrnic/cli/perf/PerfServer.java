package io.jrnic.cli.perf;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectRequest;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ConnectionManager;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RemoteBuffer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
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
                t = new ServerTest(b, ctl);
            } catch (RuntimeException e) {
                ctl.ready(false, 0, "server cannot prepare " + b.test().name() + ": " + e);
                continue;
            }
            try {
                pending = t;
                ctl.ready(true, t.initialCredits(), null);
                String failure = t.runOnItsThread();
                long clientDone = t.endCount != null ? t.endCount : ctl.readEnd(b.maxNanos() / 1_000_000 + 30_000);
                if (failure == null && clientDone >= 0 && t.servedIterations >= 0 && t.servedIterations < clientDone) {
                    failure = "server saw " + t.servedIterations + " of the client's " + clientDone + " iterations";
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
        try {
            QueuePair qp = t.createQp();
            byte[] peer = req.privateData();
            t.clientBuffer = peer.length >= RemoteBuffer.WIRE_SIZE ? RemoteBuffer.parse(peer) : null;
            req.accept(qp, AcceptOptions.defaults().privateData(t.target.advertise())
                            .ird(PerfConfig.READ_DEPTH).ord(PerfConfig.READ_DEPTH))
                    .whenComplete((c, e) -> {
                        if (e != null) {
                            t.connection.completeExceptionally(e);
                        } else {
                            t.connection.complete(c);
                        }
                    });
        } catch (RuntimeException e) {
            t.connection.completeExceptionally(e);
            if (!req.isAnswered()) {
                req.reject();
            }
        }
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

    /** Server-side state of one test. */
    final class ServerTest implements AutoCloseable {
        final Control.Begin begin;
        final PerfCase test;
        final Control ctl;
        final CompletionQueue cq;
        final MemoryRegion target;
        final PerfBuffer targetBytes;
        final MemoryRegion slots;
        final PerfBuffer slotBytes;
        final int slotCount;
        final CompletableFuture<Connection> connection = new CompletableFuture<>();
        volatile RemoteBuffer clientBuffer;
        QueuePair qp;
        RecvWr[] recvs;
        Long endCount;
        /** Calls of {@link #endArrived}: it asks the control socket on every {@link #END_CHECK_EVERY}th. */
        private long endChecks;
        static final int END_CHECK_EVERY = 64;
        long servedIterations = -1;
        private boolean claimed;

        ServerTest(Control.Begin b, Control ctl) {
            this.begin = b;
            this.test = b.test();
            this.ctl = ctl;
            int size = test.size();
            if (size > PerfConfig.MAX_SIZE || b.window() < 1 || b.window() > 512) {
                throw new IllegalArgumentException("size " + size + " / window " + b.window() + " out of range");
            }
            if (!test.kind().has(test.op())) {
                throw new IllegalArgumentException("no " + test.name() + " test");
            }
            if (test.kind().virtualThreads() && !VirtualThreads.available()) {
                throw new IllegalArgumentException(VirtualThreads.NEEDS);
            }
            targetBytes = PerfBuffer.allocate(config.memory(), size);
            if (test.op() == Op.READ) {
                targetBytes.fill(0, size);
            }
            if (test.op() == Op.SEND) {
                slotCount = test.kind().bandwidth() ? PerfConfig.sendSlots(size, b.window(), test.iterations()) : 1;
            } else {
                slotCount = test.op() == Op.WRITE && test.kind().bandwidth() ? 1 : 0;
            }
            int slotSize = test.op() == Op.SEND ? size : PerfConfig.FENCE_SIZE;
            slotBytes = PerfBuffer.allocate(config.memory(), Math.max(1, slotCount * slotSize));
            cq = Cq.create(device, 4 * 512 + 64, "perf-server");
            target = targetBytes.register(pd, Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE);
            slots = slotBytes.register(pd, Access.LOCAL_WRITE);
        }

        synchronized boolean claim() {
            if (claimed) {
                return false;
            }
            claimed = true;
            return true;
        }

        long initialCredits() {
            return test.op() == Op.SEND && test.kind().bandwidth() ? slotCount : 0;
        }

        /** Creates the QP and posts the receives the test starts with, before the connection is accepted. */
        QueuePair createQp() {
            qp = pd.createQp(QpInit.rc(cq).maxSendWr(8).maxRecvWr(Math.max(1, slotCount) + 1).context(test.name()));
            int slotSize = test.op() == Op.SEND ? test.size() : PerfConfig.FENCE_SIZE;
            recvs = new RecvWr[slotCount];
            for (int i = 0; i < slotCount; i++) {
                recvs[i] = RecvWr.of(i, slots.sge(i * slotSize, slotSize));
            }
            if (slotCount > 0) {
                qp.postRecv(recvs);
            }
            return qp;
        }

        /** Waits for the client's connection, then plays the server's part; null when it passed. */
        String run() throws IOException {
            Deadline d = Deadline.in(begin.maxNanos() + 10_000_000_000L);
            try {
                // the client may finish (and send END) before the accept future completes here
                while (!connection.isDone()) {
                    if (endArrived() && endCount < 0) {
                        return "client failed before the connection was established here";
                    }
                    d.idle("the client's RDMA connection");
                }
                connection.join();
                return new ServerPart(this, d).run();
            } catch (java.util.concurrent.TimeoutException e) {
                return e.getMessage();
            } catch (java.util.concurrent.CompletionException e) {
                return "accept failed: " + e.getCause();
            }
        }

        /** {@link #run()} on a virtual thread for {@link Kind#LAT_BLOCK_VT} (like for like with the client), else here. */
        String runOnItsThread() throws IOException {
            if (!test.kind().virtualThreads()) {
                return run();
            }
            try {
                return VirtualThreads.call(this::run);
            } catch (IOException | RuntimeException e) {
                throw e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "server: interrupted";
            } catch (Exception e) {
                return "server: " + e;
            }
        }

        /**
         * Reads END if it already arrived; true once it did. Asks the control socket on every
         * {@link #END_CHECK_EVERY}th call only: the loops call this on each empty poll, and a system call there
         * per message is not part of what they measure.
         */
        boolean endArrived() throws IOException {
            if (endCount == null && (endChecks++ % END_CHECK_EVERY) == 0 && ctl.inputAvailable()) {
                endCount = ctl.readEnd(5000);
            }
            return endCount != null;
        }

        private boolean closed;

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                Connection c = connection.getNow(null);
                if (c != null) {
                    c.disconnect().get(5, TimeUnit.SECONDS);
                }
            } catch (Exception ignored) {
                // best effort; closing the QP below tears it down anyway
            }
            if (qp != null) {
                qp.close();
            }
            Cq.closeCq(cq);
            target.close();
            slots.close();
        }
    }
}
