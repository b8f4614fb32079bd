package io.jrnic.examples;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.HandOverOptions;
import io.jrnic.verbs.HandOverVerdict;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RemoteBuffer;
import io.jrnic.verbs.SendWr;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A text protocol that switches to RDMA on the same TCP connection (stream hand-over):
 * client "HELLO jrnic", server "HELLO &lt;peer&gt;", client "RDMA?", server "RDMA!"; then the server
 * hands its socket over as MPA responder and the client as initiator, and the client does one
 * RDMA WRITE and one SEND. Usage: no argument (both sides in this process over loopback),
 * {@code --server PORT}, or {@code --client HOST:PORT}.
 */
public final class HelloThenRdma {
    static final String WRITTEN = "placed by an RDMA WRITE after the hand-over";
    static final String SENT = "hello over RDMA";
    private static final long WAIT_SECONDS = 10;

    private HelloThenRdma() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out));
    }

    /** Runs the program; returns the exit status (0 success, 2 usage). */
    public static int run(String[] args, PrintStream out) throws Exception {
        if (args.length == 0) {
            try (ServerSocketChannel ss = ServerSocketChannel.open()) {
                ss.bind(new InetSocketAddress("127.0.0.1", 0));
                CompletableFuture<Void> server = CompletableFuture.runAsync(() -> {
                    try {
                        server(ss, out);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                client((InetSocketAddress) ss.getLocalAddress(), out);
                server.get(WAIT_SECONDS, TimeUnit.SECONDS);
            }
            return 0;
        }
        if (args.length == 2 && args[0].equals("--server")) {
            try (ServerSocketChannel ss = ServerSocketChannel.open()) {
                ss.bind(new InetSocketAddress(Integer.parseInt(args[1])));
                out.println("server: listening on " + ss.getLocalAddress());
                server(ss, out);
            }
            return 0;
        }
        if (args.length == 2 && args[0].equals("--client")) {
            int colon = args[1].lastIndexOf(':');
            client(new InetSocketAddress(args[1].substring(0, colon), Integer.parseInt(args[1].substring(colon + 1))),
                    out);
            return 0;
        }
        out.println("usage: HelloThenRdma [--server PORT | --client HOST:PORT]");
        return 2;
    }

    static void server(ServerSocketChannel ss, PrintStream out) throws Exception {
        try (RdmaDevice dev = Rdma.open("soft")) {
            ProtectionDomain pd = dev.allocatePd();
            CompletionQueue cq = dev.createCq(16);
            QueuePair qp = pd.createQp(QpInit.rc(cq));
            byte[] dst = new byte[256];
            byte[] inbox = new byte[256];
            MemoryRegion dstMr = pd.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion inboxMr = pd.register(inbox, Access.LOCAL_WRITE);
            qp.postRecv(RecvWr.of(1, inboxMr.sge()));
            SocketChannel ch = ss.accept();
            LineReader in = new LineReader(ch);
            out.println("server: " + in.readLine());
            LineReader.writeLine(ch, "HELLO " + ch.getRemoteAddress());
            out.println("server: " + in.readLine());
            LineReader.writeLine(ch, "RDMA!");
            out.println("server: handing the stream over (" + in.leftover().remaining() + " bytes read ahead)");
            Connection c = dev.connectionManager().handOver(ch, in.leftover(), qp, HandOverOptions.responder(
                    ConnectOptions.defaults()).onRequest(offered -> {
                        out.println("server: MPA Request rev " + offered.mpaRevision() + ", IRD/ORD " + offered.ird()
                                + "/" + offered.ord() + ", private data \""
                                + new String(offered.privateData(), StandardCharsets.US_ASCII) + "\"");
                        return HandOverVerdict.accept(AcceptOptions.defaults().privateData(dstMr.advertise()));
                    })).get(WAIT_SECONDS, TimeUnit.SECONDS);
            out.println("server: RDMA mode, QP " + qp.state() + ", CRC " + c.crc());
            Completion r = await(cq);
            out.println("server: SEND received (" + r.byteLength() + " bytes): "
                    + new String(inbox, 0, r.byteLength(), StandardCharsets.US_ASCII));
            out.println("server: RDMA WRITE placed: " + new String(dst, 0, WRITTEN.length(), StandardCharsets.US_ASCII));
            c.disconnected().get(WAIT_SECONDS, TimeUnit.SECONDS);
            out.println("server: disconnected");
        }
    }

    static void client(InetSocketAddress server, PrintStream out) throws Exception {
        try (RdmaDevice dev = Rdma.open("soft")) {
            ProtectionDomain pd = dev.allocatePd();
            CompletionQueue cq = dev.createCq(16);
            QueuePair qp = pd.createQp(QpInit.rc(cq));
            SocketChannel ch = SocketChannel.open(server);
            LineReader in = new LineReader(ch);
            LineReader.writeLine(ch, "HELLO jrnic");
            out.println("client: " + in.readLine());
            LineReader.writeLine(ch, "RDMA?");
            String answer = in.readLine();
            out.println("client: " + answer);
            if (!answer.equals("RDMA!")) {
                ch.close();
                throw new IOException("server said " + answer);
            }
            Connection c = dev.connectionManager().handOver(ch, in.leftover(), qp, HandOverOptions.initiator(
                    ConnectOptions.defaults().privateData("HelloThenRdma".getBytes(StandardCharsets.US_ASCII))))
                    .get(WAIT_SECONDS, TimeUnit.SECONDS);
            out.println("client: RDMA mode, QP " + qp.state() + ", IRD/ORD " + c.ird() + "/" + c.ord());
            RemoteBuffer peer = RemoteBuffer.parse(c.peerPrivateData());
            MemoryRegion w = pd.register(WRITTEN.getBytes(StandardCharsets.US_ASCII), Access.LOCAL_WRITE);
            MemoryRegion s = pd.register(SENT.getBytes(StandardCharsets.US_ASCII), Access.LOCAL_WRITE);
            qp.postSend(SendWr.rdmaWrite().id(1).local(w.sge()).remote(peer, 0).signaled(),
                    SendWr.send().id(2).local(s.sge()).signaled());
            out.println("client: RDMA WRITE " + await(cq).status() + ", SEND " + await(cq).status());
            c.disconnect().get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** The next completion, failing on error; bounded wait. */
    static Completion await(CompletionQueue cq) throws Exception {
        Completion[] one = Completion.array(1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (cq.poll(one) == 0) {
            if (System.nanoTime() > deadline) {
                throw new IOException("no completion within " + WAIT_SECONDS + " s");
            }
            Thread.sleep(1);
        }
        if (!one[0].isOk()) {
            throw new IOException("work request failed: " + one[0].status() + " " + one[0].terminate());
        }
        return one[0].snapshot();
    }
}
