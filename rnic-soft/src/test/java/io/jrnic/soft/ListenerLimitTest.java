package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The listener's bound on streams in MPA set-up ({@link ConnectOptions#maxPendingSetups(int)}): peers that
 * connect and send nothing hold at most the limit, the oldest is reset when a newer stream arrives, and a
 * well-behaved client is served in the middle of the flood.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ListenerLimitTest {
    private static final int LIMIT = 8;
    private static final int STALLED = 50;

    /** True when the server reset or closed the stream (read gives -1 or "connection reset"). */
    private static boolean closedByServer(Socket s) throws IOException {
        s.setSoTimeout(50);
        try {
            return s.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    @Test
    void stalledStreamsBeyondTheLimitEvictTheOldestAndAWellBehavedClientIsServed() throws Exception {
        try (SoftPair.Side server = new SoftPair.Side("server"); SoftPair.Side client = new SoftPair.Side("client")) {
            ConnectOptions listen = ConnectOptions.defaults().maxPendingSetups(LIMIT)
                    .mpaRequestTimeout(Duration.ofSeconds(30)); // the limit, not the timeout, must act here
            Listener l = server.cm.listen(new InetSocketAddress("127.0.0.1", 0), listen);
            l.onConnectRequest(r -> r.accept(server.qp, AcceptOptions.defaults()));
            List<Socket> stalled = new ArrayList<>();
            try {
                for (int i = 0; i < STALLED; i++) {
                    stalled.add(new Socket(InetAddress.getLoopbackAddress(), l.localAddress().getPort()));
                }
                SoftPair.eventually(() -> server.dev.stats().setupFailures().getOrDefault("LISTENER_FULL", 0L)
                        >= STALLED - LIMIT);

                Connection c = client.cm.connect(l.localAddress(), client.qp, ConnectOptions.defaults())
                        .get(5, TimeUnit.SECONDS);
                assertTrue(c != null);

                int open = 0;
                for (Socket s : stalled) {
                    if (!closedByServer(s)) {
                        open++;
                    }
                }
                assertTrue(open <= LIMIT, open + " stalled streams still held, limit " + LIMIT);
                assertEquals(STALLED + 1 - LIMIT, server.dev.stats().setupFailures().get("LISTENER_FULL"),
                        "one eviction per stream beyond the limit (the client's stream counts too)");
            } finally {
                for (Socket s : stalled) {
                    s.close();
                }
            }
        }
    }

    @Test
    void aStreamThatSendsNoRequestIsClosedAtTheRequestTimeout() throws Exception {
        try (SoftPair.Side server = new SoftPair.Side("server")) {
            Listener l = server.cm.listen(new InetSocketAddress("127.0.0.1", 0),
                    ConnectOptions.defaults().mpaRequestTimeout(Duration.ofMillis(200)));
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), l.localAddress().getPort())) {
                s.setSoTimeout(30_000);
                try {
                    assertEquals(-1, s.getInputStream().read(), "the listener closes the silent stream");
                } catch (IOException reset) {
                    // closed with a reset: also closed
                }
            }
            SoftPair.eventually(() -> !server.dev.stats().setupFailures().isEmpty());
            assertEquals(java.util.Set.of("TIMEOUT"), server.dev.stats().setupFailures().keySet());
        }
    }

    @Test
    void theLimitMustBePositive() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ConnectOptions.defaults().maxPendingSetups(0));
    }
}
