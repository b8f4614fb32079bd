package io.jrnic.cli;

import io.jrnic.cli.perf.Rping;
import io.jrnic.interop.siw.SiwInterop;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.AsyncEvent;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RtrType;
import io.jrnic.verbs.SendWr;
import io.jrnic.verbs.TerminateInfo;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jrnic interop}: the Linux siw interoperability matrix ({@link SiwInterop}). Hidden
 * subcommands are the jrnic-side programs of matrix cases that plain {@code jrnic rping} cannot play
 * (peer-to-peer initiator, a deliberate protection violation, the stream hand-over echo); the matrix
 * starts them as child processes.
 */
@Command(name = "interop", mixinStandardHelpOptions = true,
        description = {"Linux siw interoperability matrix: boots a siw guest (QEMU, see interop/README.md),",
                "runs jrnic against siw, checks every capture. Exit: 0 all passed, 1 a case failed, 2 unavailable."},
        subcommands = {InteropCommand.PeerRping.class, InteropCommand.PeerViolate.class, InteropCommand.HandOverEchoCmd.class,
                PeerOversizeRead.class})
public final class InteropCommand implements Callable<Integer> {
    @Option(names = "--list", description = "list the cases (and, with --peer, the siw-side command of each)") boolean list;
    @Option(names = "--build", description = "build the guest image (cached: no-op when current)") boolean build;
    @Option(names = "--force", description = "with --build: rebuild") boolean force;
    @Option(names = "--peer", paramLabel = "HOST",
            description = "run jrnic's side only, against a real siw host HOST where you started the siw side "
                    + "(see --list --peer, interop/README.md)") String peer;
    @Option(names = "--out", paramLabel = "DIR", defaultValue = "siw-interop-out", description = "artifacts directory") String out;
    @Option(names = "--lanes", paramLabel = "N", defaultValue = "1",
            description = "guests at once, each running the next case (default 1; the test suite runs 2)") int lanes;
    @Parameters(paramLabel = "CASE", description = "cases to run (default: all)") List<String> cases = new ArrayList<>();

    @Override
    public Integer call() {
        List<String> args = new ArrayList<>();
        if (build) {
            args.add("build");
            if (force) {
                args.add("--force");
            }
        } else if (list) {
            args.add("list");
            if (peer != null) {
                args.add("--peer");
                args.add(peer);
            }
        } else {
            args.add("run");
            args.add("--out");
            args.add(out);
            args.add("--lanes");
            args.add(Integer.toString(lanes));
            if (peer != null) {
                args.add("--peer");
                args.add(peer);
            }
            args.addAll(cases);
        }
        return SiwInterop.run(args, System.out, System.err);
    }

    static ConnectOptions siwOptions(boolean crc, boolean p2p) {
        ConnectOptions o = ConnectOptions.defaults().crc(crc);
        return p2p ? o.peerToPeer(RtrType.WRITE, RtrType.READ) : o;
    }

    /** rping with ConnectOptions that {@code jrnic rping} does not expose (peer-to-peer RTR). */
    @Command(name = "peer-rping", hidden = true, description = "rping with --p2p (offer WRITE and READ RTR)")
    static final class PeerRping implements Callable<Integer> {
        @Option(names = "-s") boolean server;
        @Option(names = "-c") boolean client;
        @Option(names = "-a") String address;
        @Option(names = "-p", defaultValue = "7174") int port;
        @Option(names = "-C", defaultValue = "1") int count;
        @Option(names = "-S", defaultValue = "64") int size;
        @Option(names = "-V") boolean validate;
        @Option(names = "--crc") boolean crc;
        @Option(names = "--p2p") boolean p2p;
        @Option(names = "--max-seconds", defaultValue = "60") long maxSeconds;
        @picocli.CommandLine.Mixin TerminatesOption terminates = new TerminatesOption();

