package io.jrnic.cli.tools;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * ucmatose (rdma-core librdmacm/examples/cmatose.c) on the verbs API, one connection, wire-compatible:
 * default port 7471, {@value #DEFAULT_COUNT} messages of {@value #DEFAULT_SIZE} bytes, no private data
 * (TCP port space), client IRD/ORD 1. Both sides post all their receives before connect/accept. The
 * server SENDs first: all messages once established, then waits for its send completions, then for the
 * client's messages, then disconnects. The client waits for all messages, then SENDs as many replies and
 * waits for the server's disconnect. A size of 0 means no messages (as cmatose). ucmatose does not check
 * contents; jrnic checks that every receive carries exactly the message size.
 */
public final class Ucmatose {
    public static final int DEFAULT_PORT = 7471;
    public static final int DEFAULT_COUNT = 10;
    public static final int DEFAULT_SIZE = 100;

    private Ucmatose() {
    }

    /** The node: one QP with count-deep queues over one message buffer. */
    private static final class Node {
        final int count;
        final int size;
        final MemoryRegion mr;
        QueuePair qp;

        Node(CmSide s, int count, int size) {
            this.count = size == 0 ? 0 : count;
            this.size = size;
            byte[] mem = new byte[Math.max(1, size)];
            for (int i = 0; i < mem.length; i++) {
                mem[i] = (byte) i;
            }
            mr = s.pd.register(mem, Access.LOCAL_WRITE);
        }

        QueuePair createQp(CmSide s) {
            int depth = Math.max(1, count);
            qp = s.pd.createQp(QpInit.rc(s.sendCq, s.recvCq).maxSendWr(depth).maxRecvWr(depth).maxSge(1).signalAll(true));
            for (int i = 0; i < count; i++) {
                qp.postRecv(RecvWr.of(i, mr.sge(0, size)));
            }
            return qp;
        }

        void postSends() {
            for (int i = 0; i < count; i++) {
                qp.postSend(SendWr.send().id(i).local(mr.sge(0, size)));
            }
        }

        void checkRecv(Completion c) {
            if (c.opcode() != CompletionOpcode.RECV || c.byteLength() != size) {
                throw new IllegalStateException("expected a " + size + "-byte message, got " + c.opcode() + " of "
                        + c.byteLength() + " bytes");
            }
        }
    }

    /** A listening ucmatose server (one connection). */
    public static final class Server implements AutoCloseable {
        private final CmSide side;
        private final Node node;
        private final Listener listener;
        private final CompletableFuture<Connection> conn;

        public Server(String provider, InetSocketAddress bind, int count, int size, ConnectOptions options,
                      long stallSeconds) {
            side = new CmSide(provider, Math.max(1, count), stallSeconds);
            try {
                node = new Node(side, count, size);
                Listener[] l = new Listener[1];
                conn = side.acceptOne(bind, options, AcceptOptions.defaults().ird(options.ird()).ord(options.ord()),
                        node::createQp, l);
                listener = l[0];
            } catch (RuntimeException e) {
                side.close();
                throw e;
            }
        }

        public InetSocketAddress localAddress() {
            return listener.localAddress();
        }

        /** Serves the one connection, printing cmatose's progress lines to {@code out}. */
        public void serve(long acceptSeconds, long stallSeconds, PrintWriter out) throws Exception {
            Connection c = CmSide.get(conn, acceptSeconds, "connect request");
            try {
                if (node.count > 0) {
                    say(out, "initiating data transfers");
                    node.postSends();
                    say(out, "completing sends");
                    side.await(side.sendCq, node.count, "send completions", null);
                    say(out, "receiving data transfers");
                    side.await(side.recvCq, node.count, "receives", node::checkRecv);
                    say(out, "data transfers complete");
                }
                say(out, "cmatose: disconnecting");
                CmSide.get(c.disconnect(), stallSeconds, "disconnect");
                say(out, "disconnected");
            } finally {
                RdmaServerClient.disconnect(c);
            }
        }

        @Override
        public void close() {
            side.close();
        }
    }

    /** The ucmatose client against {@code server}, printing cmatose's progress lines to {@code out}. */
    public static void client(String provider, InetSocketAddress server, int count, int size, ConnectOptions options,
                              long stallSeconds, PrintWriter out) throws Exception {
        try (CmSide side = new CmSide(provider, Math.max(1, count), stallSeconds)) {
            Node node = new Node(side, count, size);
            QueuePair qp = node.createQp(side);
            say(out, "cmatose: connecting");
            Connection c = CmSide.get(side.cm.connect(server, qp, options.ird(1).ord(1)), stallSeconds, "connection");
            try {
                if (node.count > 0) {
                    say(out, "receiving data transfers");
                    side.await(side.recvCq, node.count, "receives", node::checkRecv);
                    say(out, "sending replies");
                    node.postSends();
                    say(out, "data transfers complete");
                    side.await(side.sendCq, node.count, "send completions", null);
                }
                CmSide.get(c.disconnected(), stallSeconds, "disconnect from the server");
            } finally {
                RdmaServerClient.disconnect(c);
            }
        }
    }

    static void say(PrintWriter out, String line) {
        if (out != null) {
            out.println(line);
            out.flush();
        }
    }
}
