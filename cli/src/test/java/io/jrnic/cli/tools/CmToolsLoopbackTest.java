package io.jrnic.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.RtrType;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** jrnic rdma-server/rdma-client and ucmatose against themselves over loopback. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CmToolsLoopbackTest {
    private static final InetSocketAddress ANY_LOCAL = new InetSocketAddress("127.0.0.1", 0);
    /** ucmatose's server sends first: the client's RTR lets the jrnic responder transmit (RFC 6581). */
    private static final ConnectOptions P2P = ConnectOptions.defaults().peerToPeer(RtrType.WRITE, RtrType.READ);

    @Test
    void rdmaClientAndServerExchangeOneMessageEachWay() throws Exception {
        try (RdmaServerClient.Server s = new RdmaServerClient.Server("soft", ANY_LOCAL, ConnectOptions.defaults(), 20)) {
            CompletableFuture<Boolean> served = CompletableFuture.supplyAsync(() -> {
                try {
                    return s.serve(20);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            RdmaServerClient.client("soft", s.localAddress(), ConnectOptions.defaults(), 20);
            assertTrue(served.get(20, TimeUnit.SECONDS), "the client disconnects first (PeerClosesFirst)");
        }
    }

    @Test
    void rdmaServerGivesUpWhenNoClientComes() {
        try (RdmaServerClient.Server s = new RdmaServerClient.Server("soft", ANY_LOCAL, ConnectOptions.defaults(), 1)) {
            assertThrows(java.util.concurrent.TimeoutException.class, () -> s.serve(1));
        }
    }

    @Test
    void ucmatoseClientAndServerPrintCmatoseProgressLines() throws Exception {
        StringWriter server = new StringWriter();
        StringWriter client = new StringWriter();
        run(Ucmatose.DEFAULT_COUNT, Ucmatose.DEFAULT_SIZE, new PrintWriter(server), new PrintWriter(client));
        assertEquals(String.join("\n", "initiating data transfers", "completing sends", "receiving data transfers",
                "data transfers complete", "cmatose: disconnecting", "disconnected", ""), server.toString());
        assertEquals(String.join("\n", "cmatose: connecting", "receiving data transfers", "sending replies",
                "data transfers complete", ""), client.toString());
    }

    @Test
    void ucmatoseWithSizeZeroSendsNothingAndStillDisconnects() throws Exception {
        StringWriter server = new StringWriter();
        run(10, 0, new PrintWriter(server), null);
        assertEquals("cmatose: disconnecting\ndisconnected\n", server.toString());
    }

    @Test
    void ucmatoseClientRejectsAShortMessage() throws Exception {
        // server sends 50-byte messages, client expects 100: the size check fails on the first receive
        try (Ucmatose.Server s = new Ucmatose.Server("soft", ANY_LOCAL, 2, 50, P2P, 5)) {
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try {
                    s.serve(10, 5, null);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> Ucmatose.client("soft", s.localAddress(), 2, 100, P2P, 5, null));
            assertTrue(e.getMessage().contains("expected a 100-byte message, got RECV of 50 bytes"), e.getMessage());
            assertThrows(ExecutionException.class, () -> served.get(20, TimeUnit.SECONDS));
        }
    }

    @Test
    void withoutPeerToPeerTheJrnicResponderWaitsForTheInitiatorsFirstFpdu() {
        // RFC 5044 section 7.1: no RTR, the client never sends first, so the server never gets to send
        try (Ucmatose.Server s = new Ucmatose.Server("soft", ANY_LOCAL, 1, 8, ConnectOptions.defaults(), 2)) {
            assertThrows(java.util.concurrent.TimeoutException.class,
                    () -> Ucmatose.client("soft", s.localAddress(), 1, 8, ConnectOptions.defaults(), 2, null));
        }
    }

    private static void run(int count, int size, PrintWriter serverOut, PrintWriter clientOut) throws Exception {
        try (Ucmatose.Server s = new Ucmatose.Server("soft", ANY_LOCAL, count, size, P2P, 20)) {
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try {
                    s.serve(20, 20, serverOut);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Ucmatose.client("soft", s.localAddress(), count, size, P2P, 20, clientOut);
            served.get(20, TimeUnit.SECONDS);
        }
    }
}
