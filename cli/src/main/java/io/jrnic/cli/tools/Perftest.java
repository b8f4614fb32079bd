package io.jrnic.cli.tools;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.ConnectRequest;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RecvWr;
import java.io.PrintWriter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * perftest's bandwidth tests ({@code ib_send_bw}, {@code ib_write_bw}, {@code ib_read_bw}) in rdma_cm mode
 * ({@code -R}), one QP, wire-compatible with perftest 6.x (Debian 4.5). Two RC connections to the same port:
 * first the exchange connection ({@link PerftestComm}), then the test connection. Exchange sequence (each
 * item one Send each way, client first): version (16 B), cycle buffer and cache line (4 B each), MTU (2 B),
 * zero pingpong_dest; the test connection; zero dest; then dests: SEND 4 times, WRITE/READ 3 times; the data
 * phase; WRITE/READ: one dest, then the client's bandwidth report (5 x 8 B); a final dest. SEND over iWARP
 * uses perftest's receive credits: the receiver RDMA-Writes its receive count (4 bytes, little-endian, as
 * perftest's x86 hosts store it) to the sender's credit word, advertised as the dest's rkey/vaddr, every
 * rx_depth/3 receives and at the end; the sender keeps fewer than rx_depth Sends uncredited.
 */
public final class Perftest {
    public static final int DEFAULT_PORT = 18515;
    public static final int DEFAULT_SIZE = 65536;
    public static final int DEFAULT_ITERS = 5000;
    static final int MAX_TX_DEPTH = 128;
    static final int MAX_RX_DEPTH = 512;
    static final int JRNIC_OUT_READS = 16;
    /** perftest's rdma_cm client: 10 connect attempts, 100 ms apart (the server listens only after the barrier). */
    static final int CONNECT_ATTEMPTS = 10;
    static final long CONNECT_RETRY_MS = 100;
    static final VarHandle LE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** The test's verb, with perftest's title. */
    public enum Verb {
        SEND("Send"), WRITE("RDMA_Write"), READ("RDMA_Read");

        final String title;

        Verb(String title) {
            this.title = title;
        }
    }

    /** What a test prints as its result line. */
    public sealed interface Report permits BwReport, PerftestLat.LatReport {
        /** perftest's result line. */
        String line();
    }

    /** xchg_bw_reports' fields (report_per_port off). */
    public record BwReport(long size, long iters, double bwPeak, double bwAvg, double msgRate) implements Report {
        @Override
        public String line() {
            return String.format(" %-7d    %-7d          %-7.2f            %-7.2f\t\t   %-7.6f", size, iters, bwPeak, bwAvg, msgRate);
        }
    }

    /** Test parameters: verb, iterations (-n), message size (-s), latency (ib_*_lat) or bandwidth (ib_*_bw). */
    public record Params(Verb verb, int iters, int size, boolean latency) {
        public Params {
            if (iters < 1 || size < 1) {
                throw new IllegalArgumentException("-n and -s must be positive");
            }
        }

        /** A bandwidth test. */
        public Params(Verb verb, int iters, int size) {
            this(verb, iters, size, false);
        }

        String title() {
            return verb.title + (latency ? " Latency Test" : " BW Test");
        }

        int txDepth() {
            return latency ? 1 : Math.min(MAX_TX_DEPTH, iters);
        }

        int rxDepth() {
            return Math.min(MAX_RX_DEPTH, iters);
        }

        int creditCount() {
            return Math.max(1, rxDepth() / 3);
        }

        /** Whether the test ends with a dest exchange (ctx_close_connection): all but ib_write_lat. */
        boolean endsWithExchange() {
            return !(latency && verb == Verb.WRITE);
        }

        int outReads() {
            return verb == Verb.READ ? JRNIC_OUT_READS : 1;
        }
    }

    private Perftest() {
    }

    /** A listening perftest server: accepts the exchange connection, then the test connection. */
    public static final class Server implements AutoCloseable {
        private final CmSide side;
        private final Params p;
        private final ConnectOptions options;
        private final Listener listener;
        private final BlockingQueue<ConnectRequest> requests = new LinkedBlockingQueue<>();
        private final long maxSeconds;
        private volatile boolean clientClosedFirst;

        public Server(String provider, InetSocketAddress bind, Params p, ConnectOptions options, long maxSeconds) {
            this.p = p;
            this.options = options;
            this.maxSeconds = maxSeconds;
            side = new CmSide(provider, 2 * p.rxDepth() + 8, maxSeconds);
            try {
                listener = side.cm.listen(bind, options);
                listener.onConnectRequest(requests::add);
            } catch (RuntimeException e) {
                side.close();
                throw e;
            }
        }

        public InetSocketAddress localAddress() {
            return listener.localAddress();
        }

