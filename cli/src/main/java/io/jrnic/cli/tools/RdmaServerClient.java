package io.jrnic.cli.tools;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * rdma_server / rdma_client (rdma-core librdmacm/examples) on the verbs API, wire-compatible with them:
 * default port 7471, no private data, one 16-byte message each way. Both sides post one 16-byte receive
 * before connecting/accepting; the client SENDs first (16 zero bytes) once established and then waits
 * for the server's 16-byte SEND; the server waits for the client's message, answers with 16 zero bytes,
 * waits for its send completion and disconnects once the client has (bounded: {@link PeerClosesFirst}; rdma_server
 * itself does not wait). Every wait is bounded.
 */
public final class RdmaServerClient {
    public static final int DEFAULT_PORT = 7471;
    /** Size of send_msg / recv_msg in both examples. */
    public static final int MESSAGE_SIZE = 16;

    private RdmaServerClient() {
    }

    /** One endpoint's message buffers and QP (max 1 send and 1 receive WR, one SGE, as the examples). */
    private static final class Msgs {
        final byte[] send = new byte[MESSAGE_SIZE];
        final byte[] recv = new byte[MESSAGE_SIZE];
        final MemoryRegion sendMr;
        final MemoryRegion recvMr;
        QueuePair qp;

        Msgs(CmSide s) {
            sendMr = s.pd.register(send, Access.LOCAL_WRITE);
            recvMr = s.pd.register(recv, Access.LOCAL_WRITE);
        }

        QueuePair createQp(CmSide s) {
            qp = s.pd.createQp(QpInit.rc(s.sendCq, s.recvCq).maxSendWr(1).maxRecvWr(1).maxSge(1).signalAll(true));
            qp.postRecv(RecvWr.of(1, recvMr.sge()));
            return qp;
        }
    }

    private static void expectMessage(io.jrnic.verbs.Completion c) {
        if (c.opcode() != CompletionOpcode.RECV || c.byteLength() != MESSAGE_SIZE) {
            throw new IllegalStateException("expected a " + MESSAGE_SIZE + "-byte message, got " + c.opcode() + " of "
                    + c.byteLength() + " bytes");
        }
    }

    /** A listening rdma_server; {@link #serve} handles the one client. */
    public static final class Server implements AutoCloseable {
        private final CmSide side;
        private final Msgs msgs;
        private final Listener listener;
        private final CompletableFuture<Connection> conn;

        public Server(String provider, InetSocketAddress bind, ConnectOptions options, long stallSeconds) {
            side = new CmSide(provider, 1, stallSeconds);
            try {
                msgs = new Msgs(side);
                Listener[] l = new Listener[1];
                conn = side.acceptOne(bind, options, AcceptOptions.defaults().ird(options.ird()).ord(options.ord()),
                        msgs::createQp, l);
                listener = l[0];
            } catch (RuntimeException e) {
                side.close();
                throw e;
            }
        }

        public InetSocketAddress localAddress() {
            return listener.localAddress();
        }

        /**
         * Waits up to {@code acceptSeconds} for the client, then does the exchange and disconnects; returns whether
         * the client disconnected first.
         */
        public boolean serve(long acceptSeconds) throws Exception {
            Connection c = CmSide.get(conn, acceptSeconds, "client");
            boolean answered = false;
            boolean clientFirst = false;
            try {
                side.await(side.recvCq, 1, "rdma_get_recv_comp", RdmaServerClient::expectMessage);
                msgs.qp.postSend(SendWr.send().id(2).local(msgs.sendMr.sge()).signaled());
                side.await(side.sendCq, 1, "rdma_get_send_comp", null);
                answered = true;
            } finally {
                if (answered) {
                    // rdma_server disconnects at once; jrnic lets the client go first (PeerClosesFirst: siw)
                    clientFirst = PeerClosesFirst.thenClose(c.disconnected(), PeerClosesFirst.DEFAULT_BOUND,
                            () -> disconnect(c), line -> System.err.println("rdma_server: " + line));
                } else {
                    disconnect(c);
                }
            }
            return clientFirst;
        }

        @Override
        public void close() {
            side.close();
        }
    }

    /** The rdma_client exchange against {@code server}. */
    public static void client(String provider, InetSocketAddress server, ConnectOptions options, long stallSeconds)
            throws Exception {
        try (CmSide side = new CmSide(provider, 1, stallSeconds)) {
            Msgs msgs = new Msgs(side);
            QueuePair qp = msgs.createQp(side);
            Connection c = CmSide.get(side.cm.connect(server, qp, options), stallSeconds, "connection");
            try {
                qp.postSend(SendWr.send().id(1).local(msgs.sendMr.sge()).signaled());
                side.await(side.sendCq, 1, "rdma_get_send_comp", null);
                side.await(side.recvCq, 1, "rdma_get_recv_comp", RdmaServerClient::expectMessage);
            } finally {
                disconnect(c);
            }
        }
    }

    static void disconnect(Connection c) {
        try {
            c.disconnect().get(5, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // closing the device tears the connection down anyway
        }
    }
}
