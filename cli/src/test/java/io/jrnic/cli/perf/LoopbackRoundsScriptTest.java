package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench/loopback-rounds.sh}'s table from raw outputs ({@code --summarize-only}, nothing measured): a bandwidth
 * row's ratio is the median of its runs over the median of iperf3's runs of the matching write size, the latency and
 * {@code --qps} rows keep jrnic perf's own ratio, and a failed run fails the script.
 */
class LoopbackRoundsScriptTest {
    private static final Path SCRIPT = Path.of("..", "bench", "loopback-rounds.sh").toAbsolutePath().normalize();
    private static final String BW_HEADER = "kind,test,bytes,iterations,bw_mb_s,result,host_s_per_gb";
    private static final String LAT_HEADER = "kind,test,bytes,t_p50_us,tcp_t_p50_us,ratio,rdma_min,rdma_max,reps,result";

    @TempDir
    Path out;
    private Path raw;

    @BeforeEach
    void rawOutputsOfOneRoundOfThreePairs() throws IOException {
        raw = Files.createDirectories(out.resolve("raw"));
        int[] iperf128k = {2000, 4000, 3000};
        int[] iperf1m = {5000, 4000, 6000};
        int[] write64k = {3300, 2700, 9000};
        for (int p = 1; p <= 3; p++) {
            iperf("r1-p" + p, 131072, iperf128k[p - 1]);
            iperf("r1-p" + p, 1048576, iperf1m[p - 1]);
            Files.write(raw.resolve("bw-r1-p" + p + ".csv"), List.of(BW_HEADER,
                    "bw,write,65536,16000," + write64k[p - 1] + ",ok,0.5",
                    "bw-msg,read,1048576,1000," + (4000 + 100 * p) + ",ok,0.6"));
        }
        Files.write(raw.resolve("lat-r1.csv"), List.of(LAT_HEADER,
                "lat,write,64,5.5,4.6,1.196,5.4,5.6,3,ok",
                "lat-block-vt,send,64,,,,,,,skipped"));
        Files.writeString(raw.resolve("qps-r1.txt"), "running 16 QPs\nRDMA WRITE       3,000 MB/s  (2,900-3,400)\n"
                + "TCP              4,000 MB/s  (3,900-4,100)\nratio             0.77\n"
                + "CPU         this machine (/proc/stat), medians: RDMA 2.00 cores busy, 0.652 core-s/GB; TCP 2.00 cores\n");
    }

    /** An iperf3 client's JSON (the fields the script reads) and the ticks taken around it: 1 core busy of 2. */
    private void iperf(String tag, int size, int mbps) throws IOException {
        long bytes = (long) mbps * 1_000_000L * 5;
        Files.writeString(raw.resolve("iperf3-" + tag + "-" + size + ".json"), "{\"end\": {\"sum_sent\": {\"seconds\": 5.0},"
                + " \"sum_received\": {\"bits_per_second\": " + mbps * 8e6 + ", \"bytes\": " + bytes + "}}}");
        Files.writeString(raw.resolve("iperf3-" + tag + "-" + size + ".ticks"), "100 1000 600 2000 2\n");
    }

    @Test
    void aBandwidthRowIsItsMedianOverTheMedianOfIperf3sRunsOfItsSize() throws Exception {
        Result r = summarize();
        assertEquals(0, r.exit, r.output);
        List<String> csv = Files.readAllLines(out.resolve("rounds.csv"));
        assertEquals("round,row,value,min,max,runs,baseline,baseline_value,ratio,host_s_per_gb", csv.get(0));
        // 64 KiB against -l 128K: median 3300 over median 3000; 1 MiB against -l 1M: median 4200 over 5000
        assertTrue(csv.contains("1,\"RDMA WRITE 64 KiB batched, MB/s\",3300.0000,2700.0000,9000.0000,3,iperf3 -l 128K,"
                + "3000.0000,1.1000,0.5000"), String.join("\n", csv));
        assertTrue(csv.contains("1,\"RDMA READ 1 MiB per message, MB/s\",4200.0000,4100.0000,4300.0000,3,iperf3 -l 1M,"
                + "5000.0000,0.8400,0.6000"), String.join("\n", csv));
        // iperf3's core-seconds per GB: 1 core over 5 s for 3000 MB/s x 5 s
        assertTrue(csv.contains("1,\"iperf3 -l 128K, MB/s\",3000.0000,2000.0000,4000.0000,3,,,,0.3333"), String.join("\n", csv));
        assertTrue(csv.contains("1,\"busy-polling WRITE 64 B latency p50, us\",5.5000,5.4000,5.6000,3,jrnic perf's TCP,"
                + "4.6000,1.1960,"), String.join("\n", csv));
        assertTrue(csv.contains("1,\"16 QPs RDMA WRITE (--qps 16), MB/s\",3000.0000,2900.0000,3400.0000,,16 java.nio streams,"
                + "4000.0000,0.7500,0.6520"), String.join("\n", csv));
        assertEquals(7, csv.size(), "the skipped virtual-thread row is left out: " + csv);
        String md = Files.readString(out.resolve("rounds.md"));
        assertTrue(md.contains("| RDMA WRITE 64 KiB batched, MB/s | **1.10** (3,300) |"), md);
    }

    @Test
    void aFailedRunFailsTheScript() throws Exception {
        Files.write(raw.resolve("bw-r1-p2.csv"), List.of(BW_HEADER, "bw,write,65536,16000,2700,FAILED,0.5"));
        Result r = summarize();
        assertEquals(1, r.exit, r.output);
    }

    @Test
    void aMissingIperf3RunFailsTheScript() throws Exception {
        Files.delete(raw.resolve("iperf3-r1-p3-1048576.json"));
        assertEquals(1, summarize().exit);
    }

    @Test
    void badUsageExitsTwo() throws Exception {
        assertEquals(2, run("--rounds", "0").exit);
        assertEquals(2, run("--no-such-option").exit);
    }

    private record Result(int exit, String output) {
    }

    private Result summarize() throws Exception {
        return run("--summarize-only", "--rounds", "1", "--pairs", "3", "--out", out.toString());
    }

    private Result run(String... args) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "python3 not installed: the script's summary needs it");
        List<String> cmd = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("loopback-rounds.sh did not end in 60 s");
        }
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