        /**
         * Answers the next connect request. Not waited for: an MPA responder's connection is established by
         * the initiator's first FPDU (RFC 5044 section 7.1), and perftest's client sends nothing on the test
         * connection until the exchange connection says so.
         */
        private java.util.concurrent.CompletableFuture<Connection> accept(QueuePair qp, int ird, int ord, String what)
                throws Exception {
            ConnectRequest req = requests.poll(maxSeconds, TimeUnit.SECONDS);
            if (req == null) {
                throw new java.util.concurrent.TimeoutException("no " + what + " connect request within " + maxSeconds + " s");
            }
            int i = ird < 0 ? Math.max(0, req.ord()) : ird;
            int o = ord < 0 ? Math.min(Math.max(0, req.ird()), p.outReads()) : ord;
            return req.accept(qp, AcceptOptions.defaults().ird(i).ord(o));
        }

        /** Runs the test for one client; returns the report this side printed. */
        public Report serve(PrintWriter out) throws Exception {
            PerftestComm comm = new PerftestComm(side, false);
            var commConn = accept(comm.createQp(), 0, 0, "exchange");
            Session s = new Session(side, p, comm, false, out);
            java.util.concurrent.CompletableFuture<Connection> test = null;
            boolean ran = false;
            try {
                s.preamble();
                test = accept(s.createTestQp(), -1, -1, "test");
                Report r = s.run();
                ran = true;
                return r;
            } finally {
                var t = test;
                Runnable closeMine = () -> {
                    disconnect(t);
                    disconnect(commConn);
                };
                if (ran) {
                    // PeerClosesFirst: the client disconnects once its last completion is in; a FIN of ours before
                    // that could fail its last Send on siw
                    var either = java.util.concurrent.CompletableFuture.anyOf(disconnected(commConn), disconnected(t));
                    clientClosedFirst = PeerClosesFirst.thenClose(either, PeerClosesFirst.DEFAULT_BOUND, closeMine,
                            s::warn);
                } else {
                    closeMine.run();
                }
            }
        }

        /** Whether the last client served disconnected before this side did ({@link PeerClosesFirst}). */
        boolean clientClosedFirst() {
            return clientClosedFirst;
        }

        @Override
        public void close() {
            side.close();
        }
    }

    private static void disconnect(java.util.concurrent.CompletableFuture<Connection> f) {
        if (f == null) {
            return;
        }
        try {
            RdmaServerClient.disconnect(f.get(2, TimeUnit.SECONDS));
        } catch (Exception ignored) {
            // never established: closing the device tears it down
        }
    }

    /** An established connection's disconnect; one never established has none to wait for (the bound ends it). */
    private static java.util.concurrent.CompletableFuture<Void> disconnected(
            java.util.concurrent.CompletableFuture<Connection> f) {
        Connection c = f.getNow(null);   // never blocks: teardown must not hang on a connect that did not finish
        return c == null ? new java.util.concurrent.CompletableFuture<>() : c.disconnected();
    }

    /** The client: connects the exchange connection, then the test connection (with perftest's retries). */
    public static Report client(String provider, InetSocketAddress server, Params p, ConnectOptions options,
                                  long maxSeconds, PrintWriter out) throws Exception {
        try (CmSide side = new CmSide(provider, 2 * p.rxDepth() + 8, maxSeconds)) {
            PerftestComm comm = new PerftestComm(side, true);
            Connection commConn = CmSide.get(side.cm.connect(server, comm.createQp(), options.noPeerToPeer().ird(0).ord(0)), maxSeconds,
                    "exchange connection");
            Session s = new Session(side, p, comm, true, out);
            try {
                s.preamble();
                int rd = p.verb == Verb.READ ? p.outReads() : 0;
                Connection test = null;
                for (int attempt = 1; test == null; attempt++) {
                    QueuePair qp = s.createTestQp();
                    try {
                        test = CmSide.get(side.cm.connect(server, qp, options.ird(rd).ord(rd)), maxSeconds, "test connection");
                    } catch (io.jrnic.verbs.ConnectionFailedException e) {
                        qp.close();
                        // its receives, posted before the connect, were flushed into the CQs the next attempt's QP
                        // uses: drop them, or the test would read a WR_FLUSH_ERROR as its first receive
                        side.dropCompletionsOf(qp, side.recvCq);
                        side.dropCompletionsOf(qp, side.sendCq);
                        if (attempt >= CONNECT_ATTEMPTS) {
                            throw e;
                        }
                        Thread.sleep(CONNECT_RETRY_MS);
                    }
                }
                boolean ran = false;
                try {
                    Report r = s.run();
                    ran = true;
                    return r;
                } finally {
                    if (ran) {
                        // PeerClosesFirst: the connection idle in the last phase goes first (a FIN there reaches no
                        // Send of the server's still in flight); the other waits for the server's own disconnect
                        Connection idle = p.endsWithExchange() ? test : commConn;
                        Connection last = idle == test ? commConn : test;
                        RdmaServerClient.disconnect(idle);
                        PeerClosesFirst.thenClose(last.disconnected(), PeerClosesFirst.DEFAULT_BOUND,
                                () -> RdmaServerClient.disconnect(last), s::warn);
                    } else {
                        RdmaServerClient.disconnect(test);
                    }
                }
            } finally {
                RdmaServerClient.disconnect(commConn);
            }
        }
    }

