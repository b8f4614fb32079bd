package io.jrnic.cli;

import io.jrnic.cli.soak.SoakClient;
import io.jrnic.cli.soak.SoakServer;
import io.jrnic.verbs.ConnectOptions;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jrnic soak}: moves a volume of mixed RDMA WRITE, READ and SEND traffic of random sizes over several QPs
 * between two soft devices and checks every byte end to end ({@link SoakClient}): each WRITE is read back with a
 * READ of the same remote range; each READ is compared with what the client last wrote there; each SEND's length
 * and CRC32C at the receiver, which the receiver answers, must equal the sender's. Both devices in this process on
 * loopback, or across two processes or hosts with {@code --server} and {@code --connect}. Prints throughput over
 * time and the mismatch count.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = {"Long-running data-integrity run: random-size RDMA WRITE (read back and compared),"
                + " READ and SEND over several QPs, CRC32C end to end; on loopback in this process, or across two"
                + " processes or hosts (--server on one, --connect HOST on the other). Exit code 0: no mismatch;"
                + " 1: a mismatch, a failed work request, or (--server) a run whose QPs were lost; 2: bad usage or"
                + " could not connect.",
                "Example: jrnic soak --bytes 100G --qps 8",
                "Across hosts: jrnic soak --server --runs 1   then   jrnic soak --connect HOST --bytes 100G"})
public final class SoakCommand implements Callable<Integer> {
    private static final int REGION = 4 << 20;
    public static final int DEFAULT_PORT = 18525;

    @Spec
    CommandSpec spec;
    @Option(names = "--bytes", paramLabel = "N[K|M|G]", defaultValue = "10G",
            description = "volume to move (payload bytes over all QPs, both directions; default 10G = 10^10)")
    String bytes;
    @Option(names = "--qps", paramLabel = "N", defaultValue = "4", description = "queue pairs (one thread each; default 4)")
    int qps;
    @Option(names = "--max-size", paramLabel = "BYTES", defaultValue = "1048576", description = "largest message (default 1 MiB)")
    int maxSize;
    @Option(names = "--seed", defaultValue = "1", description = "seed of sizes, offsets, opcodes and contents")
    long seed;
    @Option(names = "--interval", paramLabel = "S", defaultValue = "5", description = "seconds between progress lines")
    int interval;
    @Option(names = "--no-crc", description = "MPA without CRC")
    boolean noCrc;
    @Option(names = "--markers", description = "request MPA markers")
    boolean markers;
    @Option(names = "--server", description = "only the passive side: serve --runs client runs on --port, then exit")
    boolean server;
    @Option(names = "--connect", paramLabel = "HOST", description = "only the active side, against a jrnic soak --server")
    String connect;
    @Option(names = "--port", paramLabel = "P", defaultValue = "" + DEFAULT_PORT,
            description = "--server/--connect: the server's port (default " + DEFAULT_PORT + ")")
    int port;
    @Option(names = "--bind", paramLabel = "ADDR", description = "--server: the address to listen on (default: all)")
    String bind;
    @Option(names = "--runs", paramLabel = "N", defaultValue = "1",
            description = "--server: client runs to serve before exiting (default 1)")
    int runs;
    @Option(names = "--seconds", paramLabel = "S", defaultValue = "0",
            description = "time limit: the client stops posting at S (what moved is reported, not a failure); the server"
                    + " exits at S (0, the default: no limit but --bytes, or --runs for the server)")
    long seconds;
    @Option(names = "--stall-timeout", paramLabel = "S", defaultValue = "60",
            description = "transmit stall timeout in seconds (ConnectOptions.transmitStallTimeout; 0 = off; default 60)")
    long stallTimeout;
    @Option(names = "--dead-peer-timeout", paramLabel = "S", defaultValue = "0",
            description = "end a stream that heard nothing from its peer for S seconds while waiting for it: a link or"
                    + " host that died (ConnectOptions.deadPeerTimeout, keepalive and TCP_USER_TIMEOUT; 0 = off, the"
                    + " default; else at least 2)")
    long deadPeerTimeout;
    @Option(names = "--tcp-rto-min", paramLabel = "MS", defaultValue = "0",
            description = "minimum TCP retransmission timeout of this side's streams, 1..200 ms (ConnectOptions.tcpRtoMin,"
                    + " Linux 6.15+ TCP_RTO_MIN_US; refused values are logged and left to the kernel; default 0: the"
                    + " kernel's 200 ms)")
    long tcpRtoMin;

