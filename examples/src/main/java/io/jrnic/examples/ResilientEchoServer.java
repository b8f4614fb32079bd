package io.jrnic.examples;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.AsyncEvent;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.ConnectRequest;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.QpStateException;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An echo server that survives broken connections: every SEND it receives goes back as a SEND of the same bytes.
 * What a service has to do when a peer vanishes, aborts or terminates, in one place:
 * <ul>
 * <li><b>Every WR is signaled</b>, so each one comes back exactly once: with SUCCESS, with an error, or as
 * WR_FLUSH_ERROR when its QP went to ERROR (the receives still posted are flushed, RFC 5040 section 6).</li>
 * <li><b>A post can fail</b> with {@link QpStateException}: the wire takes a QP out of RTS whenever the peer
 * terminates or goes, so no check of its state before a post holds; the server catches it where it posts and lets
 * the flush account for the rest.</li>
 * <li><b>Async events</b> ({@code QP_LLP_ERROR}, {@code QP_TERMINATE_RECEIVED}, {@code QP_LLP_CLOSED}...) say why;
 * they arrive on the device's event thread, which must not block: this server only records them.</li>
 * <li><b>The server owns its QPs</b>: a connection that ends does not close its QP. Once its connection's
 * {@code disconnected()} completed (the stream is gone, nothing of it touches the QP any more), the QP is in ERROR,
 * or in IDLE after an orderly close, where the server moves it to ERROR to flush what IDLE would keep posted. Once
 * its last outstanding WR came back, {@link QueuePair#reset()} takes ERROR to IDLE, and the QP with its registered
 * buffers waits in a pool for the next client. QPs are closed with the server.</li>
 * </ul>
 * One thread waits on the CQ with {@link CompletionQueue#take}; connect requests are accepted on the event thread
 * with a QP from the pool (or a new one).
 */
public final class ResilientEchoServer implements AutoCloseable {
    /** Receives posted per connection, and the largest message. */
    public static final int DEPTH = 8;
    public static final int SIZE = 256;
    private static final long SEND = 1L << 32;

    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final Listener listener;
    private final ArrayDeque<Slot> pool = new ArrayDeque<>();
    private final List<Slot> all = new ArrayList<>();
    private final Thread loop;
    private volatile boolean stopping;
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger echoed = new AtomicInteger();
    private final AtomicInteger flushed = new AtomicInteger();
    private final AtomicInteger resets = new AtomicInteger();
    private final ConcurrentLinkedQueue<AsyncEvent> events = new ConcurrentLinkedQueue<>();

    /** One QP with its buffers; {@code outstanding} counts the posted WRs that have not come back. */
    private static final class Slot {
        QueuePair qp;
        MemoryRegion mr;
        int outstanding;
        /** The connection's stream is gone (disconnected or failed): nothing of it touches the QP any more. */
        boolean streamGone;
    }

    public ResilientEchoServer(RdmaDevice dev, InetSocketAddress bind) {
        dev.onAsyncEvent(events::add);
        pd = dev.allocatePd();
        cq = dev.createCq(4 * DEPTH * 16);
        listener = dev.connectionManager().listen(bind, ConnectOptions.defaults());
        listener.onConnectRequest(this::accept);
        loop = new Thread(this::serve, "resilient-echo");
        loop.start();
    }

    /** Usage: {@code ResilientEchoServer [PORT]} (default 7176, on 127.0.0.1); runs until killed. */
    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 7176;
        try (RdmaDevice dev = io.jrnic.verbs.Rdma.open("soft");
             ResilientEchoServer s = new ResilientEchoServer(dev, new InetSocketAddress("127.0.0.1", port))) {
            System.out.println("echo server on " + s.address());
            while (true) {
                Thread.sleep(10_000);
                System.out.println("accepted " + s.accepted() + ", echoed " + s.echoed() + ", flushed " + s.flushed()
                        + ", QPs " + s.qpsMade() + " (reset " + s.resets() + " times)");
            }
        }
    }

    public InetSocketAddress address() {
        return listener.localAddress();
    }

    /** Connections accepted, messages echoed, WRs that came back flushed, QPs reset for reuse, QPs made. */
    public int accepted() {
        return accepted.get();
    }

    public int echoed() {
        return echoed.get();
    }

    public int flushed() {
        return flushed.get();
    }

    public int resets() {
        return resets.get();
    }

    public synchronized int qpsMade() {
        return all.size();
    }

    /** QPs in the pool, waiting for a client. */
    public synchronized int idleQps() {
        return pool.size();
    }

    /** The async events seen so far (why connections ended). */
    public List<AsyncEvent> events() {
        return List.copyOf(events);
    }

    private void accept(ConnectRequest req) {
        Slot s;
        synchronized (this) {
            s = pool.poll();
            if (s == null) {
                s = new Slot();
                s.mr = pd.register(new byte[2 * DEPTH * SIZE], Access.LOCAL_WRITE);
                s.qp = pd.createQp(QpInit.rc(cq).maxRecvWr(DEPTH).maxSendWr(DEPTH).context(s));
                all.add(s);
            }
            s.streamGone = false;
            for (int i = 0; i < DEPTH; i++) {
                post(s, i);
            }
        }
        accepted.incrementAndGet();
        Slot slot = s;
        req.accept(s.qp, AcceptOptions.defaults())
                .whenComplete((conn, failed) -> {
                    if (failed != null) {
                        streamGone(slot);
                    } else {
                        conn.disconnected().whenComplete((v, e) -> streamGone(slot));
                    }
                });
    }

    /**
     * The connection ended (or never began). A QP an orderly close left in IDLE may still hold a receive: one the
     * server posted again in the instant between the close and the post, which IDLE accepts and keeps for a next
     * connection; and a failed accept leaves every receive posted. ERROR flushes them (IDLE -> ERROR is legal), so
     * that every WR comes back and the one way into the pool is through ERROR and {@link QueuePair#reset()}.
     */
    private synchronized void streamGone(Slot s) {
        s.streamGone = true;
        if (s.qp.state() != QpState.ERROR) {
            s.qp.toError(); // IDLE, or a failed accept's QP not yet moved by its stream's abort
        }
        if (s.outstanding == 0) {
            recycle(s);
        }
    }

    private void post(Slot s, int buffer) {
        s.qp.postRecv(RecvWr.of(buffer, s.mr.sge(buffer * SIZE, SIZE)));
        s.outstanding++;
    }

    private void serve() {
        Completion[] wcs = Completion.array(32);
        while (!stopping) {
            int n;
            try {
                n = cq.take(wcs, Duration.ofMillis(100));
            } catch (InterruptedException | io.jrnic.verbs.ResourceClosedException e) {
                return;
            }
            for (int i = 0; i < n; i++) {
                completed(wcs[i]);
            }
        }
    }

    private synchronized void completed(Completion c) {
        Slot s = (Slot) c.qpContext();
        s.outstanding--;
        boolean send = (c.id() & SEND) != 0;
        int buffer = (int) c.id();
        if (c.isOk() && !send) {
            echo(s, buffer, c.byteLength());
        } else if (c.status() == CompletionStatus.WR_FLUSH_ERROR) {
            flushed.incrementAndGet();
        }
        if (s.outstanding == 0 && s.streamGone) {
            recycle(s);
        }
    }

    /**
     * Sends the bytes received into {@code buffer} back, from the second half of the region, and posts the receive
     * again at once. The wire can take the QP out of RTS at any moment (a Terminate, the stream's end), between any
     * check of its state and a post: a post then throws {@link QpStateException}, and nothing more is posted. What
     * was posted before comes back flushed, so the count of outstanding WRs stays exact.
     */
    private void echo(Slot s, int buffer, int length) {
        int out = (DEPTH + buffer) * SIZE;
        byte[] b = new byte[length];
        s.mr.memory().view().getBytes(buffer * SIZE, b);
        s.mr.memory().view().setBytes(out, b);
        try {
            s.qp.postSend(SendWr.send().id(SEND | buffer).local(s.mr.sge(out, length)).signaled());
            s.outstanding++;
            echoed.incrementAndGet();
            post(s, buffer);
        } catch (QpStateException leftRts) {
            // the connection is ending: its stream's end recycles the QP once the flushed WRs came back
        }
    }

    /** Every WR of the QP came back and its stream is gone (so the QP is in ERROR): ERROR -> IDLE, and into the pool. */
    private void recycle(Slot s) {
        s.qp.reset();
        resets.incrementAndGet();
        pool.add(s);
    }

    @Override
    public void close() throws InterruptedException {
        stopping = true;
        listener.close();
        loop.join();
        synchronized (this) {
            for (Slot s : all) {
                s.qp.close();
            }
        }
        cq.close();
        pd.close();
    }
}
