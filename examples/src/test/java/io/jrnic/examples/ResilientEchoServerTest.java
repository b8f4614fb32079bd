package io.jrnic.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server keeps serving while its clients break their connections in three ways: a Terminate (the client's
 * QP to ERROR), a vanished client (its device closed under the connection), an orderly disconnect; the first client
 * resets its own QP and connects it again.
 */
class ResilientEchoServerTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    @Timeout(120)
    void brokenConnectionsAreFlushedResetAndTheQpsServeTheNextClients() throws Exception {
        try (RdmaDevice sdev = Rdma.open("soft");
             ResilientEchoServer server = new ResilientEchoServer(sdev, new InetSocketAddress("127.0.0.1", 0))) {
            try (RdmaDevice dev = Rdma.open("soft")) {
                Client c = new Client(dev);
                Connection conn = c.connect(server.address());
                c.echo("one");
                c.echo("two");
                c.qp.toError(); // abortive: a Terminate to the server, our own WRs flush
                c.drain();
                conn.disconnected().get(30, TimeUnit.SECONDS); // the stream is gone: nothing more will touch the QP
                assertEquals(QpState.ERROR, c.qp.state());
                c.qp.reset(); // ERROR -> IDLE: the same QP connects again
                assertEquals(QpState.IDLE, c.qp.state());
                awaitAllIdle(server);
                c.connect(server.address());
                c.echo("three, on the same QP");
            }
            // the device above closed under its connection: the server sees the stream end, flushes, resets
            awaitAllIdle(server);
            try (RdmaDevice dev = Rdma.open("soft")) {
                Client c = new Client(dev);
                Connection conn = c.connect(server.address());
                c.echo("four");
                conn.disconnect().get(30, TimeUnit.SECONDS); // orderly
            }
            awaitAllIdle(server);
            try (RdmaDevice dev = Rdma.open("soft")) {
                Client c = new Client(dev);
                c.connect(server.address());
                c.echo("five");
            }
            awaitAllIdle(server);
            assertEquals(4, server.accepted());
            assertEquals(5, server.echoed());
            assertTrue(server.flushed() >= ResilientEchoServer.DEPTH, "flushed receives " + server.flushed());
            // every end goes through ERROR: the Terminate, the two vanished clients, the orderly close (IDLE, moved)
            assertEquals(4, server.resets());
            assertEquals(1, server.qpsMade()); // one QP served the four connections
            assertTrue(server.events().stream().anyMatch(e -> e.type() == AsyncEventType.QP_TERMINATE_RECEIVED),
                    server.events().toString());
        }
    }

    @Test
    @Timeout(120)
    void aClientThatLeavesBeforeItsFirstFpduGivesTheQpBack() throws Exception {
        try (RdmaDevice sdev = Rdma.open("soft");
             ResilientEchoServer server = new ResilientEchoServer(sdev, new InetSocketAddress("127.0.0.1", 0))) {
            // a bare MPA initiator (RFC 5044 section 7.1): a revision 1 Request, the Reply read, then gone
            try (Socket s = new Socket(server.address().getAddress(), server.address().getPort())) {
                byte[] request = new byte[20];
                System.arraycopy("MPA ID Req Frame".getBytes(StandardCharsets.US_ASCII), 0, request, 0, 16);
                request[17] = 1; // revision 1, no flags, no private data
                s.getOutputStream().write(request);
                byte[] reply = s.getInputStream().readNBytes(20);
                assertEquals("MPA ID Rep Frame", new String(reply, 0, 16, StandardCharsets.US_ASCII));
            }
            awaitAllIdle(server); // the receives the failed set-up left posted came back flushed
            assertEquals(1, server.qpsMade());
            assertEquals(ResilientEchoServer.DEPTH, server.flushed());
            try (RdmaDevice dev = Rdma.open("soft")) { // and the QP serves the next client
                Client c = new Client(dev);
                c.connect(server.address());
                c.echo("after a client that never spoke");
            }
        }
    }

    /** Waits until the server put every QP back in its pool; fails after {@link #WAIT}. */
    private static void awaitAllIdle(ResilientEchoServer server) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (server.idleQps() < server.qpsMade()) {
            assertTrue(System.nanoTime() - deadline < 0, "QPs back in the pool: " + server.idleQps() + " of "
                    + server.qpsMade() + " after " + WAIT + " (echoed " + server.echoed() + ", flushed "
                    + server.flushed() + ", events " + server.events() + ")");
            Thread.sleep(1);
        }
    }

    /** A blocking client: one QP, one receive per echo. */
    private static final class Client {
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion mr;
        final RdmaDevice dev;
        final Completion[] wcs = Completion.array(8);
        int outstanding;

        Client(RdmaDevice dev) {
            this.dev = dev;
            ProtectionDomain pd = dev.allocatePd();
            cq = dev.createCq(64);
            qp = pd.createQp(QpInit.rc(cq).maxSendWr(4).maxRecvWr(4));
            mr = pd.register(new byte[2 * ResilientEchoServer.SIZE], Access.LOCAL_WRITE);
        }

        Connection connect(InetSocketAddress server) throws Exception {
            return dev.connectionManager().connect(server, qp, ConnectOptions.defaults()).get(30, TimeUnit.SECONDS);
        }

        void echo(String text) throws Exception {
            byte[] b = text.getBytes(StandardCharsets.US_ASCII);
            mr.memory().view().setBytes(0, b);
            qp.postRecv(RecvWr.of(2, mr.sge(ResilientEchoServer.SIZE, ResilientEchoServer.SIZE)));
            qp.postSend(SendWr.send().id(1).local(mr.sge(0, b.length)).signaled());
            outstanding += 2;
            boolean got = false;
            while (!got || outstanding > 0) {
                int n = cq.take(wcs, WAIT);
                assertTrue(n > 0, "no completion within " + WAIT);
                for (int i = 0; i < n; i++) {
                    outstanding--;
                    assertEquals(CompletionStatus.SUCCESS, wcs[i].status(), wcs[i].toString());
                    if (wcs[i].opcode() == CompletionOpcode.RECV) {
                        byte[] back = new byte[wcs[i].byteLength()];
                        mr.memory().view().getBytes(ResilientEchoServer.SIZE, back);
                        assertArrayEquals(b, back);
                        got = true;
                    }
                }
            }
        }

        /** Takes the completions of every WR still posted (flushed after an error). */
        void drain() throws Exception {
            while (outstanding > 0) {
                int n = cq.take(wcs, WAIT);
                assertTrue(n > 0, "no completion within " + WAIT);
                outstanding -= n;
            }
        }
    }
}
