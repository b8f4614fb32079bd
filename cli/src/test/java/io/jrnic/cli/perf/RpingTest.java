package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.ConnectOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class RpingTest {

    @Test
    void dataIsRpingsTextWithARotatingStart() {
        byte[] b = new byte[30];
        Rping.fill(b, 30, 7, 'A');
        assertEquals("rdma-ping-7: ABCDEFGHIJKLMNOP", Rping.cString(b));   // 13 + 16 characters, then NUL
        assertEquals(0, b[29]);
        Rping.fill(b, 30, 12, 'y');
        assertEquals("rdma-ping-12: yzABCDEFGHIJKLM", Rping.cString(b));
        assertEquals('A', Rping.nextStart('z'));
        assertEquals('C', Rping.nextStart('B'));
    }

    @Test
    void infoIsBigEndianBufRkeySize() {
        byte[] b = new byte[16];
        Rping.writeInfo(b, 0x0102030405060708L, 0x0A0B0C0D, 64);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 0x0A, 0x0B, 0x0C, 0x0D, 0, 0, 0, 64}, b);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void verboseClientPrintsEachPingAsRpingDoes() throws Exception {
        StringWriter client = new StringWriter();
        StringWriter server = new StringWriter();
        long n = run(3, 40, new PrintWriter(client), new PrintWriter(server));
        assertEquals(3, n);
        String[] lines = client.toString().split("\n");
        assertEquals(3, lines.length);
        assertEquals("ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ", lines[0]);   // 13 + 26 + NUL = 40
        assertEquals("ping data: rdma-ping-1: BCDEFGHIJKLMNOPQRSTUVWXYZ[", lines[1]);
        assertTrue(server.toString().startsWith("server ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ\n"), server.toString());
    }

    /** 10,000 validated pings, client against server in this JVM; the runtime is printed for the report. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void tenThousandValidatedPings() throws Exception {
        long t0 = System.nanoTime();
        long n = run(10_000, 64, null, null);
        System.out.printf("rping: 10000 validated pings in %.2f s%n", (System.nanoTime() - t0) / 1e9);
        assertEquals(10_000, n);
    }

    private static long run(int count, int size, PrintWriter clientOut, PrintWriter serverOut) throws Exception {
        try (Rping.Server s = new Rping.Server("soft", new InetSocketAddress("127.0.0.1", 0), size, ConnectOptions.defaults())) {
            CompletableFuture<Long> served = CompletableFuture.supplyAsync(() -> {
                try {
                    return s.serve(30, serverOut);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            long n = Rping.client("soft", s.localAddress(), count, size, true, clientOut, ConnectOptions.defaults(), 100);
            assertEquals(n, served.get(30, TimeUnit.SECONDS));
            return n;
        }
    }
}
