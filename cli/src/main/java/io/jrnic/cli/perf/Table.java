package io.jrnic.cli.perf;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** Renders results as a perftest-style text table or as CSV. */
public final class Table {
    public static final String CSV_HEADER = "kind,test,bytes,iterations,bw_mb_s,msg_rate_mpps,t_min_us,t_p50_us,t_p99_us,t_max_us,"
            + "tcp_iterations,tcp_bw_mb_s,tcp_msg_rate_mpps,tcp_t_min_us,tcp_t_p50_us,tcp_t_p99_us,tcp_t_max_us,ratio,result,detail,"
            + "reps,rdma_min,rdma_max,tcp_min,tcp_max,t_p999_us,tcp_t_p999_us,post_list,cq_mod,"
            + "host_cores,host_s_per_gb,proc_cores,proc_s_per_gb,tcp_host_cores,tcp_host_s_per_gb,tcp_proc_cores,tcp_proc_s_per_gb";

    private Table() {
    }

    public static void text(PrintWriter out, List<Result> results, String banner) {
        text(out, results, banner, false);
    }

    /** As {@link #text(PrintWriter, List, String)}; with {@code cpu}, the CPU the bandwidth rows used ({@link CpuClock}). */
    public static void text(PrintWriter out, List<Result> results, String banner, boolean cpu) {
        if (banner != null) {
            out.println(banner);
        }
        List<Result> bw = results.stream().filter(r -> r.test().kind().bandwidth()).toList();
        if (!bw.isEmpty()) {
            out.println();
            out.println("Bandwidth / message rate  (MB = 10^6 bytes, Mpps = 10^6 messages/s; figures: the median run of each"
                    + " side; range: min-max MB/s over the runs; ratio = median RDMA MB/s / median TCP MB/s; post: WRs per"
                    + " post call / one signaled completion per this many WRs, msg = 1/1: per message, each signaled)");
            out.println(String.format(Locale.ROOT, "%-6s %7s %8s %9s %10s %8s %15s | %9s %10s %8s %15s | %6s  %s",
                    "test", "post", "bytes", "iters", "BW MB/s", "Mpps", "range", "TCP iters", "TCP MB/s", "TCP Mpps", "TCP range",
                    "ratio", "result"));
            for (Result r : bw) {
                out.println(String.format(Locale.ROOT, "%-6s %7s %8d %9s %10s %8s %15s | %9s %10s %8s %15s | %6s  %s",
                        r.test().op().label(), posting(r.test()), r.test().size(),
                        r.rdmaBw() == null ? "-" : Long.toString(r.rdmaBw().iterations()),
                        r.rdmaBw() == null ? "-" : f2(r.rdmaBw().megabytesPerSecond()),
                        r.rdmaBw() == null ? "-" : f4(r.rdmaBw().megaMessagesPerSecond()),
                        range(r.rdmaSpread()),
                        r.tcpBw() == null ? "-" : Long.toString(r.tcpBw().iterations()),
                        r.tcpBw() == null ? "-" : f2(r.tcpBw().megabytesPerSecond()),
                        r.tcpBw() == null ? "-" : f4(r.tcpBw().megaMessagesPerSecond()),
                        range(r.tcpSpread()),
                        ratio(r.ratio()), outcome(r)));
            }
            if (cpu) {
                cpu(out, bw);
            }
        }
        latency(out, results, Kind.LAT, "Latency, busy-polling  (microseconds; both sides busy-poll, never block: RDMA write"
                + " polls the last byte of its buffer as ib_write_lat, send polls the CQ on both sides, read polls the client's"
                + " CQ (the server's CPU takes no part); TCP: non-blocking SocketChannels on both sides spinning on read/write;"
                + " every wait spins for up to " + Deadline.SPIN_NANOS / 1_000_000 + " ms, then parks 20 us.");
        latency(out, results, Kind.LAT_BLOCK, "Latency, blocking  (microseconds; both sides block, no spinning: RDMA send and"
                + " read arm the CQ, re-check it and wait on the completion channel; TCP: blocking SocketChannels on both"
                + " sides; no write row: RDMA WRITE latency polls memory.");
        latency(out, results, Kind.LAT_BLOCK_VT, "Latency, blocking on virtual threads  (microseconds; as the blocking"
                + " rows, every waiting thread a virtual thread: the RDMA client and server, the TCP client and echo;"
                + " JDK 21+.");
        long failed = results.stream().filter(r -> !r.ok()).count();
        long skipped = results.stream().filter(Result::isSkipped).count();
        long ran = results.size() - skipped;
        out.println();
        out.println((failed == 0 ? "all " + ran + " tests passed (data verified)" : failed + " of " + ran + " tests FAILED")
                + (skipped == 0 ? "" : "; " + skipped + " not run"));
        out.flush();
    }