        @Override
        public Integer call() throws Exception {
            ConnectOptions o = terminates.apply(siwOptions(crc, p2p));
            if (server) {
                try (Rping.Server s = new Rping.Server("soft", new InetSocketAddress(InetAddress.getByName(
                        address == null ? "0.0.0.0" : address), port), size, o)) {
                    long served = 0;
                    try {
                        served = s.serve(maxSeconds, null);
                        System.err.println("served " + served);
                    } finally {
                        // as the other peers: the machine-readable last line (pings served of those asked)
                        System.out.println(result(s.qpState(), served, count));
                    }
                }
                return 0;
            }
            long[] done = {0};
            io.jrnic.verbs.QpState[] state = {null};
            try {
                long n = Rping.client("soft", new InetSocketAddress(InetAddress.getByName(address), port), count, size,
                        validate, null, o, maxSeconds, (pings, st) -> {
                            done[0] = pings;
                            state[0] = st;
                        });
                System.err.println(n + " pings");
                return n == count ? 0 : 1;
            } finally {
                System.out.println(result(state[0], done[0], count));
            }
        }

        /** The RESULT line of an rping run: no Terminate is read here (a failed ping ends the run with its error). */
        static String result(io.jrnic.verbs.QpState state, long pings, int count) {
            return new io.jrnic.interop.siw.PeerResult(null, state == null ? "NONE" : state.name(), (int) pings, count,
                    List.of()).format();
        }
    }

    /**
     * An rping server that breaks protection on purpose: it receives the client's first buffer
     * descriptor {addr, rkey, size} (rping's protocol) and RDMA WRITEs to it with a wrong STag
     * ({@code --stag}) or past its end ({@code --bounds}), then waits for the peer's Terminate.
     * Prints {@code terminate received layer=L type=T code=0xCC layout=RFC|SIW}, the QP state and every completion,
     * then the machine-readable {@code RESULT} line the cases read (interop {@code PeerResult}).
     * Exit 0 when a Terminate arrived, the QP is in ERROR and every posted WR completed ({@code --idle}: the
     * peer closed or terminated, the QP is in IDLE or ERROR and the receive flushed); 1 otherwise.
     */
    @Command(name = "peer-violate", hidden = true)
    static final class PeerViolate implements Callable<Integer> {
        @Option(names = "-a", defaultValue = "0.0.0.0") String address;
        @Option(names = "-p", defaultValue = "7174") int port;
        @Option(names = "--stag") boolean badStag;
        @Option(names = "--bounds") boolean outOfBounds;
        @Option(names = "--idle", description = "no violation: wait for the peer to fail (its Terminate or close)") boolean idle;
        @Option(names = "--max-seconds", defaultValue = "60") long maxSeconds;
        @picocli.CommandLine.Mixin TerminatesOption terminates = new TerminatesOption();

