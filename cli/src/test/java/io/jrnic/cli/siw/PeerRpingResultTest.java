package io.jrnic.cli.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.interop.siw.PeerResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code interop peer-rping}, server and client, ends with a RESULT line like the other peers. */
class PeerRpingResultTest {
    @Test
    @Timeout(90)
    void bothSidesOfPeerRpingPrintAResultLine() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        PrintStream old = System.out;
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        System.setOut(new PrintStream(b, true, StandardCharsets.UTF_8));
        int server;
        int client;
        try {
            CompletableFuture<Integer> peer = CompletableFuture.supplyAsync(() -> io.jrnic.cli.Jrnic.commandLine().execute("interop", "peer-rping", "-s", "-a", "127.0.0.1", "-p",
                    String.valueOf(port), "-C", "5", "--p2p", "--max-seconds", "30"));
            for (boolean up = false; !up; ) { // until it listens (a bare TCP probe sends no MPA Request)
                try (java.net.Socket probe = new java.net.Socket("127.0.0.1", port)) {
                    up = true;
                } catch (java.io.IOException refused) {
                    assertTrue(!peer.isDone(), "peer-rping -s ended before listening: " + b);
                    Thread.sleep(50);
                }
            }
            client = io.jrnic.cli.Jrnic.commandLine().execute("interop", "peer-rping", "-c", "-a",
                    "127.0.0.1", "-p", String.valueOf(port), "-C", "5", "-V", "--p2p", "--max-seconds", "30");
            server = peer.get(30, TimeUnit.SECONDS);
        } finally {
            System.setOut(old);
        }
        String out = b.toString(StandardCharsets.UTF_8); // both peers share System.out: one RESULT line each
        assertEquals(0, client, out);
        assertEquals(0, server, out);
        java.util.List<String> lines = out.lines().filter(l -> l.startsWith(PeerResult.PREFIX)).toList();
        assertEquals(2, lines.size(), out);
        for (String line : lines) {
            PeerResult r = PeerResult.parse(line).orElseThrow();
            assertNull(r.terminate(), line);
            assertEquals(5, r.completed(), line);
            assertTrue(r.allCompleted(), line);
        }
    }
}
