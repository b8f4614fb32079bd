package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host end of the control protocol against a scripted fake guest on a unix socket (no QEMU). */
class ControlChannelTest {
    @TempDir
    Path dir;
    private ServerSocketChannel server;
    private final BlockingQueue<String> requests = new ArrayBlockingQueue<>(8);

    /** Starts a fake guest that answers each request line with {@code answer.apply(line)}, or nothing for null. */
    private ControlChannel connect(Function<String, String> answer) throws IOException {
        Path sock = dir.resolve("ctl.sock");
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(sock));
        Thread t = new Thread(() -> {
            try (SocketChannel c = server.accept()) {
                StringBuilder line = new StringBuilder();
                ByteBuffer b = ByteBuffer.allocate(1);
                while (c.read(b) > 0) {
                    char ch = (char) b.get(0);
                    b.clear();
                    if (ch != '\n') {
                        line.append(ch);
                        continue;
                    }
                    requests.add(line.toString());
                    String a = answer.apply(line.toString());
                    line.setLength(0);
                    if (a == null) {
                        continue;
                    }
                    if (a.equals("CLOSE")) {
                        return;
                    }
                    ByteBuffer out = ByteBuffer.wrap(a.getBytes(StandardCharsets.US_ASCII));
                    while (out.hasRemaining()) {
                        c.write(out);
                    }
                }
            } catch (IOException e) {
                // test over
            }
        });
        t.setDaemon(true);
        t.start();
        return ControlChannel.connect(sock);
    }

    @AfterEach
    void close() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private static String frame(String id, String output, int rc) {
        String b64 = Base64.getMimeEncoder(76, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(output.getBytes(StandardCharsets.UTF_8));
        return "@@BEGIN " + id + "\n" + (b64.isEmpty() ? "" : b64 + "\n") + "@@END " + id + " " + rc + "\n";
    }

    @Test
    void requestCarriesIdTimeoutAndBase64Script() throws Exception {
        try (ControlChannel ch = connect(l -> frame(l.split(" ")[0], "", 0))) {
            ch.exec("echo 'a b'\nexit 0", Duration.ofMillis(1500), Duration.ofSeconds(5));
            String[] req = requests.poll(5, TimeUnit.SECONDS).split(" ");
            assertEquals(3, req.length);
            assertEquals("c1", req[0]);
            assertEquals("2", req[1], "timeout is rounded up to whole seconds");
            assertEquals("echo 'a b'\nexit 0", new String(Base64.getDecoder().decode(req[2]), StandardCharsets.UTF_8));
        }
    }

    @Test
    void multiLineBase64AnswerDecodesExactlyWithExitCode() throws Exception {
        String big = "x".repeat(500) + "\nno newline at end";
        try (ControlChannel ch = connect(l -> frame(l.split(" ")[0], big, 3))) {
            ExecResult r = ch.exec("whatever", Duration.ofSeconds(5), Duration.ofSeconds(5));
            assertEquals(3, r.exitCode());
            assertEquals(big, r.output());
        }
    }

    @Test
    void lateAnswerOfAnotherIdIsSkipped() throws Exception {
        try (ControlChannel ch = connect(l -> frame("c99", "stale", 1) + frame(l.split(" ")[0], "fresh", 0))) {
            ExecResult r = ch.exec("x", Duration.ofSeconds(5), Duration.ofSeconds(5));
            assertEquals("fresh", r.output());
            assertEquals(0, r.exitCode());
        }
    }

    @Test
    void silentGuestIsReportedAfterTimeoutPlusGrace() throws Exception {
        try (ControlChannel ch = connect(l -> null)) {
            long t0 = System.nanoTime();
            ControlChannel.SilentException e = assertThrows(ControlChannel.SilentException.class,
                    () -> ch.exec("sleep 1", Duration.ofSeconds(1), Duration.ofMillis(200)));
            assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(1200), "waited timeout + grace");
            assertTrue(e.getMessage().contains("no answer"), e.getMessage());
        }
    }

    @Test
    void closedChannelIsReportedAtOnce() throws Exception {
        try (ControlChannel ch = connect(l -> "CLOSE")) {
            ControlChannel.SilentException e = assertThrows(ControlChannel.SilentException.class,
                    () -> ch.exec("x", Duration.ofSeconds(60), Duration.ofSeconds(60)));
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
            assertTrue(Files.exists(dir.resolve("ctl.sock")));
        }
    }
}
