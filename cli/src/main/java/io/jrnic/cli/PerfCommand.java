package io.jrnic.cli;

import io.jrnic.cli.perf.Kind;
import io.jrnic.cli.perf.MemoryKind;
import io.jrnic.cli.perf.Op;
import io.jrnic.cli.perf.PerfConfig;
import io.jrnic.cli.perf.PerfRunner;
import io.jrnic.cli.perf.PerfServer;
import io.jrnic.cli.perf.Result;
import io.jrnic.cli.perf.Table;
import io.jrnic.cli.perf.TcpBaseline;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jrnic perf}: perftest-style RDMA WRITE / READ / SEND bandwidth, message rate and latency
 * over the soft RNIC, each next to a raw-TCP baseline measured in the same run. With no arguments,
 * server and client run in this process over 127.0.0.1. Exit code 0: every test passed (data
 * verified); 1: at least one failed (the table says which); 2: could not run.
 */
@Command(name = "perf", mixinStandardHelpOptions = true,
        description = {"RDMA WRITE/READ/SEND bandwidth, message rate and latency over the soft RNIC, "
                + "each next to a raw-TCP baseline (java.nio SocketChannel, TCP_NODELAY, same JVM, same loopback;"
                + " latency twice: busy-polling against busy-polling, blocking against blocking).",
                "With no --server/--connect: server and client in this process over 127.0.0.1.",
                "Exit code: 0 all passed (data verified), 1 a test failed, 2 could not run."},
        footerHeading = "%nMethod (README.md, \"Reading jrnic perf\"):%n", footer = PerfCommand.METHOD)
public final class PerfCommand implements Callable<Integer> {
    public static final int DEFAULT_PORT = 18515;
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_ERROR = 2;
    /** How the figures are obtained: in --help, not on every run. */
    static final String METHOD = "Each row alternates --reps RDMA and --reps TCP runs (RDMA, TCP, RDMA, TCP...) and shows the"
            + " median run of each side with the min-max over the runs; ratio = ratio of the medians (MB/s, or p50)."
            + " TCP baseline: java.nio SocketChannel, TCP_NODELAY, reused direct buffer, same size and iterations;"
            + " bandwidth rows write on a blocking channel, batching whole messages into writes of up to 64 KiB (one"
            + " message per write from 64 KiB up; with --tcp-crc each message goes as frames of the RDMA connection's"
            + " MULPDU, each with the CRC32C of its payload, made by the sender and checked by the receiver); latency"
            + " rows ping-pong one message, busy-polling rows on non-blocking"
            + " channels spinning on both sides, blocking rows on blocking channels (as RDMA waits on its completion"
            + " channel; the virtual-thread rows (JDK 21+) block on virtual threads on both sides, RDMA and TCP alike)."
            + " Bandwidth rows come in two shapes: per message (post msg: one WR per post call, each signaled) and batched"
            + " (post N/M: lists of --post-list N WRs per post call, one signaled completion per --cq-mod M WRs, and the last"
            + " of a list after which no whole list fits the window or the SEND credits), both against the same TCP stream."
            + " --memory direct: payload segments of 4096 B and more, markers off, go to the socket without a"
            + " copy; heap: every payload is copied. Warm-up: every RDMA test and TCP baseline first runs a quarter of its"
            + " iterations, repeated for at least 1 s (at most 64 rounds), the whole plan again until 4 s passed, and once"
            + " more just before each measured run. Every RDMA test verifies the bytes it moved.";

    enum Which { write, read, send, all }

    enum Mode { bw, lat, all }

    enum Format { text, csv }

    enum MemoryChoice {
        direct, heap;

        MemoryKind kind() {
            return this == heap ? MemoryKind.HEAP : MemoryKind.DIRECT;
        }
    }

    @Spec
    CommandSpec spec;

    @Option(names = "--test", defaultValue = "all", description = "write, read, send or all (default)")
    Which test;

