package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.cli.perf.Rping;
import io.jrnic.cli.perf.RpingPersistentServer;
import io.jrnic.interop.decode.TsharkOracle;
import io.jrnic.verbs.ConnectOptions;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ConnectOptions.capture(Path)} and {@code --capture}: the pcap of jrnic's own connection
 * decodes with 0 violations in {@code jrnic decode}, and tshark (when installed) finds every CRC good.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CaptureTest {

    @Test
    void rpingCaptureDecodesCleanlyAndTsharkFindsGoodCrcs(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("rping.pcap");
        int pings = 20;
        try (Rping.Server s = new Rping.Server("soft", new InetSocketAddress("127.0.0.1", 0), 100,
                ConnectOptions.defaults().crc(true))) {
            CompletableFuture<Long> served = CompletableFuture.supplyAsync(() -> {
                try {
                    return s.serve(30, null);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            long n = Rping.client("soft", s.localAddress(), pings, 100, true, null,
                    ConnectOptions.defaults().crc(true).capture(pcap), 60);
            assertEquals(pings, n);
            served.get(30, TimeUnit.SECONDS);
        }
        Settled.untilClosed(pcap);
        CliRun d = CliRun.of("decode", pcap.toString());
        assertEquals(0, d.exit(), d.out() + d.err());
        String summary = d.outLines().stream().filter(l -> l.startsWith("summary:")).findFirst().orElse("");
        assertTrue(summary.contains("1 MPA streams") && summary.contains("; 0 violations"), summary);
        // rping: per ping a SEND each way, an RDMA READ (request + response) and an RDMA WRITE
        long fpdus = Long.parseLong(summary.replaceAll(".* (\\d+) FPDUs.*", "$1"));
        assertTrue(fpdus >= 4L * pings, summary);
        TsharkOracle tshark = TsharkOracle.find();
        if (tshark != null) {
            List<String> rows = tshark.fpduRows(pcap);
            assertEquals(fpdus, rows.size(), "tshark finds every FPDU");
            assertTrue(rows.stream().allMatch(r -> r.endsWith(",good")), "tshark: Good CRC32 on every FPDU");
        }
    }

    @Test
    void theListeningSideCapturesEveryAcceptedConnectionAndBothSidesDecodeCleanly(@TempDir Path dir) throws Exception {
        Path server = dir.resolve("server.pcap");
        Path client = dir.resolve("client.pcap");
        int pings = 10;
        try (RpingPersistentServer s = new RpingPersistentServer("soft", new InetSocketAddress("127.0.0.1", 0), 100,
                ConnectOptions.defaults().crc(true).capture(server))) {
            CompletableFuture<Long> served = CompletableFuture.supplyAsync(() -> {
                try {
                    return s.serve(30, 2, null, new java.io.PrintWriter(new java.io.StringWriter()));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            for (int round = 0; round < 2; round++) {
                long n = Rping.client("soft", s.localAddress(), pings, 100, true, null,
                        ConnectOptions.defaults().crc(true).capture(round == 0 ? client : null), 60);
                assertEquals(pings, n);
            }
            served.get(30, TimeUnit.SECONDS);
        }
        Path second = dir.resolve("server-2.pcap");
        assertTrue(Files.exists(second), "one file per accepted connection");
        long[] fpdus = new long[3];
        Path[] files = {server, client, second};
        for (int i = 0; i < files.length; i++) {
            Settled.untilClosed(files[i]);
            CliRun d = CliRun.of("decode", files[i].toString());
            assertEquals(0, d.exit(), files[i] + ": " + d.out() + d.err());
            String summary = d.outLines().stream().filter(l -> l.startsWith("summary:")).findFirst().orElse("");
            assertTrue(summary.contains("1 MPA streams") && summary.contains("; 0 violations"), summary);
            fpdus[i] = Long.parseLong(summary.replaceAll(".* (\\d+) FPDUs.*", "$1"));
            assertTrue(fpdus[i] >= 4L * pings, summary);
        }
        assertEquals(fpdus[1], fpdus[0], "the server's capture holds the FPDUs of the client's");
        TsharkOracle tshark = TsharkOracle.find();
        if (tshark != null) {
            for (int i = 0; i < files.length; i++) {
                List<String> rows = tshark.fpduRows(files[i]);
                assertEquals(fpdus[i], rows.size(), files[i] + ": tshark finds every FPDU");
                assertTrue(rows.stream().allMatch(r -> r.endsWith(",good")), files[i] + ": tshark: Good CRC32 on every FPDU");
            }
        }
    }

    @Test
    void perfCaptureOptionWritesOneDecodableFilePerConnection(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("perf.pcap");
        CliRun r = CliRun.of("perf", "--test", "write", "--mode", "bw", "--size", "8192", "--iterations", "40",
                "--no-tcp", "--max-seconds", "20", "--capture", pcap.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(Files.exists(pcap));
        assertTrue(Files.exists(dir.resolve("perf-2.pcap")), "a file per connection (warm-up, then measured)");
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Settled.untilClosed(f);
                CliRun d = CliRun.of("decode", f.toString());
                assertEquals(0, d.exit(), f + ": " + d.out() + d.err());
                assertTrue(d.out().contains("; 0 violations"), d.out());
            }
        }
    }

    /** The pcap handler closes its file when the stream closes, on the event loop: wait until its size settles. */
    static final class Settled {
        static void untilClosed(Path f) throws Exception {
            long last = -1;
            for (int i = 0; i < 100; i++) {
                long size = Files.size(f);
                if (size == last && size > 24) {
                    return;
                }
                last = size;
                Thread.sleep(50);
            }
        }
    }
}
