package io.jrnic.cli;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.AsyncEvent;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import io.jrnic.verbs.TerminateInfo;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * An rping client whose first buffer descriptor {addr, rkey, size} (rping's protocol, big-endian) advertises a
 * source buffer of {@code --size} bytes, larger than the peer rping server's {@code -S}. rping's server reads
 * the advertised length into its own smaller buffer: the Read Response jrnic returns is correct, and the peer
 * fails locally placing it. jrnic keeps one receive posted (rping's "go ahead") and waits for the peer's
 * Terminate. Prints {@code terminate received layer=L type=T code=0xCC layout=RFC|SIW} (or
 * {@code no terminate received}), every completion and {@code qp state S, d of p work requests completed},
 * then the machine-readable {@code RESULT} line the cases read (interop {@code PeerResult}). Exit 0 when a Terminate arrived,
 * the QP is in ERROR and every posted WR completed; 1 otherwise.
 */
@Command(name = "peer-oversize-read", hidden = true)
final class PeerOversizeRead implements Callable<Integer> {
    @Option(names = "-a", required = true) String address;
    @Option(names = "-p", defaultValue = "7180") int port;
    @Option(names = "--size", defaultValue = "128", description = "advertised source buffer length") int size;
    @Option(names = "--first-fpdu-delay-ms", defaultValue = "50") long firstFpduDelayMs;
    @Option(names = "--max-seconds", defaultValue = "30") long maxSeconds;
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
            CompletionQueue cq = dev.createCq(16);
            byte[] info = new byte[16];
            byte[] goAhead = new byte[16];
            byte[] source = new byte[size];
            for (int i = 0; i < size; i++) {
                source[i] = (byte) (' ' + i % 95);   // rping's printable ping pattern style
            }
            MemoryRegion infoMr = pd.register(info, Access.LOCAL_WRITE);
            MemoryRegion goAheadMr = pd.register(goAhead, Access.LOCAL_WRITE);
            MemoryRegion sourceMr = pd.register(source, Access.LOCAL_WRITE, Access.REMOTE_READ);
            QueuePair qp = pd.createQp(QpInit.rc(cq).maxSendWr(4).maxRecvWr(2).maxSge(1));
            qp.postRecv(RecvWr.of(1, goAheadMr.sge()));
            ConnectOptions o = terminates.apply(ConnectOptions.defaults().ird(1).ord(1)
                    .firstFpduDelay(Duration.ofMillis(firstFpduDelayMs)));
            dev.connectionManager().connect(new InetSocketAddress(InetAddress.getByName(address), port), qp, o)
                    .get(maxSeconds, TimeUnit.SECONDS);
            ByteBuffer.wrap(info).putLong(0, sourceMr.address()).putInt(8, sourceMr.stag()).putInt(12, size);
            out.printf("advertised source addr=0x%x rkey=0x%08x size=%d%n", sourceMr.address(), sourceMr.stag(), size);
            qp.postSend(SendWr.send().id(10).local(infoMr.sge()).signaled());
            int posted = 2;
            int done = 0;
            Completion[] wc = Completion.array(8);
            PeerReport report = new PeerReport();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
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
            TerminateInfo t;
            try {
                t = term.get(2, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                t = null;
            }
            QpState state = qp.state();
            out.println(t == null ? "no terminate received" : TerminatesOption.received(t));
            out.println("qp state " + state + ", " + done + " of " + posted + " work requests completed");
            out.println(report.line(t, state, done, posted));
            return t != null && state == QpState.ERROR && done == posted ? 0 : 1;
        }
    }
}