    @Option(names = "--mode", defaultValue = "all", description = "bw (bandwidth and message rate, per message and batched),"
            + " lat (latency: busy-polling, blocking, and blocking on virtual threads, which needs JDK 21+), or all (default)")
    Mode mode;

    @Option(names = "--size", split = ",", paramLabel = "N",
            description = "message size in bytes, repeatable or a list (default: bw at 65536 and 64, lat at 64)")
    List<Integer> sizes;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "0",
            description = "iterations per test (default: bw ~1 GiB or 100000 messages, lat 2000)")
    long iterations;

    @Option(names = "--window", paramLabel = "N", defaultValue = "64", description = "outstanding work requests in bw tests (READ: at most 128, the ORD)")
    int window;

    @Option(names = "--post-list", paramLabel = "N", defaultValue = "16",
            description = "batched bw rows: work requests per post call (as ib_write_bw --post_list; 1..--window, default 16);"
                    + " the per-message rows post one at a time")
    int postList;

    @Option(names = "--cq-mod", paramLabel = "M", defaultValue = "16",
            description = "batched bw rows: one signaled completion per M work requests (as ib_write_bw --cq-mod;"
                    + " 1..--window, default 16); the per-message rows signal every one")
    int cqMod;

    @Option(names = "--crc", description = "request MPA CRC (the default)")
    boolean crcOn;

    @Option(names = "--no-crc", description = "do not request MPA CRC (it is still used if the peer requests it)")
    boolean crcOff;

    @Option(names = "--markers", description = "request MPA markers")
    boolean markers;

    @Option(names = "--mulpdu", paramLabel = "N", defaultValue = "0", description = "FPDU payload size (default: from the TCP MSS)")
    int mulpdu;

    @Option(names = "--mpa-rev", paramLabel = "1|2", defaultValue = "2", description = "MPA revision (default 2)")
    int mpaRev;

    @Option(names = "--max-seconds", paramLabel = "S", defaultValue = "60", description = "wall-clock cap of every loop (default 60)")
    long maxSeconds;

    @Option(names = "--stall-timeout", paramLabel = "S", defaultValue = "60",
            description = "transmit stall timeout in seconds: a QP whose peer does not drain its stream for S is reset and"
                    + " goes to ERROR, its work requests flushed (ConnectOptions.transmitStallTimeout; 0 = off; default 60)")
    long stallTimeout;

    @Option(names = "--tcp-rto-min", paramLabel = "MS", defaultValue = "0",
            description = "minimum TCP retransmission timeout of this side's RDMA streams, 1..200 ms (Linux 6.15+"
                    + " TCP_RTO_MIN_US, ConnectOptions.tcpRtoMin; refused values are logged and left to the kernel;"
                    + " the TCP baseline keeps the kernel's; default 0: the kernel's 200 ms)")
    long tcpRtoMin;

    @Option(names = "--reps", paramLabel = "K", defaultValue = "5",
            description = "alternating RDMA/TCP repetitions per row; figures are the medians, with min-max (default 5)")
    int reps;

    @Option(names = "--memory", defaultValue = "direct", paramLabel = "direct|heap",
            description = "what every RDMA buffer is: direct (default: ByteBuffer.allocateDirect; the TCP baseline uses direct"
                    + " buffers, a service that cares about speed registers direct memory, and the soft RNIC can send payload"
                    + " segments of 4096 B and more from direct memory without a copy) or heap (byte[]); with --server and"
                    + " --connect each side uses its own")
    MemoryChoice memory;

    @Option(names = "--busy", description = "run one CPU-bound thread per core throughout (latency and rates on a busy machine)")
    boolean busy;

    @Option(names = "--no-tcp", description = "skip the raw-TCP baseline")
    boolean noTcp;

    @Option(names = "--tcp-crc", description = "the TCP bandwidth baseline (and --qps's streams) also does MPA's CRC"
            + " work: a CRC32C per MULPDU of payload (the RDMA connection's), computed by the sender, checked by the"
            + " receiver; RDMA against it is jrnic's cost beyond the CRC")
    boolean tcpCrc;

    @Option(names = "--cpu", description = "add the CPU the bandwidth rows used, as perftest's --cpu_util and iperf3's CPU"
            + " utilization: busy cores and core-seconds per GB of the machine (/proc/stat) and of this process, RDMA"
            + " and TCP (the CSV always has these columns)")
    boolean cpu;

    @Option(names = "--server", description = "run only the server (RDMA on --port, control and TCP baseline on --port + 1)")
    boolean server;

    @Option(names = "--connect", paramLabel = "HOST", description = "run only the client against a jrnic perf --server")
    String connect;

    @Option(names = "--port", paramLabel = "P", description = "RDMA port (default: ephemeral in one process, 18515 otherwise)")
    Integer port;

    @Option(names = "--format", defaultValue = "text", description = "text (default) or csv")
    Format format;

    @Option(names = "--capture", paramLabel = "FILE",
            description = "write a pcap of each RDMA client connection: FILE, then FILE-2, FILE-3... (one per test and warm-up)")
    java.nio.file.Path capture;

    @Option(names = "--scale", arity = "0..1", fallbackValue = "10000", paramLabel = "N",
            description = "instead of the table: set-ups per second (MPA v2 with CRC, set-up and teardown counted) and"
                    + " N idle connected QPs held at once (default 10000) with the heap per QP; the passive side runs in a"
                    + " child JVM")
    Integer scale;

    @Option(names = "--setup-seconds", paramLabel = "S", defaultValue = "5",
            description = "--scale: how long the set-up rate is measured (default 5)")
    int setupSeconds;

    @Option(names = "--qps", paramLabel = "N",
            description = "instead of the table: aggregate RDMA WRITE bandwidth of N QPs (one device per side) against N"
                    + " TCP streams (none with --no-tcp), alternating --reps times, --run-seconds each (size: the first"
                    + " --size, default 65536)")
    Integer qps;

    @Option(names = "--run-seconds", paramLabel = "S", defaultValue = "2", description = "--qps: seconds per run (default 2)")
    int runSeconds;

    @Option(names = "--sweep", description = "like perftest -a: every size from 2 B to 8 MiB (or the --size list),"
            + " bandwidth and latency, RDMA and TCP; writes perf-sweep.csv, perf-sweep.png and perf-sweep.svg into --out"
            + " (one repetition per row unless --reps is given; iterations shrink with the size unless --iterations is given)")
    boolean sweep;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "perf-sweep", description = "--sweep: output directory"
            + " (default perf-sweep)")
    java.nio.file.Path outDir;

    @Option(names = "--loss-chart", paramLabel = "CSV",
            description = "instead of measuring: draw the two-host chart (bandwidth against loss, RDMA and iperf3) from the"
                    + " CSV of interop/netns/twohost-perf.sh into --out as twohost.png and twohost.svg")
    java.nio.file.Path lossChart;

    @Option(names = "--scale-server", paramLabel = "PORT", hidden = true)
    Integer scaleServer;

    @Option(names = "--provider", defaultValue = "soft", hidden = true)
    String provider;

    @Override
    public Integer call() throws Exception {
        // perf opens a connection per test and warm-up round: their INFO lines would bury the table
        Logs.quietConnections();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        PerfConfig cfg;
        try {
            cfg = config();
        } catch (IllegalArgumentException e) {
            err.println("jrnic perf: " + e.getMessage());
            return EXIT_ERROR;
        }
        if (crcOn && crcOff) {
            err.println("jrnic perf: --crc and --no-crc exclude each other");
            return EXIT_ERROR;
        }
        if (server && connect != null) {
            err.println("jrnic perf: --server and --connect exclude each other");
            return EXIT_ERROR;
        }
        if (lossChart != null) {
            try {
                out.println("wrote " + String.join(", ", io.jrnic.cli.perf.LossChart.write(lossChart, outDir).stream()
                        .map(Object::toString).toList()));
                return 0;
            } catch (java.io.IOException | IllegalArgumentException e) {
                err.println("jrnic perf: --loss-chart: " + e.getMessage());
                return EXIT_ERROR;
            }
        }
        if (scaleServer != null) {
            try (io.jrnic.cli.perf.ScaleServer s = new io.jrnic.cli.perf.ScaleServer(provider,
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), scaleServer))) {
                out.println(io.jrnic.cli.perf.ScaleServer.READY + s.localAddress().getHostString() + ":"
                        + s.localAddress().getPort());
                out.flush();
                while (System.in.read() >= 0) {
                    // serves until the parent closes our standard input or ends us
                }
            }
            return 0;
        }
        if (sweep) {
            PerfConfig sc = spec.commandLine().getParseResult().hasMatchedOption("--reps") ? cfg : cfg.withReps(1);
            List<Integer> sweepSizes = sizes == null || sizes.isEmpty() ? io.jrnic.cli.perf.Sweep.SIZES : sizes;
            List<Result> rs = io.jrnic.cli.perf.Sweep.run(sc, provider, sweepSizes, iterations > 0, outDir, err);
            Table.text(out, rs, banner(sc, "127.0.0.1 (server and client in this process), --sweep", 0));
            out.println("wrote " + outDir.resolve("perf-sweep.csv") + ", " + outDir.resolve("perf-sweep.png") + ", "
                    + outDir.resolve("perf-sweep.svg"));
            out.flush();
            return rs.stream().allMatch(Result::ok) ? 0 : EXIT_FAILED;
        }
        if (qps != null) {
            if (qps < 1 || runSeconds < 1 || reps < 1) {
                err.println("jrnic perf: --qps, --run-seconds and --reps must be positive");
                return EXIT_ERROR;
            }
            int size = sizes == null || sizes.isEmpty() ? 65536 : sizes.get(0);
            io.jrnic.cli.perf.MultiQpPerf.Report r = io.jrnic.cli.perf.MultiQpPerf.run(provider, cfg.connectOptions(), cfg.memory(), qps,
                    size, runSeconds, reps, cfg.tcpBaseline(), err);
            io.jrnic.cli.perf.MultiQpPerf.print(out, r);
            return r.failure() == null ? 0 : EXIT_FAILED;
        }
        if (scale != null) {
            if (scale < 1 || setupSeconds < 1) {
                err.println("jrnic perf: --scale and --setup-seconds must be positive");
                return EXIT_ERROR;
            }
            io.jrnic.cli.perf.Scale.print(out, io.jrnic.cli.perf.Scale.run(provider, scale, setupSeconds, err));
            return 0;
        }
        if (server) {
            int p = port != null ? port : DEFAULT_PORT;
            try (PerfServer s = new PerfServer(cfg, provider, new InetSocketAddress(p), -1, err)) {
                err.println("jrnic perf server: RDMA on " + s.rdmaAddress() + ", control and TCP baseline on "
                        + s.baselineAddress());
                err.flush();
                s.join();
            }
            return 0;
        }
        List<Result> results;
        String where;
        int busyThreads = busy ? Runtime.getRuntime().availableProcessors() : 0;
        try (io.jrnic.cli.perf.BusyLoad load = busy ? io.jrnic.cli.perf.BusyLoad.start(busyThreads) : null) {
            if (connect != null) {
                int p = port != null ? port : DEFAULT_PORT;
                InetAddress host = InetAddress.getByName(connect);
                where = connect + ":" + p;
                results = PerfRunner.client(cfg, provider, new InetSocketAddress(host, p), new InetSocketAddress(host, p + 1), err);
            } else {
                where = "127.0.0.1 (server and client in this process)";
                results = PerfRunner.local(cfg, provider, port != null ? port : 0, err);
            }
        } catch (Exception e) {
            err.println("jrnic perf: cannot run: " + e);
            return EXIT_ERROR;
        }
        if (format == Format.csv) {
            Table.csv(out, results);
        } else {
            Table.text(out, results, banner(cfg, where, busyThreads), cpu);
        }
        return results.stream().allMatch(Result::ok) ? 0 : EXIT_FAILED;
    }

    PerfConfig config() {
        Set<Op> ops = test == Which.all ? EnumSet.allOf(Op.class) : EnumSet.of(Op.valueOf(test.name().toUpperCase()));
        Set<Kind> kinds = switch (mode) {
            case bw -> EnumSet.of(Kind.BW, Kind.BW_MSG);
            case lat -> EnumSet.of(Kind.LAT, Kind.LAT_BLOCK, Kind.LAT_BLOCK_VT);
            case all -> EnumSet.allOf(Kind.class);
        };
        // the defaults (16) shrink with a smaller window; a value given must fit it
        var parsed = spec == null ? null : spec.commandLine().getParseResult();
        for (String o : List.of("--post-list", "--cq-mod")) {
            int v = o.equals("--post-list") ? postList : cqMod;
            if (v < 1 || (parsed != null && parsed.hasMatchedOption(o) && v > window)) {
                throw new IllegalArgumentException(o + " must be 1..--window (" + window + "): " + v);
            }
        }
        return new PerfConfig(ops, kinds, sizes == null ? List.of() : sizes, iterations, window, !crcOff, markers, mulpdu,
                mpaRev, maxSeconds, !noTcp).withTcpBaseline(noTcp ? TcpBaseline.NONE : tcpCrc ? TcpBaseline.CRC : TcpBaseline.PLAIN)
                .withReps(reps).withMemory(memory.kind()).withPosting(postList, cqMod)
                .withStallTimeout(stallTimeout).withTcpRtoMin(tcpRtoMin).withCapture(capture == null ? null : new io.jrnic.cli.perf.CaptureFiles(capture));
    }

    /** The header over the tables, at most three lines: what runs, the MPA settings, what the ratio is (the method: {@link #METHOD}). */
    static String banner(PerfConfig c, String where, int busyThreads) {
        return "jrnic perf: soft RNIC (iWARP over TCP) vs raw TCP"
                + (c.tcpBaseline() == TcpBaseline.CRC ? " with a CRC32C per MULPDU (--tcp-crc)" : "") + ", " + where
                + "; " + c.memory().label() + " memory (--memory)"
                + ", window " + c.window() + " (READ: at most " + PerfConfig.READ_DEPTH + ")"
                + "; batched bw: lists of " + Math.min(c.postList(), c.window()) + ", 1 signaled per "
                + Math.min(c.cqMod(), c.window()) + " (--post-list, --cq-mod)"
                + (busyThreads > 0 ? "; --busy: " + busyThreads + " CPU-bound threads (one per core) ran throughout" : "")
                + System.lineSeparator() + "MPA rev " + c.mpaRevision() + ", CRC " + (c.crc() ? "on" : "off")
                + ", markers " + (c.markers() ? "on" : "off") + ", MULPDU " + (c.mulpdu() == 0 ? "auto" : Integer.toString(c.mulpdu()))
                + "; TCP congestion control " + io.jrnic.cli.perf.TcpCongestion.ofThisHost() + " (this host's)"
                + (c.tcpRtoMinMillis() > 0 ? "; RDMA streams' minimum RTO " + c.tcpRtoMinMillis() + " ms (--tcp-rto-min)" : "")
                + System.lineSeparator() + "each row alternates " + c.reps() + " RDMA and " + c.reps() + " TCP runs;"
                + " ratio = median RDMA / median TCP (method: jrnic perf --help)";
    }
}