    /** One side's test resources and the exchange sequence after the exchange connection is up. */
    static final class Session {
        final CmSide side;
        final Params p;
        final PerftestComm comm;
        final boolean client;
        final PrintWriter out;
        final byte[] data;
        final MemoryRegion dataMr;
        final byte[] credit = new byte[8];   // ctrl word at 0, credit word at 4 (perftest's ctrl_buf/credit_buf)
        final MemoryRegion creditMr;
        final byte[] ctrl;
        final MemoryRegion ctrlMr;
        final int psn = ThreadLocalRandom.current().nextInt(1 << 24);
        final int qpn;
        final Completion[] wcs = Completion.array(32);
        QueuePair qp;
        static int qpCounter = 3;

        Session(CmSide side, Params p, PerftestComm comm, boolean client, PrintWriter out) {
            this.side = side;
            this.p = p;
            this.comm = comm;
            this.client = client;
            this.out = out;
            synchronized (Session.class) {
                qpn = qpCounter++;
            }
            data = new byte[2 * Math.max(p.size, PerftestComm.CYCLE_BUFFER)];
            ThreadLocalRandom.current().nextBytes(data);
            dataMr = side.pd.register(data, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
            creditMr = side.pd.register(credit, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            ctrl = new byte[4 * (p.iters / p.creditCount() + 2)];
            ctrlMr = side.pd.register(ctrl, Access.LOCAL_WRITE);
        }

        QueuePair createTestQp() {
            int depth = Math.max(p.txDepth(), p.rxDepth()) + p.iters / p.creditCount() + 2;
            qp = side.pd.createQp(QpInit.rc(side.sendCq, side.recvCq).maxSendWr(depth).maxRecvWr(p.rxDepth()).maxSge(1)
                    .signalAll(true));
            if (p.verb == Verb.SEND && (!client || p.latency)) {
                for (int i = 0; i < p.rxDepth(); i++) {   // perftest posts them before its last barrier: same on the wire
                    qp.postRecv(RecvWr.of(i, dataMr.sge(0, p.size)));
                }
            }
            return qp;
        }

        void say(String line) {
            if (out != null) {
                out.println(line);
                out.flush();
            }
        }

        /** A line outside perftest's report (standard error, as perftest's own warnings). */
        void warn(String line) {
            System.err.println(" " + line);
        }

        /** Versions, system data, MTU and the barrier before the test connection. */
        void preamble() throws Exception {
            String rv = comm.versions();
            double v;
            try {
                v = Double.parseDouble(rv);
            } catch (NumberFormatException e) {
                throw new IllegalStateException("unreadable perftest version '" + rv + "'");
            }
            if (v < 5.70) {
                throw new IllegalStateException("peer perftest version " + rv + " is older than 5.70");
            }
            comm.sysData();
            comm.mtu();
            comm.handShake(PerftestDest.zero());
        }

        PerftestDest myDest() {
            boolean creditWord = p.verb == Verb.SEND;
            int rkey = creditWord ? creditMr.stag() : dataMr.stag();
            long vaddr = creditWord ? creditMr.address() + 4 : dataMr.address();
            return new PerftestDest(0, p.outReads(), qpn, psn, rkey, vaddr, null, 0, 0);
        }

        Report run() throws Exception {
            if (p.latency) {
                return PerftestLat.run(this);
            }
            comm.handShake(PerftestDest.zero());
            PerftestDest my = myDest();
            PerftestDest rem = comm.handShake(my);
            comm.handShake(my);
            say("---------------------------------------------------------------------------------------");
            say(my.describe("local", p.verb));
            rem = comm.handShake(my);
            say(rem.describe("remote", p.verb));
            say("---------------------------------------------------------------------------------------");
            say(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]");
            BwReport mine = null;
            if (p.verb == Verb.SEND) {
                comm.handShake(my);
                mine = client ? PerftestBw.sendClient(this) : PerftestBw.sendServer(this, rem);
                say(mine.line());
            } else {
                if (client) {
                    mine = PerftestBw.rdmaClient(this, rem);
                    say(mine.line());
                }
                comm.handShake(my);
                BwReport theirs = comm.bwReports(mine == null ? new BwReport(0, 0, 0, 0, 0) : mine);
                if (!client) {
                    mine = theirs;
                    say(theirs.line());
                }
            }
            say("---------------------------------------------------------------------------------------");
            comm.handShake(my);
            return mine;
        }
    }
}