    static long parseBytes(String s) {
        String t = s.trim().toUpperCase(Locale.ROOT);
        long mult = 1;
        if (t.endsWith("K") || t.endsWith("M") || t.endsWith("G")) {
            mult = switch (t.charAt(t.length() - 1)) {
                case 'K' -> 1_000L;
                case 'M' -> 1_000_000L;
                default -> 1_000_000_000L;
            };
            t = t.substring(0, t.length() - 1);
        }
        return Math.multiplyExact(Long.parseLong(t), mult);
    }

    @Override
    public Integer call() throws Exception {
        Logs.quietConnections();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        long volume;
        try {
            volume = parseBytes(bytes);
        } catch (RuntimeException e) {
            err.println("jrnic soak: bad --bytes " + bytes);
            return 2;
        }
        if (qps < 1 || qps > 64 || maxSize < 1 || maxSize > REGION || interval < 1 || volume < 1 || seconds < 0
                || runs < 1 || port < 0 || port > 65535) {
            err.println("jrnic soak: --qps 1..64, --max-size 1.." + REGION + ", --interval >= 1, --runs >= 1,"
                    + " --seconds >= 0");
            return 2;
        }
        if (server && connect != null) {
            err.println("jrnic soak: --server and --connect exclude each other");
            return 2;
        }
        ConnectOptions options;
        try { // the timeouts' rules are ConnectOptions' own
            options = ConnectOptions.defaults().crc(!noCrc).markers(markers)
                    .transmitStallTimeout(Duration.ofSeconds(stallTimeout))
                    .deadPeerTimeout(Duration.ofSeconds(deadPeerTimeout))
                    .tcpRtoMin(Duration.ofMillis(tcpRtoMin));
        } catch (IllegalArgumentException e) {
            err.println("jrnic soak: " + e.getMessage() + " (--stall-timeout, --dead-peer-timeout, --tcp-rto-min)");
            return 2;
        }
        long t0 = System.nanoTime();
        // no limit: a deadline far enough ahead (System.nanoTime differences stay exact for ~292 years)
        long deadline = t0 + (seconds == 0 ? TimeUnit.DAYS.toNanos(365) : TimeUnit.SECONDS.toNanos(seconds));
        if (server) {
            InetSocketAddress local = bind == null ? new InetSocketAddress(port)
                    : new InetSocketAddress(InetAddress.getByName(bind), port);
            try (SoakServer s = new SoakServer(local, options, deadline, out)) {
                out.println(SoakServer.READY + s.localAddress().getHostString() + ":" + s.localAddress().getPort());
                out.flush();
                boolean ok = s.awaitRuns(runs);
                out.println("jrnic soak server: " + (ok ? "every run ended cleanly" : "a run failed or was lost"));
                out.flush();
                return ok ? 0 : 1;
            }
        }
        out.printf("jrnic soak: %,d bytes, %d QPs, messages 0..%d B, MPA CRC %s, markers %s, seed %d%s%n", volume, qps,
                maxSize, noCrc ? "off" : "on", markers ? "on" : "off", seed,
                connect == null ? ", loopback in this process" : ", against " + connect + ":" + port);
        out.flush();
        SoakClient.Report r;
        if (connect != null) {
            try {
                r = new SoakClient().run(new InetSocketAddress(InetAddress.getByName(connect), port), options, qps, volume,
                        maxSize, seed, interval, deadline, out);
            } catch (Exception e) {
                err.println("jrnic soak: cannot run against " + connect + ":" + port + ": " + e);
                return 2;
            }
        } else {
            try (SoakServer s = new SoakServer(new InetSocketAddress("127.0.0.1", 0), options, deadline,
                    new PrintWriter(java.io.Writer.nullWriter()))) {
                r = new SoakClient().run(s.localAddress(), options, qps, volume, maxSize, seed, interval, deadline, out);
                if (!s.awaitRuns(1)) {
                    err.println("jrnic soak: the server's side reported a failed work request or a lost QP");
                    return 1;
                }
            }
        }
        out.printf(Locale.ROOT, "jrnic soak: %,d bytes in %.1f s = %.1f MB/s; %d mismatches, %d failed work requests%s%n",
                r.moved(), r.seconds(), r.moved() / r.seconds() / 1e6, r.mismatches(), r.failures(),
                r.timeLimited() ? " (stopped at the --seconds limit)" : "");
        out.println("jrnic soak: QP events " + r.events());
        out.flush();
        return r.ok() ? 0 : 1;
    }
}