    /** The CPU section of the bandwidth rows (--cpu). */
    private static void cpu(PrintWriter out, List<Result> bw) {
        out.println();
        out.println("CPU of the bandwidth rows  (--cpu; host: every core of this machine, busy = user + nice + system +"
                + " irq + softirq in /proc/stat, so the kernel's network work is in it; proc: this JVM's CPU time, both"
                + " ends when the server runs in this process; cores: cores kept busy during the run; s/GB: core-seconds per"
                + " 10^9 bytes moved; figures of each side's median run; s/GB ratio = RDMA host s/GB / TCP host s/GB)");
        out.println(String.format(Locale.ROOT, "%-6s %7s %8s | %10s %9s %10s %9s | %10s %9s %10s %9s | %6s",
                "test", "post", "bytes", "host cores", "host s/GB", "proc cores", "proc s/GB",
                "TCP host", "s/GB", "TCP proc", "s/GB", "ratio"));
        for (Result r : bw) {
            BwFigure b = r.rdmaBw();
            BwFigure t = r.tcpBw();
            double ratio = b == null || t == null ? Double.NaN : b.hostSecondsPerGb() / t.hostSecondsPerGb();
            out.println(String.format(Locale.ROOT, "%-6s %7s %8d | %10s %9s %10s %9s | %10s %9s %10s %9s | %6s",
                    r.test().op().label(), posting(r.test()), r.test().size(),
                    b == null ? "-" : na(b.hostCores(), 2), b == null ? "-" : na(b.hostSecondsPerGb(), 3),
                    b == null ? "-" : na(b.processCores(), 2), b == null ? "-" : na(b.processSecondsPerGb(), 3),
                    t == null ? "-" : na(t.hostCores(), 2), t == null ? "-" : na(t.hostSecondsPerGb(), 3),
                    t == null ? "-" : na(t.processCores(), 2), t == null ? "-" : na(t.processSecondsPerGb(), 3),
                    Double.isNaN(ratio) || Double.isInfinite(ratio) ? "-" : f3(ratio)));
        }
    }

    /** {@code v} with {@code digits} decimals, "n/a" for NaN (a source this machine lacks). */
    static String na(double v, int digits) {
        return num(v, digits, "n/a");
    }

    /** {@code v} with {@code digits} decimals, or {@code nan} for NaN. */
    private static String num(double v, int digits, String nan) {
        return Double.isNaN(v) ? nan : String.format(Locale.ROOT, "%." + digits + "f", v);
    }

    /** The section of latency rows of {@code kind}, if any, under {@code heading} (which goes on with the conventions). */
    private static void latency(PrintWriter out, List<Result> results, Kind kind, String heading) {
        List<Result> lat = results.stream().filter(r -> r.test().kind() == kind).toList();
        if (lat.isEmpty()) {
            return;
        }
        out.println();
        out.println(heading + " Write/send: half round trip of a ping-pong, as ib_write_lat/ib_send_lat;"
                + " read: one whole READ, as ib_read_lat; TCP: ping-pong of the same size, same convention;"
                + " figures: the run with the median p50 of each side; range: min-max p50 over the runs;"
                + " ratio = median RDMA p50 / median TCP p50)");
        out.println(String.format(Locale.ROOT, "%-6s %8s %8s %8s %8s %8s %8s %15s | %8s %8s %8s %8s %15s | %6s  %s",
                "test", "bytes", "iters", "t_min", "t_p50", "t_p99", "t_max", "p50 range", "TCP min", "TCP p50", "TCP p99",
                "TCP max", "TCP p50 range", "ratio", "result"));
        for (Result r : lat) {
            LatFigure a = r.rdmaLat();
            LatFigure t = r.tcpLat();
            out.println(String.format(Locale.ROOT, "%-6s %8d %8s %8s %8s %8s %8s %15s | %8s %8s %8s %8s %15s | %6s  %s",
                    r.test().op().label(), r.test().size(),
                    a == null ? "-" : Long.toString(a.iterations()),
                    a == null ? "-" : f2(a.minUs()), a == null ? "-" : f2(a.p50Us()),
                    a == null ? "-" : f2(a.p99Us()), a == null ? "-" : f2(a.maxUs()), range(r.rdmaSpread()),
                    t == null ? "-" : f2(t.minUs()), t == null ? "-" : f2(t.p50Us()),
                    t == null ? "-" : f2(t.p99Us()), t == null ? "-" : f2(t.maxUs()), range(r.tcpSpread()),
                    ratio(r.ratio()), outcome(r)));
        }
    }

