package io.jrnic.cli.perf;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ConnectionManager;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RemoteBuffer;
import io.jrnic.verbs.SendWr;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The active side of {@code jrnic perf}: per test, registers its buffers ({@link PerfBuffer}: direct memory or heap
 * arrays, as {@link PerfConfig#memory()} says), connects a fresh QP to the
 * {@link PerfServer} (its landing buffer's descriptor in the MPA private data, the server's target
 * buffer's in the reply), runs the loop and verifies the data.
 *
 * <p>Bandwidth: a window of reusable work requests, posted as the row says ({@link Kind#BW}: lists of
 * {@link PerfCase#postList()} per post call, one signaled per {@link PerfCase#cqMod()}; {@link Kind#BW_MSG}: one per
 * post call, each signaled), completions polled in batches; SEND is flow-controlled by the receives the server says it
 * posted (credits on the control channel), since iWARP has no receiver-not-ready retry. Time runs from
 * the first post to the last completion. Latency ({@link LatClient}): WRITE as ib_write_lat (both sides poll the last byte
 * of their buffer), SEND as a SEND/RECV ping-pong (both half a round trip), READ one at a time (whole);
 * {@link Kind#LAT} polls memory and the CQ (never blocking), {@link Kind#LAT_BLOCK} waits on the completion
 * channel at once (SEND and READ only), {@link Kind#LAT_BLOCK_VT} likewise on a virtual thread. Both sides wait the same way ({@link Cq.Wait}).
 */
public final class RdmaPerf implements AutoCloseable {
    /** What one test produced on the RDMA side. */
    public record Outcome(BwFigure bw, LatFigure lat, String failure, String note) {
    }

    /** A wait with no progress for this long fails the test (a stalled engine must not cost the whole cap). */
    static final long STALL_NANOS = 10_000_000_000L;

    private final PerfConfig config;
    private final InetSocketAddress rdma;
    private final RdmaDevice device;
    private final ProtectionDomain pd;
    private final ConnectionManager cm;
    private final Control ctl;
    private int mulpdu;
    private String busy;

    public RdmaPerf(PerfConfig config, String provider, InetSocketAddress rdma, InetSocketAddress control)
            throws IOException {
        this.config = config;
        this.rdma = rdma;
        this.ctl = Control.connect(control, 10_000);
        try {
            this.device = Rdma.open(provider);
        } catch (RuntimeException e) {
            ctl.close();
            throw e;
        }
        this.pd = device.allocatePd();
        this.cm = device.connectionManager();
    }

    /** Runs one test end to end (never throws for a failing test: the failure is in the outcome). */
    public Outcome run(PerfCase test) {
        String failure = null;
        String note = null;
        BwFigure bw = null;
        LatFigure lat = null;
        long done = 0;
        try {
            ctl.begin(test, config.window(), config.maxNanos());
            Control.Reply ready = ctl.readReply(30_000);
            if (ready.type() == Control.BUSY) {
                busy = "server busy: " + ready.detail();
                return new Outcome(null, null, busy, null);
            }
            if (ready.type() != Control.READY || !ready.ok()) {
                return new Outcome(null, null, "server: " + ready.detail(), null);
            }
            try (ClientTest t = new ClientTest(test, ready.credits())) {
                try {
                    t.connect();
                    mulpdu = TcpCrcStream.frameFor(t.qp, config.mulpdu(), config.markers());
                    Loop l = new Loop(t);
                    if (test.kind().bandwidth()) {
                        bw = l.bandwidth();
                    } else if (test.kind().virtualThreads()) {
                        lat = VirtualThreads.call(l::latency);
                    } else {
                        lat = l.latency();
                    }
                    done = l.done;
                    note = l.capped ? "capped at " + config.maxSeconds() + " s" : null;
                    failure = l.verify();
                } catch (IOException e) {
                    throw e; // the control channel: reported below, as "control: ..."
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure = "client: interrupted";
                } catch (Exception e) { // TimeoutException, ExecutionException, RuntimeException (also from a virtual thread)
                    failure = "client: " + describe(e);
                } finally {
                    ctl.end(done, failure == null);
                }
                Control.Reply res = awaitResult();
                if (failure == null && !res.ok()) {
                    failure = res.detail();
                }
            }
        } catch (IOException | RuntimeException e) {
            failure = failure != null ? failure : "control: " + describe(e);
        }
        return new Outcome(failure == null ? bw : null, failure == null ? lat : null, failure, note);
    }

    /** Null, or why the server refused this client ({@link Control#BUSY}): every test would be refused the same. */
    String busy() {
        return busy;
    }

    /** The MULPDU the last test's connection sends with: {@code --mulpdu}, or its stream's as the soft RNIC derives it (0: unknown). */
    int mulpdu() {
        return mulpdu;
    }

    private Control.Reply awaitResult() throws IOException {
        long until = System.nanoTime() + config.maxNanos() + 30_000_000_000L;
        while (true) {
            Control.Reply r = ctl.readReply(Math.max(1, (until - System.nanoTime()) / 1_000_000));
            if (r.type() == Control.RESULT) {
                return r;
            }
        }
    }

    static String describe(Throwable e) {
        Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return c.getMessage() != null ? c.getClass().getSimpleName() + ": " + c.getMessage() : c.toString();
    }

    @Override
    public void close() {
        try {
            ctl.bye();
        } catch (IOException ignored) {
            // the server notices the closed channel
        }
        ctl.close();
        device.close();
    }

    /** Client-side resources of one test. */
    final class ClientTest implements AutoCloseable {
        final PerfCase test;
        final int size;
        final int window;
        long credits;
        final CompletionQueue cq;
        final PerfBuffer srcBytes;
        final PerfBuffer landingBytes;
        final MemoryRegion src;
        final MemoryRegion landing;
        final QueuePair qp;
        Connection conn;
        RemoteBuffer peer;

        ClientTest(PerfCase test, long credits) {
            this.test = test;
            this.size = test.size();
            this.window = test.op() == Op.READ ? Math.min(config.window(), PerfConfig.READ_DEPTH) : config.window();
            this.credits = test.op() == Op.SEND && test.kind().bandwidth() ? credits : Long.MAX_VALUE;
            srcBytes = PerfBuffer.allocate(config.memory(), Math.max(size, PerfConfig.FENCE_SIZE));
            srcBytes.fill(0, size);
            landingBytes = PerfBuffer.allocate(config.memory(), size);
            cq = Cq.create(device, 4 * 512 + 64, "perf-client");
            src = srcBytes.register(pd, Access.LOCAL_WRITE);
            landing = landingBytes.register(pd, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            qp = pd.createQp(QpInit.rc(cq).maxSendWr(window + 2).maxRecvWr(2).context(test.name()));
        }

        void connect() throws InterruptedException, ExecutionException, TimeoutException {
            conn = cm.connect(rdma, qp, config.clientConnectOptions().privateData(landing.advertise()))
                    .get(20, TimeUnit.SECONDS);
            byte[] p = conn.peerPrivateData();
            if (p.length < RemoteBuffer.WIRE_SIZE) {
                throw new IllegalStateException("server sent " + p.length + " bytes of private data, no buffer descriptor");
            }
            peer = RemoteBuffer.parse(p);
            if (peer.length() < size) {
                throw new IllegalStateException("server buffer " + peer + " smaller than " + size);
            }
        }

        @Override
        public void close() {
            try {
                if (conn != null) {
                    conn.disconnect().get(5, TimeUnit.SECONDS);
                }
            } catch (Exception ignored) {
                // best effort; closing the QP tears it down anyway
            }
            qp.close();
            Cq.closeCq(cq);
            src.close();
            landing.close();
        }
    }

    /** The client's loops. */
    final class Loop {
        private final ClientTest t;
        private final Cq cq;
        private final int size;
        private final Deadline cap;
        private final Deadline hang;
        long done;
        boolean capped;

        Loop(ClientTest t) {
            this.t = t;
            this.cq = new Cq(t.cq, Cq.Wait.of(t.test.kind()));
            this.size = t.size;
            this.cap = Deadline.in(config.maxNanos());
            this.hang = Deadline.in(config.maxNanos() + 10_000_000_000L).stall(STALL_NANOS);
        }

        /**
         * The bandwidth loop in the row's posting shape: lists of {@code postList} WRs per post call (the last list
         * shorter), one signaled per {@code cqMod} and the last of any list after which no whole list fits (window or
         * SEND credits), so that a completion always comes to make room; per-message rows post each WR alone,
         * signaled. At the cap it stops at a signaled WR (posting one more, signaled, if the last was not).
         */
        BwFigure bandwidth() throws TimeoutException, IOException {
            long iters = t.test.iterations();
            int w = t.window;
            int list = Math.min(t.test.postList(), w);
            int mod = Math.min(t.test.cqMod(), w);
            SendWr[] ring = new SendWr[w];
            for (int i = 0; i < w; i++) {
                ring[i] = switch (t.test.op()) {
                    case WRITE -> SendWr.rdmaWrite().local(t.src.sge(0, size)).remote(t.peer, 0);
                    case READ -> SendWr.rdmaRead().local(t.landing.sge(0, size)).remote(t.peer, 0);
                    case SEND -> SendWr.send().local(t.src.sge(0, size));
                };
            }
            SendWr[][] lists = new SendWr[list + 1][]; // one array per list length, made once: no allocation per post
            for (int n = 2; n <= list; n++) {
                lists[n] = new SendWr[n];
            }
            long posted = 0;
            long lastSignaled = -1;
            // what a timeout names: two reused descriptions whose numbers are set at each idle and formatted only if
            // the wait times out (a string built per empty poll cost ~4 % of the CPU; one per idle streak, still one
            // per completed batch)
            Waiting completions = new Waiting(t.test.name() + ": completion ", " of ", "");
            Waiting credited = new Waiting(t.test.name() + ": completion ", " of ", " (waiting for SEND credits)");
            CpuClock.Sample c0 = CpuClock.now();
            long t0 = System.nanoTime(); // after the sample, whose /proc/stat read is not the run's time
            long tLast = t0;
            while (done < posted || (posted < iters && !capped)) {
                if (!capped && cap.expired()) {
                    capped = true;
                }
                int k = 0;
                if (posted < iters && (!capped || lastSignaled < posted - 1)) {
                    if (posted >= t.credits) {
                        t.credits += ctl.pollCredits();
                    }
                    long windowRoom = w - (posted - done);
                    long room = Math.min(Math.min(windowRoom, iters - posted), t.credits - posted);
                    long want = capped ? 1 : Math.min(list, iters - posted);
                    boolean creditBound = t.credits - posted < Math.min(want, windowRoom);
                    if (room >= want || (creditBound && room > 0)) {
                        k = (int) Math.min(want, room);
                        long after = posted + k;
                        boolean noWholeListNext = after < iters && (w - (after - done) < list || t.credits - after < list);
                        SendWr[] batch = k == 1 ? null : lists[k];
                        for (int j = 0; j < k; j++, posted++) {
                            boolean sig = posted % mod == mod - 1 || posted == iters - 1 || capped
                                    || (j == k - 1 && noWholeListNext);
                            SendWr wr = ring[(int) (posted % w)];
                            wr.id(posted).signaled(sig);
                            if (sig) {
                                lastSignaled = posted;
                            }
                            if (batch == null) {
                                t.qp.postSend(wr);
                            } else {
                                batch[j] = wr;
                            }
                        }
                        if (batch != null) {
                            t.qp.postSend(batch);
                        }
                    }
                }
                int n = cq.poll();
                for (int i = 0; i < n; i++) {
                    Completion c = cq.batch[i];
                    if (!Cq.isRecv(c)) {
                        done = c.id() + 1;
                    }
                }
                if (n > 0) {
                    tLast = System.nanoTime();
                    hang.progress();
                } else if (k == 0) {
                    if (posted < iters && posted >= t.credits) {
                        hang.idle(credited.at(done, posted)); // credits come by the control channel
                    } else {
                        cq.idle(hang, completions.at(done, posted));
                    }
                }
            }
            CpuClock.Use used = CpuClock.between(c0, CpuClock.now()); // up to the last completion and its poll
            if (t.test.op() == Op.WRITE) {
                fence();
            }
            return new BwFigure(done, size, Math.max(1, tLast - t0), used);
        }

        /** A SEND after the WRITEs: the server verifies its buffer once it arrives (RFC 5040 ordering). */
        private void fence() throws TimeoutException {
            t.qp.postSend(SendWr.send().id(-1).local(t.src.sge(0, PerfConfig.FENCE_SIZE)).signaled());
            cq.awaitSend(hang);
        }

        LatFigure latency() throws TimeoutException, IOException {
            long[] samples = new long[(int) t.test.iterations()];
            int n = new LatClient(t, cq, cap, hang).run(samples);
            done = n;
            capped = n < samples.length;
            if (n == 0) {
                throw new IllegalStateException("no iteration completed within " + config.maxSeconds() + " s");
            }
            return LatFigure.of(samples, n, t.test.op() == Op.READ ? 1.0 : 0.5);
        }

        /** Checks the client-side buffer a test lands data in; null when right. */
        String verify() {
            if (done == 0) {
                return null;
            }
            return switch (t.test.op()) {
                case READ -> t.landingBytes.check("client buffer after RDMA READs", 0, size);
                case SEND -> t.test.kind().latency()
                        ? t.landingBytes.check("client buffer after SEND ping-pong", 0, size) : null;
                case WRITE -> {
                    if (t.test.kind().bandwidth()) {
                        yield null;
                    }
                    String bad = t.landingBytes.check("client buffer after RDMA WRITE ping-pong", 0, size - 1);
                    yield bad != null ? bad : t.landingBytes.get(size - 1) == Pattern.tag(done - 1) ? null
                            : "client: last byte is not the tag of iteration " + (done - 1);
                }
            };
        }
    }
}
