package io.jrnic.cli.perf;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectRequest;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RemoteBuffer;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The server's side of one {@code jrnic perf} test: its CQ, memory regions, QP and RDMA connection, made when the
 * client's BEGIN arrives and closed when the test ends. {@link PerfServer} dispatches the connect request to it;
 * {@link ServerPart} plays the test on it and reports how many iterations it served ({@link #served}).
 */
final class ServerTest implements AutoCloseable {
    private final PerfConfig config;
    private final RdmaDevice device;
    private final ProtectionDomain pd;
    final Control.Begin begin;
    final PerfCase test;
    final Control ctl;
    final CompletionQueue cq;
    final MemoryRegion target;
    final PerfBuffer targetBytes;
    final MemoryRegion slots;
    final PerfBuffer slotBytes;
    final int slotCount;
    /** Octets per receive slot: a SEND's size, or the fence SEND after RDMA WRITEs. */
    private final int slotSize;
    final CompletableFuture<Connection> connection = new CompletableFuture<>();
    private volatile RemoteBuffer clientBuffer;
    QueuePair qp;
    RecvWr[] recvs;
    Long endCount;
    /** Calls of {@link #endArrived}: it asks the control socket on every {@link #END_CHECK_EVERY}th. */
    private long endChecks;
    static final int END_CHECK_EVERY = 64;
    private long servedIterations = -1;
    private boolean claimed;

    ServerTest(PerfConfig config, RdmaDevice device, ProtectionDomain pd, Control.Begin b, Control ctl) {
        this.config = config;
        this.device = device;
        this.pd = pd;
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
        slotSize = test.op() == Op.SEND ? size : PerfConfig.FENCE_SIZE;
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

    /**
     * Runs on the device's event thread for the connect request this test claimed: creates the QP, posts the receives
     * the test starts with, keeps the client's advertised buffer and accepts with this side's target.
     */
    void accept(ConnectRequest req) {
        try {
            QueuePair qp = createQp();
            byte[] peer = req.privateData();
            clientBuffer = peer.length >= RemoteBuffer.WIRE_SIZE ? RemoteBuffer.parse(peer) : null;
            req.accept(qp, AcceptOptions.defaults().privateData(target.advertise())
                            .ird(PerfConfig.READ_DEPTH).ord(PerfConfig.READ_DEPTH))
                    .whenComplete((c, e) -> {
                        if (e != null) {
                            connection.completeExceptionally(e);
                        } else {
                            connection.complete(c);
                        }
                    });
        } catch (RuntimeException e) {
            connection.completeExceptionally(e);
            if (!req.isAnswered()) {
                req.reject();
            }
        }
    }

    /** The client's buffer from its connect request's private data (null if it advertised none). */
    RemoteBuffer clientBuffer() {
        return clientBuffer;
    }

    /** {@link ServerPart}: how many of the client's iterations this side served (-1: not counted). */
    void served(long iterations) {
        servedIterations = iterations;
    }

    long servedIterations() {
        return servedIterations;
    }

    private QueuePair createQp() {
        qp = pd.createQp(QpInit.rc(cq).maxSendWr(8).maxRecvWr(Math.max(1, slotCount) + 1).context(test.name()));
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
