package io.jrnic.examples;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.HandOverOptions;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * Interop entry (e.g. a siw peer connecting with rdma_cm): accepts ONE plain TCP connection, reads the
 * peer's MPA Request in streaming mode (20-byte header, then PD_Length bytes: RFC 5044 section 7.1),
 * hands the socket over as MPA responder with those bytes, then echoes every SEND it receives back as a
 * SEND of the same bytes, {@code count} times. Usage: {@code HandOverEcho PORT [COUNT] [SIZE]}.
 */
public final class HandOverEcho {
    private static final int HEADER = 20;
    private static final int PD_LENGTH_OFFSET = 18;

    private HandOverEcho() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.out.println("usage: HandOverEcho PORT [COUNT] [SIZE]");
            System.exit(2);
        }
        try (ServerSocketChannel ss = ServerSocketChannel.open()) {
            ss.bind(new InetSocketAddress(Integer.parseInt(args[0])));
            serve(ss, args.length > 1 ? Integer.parseInt(args[1]) : 10, args.length > 2 ? Integer.parseInt(args[2]) : 64,
                    System.out);
        }
    }

    /** Serves one connection; returns the number of messages echoed. */
    public static int serve(ServerSocketChannel ss, int count, int size, PrintStream out) throws Exception {
        return serve(ss, count, size, out, (java.util.function.Consumer<io.jrnic.verbs.QpState>) null);
    }

    /** As {@link #serve(ServerSocketChannel, int, int, PrintStream)}; {@code ended} (may be null) gets the QP's last state. */
    public static int serve(ServerSocketChannel ss, int count, int size, PrintStream out,
                            java.util.function.Consumer<io.jrnic.verbs.QpState> ended) throws Exception {
        io.jrnic.verbs.QpState[] last = {null};
        try {
            return echo(ss, count, size, out, last);
        } finally {
            if (ended != null && last[0] != null) {
                ended.accept(last[0]);
            }
        }
    }

    private static int echo(ServerSocketChannel ss, int count, int size, PrintStream out, io.jrnic.verbs.QpState[] last)
            throws Exception {
        try (RdmaDevice dev = Rdma.open("soft")) {
            ProtectionDomain pd = dev.allocatePd();
            CompletionQueue cq = dev.createCq(4 * count + 8);
            QueuePair qp = pd.createQp(QpInit.rc(cq).maxRecvWr(count + 1).maxSendWr(count + 1));
            byte[] buf = new byte[count * size];
            MemoryRegion mr = pd.register(buf, Access.LOCAL_WRITE);
            for (int i = 0; i < count; i++) {
                qp.postRecv(RecvWr.of(i, mr.sge(i * size, size)));
            }
            SocketChannel ch = ss.accept();
            LineReader in = new LineReader(ch);
            in.readUntil(HEADER);
            int pdLength = ((in.get(PD_LENGTH_OFFSET) & 0xFF) << 8) | (in.get(PD_LENGTH_OFFSET + 1) & 0xFF);
            in.readUntil(HEADER + pdLength);
            out.println("echo: read the " + (HEADER + pdLength) + "-byte MPA Request in streaming mode from "
                    + ch.getRemoteAddress() + "; handing over");
            Connection c = dev.connectionManager().handOver(ch, in.leftover(), qp,
                    HandOverOptions.responder(ConnectOptions.defaults())).get(10, TimeUnit.SECONDS);
            out.println("echo: RDMA mode, CRC " + c.crc() + ", IRD/ORD " + c.ird() + "/" + c.ord());
            // one loop for both: an echo's SEND may complete before the next RECV does (a peer that waits for each
            // echo, or one whose messages arrive apart), so its completion is counted wherever it comes
            int echoed = 0;
            int sent = 0;
            while (echoed < count || sent < count) {
                Completion r = HelloThenRdma.await(cq);
                if (r.opcode() == CompletionOpcode.SEND) {
                    sent++;
                } else if (r.opcode() == CompletionOpcode.RECV) {
                    int at = (int) r.id() * size;
                    qp.postSend(SendWr.send().id(1000 + r.id()).local(mr.sge(at, r.byteLength())).signaled());
                    echoed++;
                }
            }
            out.println("echo: " + echoed + " messages echoed");
            c.disconnect().get(10, TimeUnit.SECONDS);
            last[0] = qp.state();
            return echoed;
        }
    }
}