    public static void csv(PrintWriter out, List<Result> results) {
        out.println(CSV_HEADER);
        for (Result r : results) {
            BwFigure b = r.rdmaBw();
            LatFigure l = r.rdmaLat();
            BwFigure tb = r.tcpBw();
            LatFigure tl = r.tcpLat();
            long iters = b != null ? b.iterations() : l != null ? l.iterations() : 0;
            long tIters = tb != null ? tb.iterations() : tl != null ? tl.iterations() : 0;
            String detail = r.failure() != null ? r.failure() : r.note() != null ? r.note() : "";
            out.println(String.join(",", r.test().kind().label(), r.test().op().label(), Integer.toString(r.test().size()),
                    b == null && l == null ? "" : Long.toString(iters),
                    b == null ? "" : f2(b.megabytesPerSecond()), b == null ? "" : f4(b.megaMessagesPerSecond()),
                    l == null ? "" : f2(l.minUs()), l == null ? "" : f2(l.p50Us()),
                    l == null ? "" : f2(l.p99Us()), l == null ? "" : f2(l.maxUs()),
                    tb == null && tl == null ? "" : Long.toString(tIters),
                    tb == null ? "" : f2(tb.megabytesPerSecond()), tb == null ? "" : f4(tb.megaMessagesPerSecond()),
                    tl == null ? "" : f2(tl.minUs()), tl == null ? "" : f2(tl.p50Us()),
                    tl == null ? "" : f2(tl.p99Us()), tl == null ? "" : f2(tl.maxUs()),
                    Double.isNaN(r.ratio()) ? "" : f3(r.ratio()),
                    r.isSkipped() ? "skipped" : r.ok() ? "ok" : "FAILED", csvQuote(detail), Integer.toString(r.reps()),
                    r.rdmaSpread() == null ? "" : f2(r.rdmaSpread().min()), r.rdmaSpread() == null ? "" : f2(r.rdmaSpread().max()),
                    r.tcpSpread() == null ? "" : f2(r.tcpSpread().min()), r.tcpSpread() == null ? "" : f2(r.tcpSpread().max()),
                    l == null ? "" : f2(l.p999Us()), tl == null ? "" : f2(tl.p999Us()),
                    Integer.toString(r.test().postList()), Integer.toString(r.test().cqMod()),
                    cpuCsv(b), cpuCsv(tb)));
        }
        out.flush();
    }

    /** The four CPU columns of one side: host cores, host s/GB, process cores, process s/GB (empty when unknown). */
    private static String cpuCsv(BwFigure b) {
        return b == null ? ",,," : String.join(",", num(b.hostCores(), 3, ""), num(b.hostSecondsPerGb(), 4, ""),
                num(b.processCores(), 3, ""), num(b.processSecondsPerGb(), 4, ""));
    }

    /** A bandwidth row's posting: "msg" (one WR per post call, each signaled) or "list/mod". */
    static String posting(PerfCase c) {
        return c.kind() == Kind.BW_MSG ? "msg" : c.postList() + "/" + c.cqMod();
    }

    static String outcome(Result r) {
        if (r.isSkipped()) {
            return "not run: " + r.note();
        }
        if (!r.ok()) {
            return "FAILED: " + r.failure();
        }
        return r.note() == null ? "ok" : "ok (" + r.note() + ")";
    }

    static String csvQuote(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"").replace('\n', ' ') + '"';
    }

    static String range(Result.Spread s) {
        return s == null ? "-" : f2(s.min()) + "-" + f2(s.max());
    }

    static String ratio(double r) {
        return Double.isNaN(r) ? "-" : f3(r);
    }

    static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String f3(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    static String f4(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }
}
