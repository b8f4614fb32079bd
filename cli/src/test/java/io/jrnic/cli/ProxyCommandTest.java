package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProxyCommandTest {
    @Test
    void relaysWithTheChosenFlipAndReportsIt() throws Exception {
        int listen;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            listen = probe.getLocalPort();
        }
        try (ServerSocket sink = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> CliRun.of("proxy", "--listen",
                    Integer.toString(listen), "--target", Integer.toString(sink.getLocalPort()), "--flip", "3",
                    "--seconds", "3"));
            Socket c = null;
            for (int i = 0; i < 200 && c == null; i++) {
                try {
                    c = new Socket(InetAddress.getLoopbackAddress(), listen);
                } catch (IOException notYet) {
                    Thread.sleep(10);
                }
            }
            assertTrue(c != null, "the proxy did not listen");
            try (Socket client = c; Socket server = sink.accept()) {
                client.getOutputStream().write(new byte[] {0, 1, 2, 3, 4, 5});
                client.shutdownOutput();
                byte[] got = server.getInputStream().readAllBytes();
                assertArrayEquals(new byte[] {0, 1, 2, (byte) 0xFC, 4, 5}, got);
            }
            CliRun r = run.get(30, TimeUnit.SECONDS);
            assertEquals(0, r.exit(), r.err());
            assertTrue(r.out().contains("conn 1 CLIENT_TO_TARGET flip at 3"), r.out());
            assertTrue(r.out().contains("1 connections"), r.out());
        }
    }

    @Test
    void theTargetPortIsRequired() {
        assertEquals(2, CliRun.of("proxy").exit(), "--target is required");
    }
}