        @Override
        public Integer call() throws Exception {
            PrintWriter out = new PrintWriter(System.out, true);
            CompletableFuture<TerminateInfo> term = new CompletableFuture<>();
            try (RdmaDevice dev = Rdma.open("soft")) {
                dev.onAsyncEvent((AsyncEvent e) -> {
                    if (e.type() == AsyncEventType.QP_TERMINATE_RECEIVED) {
                        term.complete(e.terminate());
                    }
                });
                ProtectionDomain pd = dev.allocatePd();
                CompletionQueue cq = dev.createCq(32);
                byte[] info = new byte[16];
                byte[] data = new byte[256];
                MemoryRegion infoMr = pd.register(info, Access.LOCAL_WRITE);
                MemoryRegion dataMr = pd.register(data, Access.LOCAL_WRITE);
                QueuePair qp = pd.createQp(QpInit.rc(cq).maxSendWr(8).maxRecvWr(4).maxSge(1));
                qp.postRecv(RecvWr.of(1, infoMr.sge()));
                qp.postRecv(RecvWr.of(2, infoMr.sge()));
                CompletableFuture<Connection> conn = new CompletableFuture<>();
                ConnectOptions o = terminates.apply(ConnectOptions.defaults().ird(1).ord(1));
                Listener l = dev.connectionManager().listen(new InetSocketAddress(InetAddress.getByName(address), port), o);
                l.onConnectRequest(req -> req.accept(qp, AcceptOptions.defaults().ird(1).ord(1))
                        .whenComplete((c, e) -> {
                            if (e != null) {
                                conn.completeExceptionally(e);
                            } else {
                                conn.complete(c);
                            }
                        }));
                conn.get(maxSeconds, TimeUnit.SECONDS);
                Completion[] wc = Completion.array(8);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                int got = 0;
                while (got == 0 && System.nanoTime() < deadline) {
                    got = cq.poll(wc, 0, 1);
                    Thread.onSpinWait();
                }
                if (got == 0 || wc[0].opcode() != CompletionOpcode.RECV || !wc[0].isOk()) {
                    out.println("no buffer descriptor from the client: " + (got == 0 ? "timeout" : wc[0]));
                    return 1;
                }
                PeerReport report = new PeerReport();
                report.add(wc[0]);
                ByteBuffer b = ByteBuffer.wrap(info);
                long addr = b.getLong(0);
                int rkey = b.getInt(8);
                int size = b.getInt(12);
                out.printf("client buffer addr=0x%x rkey=0x%08x size=%d%n", addr, rkey, size);
                int posted = 2; // 2 receives, one completed above
                int done = 1;
                SendWr write = SendWr.rdmaWrite().id(10).signaled();
                if (badStag) {
                    // another STag index, same key byte: siw finds no memory object for it
                    write.local(dataMr.sge(0, 16)).remote(rkey ^ 0x00A5A500, addr);
                } else {
                    // 64 bytes starting 32 bytes before the end of the advertised buffer
                    write.local(dataMr.sge(0, 64)).remote(rkey, addr + size - 32);
                }
                if (!idle) {
                    // one post: the peer's Terminate for the Write can put the QP in ERROR before a second post
                    qp.postSend(write, SendWr.send().id(11).local(infoMr.sge()).signaled());
                    posted += 2;
                }
                out.println("waiting for the peer");
                deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(idle ? maxSeconds : 20);
                while (done < posted && System.nanoTime() < deadline) {
                    int n = cq.poll(wc, 0, wc.length);
                    for (int i = 0; i < n; i++) {
                        out.println("completion id=" + wc[i].id() + " " + wc[i].opcode() + " " + wc[i].status()
                                + (wc[i].terminate() == null ? "" : " " + wc[i].terminate()));
                        report.add(wc[i]);
                    }
                    done += n;
                    if (n == 0) {
                        Thread.sleep(1);
                    }
                }
                TerminateInfo t = term.getNow(null);
                if (t == null) {
                    try {
                        t = term.get(2, TimeUnit.SECONDS);
                    } catch (java.util.concurrent.TimeoutException e) {
                        t = null;
                    }
                }
                QpState state = qp.state();
                out.println(t == null ? "no terminate received" : TerminatesOption.received(t));
                out.println("qp state " + state + ", " + done + " of " + posted + " work requests completed");
                out.println(report.line(t, state, done, posted));
                boolean left = t != null ? state == QpState.ERROR : idle && (state == QpState.ERROR || state == QpState.IDLE);
                return left && done == posted ? 0 : 1;
            }
        }
    }

    /** io.jrnic.examples.HandOverEcho (examples module) as a subcommand. */
    @Command(name = "handover-echo", hidden = true)
    static final class HandOverEchoCmd implements Callable<Integer> {
        @Parameters List<String> args = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            try (java.nio.channels.ServerSocketChannel ss = java.nio.channels.ServerSocketChannel.open()) {
                ss.bind(new InetSocketAddress(Integer.parseInt(args.get(0))));
                int count = args.size() > 1 ? Integer.parseInt(args.get(1)) : 10;
                int size = args.size() > 2 ? Integer.parseInt(args.get(2)) : 64;
                io.jrnic.verbs.QpState[] state = {null};
                int n = 0;
                try {
                    n = io.jrnic.examples.HandOverEcho.serve(ss, count, size, System.out, st -> state[0] = st);
                    return n == count ? 0 : 1;
                } finally {
                    System.out.println(PeerRping.result(state[0], n, count)); // messages echoed of those asked
                }
            }
        }
    }
}
